"""What the test suite costs: README's quick run (``pytest -m "not slow"``) and its full run
(``pytest``, what README's test command and CI run), each as README runs it, on every core
(pytest-xdist, pyproject's addopts), with the pytest time it reports, the wall and CPU time
and the load average before and after (the machine is shared: write the load beside a figure).

    python benchmarks/quick_tests.py                 both runs (the full one takes minutes)
    python benchmarks/quick_tests.py --quick         the quick run only
    python benchmarks/quick_tests.py --full          the full run only, with its 25 slowest tests
    python benchmarks/quick_tests.py --per-test [--top 25] [PYTEST ARGS...]
                                                     one process (-n 0), per test (default -m "not slow")

``--per-test`` measures so that a loaded machine does not hide the cost: CPU time (this
process and the processes it waited for) beside wall time, per test and in all.  On a shared
machine the wall time of the same run swings 2-3x with the other work, while its CPU time
barely moves; so the figures are the CPU time, the wall time, and the *waits* that remain on
an idle machine: tests whose wall time is far above what the run's load explains (their own
timers, a broker's or a browser's start-up).  An idle wall time is estimated as CPU + those
waits (docs/performance.md, "test suite").
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class Recorder:
    """A pytest plugin: CPU and wall seconds of each test (set-up, call and tear-down)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, float]] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
        cpu, wall = _cpu(), time.monotonic()
        yield
        self.rows.append((item.nodeid, _cpu() - cpu, time.monotonic() - wall))


def suite(label: str, args: list[str]) -> int:
    """One run as README runs it (a fresh interpreter, pyproject's addopts): its figures."""
    load0 = os.getloadavg()
    cpu0, wall0 = _cpu(), time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=ROOT,
                          capture_output=True, text=True)
    cpu, wall = _cpu() - cpu0, time.monotonic() - wall0
    load1 = os.getloadavg()
    out = proc.stdout.splitlines()
    said = [line.strip("= ") for line in out if re.search(r"\b(passed|failed|error)\b.* in [0-9.]+s", line)]
    took = re.search(r" in ([0-9.]+)s", said[-1]) if said else None
    print(f"{label}: pytest {' '.join(args) or '(no arguments)'}")
    print(f"  {said[-1] if said else 'no summary line: ' + (out[-1] if out else proc.stderr[-300:])}")
    print(f"  pytest time {took.group(1) if took else '?'} s; wall {wall:.1f} s; CPU {cpu:.1f} s (all workers);"
          f" exit code {proc.returncode}")
    print(f"  load average {load0[0]:.1f} {load0[1]:.1f} {load0[2]:.1f} before, {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f} after;"
          f" {os.cpu_count()} cores")
    slowest = [line for line in out if re.match(r"^[0-9.]+s (call|setup|teardown) ", line)]
    if slowest:
        print("  slowest:")
        for line in slowest:
            print(f"    {line}")
    if proc.returncode != 0:
        print("\n".join(line for line in out if line.startswith(("FAILED", "ERROR"))))
        log = Path(os.environ.get("TMPDIR", "/tmp")) / f"quick_tests-{label.replace(' ', '-')}-{os.getpid()}.log"
        log.write_text(proc.stdout + proc.stderr)
        print(f"  pytest's whole output (the failures' tracebacks): {log}")
    return proc.returncode


def per_test(top: int, rest: list[str]) -> int:
    args = rest or ["-m", "not slow"]
    recorder = Recorder()
    cpu0, wall0 = _cpu(), time.monotonic()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))  # as ``python -m pytest`` run in the checkout has it (tests import tests.*)
    # -n 0: one process, so that the recorder sees every test (pyproject's addopts spread them)
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-n", "0", *args], plugins=[recorder])
    cpu, wall = _cpu() - cpu0, time.monotonic() - wall0
    rows = recorder.rows
    tests_cpu = sum(c for _, c, _ in rows)
    tests_wall = sum(w for _, _, w in rows)
    load = tests_wall / tests_cpu if tests_cpu else 1.0  # how much longer than its CPU a test took, on average
    # a test whose wall time is well above what the load explains waits for something real
    waits = [(w - load * c, n, c, w) for n, c, w in rows if c < 0.25 and w - load * c > 0.25]
    waited = sum(w - c for _, _, c, w in waits)
    print(f"\n{len(rows)} tests, exit code {code}; load average {os.getloadavg()[0]:.1f}")
    print(f"whole run: {wall:.1f} s wall, {cpu:.1f} s CPU (collection and start-up {cpu - tests_cpu:.1f} s CPU)")
    print(f"tests: {tests_wall:.1f} s wall, {tests_cpu:.1f} s CPU; {len(waits)} tests wait for something real: {waited:.1f} s")
    print(f"idle wall estimate: {cpu + waited:.0f} s (CPU + those waits)")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for name, c, w in rows:
        entry = files[name.split("::")[0]]
        entry[0] += c
        entry[1] += w
        entry[2] += 1
    print(f"\nfiles by CPU (CPU s, wall s, tests), top {top}:")
    for name, (c, w, n) in sorted(files.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"  {c:6.2f} {w:7.2f} {int(n):4d}  {name}")
    print(f"\ntests by CPU (CPU s, wall s), top {top}:")
    for name, c, w in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"  {c:6.2f} {w:7.2f}  {name}")
    print("\ntests that wait (wall above the load's share, CPU s, wall s):")
    for excess, name, c, w in sorted(waits, reverse=True)[:top]:
        print(f"  {c:6.2f} {w:7.2f}  {name}")
    return int(code)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--quick", action="store_true", help='the quick run only (pytest -m "not slow")')
    which.add_argument("--full", action="store_true", help="the full run only (pytest)")
    which.add_argument("--per-test", action="store_true", help="one process, CPU and wall time per test")
    parser.add_argument("--top", type=int, default=25, help="tests and files listed (default 25)")
    options, rest = parser.parse_known_args()
    if options.per_test:
        return per_test(options.top, rest)
    code = 0
    if not options.full:
        code |= suite("quick run", ["-m", "not slow", *rest])
    if not options.quick:
        code |= suite("full run", [f"--durations={options.top}", *rest])
    return code


if __name__ == "__main__":
    sys.exit(main())
