"""The suite's shared helpers (tests/support.py) do what the tests rely on."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from tests.support import FIRST_PORT, PORTS_PER_WORKER, shared_run, until, wait_until, worker_number, worker_port


def test_until_returns_when_the_condition_holds_and_fails_at_its_bound() -> None:
    async def go() -> None:
        ticks = [0]

        async def tick() -> None:
            while True:
                ticks[0] += 1
                await asyncio.sleep(0.001)

        task = asyncio.create_task(tick())
        await until(lambda: ticks[0] >= 3)
        task.cancel()
        with pytest.raises(AssertionError, match="timed out after 0.05 s waiting for the answer"):
            await until(lambda: False, 0.05, "the answer")

    asyncio.run(go())


def test_until_raises_what_a_watched_task_raised() -> None:
    async def go() -> None:
        async def crash() -> None:
            raise RuntimeError("the board crashed")

        task = asyncio.create_task(crash())
        with pytest.raises(RuntimeError, match="the board crashed"):
            await until(lambda: False, 30, watch=[task])

    asyncio.run(go())


def test_wait_until_names_what_it_waited_for() -> None:
    wait_until(lambda: True)
    with pytest.raises(AssertionError, match="waiting for a frame"):
        wait_until(lambda: False, 0.05, lambda: "a frame")


def test_shared_run_makes_a_set_up_once_and_again_after_a_failure(tmp_path_factory: pytest.TempPathFactory) -> None:
    made: list[Path] = []

    def make(out: Path) -> dict:
        made.append(out)
        (out / "record").write_text("once")
        return {"score": [1, 0]}

    name = f"support-test-{id(made)}"
    first = shared_run(tmp_path_factory, name, make)
    second = shared_run(tmp_path_factory, name, make)
    assert first == second == ({"score": [1, 0]}, made[0]) and len(made) == 1
    assert (made[0] / "record").read_text() == "once"

    def fail(out: Path) -> dict:
        (out / "half").write_text("written")
        raise RuntimeError("the match broke")

    with pytest.raises(RuntimeError):
        shared_run(tmp_path_factory, name + "-broken", fail)
    value, out = shared_run(tmp_path_factory, name + "-broken", make)
    assert value == {"score": [1, 0]} and not (out / "half").exists()  # made again from an empty directory


def test_worker_port_is_free_and_in_the_workers_own_block() -> None:
    block = FIRST_PORT + worker_number() % 24 * PORTS_PER_WORKER
    ports = {worker_port() for _ in range(5)}
    assert len(ports) == 5 and all(block <= p < block + PORTS_PER_WORKER for p in ports)
    for port in ports:
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))


def test_every_test_the_quick_run_leaves_out_still_exists() -> None:
    """tests/data/slow_tests.txt names tests by node id: each names a test function in its file
    (a renamed test would silently come back into the quick run)."""
    import re

    root = Path(__file__).resolve().parents[1]
    lines = [line for line in (root / "tests" / "data" / "slow_tests.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    assert len(lines) > 100
    for line in lines:
        seconds, node = line.split(" ", 1)
        assert float(seconds) >= 0, line
        path = node.split("::")[0]
        function = node.split("[")[0].split("::")[-1]
        assert re.search(rf"def {re.escape(function)}\(", (root / path).read_text()), node
