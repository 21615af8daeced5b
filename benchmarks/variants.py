"""Benchmark: the seed variants' legal plays (bgboard.rules.games) beside backgammon's fast
generator on the same machine in one run, and whole matches of each variant read through
the real firmware (bgboard sim --variant).

No engine knows Plakoto, Fevga, Anti or Race, so the reference is bgboard's own backgammon
generator (itself measured against gnubg-nn in benchmarks/rules_legal.py): the ratio says
what the every-order search of rules/search.py costs over the highest-point-first shortcut.

    .venv/bin/python benchmarks/variants.py [--games 30] [--no-firmware]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bgboard.rules import legal_plays  # noqa: E402
from bgboard.rules.games import GAMES, SEED_GAMES  # noqa: E402
from tests.rules.variant_boards import random_game  # noqa: E402


def q(xs: list[float], f: float) -> float:
    return sorted(xs)[int(f * (len(xs) - 1))] * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--no-firmware", action="store_true")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(f"{'legal plays, us per (board, roll)':36}{'median':>9}{'p95':>9}{'max':>10}{'ref median':>12}{'ratio':>7}")
    for name, game in ((n, GAMES[n]) for n in SEED_GAMES):
        ours: list[float] = []
        ref: list[float] = []
        for seed in range(args.games):
            for board, dice, _, _ in random_game(game, random.Random(seed)):
                start = time.perf_counter()
                game.plays(board, dice)
                ours.append(time.perf_counter() - start)
                if board.reserve == (0, 0) and not any(board.pins):
                    position = board.plain()
                    start = time.perf_counter()
                    legal_plays(position, dice)  # backgammon's generator on the same counts
                    ref.append(time.perf_counter() - start)
        a, b = q(ours, 0.5), q(ref, 0.5)
        print(f"{name + ' (' + str(len(ours)) + ')':36}{a:9.1f}{q(ours, 0.95):9.1f}{q(ours, 1.0):10.1f}{b:12.1f}{a / b:7.1f}")
    if args.no_firmware:
        return 0
    from bgboard.sim.driver import Options
    from bgboard.sim.match_run import run_firmware_match

    print("whole matches through the host app on the real firmware (noise medium), seconds:")
    for variant, rules, length in (("plakoto", "standard", 3), ("fevga", "standard", 3), ("anti", "standard", 3),
                                   ("race", "standard", 3), (None, "tavli", 5)):
        options = Options(match_length=length, seed=2, noise=450.0, rules=rules, variant=variant)
        with tempfile.TemporaryDirectory() as tmp:
            start = time.monotonic()
            s = run_firmware_match(options, Path(tmp))
            seconds = time.monotonic() - start
            frames = len(list((Path(tmp) / "frames").glob("*.png")))
        print(f"  {variant or rules} to {length}: {seconds:.1f} s, {s['plays_recognised']} plays recognised, "
              f"{s['pinned_points_read']} pinned points read, {frames} display frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
