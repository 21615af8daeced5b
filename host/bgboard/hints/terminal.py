"""Equity of a finished game, seen by the player who just bore off (pure)."""

from __future__ import annotations

from bgboard.rules.position import BAR, Position


def finished_equity(after: Position, checkers: int) -> float | None:
    """Points won by the mover if ``after`` ends the game (the mover still ``mine``).

    1 for a single game, 2 for a gammon (the opponent has borne off nothing), 3 for a
    backgammon (and a checker still on the bar or in the winner's home board).  None if
    the game goes on.
    """
    if after.mine[0] < checkers:
        return None
    theirs = after.theirs
    if theirs[0]:
        return 1.0
    # The winner's home board is the loser's points 19..24 (and the bar).
    if any(theirs[p] for p in range(19, BAR + 1)):
        return 3.0
    return 2.0
