"""Benchmark: a whole 5-point match through the board simulator.

Two boards: the default of ``bgboard sim`` (``--firmware`` here: the real firmware under the
MicroPython unix port on a pty, fast clock, and the real host app) and the in-process model
of the firmware (``--model-firmware``, the rows below).  Firmware rows come from a fresh
worker process per match, so its figures are its own: wall time, host CPU time and peak
RSS of the host process (``RUSAGE_SELF``), and the MicroPython process separately (its CPU
time and peak RSS, ``RUSAGE_CHILDREN``), beside the model's wall time for the same seed.

For each seed: wall time, CPU time of the process (the host controller, recognition,
journal, display refreshes and the simulated board all run in it) and the number of match
actions; beside it, in the same process, a match of the same length through the match
package's self-play alone (no board, no host, no journal: ``bgboard.match.selfplay``), per
action, with the ratio: what the physical board, the sensors, recognition, the durable
journal and the e-ink frames cost on top of the bare rules.  At the
end: the peak resident memory of the process (``ru_maxrss``) and the peak Python heap of
one simulated match (``tracemalloc``).

    .venv/bin/python benchmarks/sim_match.py [--seeds 1 2 3] [--length 5] [--firmware] [--speed 8]

Results go to docs/performance.md ("## simulator").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from bgboard.match.selfplay import selfplay
from bgboard.sim.modelled_board import Options
from bgboard.sim.match_run import run_match


def timed(fn):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def worker(length: int, seed: int, noise: float, illegal_rate: float, speed: int) -> None:
    """One firmware-path match in this (fresh) process; prints its figures as JSON."""
    from bgboard.sim.match_run import run_firmware_match

    with tempfile.TemporaryDirectory() as tmp:
        options = Options(length, seed, illegal_rate=illegal_rate, noise=noise)
        summary, wall, _ = timed(lambda: run_firmware_match(options, Path(tmp), speed=speed))
        from bgboard.store.journal import Journal

        with Journal(Path(tmp) / "journal.sqlite") as j:
            actions = sum(1 for e in j.entries() if e.kind == "action")
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "actions": actions, "wall": wall, "score": summary["score"],
        "host_cpu": me.ru_utime + me.ru_stime, "host_rss_mib": me.ru_maxrss / 1024,
        "mpy_cpu": kids.ru_utime + kids.ru_stime, "mpy_rss_mib": kids.ru_maxrss / 1024,
    }))


def firmware_rows(args: argparse.Namespace) -> None:
    """The default path (real firmware), one fresh worker process per seed."""
    print(f"\n# the real firmware (MicroPython unix port, pty, fast clock x{args.speed}) and the real host app")
    print(f"{'seed':>4} {'actions':>7} {'wall s':>7} {'host cpu s':>10} {'host MiB':>8} "
          f"{'mpy cpu s':>9} {'mpy MiB':>7} {'ms/action':>9} {'model wall s':>12} {'ratio':>6}")
    for seed in args.seeds:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", "--length", str(args.length), "--seeds", str(seed),
             "--noise", str(args.noise), "--illegal-rate", str(args.illegal_rate), "--speed", str(args.speed)],
            capture_output=True, text=True, check=True, env=dict(os.environ),
        )
        r = json.loads(done.stdout.strip().splitlines()[-1])
        with tempfile.TemporaryDirectory() as tmp:
            options = Options(args.length, seed, illegal_rate=args.illegal_rate, noise=args.noise)
            model, model_wall, _ = timed(lambda: run_match(options, Path(tmp)))
        same = "" if model["score"] == r["score"] else "  (score differs from the model!)"
        print(f"{seed:>4} {r['actions']:>7} {r['wall']:>7.1f} {r['host_cpu']:>10.1f} {r['host_rss_mib']:>8.0f} "
              f"{r['mpy_cpu']:>9.1f} {r['mpy_rss_mib']:>7.1f} {1000 * r['wall'] / r['actions']:>9.0f} "
              f"{model_wall:>12.1f} {r['wall'] / model_wall:>5.1f}x{same}")


def main() -> int:
    parser = argparse.ArgumentParser(description="A whole match through the board simulator.")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--noise", type=float, default=180.0)
    parser.add_argument("--illegal-rate", type=float, default=0.1)
    parser.add_argument("--firmware", action="store_true", help="also (and first) the real-firmware path")
    parser.add_argument("--speed", type=int, default=8, help="the firmware path's clock factor")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.length, args.seeds[0], args.noise, args.illegal_rate, args.speed)
        return 0
    if args.firmware:
        firmware_rows(args)
        print()
    print(f"# {platform.machine()}, Python {platform.python_version()}, {args.length}-point match, "
          f"noise {args.noise:g} counts, illegal rate {args.illegal_rate:g}")
    print(f"{'seed':>4} {'actions':>7} {'sim wall s':>10} {'sim cpu s':>9} {'sim ms/action':>13} "
          f"{'selfplay ms/action':>18} {'ratio':>6}")
    totals = [0.0, 0.0, 0]
    for seed in args.seeds:
        with tempfile.TemporaryDirectory() as tmp:
            options = Options(args.length, seed, illegal_rate=args.illegal_rate, noise=args.noise)
            summary, wall, cpu = timed(lambda: run_match(options, Path(tmp)))
            from bgboard.store.journal import Journal

            with Journal(Path(tmp) / "journal.sqlite") as j:
                actions = sum(1 for e in j.entries() if e.kind == "action")
        ref_actions, ref_wall, _ = timed(lambda: selfplay(args.length, seed))
        totals[0] += wall
        totals[1] += cpu
        totals[2] += actions
        sim_ms = 1000 * wall / actions
        ref_ms = 1000 * ref_wall / len(ref_actions)
        print(f"{seed:>4} {actions:>7} {wall:>10.2f} {cpu:>9.2f} {sim_ms:>13.1f} "
              f"{ref_ms:>18.3f} {sim_ms / ref_ms:>5.0f}x")
    n = len(args.seeds)
    print(f"mean: wall {totals[0] / n:.2f} s, cpu {totals[1] / n:.2f} s, {totals[2] / n:.0f} actions per match")
    with tempfile.TemporaryDirectory() as tmp:
        tracemalloc.start()
        run_match(Options(args.length, args.seeds[0], illegal_rate=args.illegal_rate, noise=args.noise), Path(tmp))
        _, heap_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS of the process: {rss_kb / 1024:.1f} MiB; peak Python heap of one match: {heap_peak / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
