"""The federation's rating list (pure): the club's FIBS formula over every club's results.

:func:`rating_list` applies :func:`bgboard.club.ratings.rate` — the one place the formula is
written — to every rated result between two members, in the order played (the order the
database hands them over: the time the club stored each, then the club, then the club's own
rating order).  Every member starts at 1500 with experience 0; a result with a player the
club has not linked to a member is kept but not rated (docs/club-network.md).  So the list
equals what one club would compute from the union of the results, entered in that order
(tests/federation/test_rating_list.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bgboard.club.ratings import RatedResult, Rating, rate
from bgboard.federation.stored_result import StoredResult


@dataclass(frozen=True, slots=True)
class RatingLine:
    """One member's line of the list."""

    member: str
    rating: float
    experience: int
    matches: int


@dataclass(frozen=True, slots=True)
class RatingStep:
    """One member's rating change from one result (the history)."""

    member: str
    club: str
    result: str
    played_at: str
    before: float
    after: float
    opponent: str
    won: bool


def rateable(result: StoredResult) -> bool:
    """Whether a result counts for the rating list: rated by its club, between two members."""
    return (result.rated and result.winner_member is not None and result.loser_member is not None
            and result.winner_member != result.loser_member)


def rating_list(results: Iterable[StoredResult]) -> tuple[list[RatingLine], list[RatingStep]]:
    """The list, best first (then by member id), and every member's steps in the order played."""
    ids: dict[str, int] = {}
    names: list[str] = []
    order: list[StoredResult] = []
    rated: list[RatedResult] = []
    for r in results:
        if not rateable(r):
            continue
        for member in (r.winner_member, r.loser_member):
            assert member is not None
            if member not in ids:
                ids[member] = len(names)
                names.append(member)
        rated.append(RatedResult(len(order), ids[str(r.winner_member)], ids[str(r.loser_member)], r.length))
        order.append(r)
    final, history = rate({}, rated)
    matches = [0] * len(names)
    steps = []
    for change in history:
        r = order[change.match_id]
        member = names[change.player]
        matches[change.player] += 1
        won = member == r.winner_member
        steps.append(RatingStep(member, r.club, r.id, r.played_at, change.before.rating, change.after.rating,
                                str(r.loser_member if won else r.winner_member), won))
    lines = [RatingLine(names[i], final.get(i, Rating()).rating, final.get(i, Rating()).experience, matches[i])
             for i in range(len(names))]
    lines.sort(key=lambda line: (-line.rating, line.member))
    return lines, steps


__all__ = ["RatingLine", "RatingStep", "rateable", "rating_list"]
