"""Readable positions for scenario tests: ``board("6:5 8:3", "12:5", bar=(1, 0))``."""

from __future__ import annotations

from bgboard.rules import BAR, Position


def _counts(text: str) -> dict[int, int]:
    counts = {}
    for part in text.split():
        point, n = part.split(":")
        counts[BAR if point == "bar" else int(point)] = int(n)
    return counts


def board(mine: str, theirs: str = "", checkers: int = 15, check: bool = True) -> Position:
    """Mine as ``point:count`` from my view; theirs as ``point:count`` on **my** point
    numbers (what I see on the board), ``bar:n`` for either bar.  The rest is borne off.
    ``check=False`` skips validation (for boards that show a mistake)."""
    me = [0] * 26
    th = [0] * 26
    for p, n in _counts(mine).items():
        me[p] = n
    for p, n in _counts(theirs).items():
        th[BAR if p == BAR else BAR - p] = n
    me[0] = checkers - sum(me)
    th[0] = checkers - sum(th)
    position = Position(tuple(me), tuple(th))
    return position.validate(checkers) if check else position
