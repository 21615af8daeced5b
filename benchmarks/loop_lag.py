"""The host's asyncio loop never stalls: its worst stall during a whole simulated match with
a panel whose refresh takes 15 s, and during cube hints (target: at most 50 ms).

    python benchmarks/loop_lag.py [--match-length 1] [--seed 1] [--refresh-s 15] [--hints 40]

A lag meter on the loop sleeps 5 ms again and again and records how late it wakes: the
stall every other callback (the serial link, the buttons, the clocks) would have seen.

1. **Match**: ``bgboard sim``'s default run (the real firmware under MicroPython on a pty
   against the real ``bgboard.app.App``, 8x real time) with a file panel whose every refresh
   blocks its caller for ``--refresh-s`` seconds, polling like a BUSY line (``time.sleep``
   every 10 ms).  Side by side, as the reference, the same run with the screen on the loop
   (the app before the display thread) for the first ``--reference-s`` seconds.
2. **Cube hints**: ``--hints`` cube decisions of the default engine ("auto": bgsage when
   installed) asked through the ``HintWorker`` in a separate process (the app's choice for
   a compiled engine, which holds the GIL while it evaluates), on a thread, and computed
   inline on the loop (the controller before the hint worker).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from PIL import Image  # noqa: E402

from bgboard.display import painter as painter_module  # noqa: E402
from bgboard.display.panel import FilePanel  # noqa: E402
from bgboard.display.panels import panel_spec  # noqa: E402
from bgboard.display.screen import Screen  # noqa: E402

PERIOD_S = 0.005


class LagMeter:
    """Sleeps ``PERIOD_S`` on the loop again and again: ``lags`` = how late each wake-up was
    (wall time), ``busy`` = the CPU time the loop's thread spent in that interval (what the
    code on the loop did, apart from waiting for a CPU on a loaded machine)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.busy: list[float] = []

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before, cpu = loop.time(), time.thread_time()
            await asyncio.sleep(PERIOD_S)
            self.lags.append(max(0.0, loop.time() - before - PERIOD_S))
            self.busy.append(time.thread_time() - cpu)

    def summary(self) -> str:
        if not self.lags:
            return "no samples"
        ordered = sorted(self.lags)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return (f"worst {max(ordered) * 1000:8.1f} ms  p99 {p99 * 1000:6.1f} ms  "
                f"median {statistics.median(ordered) * 1000:5.2f} ms  ({len(ordered)} wake-ups); "
                f"most CPU on the loop in one stall {max(self.busy) * 1000:.1f} ms")


class SlowPanel(FilePanel):
    """A file panel whose refresh blocks for ``refresh_s``, polling like a BUSY line."""

    def __init__(self, directory: Path, refresh_s: float) -> None:
        super().__init__(panel_spec("waveshare-4in2"), directory)
        self.refresh_s = refresh_s
        self.refreshes = 0

    def show(self, image: Image.Image, full: bool) -> None:
        deadline = time.monotonic() + self.refresh_s
        while time.monotonic() < deadline:
            time.sleep(0.01)
        self.refreshes += 1
        super().show(image, full)


class InlinePainter:
    """The reference: the screen on the loop, as the app drew before the display thread."""

    def __init__(self, screen: Screen, clock_ms: Callable[[], int]) -> None:
        self.screen, self._clock_ms = screen, clock_ms
        self.error: str | None = None

    def update(self, state: Any, full: bool = False) -> None:
        self.screen.update(state, self._clock_ms(), full)

    def tick(self) -> None:
        self.screen.tick(self._clock_ms())

    def close(self, timeout: float | None = None) -> None:
        pass


def match(args: argparse.Namespace, inline: bool) -> tuple[LagMeter, SlowPanel, float, str]:
    from bgboard.sim.live import LiveRun
    from bgboard.sim.run import Options, SimulationError

    out = Path(tempfile.mkdtemp(prefix="bgboard-lag-"))
    live = LiveRun(Options(match_length=args.match_length, seed=args.seed), out / "run")
    panel = SlowPanel(out / "run" / "frames", args.refresh_s)
    live.panel = live.app._panel = panel
    meter = LagMeter()
    original = painter_module.Painter
    if inline:
        painter_module.Painter = InlinePainter  # type: ignore[misc, assignment]

    async def main() -> str:
        task = asyncio.create_task(meter.run())
        try:
            if inline:
                try:
                    await asyncio.wait_for(live.run(), args.reference_s)
                except asyncio.TimeoutError:
                    return f"stopped after {args.reference_s:.0f} s"
                except SimulationError as exc:  # the watchdog gave up on the board meanwhile
                    return f"failed: {exc}"
            else:
                await live.run()
            s = live.controller.state
            return f"match over {s.score[0]}-{s.score[1]}, {len(live.controller.actions)} actions"
        finally:
            task.cancel()

    started = time.perf_counter()
    try:
        outcome = asyncio.run(main())
    finally:
        painter_module.Painter = original  # type: ignore[misc]
    return meter, panel, time.perf_counter() - started, outcome


def cube_hints(count: int, how: str) -> tuple[LagMeter, float, str]:
    from hints_positions import sample

    from bgboard.hints import CubeState, cube_hint, open_engine
    from bgboard.hints.worker import HintWorker

    opened = open_engine("auto")
    positions = [p for p, _ in sample("random", count, 11)]
    state = CubeState(value=1, owner="centred", my_away=5, their_away=5)
    meter = LagMeter()

    async def main() -> None:
        task = asyncio.create_task(meter.run())
        await asyncio.sleep(0.05)
        try:
            if how in ("thread", "process"):
                with HintWorker(opened.engine, budget=30.0, separate_process=how == "process") as worker:
                    await asyncio.to_thread(worker.start)  # as the app does, before the match
                    for position in positions:
                        await worker.cube(position, state)
            else:
                for position in positions:
                    cube_hint(opened.engine, position, state)
                    await asyncio.sleep(0)  # the controller returned to the loop after each
        finally:
            task.cancel()

    started = time.perf_counter()
    asyncio.run(main())
    return meter, time.perf_counter() - started, opened.engine.name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match-length", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refresh-s", type=float, default=15.0)
    parser.add_argument("--reference-s", type=float, default=40.0)
    parser.add_argument("--hints", type=int, default=40)
    args = parser.parse_args()

    print(f"1. a {args.match_length}-point simulated match (real firmware, real App, 8x), "
          f"every panel refresh {args.refresh_s:.0f} s")
    meter, panel, seconds, outcome = match(args, inline=False)
    print(f"   display thread : {meter.summary()}; {panel.refreshes} refreshes, {outcome}, {seconds:.0f} s")
    ref, ref_panel, ref_seconds, ref_outcome = match(args, inline=True)
    print(f"   on the loop    : {ref.summary()}; {ref_panel.refreshes} refreshes, {ref_outcome}")
    print(f"   worst stall ratio thread / loop: {max(meter.lags) / max(ref.lags):.4f}")

    meter, seconds, engine = cube_hints(args.hints, "process")
    print(f"2. {args.hints} cube hints ({engine})")
    print(f"   HintWorker, separate process (the app's choice for {engine}): {meter.summary()}; {seconds:.1f} s")
    thread, thread_seconds = cube_hints(args.hints, "thread")[:2]
    print(f"   HintWorker, thread : {thread.summary()}; {thread_seconds:.1f} s")
    ref, ref_seconds = cube_hints(args.hints, "inline")[:2]
    print(f"   on the loop        : {ref.summary()}; {ref_seconds:.1f} s")
    print(f"   worst stall ratio process / loop: {max(meter.lags) / max(ref.lags):.4f}, "
          f"thread / loop: {max(thread.lags) / max(ref.lags):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
