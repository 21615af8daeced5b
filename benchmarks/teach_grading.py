"""Teaching on ``bgboard run``: how long a play's or a cube decision's grade takes to reach
the display, and what grading costs the host's asyncio loop.

    python benchmarks/teach_grading.py [--engine bgsage] [--plays 60] [--seed 1]

The plays and cube decisions of a seeded self-play match (``bgboard.match.selfplay``), as
the controller hands them to the teacher, are graded by:

1. ``teaching.WorkerTeacher`` on the app's ``HintWorker`` (a separate process for a compiled
   engine), one request per decision submitted as it would be made at the board; each
   grade's latency is submit -> ``deliver`` (what the learner waits for), and a lag meter on
   the loop records its stalls meanwhile;
2. the reference, side by side in the same run: the synchronous ``teaching.Teacher`` called
   on the loop (how the simulator grades, and what grading inline on the board would be).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from loop_lag import LagMeter  # noqa: E402

from bgboard.match import Double, Move, Roll, Take, Drop  # noqa: E402
from bgboard.match.selfplay import selfplay  # noqa: E402
from bgboard.match.state import Phase, apply  # noqa: E402
from bgboard.rules import Position  # noqa: E402


def decisions(plays: int, seed: int) -> list[tuple[str, tuple[Any, ...]]]:
    """("play", (player, before, dice, after, state)) and ("cube", (player, state, decision))
    in match order, as the controller asks for them, up to ``plays`` plays."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    state = None
    n = 0
    match_seed = seed
    while n < plays:
        for action in selfplay(7, match_seed):
            before = state
            state = apply(state, action)
            if before is None:
                continue
            if isinstance(action, Move) and before.phase == Phase.PLAY and before.turn is not None and before.dice:
                mover = before.turn
                after = Position(state.board[mover], state.board[1 - mover])
                out.append(("play", (mover, before.position, before.dice, after, before)))
                n += 1
            elif isinstance(action, Roll) and before.phase == Phase.TURN and before.may_double and before.turn is not None:
                out.append(("cube", (before.turn, before, "no double")))
            elif isinstance(action, Double) and before.turn is not None:
                out.append(("cube", (before.turn, before, "double")))
            elif isinstance(action, (Take, Drop)) and before.turn is not None:
                out.append(("cube", (1 - before.turn, before, "take" if isinstance(action, Take) else "pass")))
            if n >= plays:
                break
        match_seed += 1
        state = None
    return out


def lag_line(meter: LagMeter) -> str:
    return meter.summary()


async def on_worker(engine: str, work: list[tuple[str, tuple[Any, ...]]]) -> tuple[LagMeter, list[float], float]:
    from bgboard.app import open_hints
    from bgboard.teaching import WorkerTeacher

    worker, _ = await asyncio.to_thread(open_hints, engine)
    sent: dict[int, float] = {}
    latencies: list[float] = []
    got = 0

    def deliver(player: int, lesson: Any) -> None:
        nonlocal got
        latencies.append(time.perf_counter() - sent[got])
        got += 1

    teacher = WorkerTeacher(worker, deliver)
    meter = LagMeter()
    lag = asyncio.create_task(meter.run())
    started = time.perf_counter()
    try:
        for kind, args in work:
            before = len(teacher.lessons)
            sent[len(sent)] = time.perf_counter()
            (teacher.grade if kind == "play" else teacher.grade_cube)(*args)
            await teacher.settled(60)  # the learner reads the grade before the next decision
            if len(teacher.lessons) == before:  # no lesson (e.g. the cube could not be turned)
                sent.pop(len(sent) - 1)
        elapsed = time.perf_counter() - started
    finally:
        lag.cancel()
        await teacher.close()
        await asyncio.to_thread(worker.close)
    return meter, latencies, elapsed


async def inline(engine: str, work: list[tuple[str, tuple[Any, ...]]]) -> tuple[LagMeter, list[float], float]:
    from bgboard.teaching import open_teacher

    teacher, _ = await asyncio.to_thread(open_teacher, engine)
    meter = LagMeter()
    lag = asyncio.create_task(meter.run())
    latencies: list[float] = []
    started = time.perf_counter()
    try:
        for kind, args in work:
            t = time.perf_counter()
            lesson = (teacher.grade if kind == "play" else teacher.grade_cube)(*args)
            if lesson is not None:
                latencies.append(time.perf_counter() - t)
            await asyncio.sleep(0.01)  # the loop gets its turn between decisions
        elapsed = time.perf_counter() - started
    finally:
        lag.cancel()
    return meter, latencies, elapsed


def show(name: str, meter: LagMeter, latencies: list[float], elapsed: float) -> None:
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{name:<28} {len(latencies):4d} grades in {elapsed:6.1f} s; grade latency median "
          f"{statistics.median(ordered) * 1000:6.1f} ms, p95 {p95 * 1000:6.1f} ms, worst {max(ordered) * 1000:6.1f} ms")
    print(f"{'':<28} loop: {lag_line(meter)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="bgsage")
    parser.add_argument("--plays", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    work = decisions(args.plays, args.seed)
    cubes = sum(1 for kind, _ in work if kind == "cube")
    print(f"{args.engine}: {args.plays} plays and {cubes} cube decisions of self-play (seed {args.seed})")
    worker = asyncio.run(on_worker(args.engine, work))
    reference = asyncio.run(inline(args.engine, work))
    show("WorkerTeacher (hint worker)", *worker)
    show("Teacher inline (reference)", *reference)
    print(f"worst loop stall, worker / inline: {max(worker[0].lags) / max(reference[0].lags):.3f}")


if __name__ == "__main__":
    main()
