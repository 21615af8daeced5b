"""Positions met in seeded games of random legal plays (shared by the hint tests and benchmarks)."""

from __future__ import annotations

import random

from bgboard.rules import Position, legal_plays, start_position


def random_positions(count: int, seed: int = 7, keep: float = 1.0) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, dice) pairs met in games of uniformly random legal plays.

    Each turn is kept with probability ``keep`` (1: every turn, and no extra draw from the
    generator); finished games restart.
    """
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    position = start_position()
    while len(out) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if keep >= 1 or rng.random() < keep:
            out.append((position, dice))
        plays = legal_plays(position, dice)
        if plays:
            after = rng.choice(plays).position
            if after.mine[0] == sum(after.mine):
                position = start_position()
                continue
            position = after.swap()
        else:
            position = position.swap()
    return out
