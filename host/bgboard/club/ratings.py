"""FIBS ratings (pure): the formula of FIBS ``help formula``, as REFERENCE.md states it.

For a match of length ``n`` between ratings ``r1`` and ``r2``::

    D = |r1 - r2|
    P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)
    P = 1 - P_upset   if the underdog (the lower rating) wins, else P_upset
    K = max(1, 5 - experience / 100)        # each player his own, from his experience
                                            # *before* the match
    winner gains 4 * K_winner * sqrt(n) * P;  loser loses 4 * K_loser * sqrt(n) * P

Experience is the sum of the lengths of the matches a player has finished; a new player
starts at 1500 with experience 0.  MacFIBS's help writes ``K = max(1, 5 - (experience +
n)/100)``; bgboard follows FIBS (the experience before the match), see docs/club.md.

Ratings are never stored as the truth: :func:`rate` re-derives them from the players'
starting values and the ordered list of rated results, so a corrected result is undone
exactly (the same arithmetic in the same order).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

START_RATING = 1500.0
START_EXPERIENCE = 0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating and experience (sum of the lengths of matches finished)."""

    rating: float = START_RATING
    experience: int = START_EXPERIENCE


@dataclass(frozen=True, slots=True)
class RatedResult:
    """A finished, rated match: ``winner`` beat ``loser`` in a ``length``-point match."""

    match_id: int
    winner: int
    loser: int
    length: int


@dataclass(frozen=True, slots=True)
class Change:
    """One player's rating change from one match (a row of the rating history)."""

    match_id: int
    player: int
    before: Rating
    after: Rating


def k_factor(experience: int) -> float:
    """FIBS's K: 5 for a newcomer, falling by 1 per 100 points of experience, at least 1."""
    return max(1.0, 5.0 - experience / 100.0)


def upset_probability(r1: float, r2: float, length: int) -> float:
    """P_upset: the chance that the lower-rated player wins a ``length``-point match."""
    d = abs(r1 - r2)
    return 1.0 / (10.0 ** (d * math.sqrt(length) / 2000.0) + 1.0)


def fibs_change(winner: Rating, loser: Rating, length: int) -> tuple[float, float]:
    """(what the winner gains, what the loser loses) for a ``length``-point match."""
    if length < 1:
        raise ValueError("a rated match has a length of at least 1 point")
    p_upset = upset_probability(winner.rating, loser.rating, length)
    p = 1.0 - p_upset if winner.rating < loser.rating else p_upset
    base = 4.0 * math.sqrt(length) * p
    return k_factor(winner.experience) * base, k_factor(loser.experience) * base


def apply_result(ratings: dict[int, Rating], result: RatedResult) -> tuple[Change, Change]:
    """Update ``ratings`` in place with one result; the two history rows."""
    w = ratings.get(result.winner, Rating())
    lo = ratings.get(result.loser, Rating())
    gain, loss = fibs_change(w, lo, result.length)
    w2 = Rating(w.rating + gain, w.experience + result.length)
    l2 = Rating(lo.rating - loss, lo.experience + result.length)
    ratings[result.winner] = w2
    ratings[result.loser] = l2
    return (Change(result.match_id, result.winner, w, w2),
            Change(result.match_id, result.loser, lo, l2))


def rate(start: Mapping[int, Rating],
         results: Iterable[RatedResult]) -> tuple[dict[int, Rating], list[Change]]:
    """Every player's rating after ``results`` (in order) from ``start``, and the history."""
    ratings = dict(start)
    history: list[Change] = []
    for result in results:
        history.extend(apply_result(ratings, result))
    return ratings, history
