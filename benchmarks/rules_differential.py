"""Long differential run: bgboard's legal plays vs gnubg-nn's ``moves`` and bgsage's
``possible_moves`` on >= 100,000 self-play positions (every variant) x all 21 rolls.

Prints how many (position, roll) pairs were compared, what they covered (bar entries,
bear-offs, passes, variants), the disagreements with each engine (gnubg-nn must be zero;
bgsage's one known quirk — also listing "bear off the last checker with one die" when the
other die can be played first — is counted apart) and the time taken.

    .venv/bin/python benchmarks/rules_differential.py [--positions 100000] [--seed 1]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bgboard.rules import STARTS, legal_plays, position_id  # noqa: E402
from tests.rules.oracle import compare_engines  # noqa: E402
from tests.rules.selfplay import ROLLS, selfplay_positions  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seen: Counter[str] = Counter()
    bad_gnubg: list[tuple[str, tuple[int, int]]] = []
    bad_bgsage: list[tuple[str, tuple[int, int]]] = []
    start = time.perf_counter()
    for n, (variant, position) in enumerate(selfplay_positions(args.seed, args.positions, STARTS), 1):
        seen[variant] += 1
        seen["positions with a checker on the bar"] += bool(position.mine[25])
        seen["positions bearing off"] += not any(position.mine[7:])
        for dice in ROLLS:
            plays = legal_plays(position, dice)
            seen["pairs"] += 1
            seen["plays"] += len(plays)
            seen["passes"] += not plays
            gnubg_agrees, sage = compare_engines(position, dice, plays)
            if not gnubg_agrees:
                bad_gnubg.append((position_id(position), dice))
            if sage == "quirk":
                seen["bgsage quirk: last checker off with one die"] += 1
            elif sage == "differs":
                bad_bgsage.append((position_id(position), dice))
        if n % 10_000 == 0:
            print(f"  {n} positions, {time.perf_counter() - start:.0f} s", flush=True)
    took = time.perf_counter() - start
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(f"positions: {args.positions} (seed {args.seed}); (position, roll) pairs: {seen['pairs']}; plays: {seen['plays']}")
    for key in (*STARTS, "positions with a checker on the bar", "positions bearing off", "passes", "bgsage quirk: last checker off with one die"):
        print(f"  {key}: {seen[key]}")
    print(f"disagreements with gnubg-nn: {len(bad_gnubg)}  {bad_gnubg[:5]}")
    print(f"disagreements with bgsage (beyond the quirk): {len(bad_bgsage)}  {bad_bgsage[:5]}")
    print(f"time: {took:.0f} s")
    return 1 if bad_gnubg or bad_bgsage else 0


if __name__ == "__main__":
    sys.exit(main())
