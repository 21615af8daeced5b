"""A season's standings (pure): members ranked over the events the federation counts.

A season counts some clubs' events (``bgboard federation season NAME --count CLUB:EVENT``).
Its standings are simple and written here once: every result of a counted event between two
members gives the winner one point (a forfeit too: it is a won match); members are ranked by
points, then by fewer matches lost, then by the rating list, then by member id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bgboard.federation.stored_result import StoredResult


@dataclass(frozen=True, slots=True)
class SeasonLine:
    rank: int
    member: str
    points: int
    won: int
    lost: int


def season_standings(results: Iterable[StoredResult], counted: set[tuple[str, str]],
                     ratings: Mapping[str, float]) -> list[SeasonLine]:
    """The standings over ``results`` of the counted (club, event) pairs."""
    won: dict[str, int] = {}
    lost: dict[str, int] = {}
    for r in results:
        w, lo = r.winner_member, r.loser_member
        if (r.club, r.event) not in counted or w is None or lo is None or w == lo:
            continue
        won[w] = won.get(w, 0) + 1
        lost[lo] = lost.get(lo, 0) + 1
        won.setdefault(lo, 0)
        lost.setdefault(w, 0)
    order = sorted(won, key=lambda m: (-won[m], lost[m], -ratings.get(m, 0.0), m))
    return [SeasonLine(i, m, won[m], won[m], lost[m]) for i, m in enumerate(order, 1)]


__all__ = ["SeasonLine", "season_standings"]
