"""The test suite's shared helpers, in one place (``from tests.support import ...``).

- :func:`until` (asyncio) and :func:`wait_until` (threads, processes): wait until a
  condition holds.  They return as soon as it does; the bound only stops a hang, so a loaded
  machine is slower, never failing (README, "Tests and benchmarks").
- :func:`shared_run`: an expensive set-up (a whole simulated match, say) made once per test
  run and read by every test that needs it, whichever pytest-xdist worker runs that test.
- :func:`worker_port`: a localhost TCP port for a service a test starts (a private
  Mosquitto), from a block of ports of the test's own xdist worker, so that two workers never
  pick the same port, even when a test stops its broker and starts it again on the same port.
"""

from __future__ import annotations

import ast
import asyncio
import fcntl
import json
import os
import shutil
import socket
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import pytest

__all__ = ["parse_module", "shared_run", "until", "wait_until", "worker_number", "worker_port"]

T = TypeVar("T")

#: The bound of a wait, against a hang only (never a measure of the machine's speed).
HANG_S = 30.0


def _describe(what: str | Callable[[], str] | None) -> str:
    if what is None:
        return "the condition"
    return what() if callable(what) else what


async def until(
    check: Callable[[], Any],
    timeout: float = HANG_S,
    what: str | Callable[[], str] | None = None,
    *,
    watch: Iterable[asyncio.Future[Any]] = (),
    poll: float = 0.01,
) -> None:
    """Wait until ``check()`` holds (at once when it does already).

    ``watch``: tasks that must not end meanwhile - one that ends with an exception raises it
    here (a crashed board or director fails the test at once, not at the bound).  ``what``
    (text, or a function giving it when the bound is hit) says what was awaited."""
    deadline = time.monotonic() + timeout
    watched = list(watch)
    while not check():
        for task in watched:
            if task.done():
                task.result()
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {_describe(what)}")
        await asyncio.sleep(poll)


def wait_until(
    check: Callable[[], Any], timeout: float = HANG_S, what: str | Callable[[], str] | None = None, *, poll: float = 0.02
) -> None:
    """:func:`until` for code outside an event loop (processes, threads, a browser)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {_describe(what)}")
        time.sleep(poll)


def worker_number() -> int:
    """0 for the first pytest-xdist worker (gw0) and for a run without xdist, 1 for gw1, ..."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name[2:].isdigit() else 0


#: Ports below Linux's ephemeral range (32768-60999, where the kernel picks client ports and
#: ``bind(0)`` ports), PORTS_PER_WORKER of them for each xdist worker.
FIRST_PORT = 20000
PORTS_PER_WORKER = 500
_next_port: dict[int, int] = {}


def worker_port() -> int:
    """A TCP port free on localhost now, from this worker's own block (see the module
    docstring).  Where in the block a run starts depends on the run, so two runs at once on
    one machine (two checkouts) rarely meet either; a port in use is passed over."""
    n = worker_number()
    block = FIRST_PORT + (n % 24) * PORTS_PER_WORKER
    if n not in _next_port:
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
        _next_port[n] = sum(run.encode()) * 7 % PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = block + _next_port[n] % PORTS_PER_WORKER
        _next_port[n] += 1
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {block}-{block + PORTS_PER_WORKER - 1}")


def shared_run(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> tuple[T, Path]:
    """``make(out)`` once per test run, its (JSON) result and ``out`` for every caller.

    Under pytest-xdist every worker has its own base temporary directory inside the run's;
    the first worker to ask makes the set-up there, under a file lock, and the others read
    it.  A set-up that fails is made again by the next test that asks (from an empty ``out``),
    so each of them fails with its own error.  Callers only read ``out``."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out = root / f"shared-{name}"
    done = root / f"shared-{name}.json"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                shutil.rmtree(out, ignore_errors=True)
                out.mkdir()
                done.write_text(json.dumps(make(out)))
            return json.loads(done.read_text()), out
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def parse_module(path: Path) -> ast.Module:
    """``ast.parse`` of a source file, asked again if CPython 3.11 says "AST constructor
    recursion depth mismatch": its AST builder keeps one depth counter for all threads
    (python/cpython#106905), so a parse in a test can fail while another test's leftover thread
    builds an AST; the source is the same, the second parse answers."""
    source = path.read_text()
    for attempt in range(3):
        try:
            return ast.parse(source, filename=str(path))
        except SystemError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def firmware_slot_states(grid: Any, raw: list[int] | tuple[int, ...]) -> bytes:
    """The slot states the firmware reports for sensor readings ``raw`` (:meth:`Grid.sensors`
    order) of a still board: its own classifier at its default calibration, its run rule and
    its crowd correction (firmware/classify.py, runs.py, crowd.py, imported from the firmware
    directory and run under CPython)."""
    import sys

    from bgboard.hardware import firmware_dir

    if str(firmware_dir()) not in sys.path:
        sys.path.insert(0, str(firmware_dir()))
    import calibration as fw_calibration  # the firmware's own modules
    import classify as fw_classify
    from crowd import Crowd, settle
    from runs import Runs

    classifier = fw_classify.Classifier(fw_calibration.defaults(len(raw)), len(raw))
    runs = Runs(*grid.firmware_layout())
    return bytes(settle(classifier, runs, Crowd(classifier, len(grid.slots), crowd_table(grid)), list(raw)))


_crowd_tables: dict[Any, tuple[bytes, bytes, bytes]] = {}


def crowd_table(grid: Any) -> tuple[bytes, bytes, bytes]:
    """The firmware's crowd table (board.py's CROWD_*) for ``grid``: hardware/make_board.py's."""
    import sys

    if grid not in _crowd_tables:
        hardware = str(Path(__file__).resolve().parents[1] / "hardware")
        if hardware not in sys.path:
            sys.path.insert(0, hardware)
        import make_board

        _crowd_tables[grid] = make_board.crowd_bytes(grid)
    return _crowd_tables[grid]
