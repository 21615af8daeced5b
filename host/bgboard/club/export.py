"""An event's exports as text (pure): standings and results CSV, a printable HTML page.

Every name and text is escaped (``html.escape``); the page has no scripts and prints on
one sheet per table.
"""

from __future__ import annotations

import csv
import html
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
    if isinstance(value, float) and value == int(value):
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


def _e(x: object) -> str:
    return html.escape("" if x is None else str(x))


def html_page(club: str, event: Any, rounds: Sequence[Any], nodes: Sequence[Any],
              standings: Sequence[Any]) -> str:
    """A printable page: the event's settings, the bracket (or the rounds) and the standings."""
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(event.name)} — {_e(club)}</title>",
        "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;"
        "margin-bottom:1.5em}td,th{border:1px solid #444;padding:.2em .5em}"
        "h2{page-break-before:auto}.win{font-weight:bold}@media print{section{page-break-inside:avoid}}"
        "</style></head><body>",
        f"<h1>{_e(event.name)}</h1>",
        f"<p>{_e(club)} · {_e(event.format)} · {_e(event.length)}-point matches"
        + (f" (consolation {_e(event.consolation_length)})" if event.consolation_length else "")
        + f" · rules {_e(event.rules)} · clock {_e(event.clock.get('reserve_per_point_s', 0) // 60)} min"
        f" per point + {_e(event.clock.get('delay_s', 0))} s delay · {_e(event.status)}</p>",
    ]
    if nodes:
        parts.append("<section><h2>Bracket</h2>")
        for flight in ("main", "consolation", "last-chance"):
            flight_nodes = [n for n in nodes if n.flight == flight]
            if not flight_nodes:
                continue
            parts.append(f"<h3>{_e(flight.replace('-', ' ').capitalize())} flight</h3><table><tr><th>stage</th>"
                         "<th>match</th><th>players</th><th>winner</th></tr>")
            for n in flight_nodes:
                if n.state == "empty":
                    continue
                players = " v ".join(_e(p) if p else "(bye)" for p in n.players)
                parts.append(f"<tr><td>{_e(n.stage)}</td><td>{_e(n.node)}</td><td>{players}</td>"
                             f"<td class=win>{_e(n.winner)}</td></tr>")
            parts.append("</table>")
        parts.append("</section>")
    parts.append("<section><h2>Rounds</h2><table><tr><th>round</th><th>board</th><th>match</th>"
                 "<th>players</th><th>score</th><th>winner</th></tr>")
    for r in rounds:
        for m in r.matches:
            score = "-".join(map(str, m.score)) if m.score else ("forfeit" if m.status == "forfeit" else "")
            parts.append(f"<tr><td>{_e(r.round)}</td><td>{_e(m.board)}</td><td>{_e(m.id)}</td>"
                         f"<td>{_e(m.players[0])} v {_e(m.players[1])}</td><td>{_e(score)}</td>"
                         f"<td class=win>{_e(m.winner)}</td></tr>")
        for name in r.byes:
            parts.append(f"<tr><td>{_e(r.round)}</td><td></td><td></td><td>{_e(name)} (bye)</td>"
                         "<td></td><td></td></tr>")
    parts.append("</table></section>")
    keys = sorted({k for s in standings for k in s.tiebreaks})
    parts.append("<section><h2>Standings</h2><table><tr><th>rank</th><th>name</th><th>won</th>"
                 "<th>lost</th><th>points for</th><th>points against</th>"
                 + "".join(f"<th>{_e(k.replace('_', ' '))}</th>" for k in keys)
                 + "<th>status</th></tr>")
    for s in standings:
        parts.append(f"<tr><td>{s.rank}</td><td>{_e(s.name)}</td><td>{s.wins}</td><td>{s.losses}</td>"
                     f"<td>{s.points_for}</td><td>{s.points_against}</td>"
                     + "".join(f"<td>{_e(number(s.tiebreaks.get(k, '')))}</td>" for k in keys)
                     + f"<td>{_e(s.status)}</td></tr>")
    parts.append("</table></section></body></html>")
    return "\n".join(parts) + "\n"
