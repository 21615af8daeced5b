"""HintWorker(separate_process=True): the compiled engines hold the GIL while they evaluate,
so the app runs them in a child process; answers are the engine's own, and a newer request
still wins over an older one."""

from __future__ import annotations

import asyncio

import pytest

from bgboard.hints import CubeState, cube_hint, open_engine, play_hints
from bgboard.hints.worker import HintCancelled, HintWorker
from bgboard.rules.starts import start_position


def test_a_separate_process_answers_as_the_engine_does() -> None:
    engine = open_engine("gnubg-nn").engine
    position, state = start_position(), CubeState(my_away=3, their_away=5)

    async def main() -> tuple[object, object]:
        with HintWorker(engine, budget=60.0, separate_process=True) as worker:
            await asyncio.to_thread(worker.start)
            return await worker.plays(position, (3, 1), limit=3), await worker.cube(position, state)

    plays, cube = asyncio.run(main())
    assert plays == play_hints(engine, position, (3, 1), limit=3)
    assert cube == cube_hint(engine, position, state)


def test_a_newer_request_wins_in_a_separate_process_too() -> None:
    engine = open_engine("pubeval").engine

    async def main() -> tuple[BaseException | object, object]:
        with HintWorker(engine, budget=60.0, separate_process=True) as worker:
            await asyncio.to_thread(worker.start)
            first = asyncio.create_task(worker.plays(start_position(), (6, 5)))
            await asyncio.sleep(0)
            second = await worker.plays(start_position(), (4, 2), limit=1)
            try:
                return await first, second
            except HintCancelled as exc:
                return exc, second

    first, second = asyncio.run(main())
    assert isinstance(first, HintCancelled) and first.reason == "board changed"
    assert second.plays[0].notation == "8/4 6/4"  # type: ignore[attr-defined]
