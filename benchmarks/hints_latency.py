"""Latency of a best-play hint per backend: median and p99 over positions from random play.

    python benchmarks/hints_latency.py --positions 500

Times ``bgboard.hints.play_hints(engine, position, dice)`` and ``cube_hint`` (the rules engine's legal
plays + the backend's ranking: what the board waits for), with the rules engine's
``legal_plays`` alone and gnubg-nn's C ``best_move`` (0-ply) as references.
Pi figures are estimates: x86-64 time × 4 (Pi 4, Cortex-A72 1.5 GHz) and × 10
(Pi Zero 2 W, Cortex-A53 1 GHz), the usual single-core ratios for CPython and -O2 C code.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

import gnubg_nn  # noqa: E402
from hints_positions import sample  # noqa: E402

from bgboard.hints import CubeState, cube_hint, open_engine, play_hints  # noqa: E402
from bgboard.hints.pubeval import is_race  # noqa: E402
from bgboard.rules import legal_plays  # noqa: E402

PI4 = 4.0
ZERO2W = 10.0


WARM: list = []


def measure(call: Callable[[object, tuple[int, int]], object], samples: list, warm: list | None = None) -> list[float]:
    for position, dice in WARM if warm is None else warm:  # other positions: gnubg-nn caches evaluations
        call(position, dice)
    times = []
    for position, dice in samples:
        t = time.perf_counter()
        call(position, dice)
        times.append((time.perf_counter() - t) * 1000.0)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cube-positions", type=int, default=200)
    parser.add_argument("--source", choices=("random", "played"), default="random",
                        help="positions from random play, or from games of gnubg-nn 0-ply against itself")
    args = parser.parse_args()
    samples = sample(args.source, args.positions, args.seed)
    WARM.extend(sample(args.source, 20, args.seed + 1000))
    rows: dict[str, list[float]] = {}
    for name in ("bgsage", "gnubg-nn", "pubeval"):
        engine = open_engine(name).engine
        rows[f"hint {name}"] = measure(lambda p, d, e=engine: play_hints(e, p, d, limit=1), samples)
    bgsage = open_engine("bgsage").engine
    match = CubeState(my_away=7, their_away=7)
    rows["hint bgsage 7-7 (cubeful)"] = measure(lambda p, d: play_hints(bgsage, p, d, limit=1, state=match), samples)
    rows["legal_plays alone"] = measure(lambda p, d: legal_plays(p, d), samples)

    def c_best(p, d):
        b = p.to_gnubg()
        return gnubg_nn.best_move([list(b[0]), list(b[1])], d[0], d[1])

    rows["gnubg_nn.best_move (C)"] = measure(c_best, samples)
    cube_samples = samples[: args.cube_positions]
    for name, state in (("bgsage", CubeState()), ("bgsage", CubeState(my_away=7, their_away=7)),
                        ("gnubg-nn", CubeState(my_away=7, their_away=7)), ("pubeval", CubeState())):
        engine = open_engine(name).engine
        label = f"cube {name} {'money' if state.money else '7-7'}"
        if name == "pubeval":  # Keith count: races only
            races = [(p, d) for p, d in samples if is_race(p)]
            rows[label + " race"] = measure(
                lambda p, d, e=engine, s=state: cube_hint(e, p, s), races[20 : 20 + args.cube_positions], races[:20]
            )
        else:
            rows[label] = measure(lambda p, d, e=engine, s=state: cube_hint(e, p, s), cube_samples)
    print(f"{len(samples)} positions from {args.source} play ({len(cube_samples)} for cube hints); milliseconds per call")
    print(f"{'what':28s} {'median':>8s} {'p99':>8s} {'Pi 4 med':>9s} {'Pi 4 p99':>9s} {'Z2W med':>8s} {'Z2W p99':>8s}")
    for name, t in rows.items():
        med = statistics.median(t)
        p99 = sorted(t)[max(0, int(len(t) * 0.99) - 1)]
        print(f"{name:28s} {med:8.2f} {p99:8.2f} {med * PI4:9.1f} {p99 * PI4:9.1f} {med * ZERO2W:8.1f} {p99 * ZERO2W:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
