"""Hints run off the event loop, are cancelled when the board changes, and have a budget."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bgboard.hints import HintCancelled, HintWorker, play_hints
from bgboard.hints.pubeval_engine import PubevalEngine
from bgboard.rules import start_position


class GatedEngine(PubevalEngine):
    """The real pubeval engine, held at the start of ``rank`` until the test opens the gate
    (so a test controls how long a hint "takes" without sleeping)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.calls = 0

    def rank(self, position, dice, results):  # type: ignore[override]
        self.calls += 1
        self.entered.set()
        self.gate.wait(60)  # a safety net against a test that never opens it
        return super().rank(position, dice, results)


def test_worker_answers_like_the_direct_call() -> None:
    async def main() -> None:
        with HintWorker(PubevalEngine(), budget=60) as worker:
            got = await worker.plays(start_position(), (3, 1), limit=3)
        assert got == play_hints(PubevalEngine(), start_position(), (3, 1), limit=3)

    asyncio.run(main())


def test_the_loop_keeps_running_while_a_hint_is_computed() -> None:
    """While the engine is held inside ``rank`` (on the worker's thread), a heartbeat task on
    the loop keeps beating; were the engine on the loop's thread, no beat could happen until
    the gate opened (the gate gives up after 60 s, and the beats are counted before that).
    Five beats are awaited, not counted in a fixed 50 ms: a loaded machine slows the beats,
    it does not stop them."""
    engine = GatedEngine()

    async def main() -> None:
        beats = 0

        async def heartbeat() -> None:
            nonlocal beats
            while True:
                await asyncio.sleep(0.001)
                beats += 1

        with HintWorker(engine, budget=60) as worker:  # the gate, not the budget, ends the wait
            task = asyncio.create_task(worker.plays(start_position(), (3, 1)))
            pulse = asyncio.create_task(heartbeat())
            await asyncio.sleep(0)  # the hint is handed to the worker
            engine.entered.wait(60)  # (blocks the loop only until the worker is inside rank)
            inside = beats
            async with asyncio.timeout(30):
                while beats - inside < 5:
                    await asyncio.sleep(0.001)
            beaten = beats - inside
            held = not engine.gate.is_set() and engine.calls == 1 and not task.done()
            engine.gate.set()
            hint = await task
            pulse.cancel()
        assert engine.entered.is_set() and held, "the beats came while the engine was held inside rank"
        assert beaten >= 5
        assert hint.best.notation == "8/5 6/5"

    asyncio.run(main())


def test_a_new_board_cancels_the_hint_in_progress() -> None:
    engine = GatedEngine()

    async def main() -> None:
        with HintWorker(engine, budget=60) as worker:  # the gate, not the budget, ends the wait
            old = asyncio.create_task(worker.plays(start_position(), (3, 1)))
            while not engine.entered.is_set():
                await asyncio.sleep(0.001)
            new = asyncio.create_task(worker.plays(start_position(), (6, 5)))
            await asyncio.sleep(0)
            engine.gate.set()
            with pytest.raises(HintCancelled) as info:
                await old
            assert info.value.reason == "board changed"
            assert (await new).best.notation == "24/13"

    asyncio.run(main())


def test_a_hint_over_its_budget_is_cancelled() -> None:
    engine = GatedEngine()

    async def main() -> None:
        with HintWorker(engine, budget=0.05) as worker:
            with pytest.raises(HintCancelled) as info:
                await worker.plays(start_position(), (3, 1))
            assert info.value.reason == "over budget"
            engine.gate.set()
            # the worker is usable again at once
            assert (await worker.plays(start_position(), (4, 2), budget=60)).best.notation == "8/4 6/4"

    asyncio.run(main())


def test_cancel_before_start_never_reaches_the_engine() -> None:
    engine = GatedEngine()
    with HintWorker(engine, budget=60) as worker:  # the gate, not the budget, ends the wait
        first = worker.submit_plays(start_position(), (3, 1))
        assert engine.entered.wait(60)
        queued = worker.submit_plays(start_position(), (6, 5))  # waits behind the first
        worker.cancel()
        engine.gate.set()
        with pytest.raises(HintCancelled):
            queued.result(60)
        with pytest.raises(HintCancelled):
            first.result(60)
    assert engine.calls == 1


def test_blocking_result_for_callers_without_a_loop() -> None:
    with HintWorker(PubevalEngine(), budget=60) as worker:
        assert worker.submit_plays(start_position(), (6, 6)).result(60).best.notation == "24/18(2) 13/7(2)"
    worker.close()  # idempotent
    with pytest.raises(RuntimeError):
        worker.submit_plays(start_position(), (6, 6))


def test_cancelling_the_waiting_task_cancels_the_job() -> None:
    engine = GatedEngine()

    async def main() -> None:
        with HintWorker(engine, budget=60) as worker:  # the gate, not the budget, ends the wait
            task = asyncio.create_task(worker.plays(start_position(), (3, 1)))
            while not engine.entered.is_set():
                await asyncio.sleep(0.001)
            job = worker._current
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert job is not None and job.cancelled
            engine.gate.set()

    asyncio.run(main())
