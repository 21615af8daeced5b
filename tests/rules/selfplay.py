"""Random self-play positions for differential tests and benchmarks (deterministic per seed).

Both sides pick plays with a mix of policies so that the positions cover what engines get
wrong: hits and bar entries (random plays hit often), primes and closed boards (a
"builder" policy that makes the most points and hits), bear-offs and races (games are
played to the end), in every variant.
"""

from __future__ import annotations

import random
from typing import Iterator

from bgboard.rules import Play, Position, game_result, legal_plays, start_position

ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


def _made_points(play: Play) -> int:
    pos = play.position
    made = sum(1 for p in range(1, 25) if pos.mine[p] >= 2)
    home = sum(1 for p in range(1, 7) if pos.mine[p] >= 2)
    return 4 * pos.theirs[25] + 2 * home + made


def _choose(plays: tuple[Play, ...], rng: random.Random, builder: bool) -> Play:
    if builder:
        best = max(_made_points(p) for p in plays)
        return rng.choice([p for p in plays if _made_points(p) == best])
    return rng.choice(plays)


def selfplay_positions(seed: int, count: int, variants: tuple[str, ...] = ("standard",)) -> Iterator[tuple[str, Position]]:
    """Yield ``count`` (variant, position-on-roll) pairs from random games."""
    rng = random.Random(seed)
    made = 0
    while True:
        variant = rng.choice(variants)
        position = start_position(variant)
        builders = (rng.random() < 0.5, rng.random() < 0.5)
        turn = 0
        while True:
            yield variant, position
            made += 1
            if made >= count:
                return
            dice = rng.choice(ROLLS)
            plays = legal_plays(position, dice)
            if plays:
                position = _choose(plays, rng, builders[turn % 2]).position
                if game_result(position):
                    break
            position = position.swap()
            turn += 1
