"""An event's exports as text (pure): standings and results CSV (the printable sheets are
:mod:`bgboard.club.printing`'s)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def number(value: object) -> object:
    """A tie-break as people write it: 11, not 11.0; 1.5 stays 1.5."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def standings_csv(standings: Sequence[Any]) -> str:
    keys = sorted({k for s in standings for k in s.tiebreaks})
    return _csv(["rank", "name", "wins", "losses", "points_for", "points_against", *keys, "status"],
                [[s.rank, s.name, s.wins, s.losses, s.points_for, s.points_against,
                  *[number(s.tiebreaks.get(k, "")) for k in keys], s.status] for s in standings])


def results_csv(matches: Sequence[Any]) -> str:
    return _csv(["id", "round", "node", "flight", "board", "player_a", "player_b", "length",
                 "status", "score_a", "score_b", "winner", "forfeit_reason", "reported_at",
                 "reported_by", "uuid"],
                [[m.id, m.round, m.node, m.flight, m.board or "", m.players[0], m.players[1] or "",
                  m.length, m.status, *(m.score or ["", ""]), m.winner or "",
                  m.forfeit_reason or "", m.reported_at or "", m.reported_by or "", m.uuid]
                 for m in matches])
