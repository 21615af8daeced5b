"""Benchmark: bgboard's pure-Python legal_plays side by side with gnubg-nn's C ``moves``.

Same inputs, one process: >= 2,000 self-play positions (every variant) x all 21 rolls,
median and 95th percentile microseconds per (position, roll), plus the worst known case
(Position ID AACAkCRJqqoAAA with 1-1: 2,220 distinct resulting positions).

    .venv/bin/python benchmarks/rules_legal.py [--positions 2000]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gnubg_nn  # noqa: E402

from bgboard.rules import STARTS, legal_plays, legal_steps, position_from_id  # noqa: E402
from tests.rules.oracle import gnubg_board  # noqa: E402
from tests.rules.selfplay import ROLLS, selfplay_positions  # noqa: E402


def _time(fn, *args, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    positions = [p for _, p in selfplay_positions(args.seed, args.positions, STARTS)]
    ours: list[float] = []
    theirs: list[float] = []
    for position in positions:
        board = gnubg_board(position)
        for dice in ROLLS:
            ours.append(_time(legal_plays, position, dice))
            theirs.append(_time(gnubg_nn.moves, board, *dice))
    steps: list[float] = []
    for position in positions[::10]:
        for dice in ROLLS:
            steps.append(_time(legal_steps, position, dice, ()))
    worst = position_from_id("AACAkCRJqqoAAA")
    board = gnubg_board(worst)
    n_worst = len(legal_plays(worst, (1, 1)))
    worst_ours = _time(legal_plays, worst, (1, 1), repeat=5)
    worst_theirs = _time(gnubg_nn.moves, board, 1, 1, repeat=5)

    def q(xs: list[float], f: float) -> float:
        return sorted(xs)[int(f * (len(xs) - 1))] * 1e6

    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(f"inputs: {len(positions)} positions x 21 rolls = {len(ours)} (position, roll)")
    print(f"{'':28}{'bgboard':>12}{'gnubg_nn':>12}{'ratio':>8}")
    for name, f in (("median us/(position, roll)", 0.5), ("p95 us", 0.95), ("max us", 1.0)):
        a, b = q(ours, f), q(theirs, f)
        print(f"{name:28}{a:12.1f}{b:12.1f}{a / b:8.1f}")
    a, b = statistics.fmean(ours) * 1e6, statistics.fmean(theirs) * 1e6
    print(f"{'mean us':28}{a:12.1f}{b:12.1f}{a / b:8.1f}")
    print(f"{'worst case ms (' + str(n_worst) + ' plays)':28}{worst_ours * 1e3:12.2f}{worst_theirs * 1e3:12.3f}{worst_ours / worst_theirs:8.1f}")
    print(f"legal_steps at the start of a roll (no reference engine has it): median {q(steps, 0.5):.1f} us, p95 {q(steps, 0.95):.1f} us, max {q(steps, 1.0):.1f} us over {len(steps)}")
    print(f"legal_steps worst case: {_time(legal_steps, worst, (1, 1), (), repeat=3) * 1e3:.2f} ms")
    print("targets: median <= 200 us, worst case <= 50 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
