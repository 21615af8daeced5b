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


@dataclass(slots=True)
class _Tally:
    """What the matches played add up to for each entrant: wins, losses, points for and
    against (penalty points counted against), the opponents met and the players beaten."""
    wins: dict[int, int]
    lost: dict[int, int]
    pf: dict[int, int]
    pa: dict[int, int]
    opponents: dict[int, list[int]]
    beat: dict[int, list[int]]


def _tally(ids: Sequence[int], played: Sequence[Played], penalties: Mapping[int, int],
           league: bool) -> _Tally:
    """Each entrant's wins, losses, points and opponents (a bye a win only in a league)."""
    t = _Tally(dict.fromkeys(ids, 0), dict.fromkeys(ids, 0), dict.fromkeys(ids, 0),
               {p: penalties.get(p, 0) for p in ids}, {p: [] for p in ids}, {p: [] for p in ids})
    for m in played:
        if m.winner is None:
            continue
        if m.b is None:
            if league:
                t.wins[m.a] += 1
            continue
        loser = m.b if m.winner == m.a else m.a
        t.wins[m.winner] += 1
        t.lost[loser] += 1
        t.beat[m.winner].append(loser)
        t.opponents[m.a].append(m.b)
        t.opponents[m.b].append(m.a)
        if m.score is not None:
            t.pf[m.a] += m.score[0]
            t.pa[m.a] += m.score[1]
            t.pf[m.b] += m.score[1]
            t.pa[m.b] += m.score[0]
    return t


_Ranking = tuple[list[int], dict[int, dict[str, float]], dict[int, str]]


def _league_ranking(spec: EventSpec, entrants: Sequence[Entrant], played: Sequence[Played],
                    t: _Tally) -> _Ranking:
    """Swiss and round robin: by score, then the tie-breaks (module doc), then the seed."""
    ids = [e.player for e in entrants]
    seed = {e.player: e.seed for e in entrants}
    withdrawn = {e.player for e in entrants if e.withdrawn}
    over = formats.finished(spec, entrants, played)
    score = {e.player: t.wins[e.player] + e.start_score for e in entrants}
    tb: dict[int, dict[str, float]] = {}
    for p in ids:
        opp = sorted(score[q] for q in t.opponents[p])
        median = opp[1:-1] if len(opp) >= 3 else opp
        tb[p] = {
            "head_to_head": float(sum(1 for q in t.beat[p] if score[q] == score[p])),
            "buchholz": float(sum(opp)),
            "median_buchholz": float(sum(median)),
            "points_difference": float(t.pf[p] - t.pa[p]),
        }
    order = sorted(ids, key=lambda p: (-score[p], -tb[p]["head_to_head"], -tb[p]["buchholz"],
                                       -tb[p]["median_buchholz"],
                                       -tb[p]["points_difference"], seed[p]))
    status: dict[int, str] = {}
    for i, p in enumerate(order):
        if p in withdrawn:
            status[p] = WITHDRAWN
        elif over:
            status[p] = CHAMPION if i == 0 else FINISHED
        else:
            status[p] = PLAYING
    return order, tb, status


def _elimination_ranking(spec: EventSpec, entrants: Sequence[Entrant],
                         played: Sequence[Played], t: _Tally) -> _Ranking:
    """Elimination: by status, how far each went, wins, fewer losses, points, seed."""
    ids = [e.player for e in entrants]
    seed = {e.player: e.seed for e in entrants}
    status = formats.statuses(spec, entrants, played)
    tb = {p: {"points_difference": float(t.pf[p] - t.pa[p])} for p in ids}
    went = formats.reach(spec, entrants, played)
    order = sorted(ids, key=lambda p: (_ORDER[status[p]], -went[p], -t.wins[p], t.lost[p],
                                       -(t.pf[p] - t.pa[p]), seed[p]))
    return order, tb, status


def standings(spec: EventSpec, entrants: Sequence[Entrant], played: Sequence[Played],
              penalties: Mapping[int, int] | None = None) -> list[Row]:
    """The event's standings, best first (module doc)."""
    penalties = penalties or {}
    ids = [e.player for e in entrants]
    league = spec.format not in ELIMINATION
    t = _tally(ids, played, penalties, league)
    rank = _league_ranking if league else _elimination_ranking
    order, tb, status = rank(spec, entrants, played, t)
    if penalties:
        for p in ids:
            tb[p]["penalty_points"] = float(penalties.get(p, 0))
    return [Row(i, p, t.wins[p], t.lost[p], t.pf[p], t.pa[p], tb[p], status[p])
            for i, p in enumerate(order, start=1)]
