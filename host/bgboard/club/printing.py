"""Draw sheets and match slips to print (pure: HTML text from the director's records).

:func:`draw_page` is the sheet pinned to the wall: an elimination event's bracket as a
bracket (one column per round, each flight on its own landscape page), a Swiss or round
robin's table (a row per player, a column per round), every match still to play with its
board (table) number; the standings and, once final, the payouts follow on their own page
when asked.  :func:`slips_page` is one slip per match to play (event, round, match number,
board, length, both players with boxes for the score and a signature), for clubs without
networked boards.  Both link ``css_href`` (the web site, whose policy allows no inline
style) or inline ``css_text`` (the export's file).  Every name is escaped.
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

#: The sheets' style: A4 or Letter, landscape; each flight and the standings on their own page.
PRINT_CSS = """
@page { size: landscape; margin: 8mm; }
* { box-sizing: border-box; }
body.print { font: 10pt/1.25 system-ui, "DejaVu Sans", sans-serif; color: #000; background: #fff; margin: 0; padding: 6px; }
body.print h1 { font-size: 14pt; margin: 0 0 2px; }
body.print h2 { font-size: 11pt; margin: 4px 0; }
body.print .meta { font-size: 8pt; color: #333; margin: 0 0 4px; }
.sheet-bracket { display: flex; gap: 8px; align-items: stretch; }
.sheet-bracket .col { flex: 1 1 0; min-width: 0; display: flex; flex-direction: column; }
.sheet-bracket .games { flex: 1; display: flex; flex-direction: column; justify-content: space-around; gap: 3px; }
.sheet-bracket h3 { font-size: 8pt; margin: 0; color: #333; text-align: center; }
.box { border: 1px solid #000; border-radius: 2px; padding: 1px 3px; font-size: 7.5pt; break-inside: avoid;
       display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: 4px; }
.box.empty { visibility: hidden; }
.box .p { display: flex; justify-content: space-between; gap: 4px; white-space: nowrap; min-height: 1.25em; }
.box .who { overflow: hidden; text-overflow: ellipsis; }
.box .won { font-weight: 700; }
.box .p { grid-column: 1; }
.box .tag { grid-column: 2; grid-row: 1 / span 2; align-self: center; font-size: 6.5pt; color: #333;
            border-left: 1px dotted #999; padding-left: 3px; text-align: right; line-height: 1.1; }
b.table { font-weight: 700; color: #000; }
table.sheet { border-collapse: collapse; width: 100%; font-size: 8.5pt; }
table.sheet th, table.sheet td { border: 1px solid #555; padding: 1px 4px; text-align: left; }
table.sheet td { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 40ch; }
section.flight + section.flight, section.flight ~ section.standings { break-before: page; }
.slip { border: 1px dashed #000; padding: 6px; margin: 0 0 6px; break-inside: avoid; }
.slip .slip-head { margin: 0 0 4px; }
.slip td.who { width: 45%; font-weight: 700; }
.slip td.box-score { width: 20%; }
body.slips { columns: 2; column-gap: 8mm; }
@media screen { body.print { max-width: 1400px; margin: 0 auto; } .sheet-bracket { overflow-x: auto; } }
"""

FLIGHT_TITLES = {"main": "Main flight", "consolation": "Consolation flight", "last-chance": "Last chance"}


def _e(x: object) -> str:
    return html.escape("" if x is None else str(x))


def _plural(n: int, one: str) -> str:
    return f"{n} {one}{'' if n == 1 else 's'}"


def _head(title: str, css_href: str | None, css_text: str | None, body_class: str) -> list[str]:
    style = (f'<link rel="stylesheet" href="{_e(css_href)}">' if css_href else
             f"<style>{css_text or ''}</style>")
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title>", style, f'</head><body class="print {body_class}">']


def _settings_line(club: str, event: Any) -> str:
    consolation = f" (consolation {_e(event.consolation_length)})" if event.consolation_length else ""
    clock: dict[str, Any] = event.clock or {}
    return (f'<p class="meta">{_e(club)} · {_e(event.format)} · {_e(event.length)}-point matches'
            f"{consolation} · rules {_e(event.rules)} · clock {_e(clock.get('reserve_per_point_s', 0) // 60)}"
            f" min per point + {_e(clock.get('delay_s', 0))} s delay · "
            f"{_e(_plural(len(event.players), 'player'))} · {_e(event.status)}</p>")


def where(m: Any) -> str:
    """'board 3' for a match still to play that has a board, else ''."""
    return f"board {m.board}" if m is not None and m.status == "pending" and m.board else ""


def bracket_html(nodes: Sequence[Any], matches: dict[int, Any]) -> list[str]:
    """One ``section.flight`` per flight: its rounds as columns of match boxes."""
    flights: dict[str, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for n in nodes:
        flights[n.flight][n.stage].append(n)
    out: list[str] = []
    for flight, stages in flights.items():
        order = sorted(stages)
        out.append(f'<section class="flight" data-flight="{_e(flight)}"><h2>{_e(FLIGHT_TITLES.get(flight, flight))}</h2>'
                   '<div class="sheet-bracket">')
        for number, stage in enumerate(order, 1):
            title = "Final" if stage == order[-1] else f"Round {number}"
            out.append(f'<div class="col"><h3>{title}</h3><div class="games">')
            for n in stages[stage]:
                m = matches.get(n.match_id) if n.match_id is not None else None
                cls = n.state + (" pending" if m is not None and m.status == "pending" else "")
                out.append(f'<div class="box {_e(cls)}" id="node-{_e(n.node)}">')
                for side in (0, 1):
                    who = n.players[side] or ("bye" if n.state == "bye" else "")
                    won = " won" if n.winner and n.winner == n.players[side] else ""
                    score = m.score[side] if m is not None and m.score else ""
                    out.append(f'<div class="p{won}"><span class="who">{_e(who)}</span>'
                               f'<span class="pts">{_e(score)}</span></div>')
                tag: list[str] = []
                if m is not None and m.number:
                    tag.append(f"match {m.number}")
                if where(m):
                    tag.append(f'<b class="table">{_e(where(m))}</b>')
                if m is not None and m.status == "forfeit":
                    tag.append("forfeit")
                if tag:
                    out.append(f'<div class="tag">{"<br>".join(tag)}</div>')
                out.append("</div>")
            out.append("</div></div>")
        out.append("</div></section>")
    return out


def table_html(standings: Sequence[Any], matches: Sequence[Any], rounds: int) -> list[str]:
    """Swiss / round robin: a crosstable — a row per player (standings order), a cell per
    round naming the opponent by his row number (``W 3-1 v #12``), and the board of a match
    still to play."""
    rank = {s.name: s.rank for s in standings}
    cells: dict[str, dict[int, str]] = defaultdict(dict)
    for m in matches:
        a, b = m.players
        for me, other, side in ((a, b, 0), (b, a, 1)):
            if me is None:
                continue
            if other is None:
                cells[me][m.round] = "bye"
                continue
            mark = "" if m.winner is None else ("W " if m.winner == me else "L ")
            score = f"{m.score[side]}-{m.score[1 - side]} " if m.score else ""
            table = f' <b class="table">{_e(where(m))}</b>' if where(m) else ""
            cells[me][m.round] = f"{mark}{score}v #{rank.get(other, '?')}{table}"
    out = ['<section class="flight"><table class="sheet"><tr><th>#</th><th>Player</th>'
           + "".join(f"<th>Round {r}</th>" for r in range(1, rounds + 1)) + "<th>Won</th></tr>"]
    for s in standings:
        out.append(f"<tr><td>{s.rank}</td><td>{_e(s.name)}</td>"
                   + "".join(f"<td>{cells[s.name].get(r, '')}</td>" for r in range(1, rounds + 1))
                   + f"<td>{s.wins}</td></tr>")
    out.append("</table></section>")
    return out


def standings_html(standings: Sequence[Any], payouts: dict[str, Any] | None = None) -> list[str]:
    keys = list(standings[0].tiebreaks) if standings else []
    out = ['<section class="standings"><h2>Standings</h2><table class="sheet"><tr><th>#</th><th>Player</th>'
           "<th>Won</th><th>Lost</th><th>Points</th>"
           + "".join(f"<th>{_e(k.replace('_', ' '))}</th>" for k in keys) + "<th>Status</th></tr>"]
    for s in standings:
        out.append(f"<tr><td>{s.rank}</td><td>{_e(s.name)}</td><td>{s.wins}</td><td>{s.losses}</td>"
                   f"<td>{s.points_for}-{s.points_against}</td>"
                   + "".join(f"<td>{_e(f'{s.tiebreaks[k]:g}')}</td>" for k in keys)
                   + f"<td>{_e(s.status)}</td></tr>")
    out.append("</table>")
    if payouts and payouts.get("final") and payouts.get("paid"):
        out.append(f'<h2>Payouts</h2><p class="meta">pot {_e(payouts["pot"])} ({_e(payouts["gross"])} in entry '
                   f'fees, rake {_e(payouts["rake"])})</p><table class="sheet payouts"><tr><th>Flight</th>'
                   "<th>Place</th><th>Player</th><th>Amount</th></tr>")
        for p in payouts["paid"]:
            out.append(f"<tr><td>{_e(p['flight'])}</td><td>{_e(p['place'])}</td><td>{_e(p['name'])}</td>"
                       f"<td>{_e(p['amount'])}</td></tr>")
        out.append("</table>")
    out.append("</section>")
    return out


def draw_page(club: str, event: Any, nodes: Sequence[Any], matches: Sequence[Any],
              standings: Sequence[Any], rounds: int, *, with_standings: bool = True,
              payouts: dict[str, Any] | None = None, css_href: str | None = None,
              css_text: str | None = None, with_draw: bool = True) -> str:
    """The printable draw (module doc); ``with_draw=False``: the standings sheet alone."""
    parts = _head(f"{event.name} — {club}", css_href, css_text, "draw")
    parts += [f"<h1>{_e(event.name)}</h1>", _settings_line(club, event)]
    if with_draw:
        if nodes:
            parts += bracket_html(nodes, {m.id: m for m in matches})
        elif matches:
            parts += table_html(standings, matches, rounds)
        else:
            parts.append('<p class="empty">No round has been paired yet.</p>')
    if with_standings:
        parts += standings_html(standings, payouts)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def slips_page(club: str, event: Any, matches: Sequence[Any], *, css_href: str | None = None,
               css_text: str | None = None) -> str:
    """One slip per match still to play (module doc)."""
    parts = _head(f"Match slips · {event.name} — {club}", css_href, css_text, "slips")
    pending = [m for m in matches if m.status == "pending"]
    if not pending:
        parts.append(f'<p class="empty">{_e(event.name)}: no match is waiting to be played.</p>')
    for m in pending:
        parts.append(
            f'<div class="slip" id="slip-{m.id}"><p class="slip-head"><b>{_e(event.name)}</b> · round {m.round}'
            f" · match {_e(m.number)} · <b class=\"table\">{_e(where(m) or 'board ?')}</b> · "
            f"{_e(_plural(m.length, 'point'))}</p><table class=\"sheet\">"
            + "".join(f'<tr><td class="who">{_e(p)}</td><td class="box-score">points:</td>'
                      f'<td class="sign">signature:</td></tr>' for p in m.players)
            + "</table></div>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


__all__ = ["PRINT_CSS", "draw_page", "slips_page", "bracket_html", "table_html", "standings_html", "where"]
