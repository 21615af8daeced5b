"""Standings (pure): a function of the entrants, the matches played and the penalties.

Swiss and round robin rank by score (match wins, a bye counting as a win worth no
points, plus a late entrant's starting score: 0 or a half-point bye), then the tie-breaks in this order:

1. ``head_to_head`` — matches won against the other players on the same score (for two
   tied players: who beat whom);
2. ``buchholz`` — the sum of the scores of the opponents met (byes add nothing);
3. ``median_buchholz`` — the same without the best and the worst opponent (with three
   opponents or more);
4. ``points_difference`` — points won minus points lost in reported scores, penalty points
   counted as points lost;
then the seed.  Elimination events rank the champion first, then the consolation winner /
runner-up, the last-chance winner, the players still playing, the eliminated and the withdrawn, each by
how far he went (the last bracket stage he played, :func:`formats.reach`), then wins, fewer losses,
points difference and seed.  Forfeits count as a win and a loss with no
points.  docs/club.md gives the sources.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bgboard.club import formats
from bgboard.club.model import (
    CHAMPION, CONSOLATION_WINNER, ELIMINATED, ELIMINATION, FINISHED, LAST_CHANCE_WINNER,
    PLAYING, RUNNER_UP, WITHDRAWN, Entrant, EventSpec, Played,
)

_ORDER = {CHAMPION: 0, CONSOLATION_WINNER: 1, RUNNER_UP: 1, LAST_CHANCE_WINNER: 2, PLAYING: 3,
          FINISHED: 3, ELIMINATED: 4, WITHDRAWN: 5}


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    player: int
    wins: int
    losses: int
    points_for: int
    points_against: int
    tiebreaks: dict[str, float] = field(default_factory=dict[str, float])
    status: str = PLAYING


def standings(spec: EventSpec, entrants: Sequence[Entrant], played: Sequence[Played],
              penalties: Mapping[int, int] | None = None) -> list[Row]:
    """The event's standings, best first (module doc)."""
    penalties = penalties or {}
    ids = [e.player for e in entrants]
    seed = {e.player: e.seed for e in entrants}
    wins = dict.fromkeys(ids, 0)
    lost = dict.fromkeys(ids, 0)
    pf = dict.fromkeys(ids, 0)
    pa = {p: penalties.get(p, 0) for p in ids}
    opponents: dict[int, list[int]] = {p: [] for p in ids}
    beat: dict[int, list[int]] = {p: [] for p in ids}
    league = spec.format not in ELIMINATION
    for m in played:
        if m.winner is None:
            continue
        if m.b is None:
            if league:
                wins[m.a] += 1
            continue
        loser = m.b if m.winner == m.a else m.a
        wins[m.winner] += 1
        lost[loser] += 1
        beat[m.winner].append(loser)
        opponents[m.a].append(m.b)
        opponents[m.b].append(m.a)
        if m.score is not None:
            pf[m.a] += m.score[0]
            pa[m.a] += m.score[1]
            pf[m.b] += m.score[1]
            pa[m.b] += m.score[0]
    withdrawn = {e.player for e in entrants if e.withdrawn}
    if league:
        over = formats.finished(spec, entrants, played)
        start = {e.player: e.start_score for e in entrants}
        score = {p: wins[p] + start[p] for p in ids}
        tb: dict[int, dict[str, float]] = {}
        for p in ids:
            opp = sorted(score[q] for q in opponents[p])
            median = opp[1:-1] if len(opp) >= 3 else opp
            tb[p] = {
                "head_to_head": float(sum(1 for q in beat[p] if score[q] == score[p])),
                "buchholz": float(sum(opp)),
                "median_buchholz": float(sum(median)),
                "points_difference": float(pf[p] - pa[p]),
            }
        order = sorted(ids, key=lambda p: (-score[p], -tb[p]["head_to_head"], -tb[p]["buchholz"],
                                           -tb[p]["median_buchholz"],
                                           -tb[p]["points_difference"], seed[p]))
        status = {}
        for i, p in enumerate(order):
            if p in withdrawn:
                status[p] = WITHDRAWN
            elif over:
                status[p] = CHAMPION if i == 0 else FINISHED
            else:
                status[p] = PLAYING
    else:
        status = formats.statuses(spec, entrants, played)
        tb = {p: {"points_difference": float(pf[p] - pa[p])} for p in ids}
        went = formats.reach(spec, entrants, played)
        order = sorted(ids, key=lambda p: (_ORDER[status[p]], -went[p], -wins[p], lost[p],
                                           -(pf[p] - pa[p]), seed[p]))
    if penalties:
        for p in ids:
            tb[p]["penalty_points"] = float(penalties.get(p, 0))
    return [Row(i, p, wins[p], lost[p], pf[p], pa[p], tb[p], status[p])
            for i, p in enumerate(order, start=1)]
