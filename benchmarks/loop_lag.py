"""The host's asyncio loop never stalls: its worst stall during a whole simulated match with
a panel whose refresh takes 15 s, and during cube hints (target: at most 50 ms).

    python benchmarks/loop_lag.py [--match-length 1] [--seed 1] [--refresh-s 15] [--hints 40] [--match-only]

A lag meter on the loop sleeps 5 ms again and again and records how late it wakes: the
stall every other callback (the serial link, the buttons, the clocks) would have seen; and,
per stall, the loop thread's CPU, its wait for a CPU (Linux schedstat: the machine's load,
not this process) and the other threads' CPU (see :class:`LagMeter`).  "Less its wait for
a CPU" is what this process did to its loop: its own code, the GIL held by another thread,
a blocking call.  Beside the match, in the same run, a second process runs the meter alone
("bare loop"): the stalls any loop on this machine saw meanwhile.  The journal's commits
made on the loop during the match are timed too (wall and CPU per commit).

1. **Match**: ``bgboard sim``'s default run (the real firmware under MicroPython on a pty
   against the real ``bgboard.app.App``, 8x real time) with a file panel whose every refresh
   blocks its caller for ``--refresh-s`` seconds, polling like a BUSY line (``time.sleep``
   every 10 ms).  Side by side, as the reference, the same run with the screen on the loop
   (the app before the display thread) for the first ``--reference-s`` seconds.
3. **The engine opponent** (``--opponent ENGINE[:LEVEL]``, default bgsage's deepest level):
   the same simulated match with the engine playing black, its every decision on its own
   ``HintWorker`` process (``bgboard.opponents``), beside the reference: the same match with
   the engine answering inline on the loop (the opponent without a worker) for the first
   ``--reference-s`` seconds.  ``--opponent-only`` runs just this case.
2. **Cube hints**: ``--hints`` cube decisions of the default engine ("auto": bgsage when
   installed) asked through the ``HintWorker`` in a separate process (the app's choice for
   a compiled engine, which holds the GIL while it evaluates), on a thread, and computed
   inline on the loop (the controller before the hint worker).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
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
    """Sleeps ``PERIOD_S`` on the loop again and again and records, for each interval:

    * ``lags`` - how late the wake-up was (wall time): the stall every callback saw;
    * ``busy`` - the CPU time the loop's thread spent (what code on the loop did);
    * ``queued`` - the time the loop's thread was runnable but waiting for a CPU (Linux
      ``/proc/thread-self/schedstat``): the machine's load, not this process;
    * ``others`` - the CPU time the process's other threads spent (the display, records,
      hint and gpiozero threads: the GIL's other holders).

    What is left of a stall after ``busy`` and ``queued`` is time the loop's thread slept
    where it should not have: waiting for the GIL or in a blocking call.
    """

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.busy: list[float] = []
        self.queued: list[float] = []
        self.others: list[float] = []

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        stat = _SchedStat()
        while True:
            before, cpu, proc, queue = loop.time(), time.thread_time(), time.process_time(), stat.queued()
            await asyncio.sleep(PERIOD_S)
            self.lags.append(max(0.0, loop.time() - before - PERIOD_S))
            busy = time.thread_time() - cpu
            self.busy.append(busy)
            self.queued.append(stat.queued() - queue)
            self.others.append(max(0.0, time.process_time() - proc - busy))

    def own(self) -> list[float]:
        """Each stall less its wait for a CPU: what this process did to the loop."""
        return [max(0.0, lag - queued) for lag, queued in zip(self.lags, self.queued)]

    def low_cpu_worst(self) -> int:
        """The index of the worst stall whose loop CPU was under 5 ms (-1: none)."""
        low = [i for i, b in enumerate(self.busy) if b < 0.005]
        return max(low, key=lambda i: self.lags[i]) if low else -1

    def why(self, i: int) -> str:
        return (f"loop CPU {self.busy[i] * 1000:.1f}, waiting for a CPU {self.queued[i] * 1000:.1f}, "
                f"other threads' CPU {self.others[i] * 1000:.1f} ms")

    def summary(self) -> str:
        if not self.lags:
            return "no samples"
        ordered = sorted(self.lags)
        worst = max(range(len(self.lags)), key=self.lags.__getitem__)
        own = self.own()
        mine = max(range(len(own)), key=own.__getitem__)
        low = self.low_cpu_worst()
        return (f"worst {self.lags[worst] * 1000:.1f} ms ({self.why(worst)})  p99 {_p99(ordered) * 1000:.1f} ms  "
                f"median {statistics.median(ordered) * 1000:.2f} ms  ({len(ordered)} wake-ups)\n"
                f"        worst with loop CPU < 5 ms: "
                + (f"{self.lags[low] * 1000:.1f} ms ({self.why(low)})" if low >= 0 else "none")
                + f"\n        worst less its wait for a CPU: {own[mine] * 1000:.1f} ms (of a {self.lags[mine] * 1000:.1f} ms "
                f"stall: {self.why(mine)}); p99 {_p99(sorted(own)) * 1000:.1f} ms; "
                f"most loop CPU in one stall {max(self.busy) * 1000:.1f} ms")


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


class _SchedStat:
    """The calling thread's time spent runnable but waiting for a CPU, in seconds (0 where
    Linux's schedstat is not available)."""

    def __init__(self) -> None:
        try:
            self._fd: int | None = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
        except OSError:
            self._fd = None

    def queued(self) -> float:
        if self._fd is None:
            return 0.0
        return int(os.pread(self._fd, 100, 0).split()[1]) / 1e9


def bare_loop() -> None:
    """``--bare``: the meter alone in a process (no app, no threads) until stdin closes, then
    its lags and waits as JSON: the machine's own stalls, beside the match in the same run."""
    import json

    async def main() -> LagMeter:
        meter = LagMeter()
        task = asyncio.create_task(meter.run())
        await asyncio.to_thread(sys.stdin.read)
        task.cancel()
        return meter

    meter = asyncio.run(main())
    json.dump({"lags": meter.lags, "busy": meter.busy, "queued": meter.queued, "others": meter.others}, sys.stdout)


def start_bare() -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, __file__, "--bare"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def stop_bare(proc: subprocess.Popen[str]) -> LagMeter:
    import json

    out, _ = proc.communicate("", timeout=30)
    meter = LagMeter()
    for name, values in json.loads(out).items():
        setattr(meter, name, values)
    return meter


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


class TimedConnection:
    """The journal's SQLite connection, timing every commit made on the loop (an INSERT in
    autocommit mode or the COMMIT of an atomic block): ``commits`` = (wall s, CPU s)."""

    def __init__(self, db: Any) -> None:
        self._db = db
        self.commits: list[tuple[float, float]] = []

    def execute(self, sql: str, *args: Any) -> Any:
        wall, cpu = time.perf_counter(), time.thread_time()
        cursor = self._db.execute(sql, *args)
        if sql == "COMMIT" or (sql.startswith("INSERT") and not self._db.in_transaction):
            self.commits.append((time.perf_counter() - wall, time.thread_time() - cpu))
        return cursor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    def summary(self) -> str:
        if not self.commits:
            return "no commits"
        wall = sorted(w for w, _ in self.commits)
        cpu = sorted(c for _, c in self.commits)
        return (f"{len(wall)} commits (synchronous=FULL, WAL): wall median {statistics.median(wall) * 1000:.2f} ms, "
                f"p99 {_p99(wall) * 1000:.2f} ms, worst {wall[-1] * 1000:.2f} ms; "
                f"loop CPU p99 {_p99(cpu) * 1000:.2f} ms")


def match(args: argparse.Namespace, inline: bool, opponent: str | None = None,
          engine_inline: bool = False) -> tuple[LagMeter, SlowPanel, float, str]:
    from bgboard import opponents
    from bgboard.sim.firmware_board import LiveRun
    from bgboard.sim.modelled_board import Options, SimulationError

    out = Path(tempfile.mkdtemp(prefix="bgboard-lag-"))
    live = LiveRun(Options(match_length=args.match_length, seed=args.seed, opponent=opponent), out / "run")
    opened = opponents.open_opponent
    if engine_inline:  # the reference: the engine's decisions computed on the loop
        async def on_the_loop(config: Any, post: Any, clock: Any) -> Any:
            return opponents.engine_opponent(f"{config.opponent.engine}:{config.opponent.level}", 1)

        opponents.open_opponent = on_the_loop  # type: ignore[assignment]
    commits = live.journal._db = TimedConnection(live.journal._db)  # type: ignore[assignment]
    panel = SlowPanel(out / "run" / "frames", args.refresh_s)
    live.panel = live.app._panel = panel
    meter = LagMeter()
    original = painter_module.Painter
    if inline:
        painter_module.Painter = InlinePainter  # type: ignore[misc, assignment]

    async def main() -> str:
        task = asyncio.create_task(meter.run())
        try:
            if inline or engine_inline:
                try:
                    await asyncio.wait_for(live.run(), args.reference_s)
                except asyncio.TimeoutError:
                    return f"stopped after {args.reference_s:.0f} s"
                except SimulationError as exc:  # the watchdog gave up on the board meanwhile
                    return f"failed: {exc}"
            else:
                await live.run()
            s = live.controller.state
            return (f"match over {s.score[0]}-{s.score[1]}, {len(live.controller.actions)} actions\n"
                    f"        journal on the loop ({_filesystem(out)}): {commits.summary()}")
        finally:
            task.cancel()

    started = time.perf_counter()
    try:
        outcome = asyncio.run(main())
    finally:
        painter_module.Painter = original  # type: ignore[misc]
        opponents.open_opponent = opened  # type: ignore[assignment]
    return meter, panel, time.perf_counter() - started, outcome


def _filesystem(path: Path) -> str:
    """The type of the file system ``path`` is on (from /proc/mounts), e.g. "ext4"."""
    best, kind = "", "?"
    try:
        for line in Path("/proc/mounts").read_text().splitlines():
            _dev, mount, fstype, *_ = line.split()
            if str(path.resolve()).startswith(mount) and len(mount) > len(best):
                best, kind = mount, fstype
    except OSError:
        pass
    return f"{kind} at {best or '?'}"


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
    parser.add_argument("--bare", action="store_true", help=argparse.SUPPRESS)  # the reference process
    parser.add_argument("--match-only", action="store_true", help="only the match with the display thread")
    parser.add_argument("--opponent", default="bgsage:world-class", help="case 3: the engine opponent ENGINE[:LEVEL]")
    parser.add_argument("--opponent-only", action="store_true", help="only case 3 (the engine opponent)")
    args = parser.parse_args()
    if args.bare:
        bare_loop()
        return 0
    if args.opponent_only:
        opponent_case(args)
        return 0
    if args.match_only:
        bare_proc = start_bare()
        meter, panel, seconds, outcome = match(args, inline=False)
        bare = stop_bare(bare_proc)
        print(f"match, display thread: {panel.refreshes} refreshes, {seconds:.0f} s, {outcome}\n        {meter.summary()}")
        print(f"bare loop beside it: {bare.summary()}")
        return 0

    print(f"1. a {args.match_length}-point simulated match (real firmware, real App, 8x), "
          f"every panel refresh {args.refresh_s:.0f} s")
    bare_proc = start_bare()
    meter, panel, seconds, outcome = match(args, inline=False)
    bare = stop_bare(bare_proc)
    print(f"   display thread : {panel.refreshes} refreshes, {seconds:.0f} s, {outcome}\n        {meter.summary()}")
    print(f"   bare loop (a process running only the meter, beside the match): {bare.summary()}")
    ref, ref_panel, ref_seconds, ref_outcome = match(args, inline=True)
    print(f"   on the loop    : {ref_panel.refreshes} refreshes, {ref_outcome}\n        {ref.summary()}")
    print(f"   worst stall ratio thread / loop: {max(meter.lags) / max(ref.lags):.4f}; "
          f"thread / bare loop: {max(meter.lags) / max(max(bare.lags), 1e-6):.2f}; "
          f"less the wait for a CPU, thread / bare loop: {max(meter.own()) / max(max(bare.own()), 1e-6):.2f}")

    meter, seconds, engine = cube_hints(args.hints, "process")
    print(f"2. {args.hints} cube hints ({engine})")
    print(f"   HintWorker, separate process (the app's choice for {engine}): {seconds:.1f} s\n        {meter.summary()}")
    thread, thread_seconds = cube_hints(args.hints, "thread")[:2]
    print(f"   HintWorker, thread : {thread_seconds:.1f} s\n        {thread.summary()}")
    ref, ref_seconds = cube_hints(args.hints, "inline")[:2]
    print(f"   on the loop        : {ref_seconds:.1f} s\n        {ref.summary()}")
    print(f"   worst stall ratio process / loop: {max(meter.lags) / max(ref.lags):.4f}, "
          f"thread / loop: {max(thread.lags) / max(ref.lags):.4f}")
    opponent_case(args)
    return 0


def opponent_case(args: argparse.Namespace) -> None:
    """Case 3: a match against the engine, its decisions on its worker process, and inline."""
    print(f"3. a {args.match_length}-point simulated match against {args.opponent} (black), "
          f"every panel refresh {args.refresh_s:.0f} s")
    bare_proc = start_bare()
    meter, panel, seconds, outcome = match(args, inline=False, opponent=args.opponent)
    bare = stop_bare(bare_proc)
    print(f"   engine on its HintWorker process: {seconds:.0f} s, {outcome}\n        {meter.summary()}")
    print(f"   bare loop beside it: {bare.summary()}")
    ref, _, _, ref_outcome = match(args, inline=False, opponent=args.opponent, engine_inline=True)
    print(f"   engine inline on the loop (reference): {ref_outcome}\n        {ref.summary()}")
    print(f"   worst stall ratio worker / inline: {max(meter.lags) / max(ref.lags):.4f}; "
          f"less the wait for a CPU, worker / bare loop: {max(meter.own()) / max(max(bare.own()), 1e-6):.2f}")


if __name__ == "__main__":
    sys.exit(main())
