"""Helpers for the variant tests: boards from readable rows, and random games."""

from __future__ import annotations

import random

from bgboard.rules.board import Board
from bgboard.rules.games import Game
from bgboard.rules.position import BAR, CHECKERS, OFF


def board_of(row: dict) -> Board:
    """A board from a table row: ``mine``/``theirs`` {point: count} in each owner's own
    numbering, optional ``bar`` [m, t], ``pinned`` [[mine], [theirs]], ``reserve`` [m, t];
    the rest of the 15 are borne off."""
    reserve = tuple(row.get("reserve", [0, 0]))
    bar = row.get("bar", [0, 0])
    sides = []
    for i, key in enumerate(("mine", "theirs")):
        side = [0] * 26
        for point, n in row[key].items():
            side[int(point)] = n
        side[BAR] = bar[i]
        side[OFF] = CHECKERS - sum(side) - reserve[i]
        sides.append(tuple(side))
    pins = tuple(sum(1 << p for p in points) for points in row.get("pinned", [[], []]))
    return Board(sides[0], sides[1], (pins[0], pins[1]), (reserve[0], reserve[1]))


def random_game(game: Game, rng: random.Random, limit: int = 3000):
    """Yield ``(board, dice, plays, chosen)`` for each turn of a random game, mover's view,
    until the game ends or ``limit`` turns pass."""
    board = game.start()
    for _ in range(limit):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = game.plays(board, dice)
        chosen = rng.choice(plays) if plays else None
        yield board, dice, plays, chosen
        after = chosen.position if chosen else board
        if game.outcome(after) is not None:
            return
        board = after.swap()
