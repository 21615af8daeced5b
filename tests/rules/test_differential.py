"""Differential test: our legal plays against gnubg-nn's and bgsage's on self-play positions.

2,100 positions from random and point-making self-play in every variant (bar entries,
closed boards, bear-offs, Hypergammon) × all 21 rolls; zero disagreement allowed.
The 100,000-position run is benchmarks/rules_differential.py.
"""

from __future__ import annotations

from collections import Counter

from bgboard.rules import STARTS, legal_plays, position_id

from .oracle import compare_engines, require_bgsage, require_gnubg_nn
from .selfplay import ROLLS, selfplay_positions

import pytest

pytestmark = pytest.mark.slow  # whole matches / engines / firmware runs: the full run, not -m "not slow"


def test_against_gnubg_nn_and_bgsage():
    require_gnubg_nn()
    require_bgsage()
    seen: Counter[str] = Counter()
    disagreements = []
    for variant, position in selfplay_positions(seed=2026, count=2100, variants=STARTS):
        seen[variant] += 1
        seen["bar"] += bool(position.mine[25])
        seen["bear-off"] += not any(position.mine[7:])
        for dice in ROLLS:
            plays = legal_plays(position, dice)
            seen["pass"] += not plays
            gnubg_agrees, sage = compare_engines(position, dice, plays)
            seen["bgsage ends early"] += sage == "quirk"
            if not gnubg_agrees or sage == "differs":
                disagreements.append((position_id(position), dice))
    assert disagreements == []
    # The sample really covers what it claims to.
    assert all(seen[v] >= 50 for v in STARTS)
    assert seen["bgsage ends early"] >= 1
    assert seen["bar"] >= 300 and seen["bear-off"] >= 100 and seen["pass"] >= 1000
