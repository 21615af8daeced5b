"""Pip counts, contact and race, game over and its result (single, gammon, backgammon).

Scoring as the seeds define it (003 BrainKing, "Scoring"): a single game when the loser
has borne off at least one checker; a gammon when the loser has borne off none; a
backgammon when the loser has borne off none and still has a checker on the bar or in the
winner's home board.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.rules.position import BAR, OFF, Position


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: ``winner`` "mine" or "theirs" (relative to the position given),
    ``kind`` "single", "gammon" or "backgammon", worth ``points`` 1, 2 or 3 (times the cube)."""

    winner: str
    kind: str
    points: int


def pip_counts(position: Position) -> tuple[int, int]:
    """Pips of ``(mine, theirs)``; a checker on the bar counts 25."""
    return position.pips()


def is_race(position: Position) -> bool:
    """True when no contact is left: every one of my checkers has passed every one of theirs."""
    mine, theirs = position.mine, position.theirs
    my_back = max((p for p in range(1, 26) if mine[p]), default=0)
    their_back = max((p for p in range(1, 26) if theirs[p]), default=0)
    # My point p is their point 25 - p: contact while my rearmost is behind their rearmost.
    return my_back + their_back <= 25 if my_back and their_back else True


def result_of(winner: str, loser: tuple[int, ...]) -> GameResult:
    if loser[OFF]:
        return GameResult(winner, "single", 1)
    if any(loser[19:BAR + 1]):  # the winner's home board is the loser's points 19..24
        return GameResult(winner, "backgammon", 3)
    return GameResult(winner, "gammon", 2)


def game_result(position: Position) -> GameResult | None:
    """The result if a side has borne off all its checkers, else None."""
    mine, theirs = position.mine, position.theirs
    if mine[OFF] and mine[OFF] == sum(mine):
        return result_of("mine", theirs)
    if theirs[OFF] and theirs[OFF] == sum(theirs):
        return result_of("theirs", mine)
    return None
