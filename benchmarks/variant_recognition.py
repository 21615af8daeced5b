"""Benchmark: building a seed variant roll's recognition context on the host, what the
asyncio loop pays once per roll (bgboard.control.judge builds it when the dice are known,
the boards on the way are built at the first reading that is not a whole play), beside the
variant's own legal-play generator on the same (board, roll) in one run (the reference: the
context cannot cost less than the plays it is made of).

For every (board, roll) of random games of each variant (tests/rules/variant_boards.py,
seeded) it times, once each:

* ``plays``  ``game.plays(board, dice)`` (reference);
* ``cold``   ``VariantTurn(...)`` + ``partials()``: legal plays, their physical boards and
             every board on the way to them — the context's whole cost for the roll.

    .venv/bin/python benchmarks/variant_recognition.py [--games 30] [--cpu]

(--cpu: time.thread_time, the CPU spent, instead of wall time: on a loaded machine the
wall time's tail is mostly the scheduler.)  Run it with ``PYTHONPATH=<other tree>/host``
to time another version of bgboard on the same boards.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bgboard.rules.games import GAMES, SEED_GAMES  # noqa: E402
from bgboard.sense.tavli import VariantTurn  # noqa: E402
from tests.rules.variant_boards import random_game  # noqa: E402


def q(xs: list[float], f: float) -> float:
    return sorted(xs)[int(f * (len(xs) - 1))] * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    clock = time.thread_time if args.cpu else time.perf_counter
    kind = "CPU time" if args.cpu else "wall time"
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {kind}, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'ms per (board, roll)':22}{'cold mean':>10}{'p99':>8}{'max':>8}{'plays mean':>11}{'p99':>8}{'max':>8}"
          f"{'ratio mean':>11}  worst")
    for name, game in ((n, GAMES[n]) for n in SEED_GAMES):
        cold: list[float] = []
        plays: list[float] = []
        worst = (0.0, "")
        for seed in range(args.games):
            for board, dice, _, _ in random_game(game, random.Random(seed)):
                start = clock()
                game.plays(board, dice)
                plays.append(clock() - start)
                start = clock()
                turn = VariantTurn(game, board, 0, dice)
                turn.partials()
                cold.append(clock() - start)
                if cold[-1] > worst[0]:
                    worst = (cold[-1], f"{dice[0]}-{dice[1]}, {len(turn.plays)} plays, {len(turn.partials())} on the way")
        mean_c, mean_p = sum(cold) / len(cold) * 1e3, sum(plays) / len(plays) * 1e3
        print(f"{name + ' (' + str(len(cold)) + ')':22}{mean_c:10.2f}{q(cold, .99):8.1f}{q(cold, 1):8.1f}"
              f"{mean_p:11.2f}{q(plays, .99):8.1f}{q(plays, 1):8.1f}{mean_c / mean_p:11.1f}  {worst[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
