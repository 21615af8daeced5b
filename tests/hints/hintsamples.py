"""Positions met in seeded games of random legal plays (shared by the hint tests)."""

from __future__ import annotations

import random

from bgboard.rules import Position, legal_plays, start_position


def random_game_positions(seed: int, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, dice) pairs met in games of random legal plays (seeded)."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    position = start_position()
    while len(out) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
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
