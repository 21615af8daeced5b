"""Positions from random play, shared by the hints benchmarks (seeded, reproducible)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from bgboard.hints.samples import random_positions  # noqa: E402
from bgboard.rules import Position, start_position  # noqa: E402


def played_positions(count: int, seed: int = 7) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, dice) pairs met in games where both sides play gnubg-nn's
    0-ply choice: the positions a hint is really asked about in a club game."""
    from bgboard.hints import play_hints
    from bgboard.hints.gnubg_engine import GnubgEngine

    engine = GnubgEngine()
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    position = start_position()
    while len(out) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((position, dice))
        best = play_hints(engine, position, dice, limit=1).best
        if best is None:
            position = position.swap()
            continue
        if best.position.mine[0] == sum(best.position.mine):
            position = start_position()
            continue
        position = best.position.swap()
    return out


def sample(source: str, count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions from "random" games (each turn kept with probability 1/4, so that
    openings, middle games and bear-offs all appear) or "played" games."""
    return random_positions(count, seed, keep=0.25) if source == "random" else played_positions(count, seed)
