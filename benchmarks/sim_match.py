"""Benchmark: a whole 5-point match through the board simulator in fast mode.

For each seed: wall time, CPU time of the process (the host controller, recognition,
journal, display refreshes and the simulated board all run in it) and the number of match
actions; beside it, in the same process, a match of the same length through the match
package's self-play alone (no board, no host, no journal: ``bgboard.match.selfplay``), per
action, with the ratio: what the physical board, the sensors, recognition, the durable
journal and the e-ink frames cost on top of the bare rules.  At the
end: the peak resident memory of the process (``ru_maxrss``) and the peak Python heap of
one simulated match (``tracemalloc``).

    .venv/bin/python benchmarks/sim_match.py [--seeds 1 2 3] [--length 5]

Results go to docs/performance.md ("## simulator").
"""

from __future__ import annotations

import argparse
import platform
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from bgboard.match.selfplay import selfplay
from bgboard.sim.run import Options
from bgboard.sim.session import run_match


def timed(fn):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description="A whole match through the board simulator in fast mode.")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--noise", type=float, default=180.0)
    parser.add_argument("--illegal-rate", type=float, default=0.1)
    args = parser.parse_args()
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
