"""The federation's rating list (pure): the club's FIBS formula over every club's results.

:func:`rating_list` applies :func:`bgboard.club.ratings.rate` — the one place the formula is
written — to every rated result between two members, in the order played (the order the
database hands them over: the time the club stored each, then the club, then the club's own
rating order).  Every member starts at 1500 with experience 0; a result with a player the
club has not linked to a member is kept but not rated (docs/club-network.md).  So the list
equals what one club would compute from the union of the results, entered in that order
(tests/federation/test_rating_list.py).

:class:`RatingBook` keeps the same list up to date one stored result at a time: a result later
than every other is rated on top of the list as it stands; one that arrives late (played
before results already rated) or a club's correction of one is rated in its place, and every
result after it is rated again from there — so the book always equals :func:`rating_list` of
the union, whatever order the results arrive in.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from bgboard.club.ratings import RatedResult, Rating, apply_result, rate
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


def played_order(result: StoredResult) -> tuple[datetime, str, int, str]:
    """A result's place in the order played: when its club stored it, then the club, then the
    club's own rating order (the federation's database hands results over in this order)."""
    return datetime.fromisoformat(result.played_at), result.club, result.seq, result.id


def rating_list(results: Iterable[StoredResult]) -> tuple[list[RatingLine], list[RatingStep]]:
    """The list, best first (then by member id), and every member's steps in the order played
    (:func:`played_order`), rated from scratch."""
    ids: dict[str, int] = {}
    names: list[str] = []
    order: list[StoredResult] = []
    rated: list[RatedResult] = []
    for r in sorted(results, key=played_order):
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


@dataclass(slots=True)
class _Rated:
    """One result in a :class:`RatingBook`: where it is played, and (rateable ones) both
    members' ratings before it, None for a member it was the first rated match of."""

    key: tuple[datetime, str, int, str]
    result: StoredResult
    before: tuple[Rating | None, Rating | None] | None = None
    steps: tuple[RatingStep, ...] = field(default_factory=tuple)


class RatingBook:
    """The rating list kept up to date one result at a time (see the module): :meth:`add`,
    then :meth:`lines` and :meth:`steps` equal :func:`rating_list` of every result added."""

    def __init__(self, results: Iterable[StoredResult] = ()) -> None:
        self._rated: list[_Rated] = []
        self._keys: list[tuple[datetime, str, int, str]] = []
        self._results: dict[tuple[str, str], StoredResult] = {}
        self._ratings: dict[str, Rating] = {}
        self._matches: dict[str, int] = {}
        self.rated_again = 0   # results rated again after one that arrived late (the cost of lateness)
        for r in sorted(results, key=played_order):
            self.add(r)

    def __len__(self) -> int:
        return len(self._rated)

    def add(self, result: StoredResult) -> bool:
        """Enter a stored result, or a club's correction of one (the same club and id); False
        when the book has it already as it is."""
        ident = (result.club, result.id)
        old = self._results.get(ident)
        if old == result:
            return False
        key = played_order(result)
        start = bisect_right(self._keys, key)
        if old is not None:
            start = min(start, bisect_left(self._keys, played_order(old)))
        later = self._rewind(start)
        if old is not None:
            later = [r for r in later if (r.result.club, r.result.id) != ident]
        self._results[ident] = result
        later.append(_Rated(key, result))
        later.sort(key=lambda r: r.key)
        self.rated_again += len(later) - 1
        for entry in later:
            self._rate(entry)
        return True

    def _rewind(self, start: int) -> list[_Rated]:
        """Take the results from position ``start`` on off the list, last first, each member's
        rating back to what it was before them; those results, in order."""
        taken = self._rated[start:]
        for entry in reversed(taken):
            if entry.before is None:
                continue
            for member, before in zip(_members(entry.result), entry.before):
                self._matches[member] -= 1
                if before is None:
                    del self._ratings[member], self._matches[member]
                else:
                    self._ratings[member] = before
        del self._rated[start:], self._keys[start:]
        return taken

    def _rate(self, entry: _Rated) -> None:
        """Rate ``entry`` on top of the list (the club's formula, :func:`apply_result`)."""
        r = entry.result
        entry.before, entry.steps = None, ()
        if rateable(r):
            winner, loser = _members(r)
            before = (self._ratings.get(winner), self._ratings.get(loser))
            pair = {0: before[0] or Rating(), 1: before[1] or Rating()}
            won, lost = apply_result(pair, RatedResult(0, 0, 1, r.length))
            self._ratings[winner], self._ratings[loser] = won.after, lost.after
            for member in (winner, loser):
                self._matches[member] = self._matches.get(member, 0) + 1
            entry.before = before
            entry.steps = (RatingStep(winner, r.club, r.id, r.played_at, won.before.rating, won.after.rating, loser, True),
                           RatingStep(loser, r.club, r.id, r.played_at, lost.before.rating, lost.after.rating, winner, False))
        self._rated.append(entry)
        self._keys.append(entry.key)

    def lines(self) -> list[RatingLine]:
        """The list, best first (then by member id)."""
        lines = [RatingLine(m, rating.rating, rating.experience, self._matches[m]) for m, rating in self._ratings.items()]
        lines.sort(key=lambda line: (-line.rating, line.member))
        return lines

    def steps(self) -> list[RatingStep]:
        """Every member's steps in the order played."""
        return [step for entry in self._rated for step in entry.steps]


def _members(result: StoredResult) -> tuple[str, str]:
    """A rateable result's (winner, loser) member ids."""
    return str(result.winner_member), str(result.loser_member)


__all__ = ["RatingBook", "RatingLine", "RatingStep", "played_order", "rateable", "rating_list"]
