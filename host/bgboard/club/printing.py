"""Draw sheets and match slips to print (pure: HTML text from the director's records).

:func:`draw_page` is the sheet pinned to the wall: an elimination event's bracket as a
bracket (one column per round, each flight on its own landscape page), a Swiss or round
robin's table (a row per player, a column per round), every match still to play with its
board (table) number; the standings and, once final, the payouts follow on their own page
when asked.  :func:`slips_page` is one slip per match to play (event, round, match number,
board, length, both players with boxes for the score and a signature), for clubs without
networked boards.  Both link ``css_href`` (the web site, whose policy allows no inline
style) or inline ``css_text`` (the export's file).  Every name is escaped.  The sheets speak
the director's language: ``words`` (the ``club`` catalogue; English by default), on the web
the page's language, for ``bgboard club export`` its ``--lang`` (docs/languages.md).
"""

from __future__ import annotations

import gettext
import html
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from bgboard.club.vocabulary import named
from bgboard.language import ENGLISH, N_, Words, say, say_n

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

FLIGHT_TITLES = {"main": N_("Main flight"), "consolation": N_("Consolation flight"), "last-chance": N_("Last chance")}



def _e(x: object) -> str:
    return html.escape("" if x is None else str(x))


def _lang(words: Words) -> str:
    """The sheet's language code: the catalogue's own (gettext's ``info()``), English for none."""
    found = words.info().get("language") if isinstance(words, gettext.NullTranslations) else None
    return found or "en"


def _head(title: str, css_href: str | None, css_text: str | None, body_class: str, words: Words) -> list[str]:
    style = (f'<link rel="stylesheet" href="{_e(css_href)}">' if css_href else
             f"<style>{css_text or ''}</style>")
    return ["<!DOCTYPE html>", f'<html lang="{_e(_lang(words))}"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title>", style, f'</head><body class="print {body_class}">']


def _settings_line(club: str, event: Any, words: Words) -> str:
    consolation = (" (" + say(words, "consolation %(length)s", length=event.consolation_length) + ")"
                   if event.consolation_length else "")
    clock: dict[str, Any] = event.clock or {}
    # (the texts are said outside the f-strings: Babel reads no call inside one)
    parts = [club, named(words, event.format),
             say(words, "%(length)s-point matches", length=event.length) + consolation,
             say(words, "rules %(rules)s", rules=event.rules),
             say(words, "clock %(minutes)s min per point + %(delay)s s delay",
                 minutes=clock.get("reserve_per_point_s", 0) // 60, delay=clock.get("delay_s", 0)),
             say_n(words, "%(n)d player", "%(n)d players", len(event.players)), named(words, event.status)]
    return '<p class="meta">' + " · ".join(_e(part) for part in parts) + "</p>"


def _heads(texts: Sequence[str]) -> str:
    """Table heads (texts already said in the sheet's language)."""
    return "".join(f"<th>{_e(text)}</th>" for text in texts)


def where(m: Any, words: Words = ENGLISH) -> str:
    """'board 3' for a match still to play that has a board, else ''."""
    return say(words, "board %(number)s", number=m.board) if m is not None and m.status == "pending" and m.board else ""


def bracket_html(nodes: Sequence[Any], matches: dict[int, Any], words: Words = ENGLISH) -> list[str]:
    """One ``section.flight`` per flight: its rounds as columns of match boxes."""
    flights: dict[str, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for n in nodes:
        flights[n.flight][n.stage].append(n)
    out: list[str] = []
    for flight, stages in flights.items():
        order = sorted(stages)
        heading = say(words, FLIGHT_TITLES[flight]) if flight in FLIGHT_TITLES else flight
        out.append(f'<section class="flight" data-flight="{_e(flight)}"><h2>{_e(heading)}</h2>'
                   '<div class="sheet-bracket">')
        for number, stage in enumerate(order, 1):
            title = say(words, "Final") if stage == order[-1] else say(words, "Round %(number)s", number=number)
            out.append(f'<div class="col"><h3>{_e(title)}</h3><div class="games">')
            for n in stages[stage]:
                m = matches.get(n.match_id) if n.match_id is not None else None
                cls = n.state + (" pending" if m is not None and m.status == "pending" else "")
                out.append(f'<div class="box {_e(cls)}" id="node-{_e(n.node)}">')
                for side in (0, 1):
                    who = n.players[side] or (say(words, "bye") if n.state == "bye" else "")
                    won = " won" if n.winner and n.winner == n.players[side] else ""
                    score = m.score[side] if m is not None and m.score else ""
                    out.append(f'<div class="p{won}"><span class="who">{_e(who)}</span>'
                               f'<span class="pts">{_e(score)}</span></div>')
                tag: list[str] = []
                if m is not None and m.number:
                    tag.append(_e(say(words, "match %(number)s", number=m.number)))
                if where(m):
                    tag.append(f'<b class="table">{_e(where(m, words))}</b>')
                if m is not None and m.status == "forfeit":
                    tag.append(_e(say(words, "forfeit")))
                if tag:
                    out.append(f'<div class="tag">{"<br>".join(tag)}</div>')
                out.append("</div>")
            out.append("</div></div>")
        out.append("</div></section>")
    return out


def table_html(standings: Sequence[Any], matches: Sequence[Any], rounds: int, words: Words = ENGLISH) -> list[str]:
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
                cells[me][m.round] = _e(say(words, "bye"))
                continue
            mark = "" if m.winner is None else (say(words, "W") + " " if m.winner == me else say(words, "L") + " ")
            score = f"{m.score[side]}-{m.score[1 - side]} " if m.score else ""
            table = f' <b class="table">{_e(where(m, words))}</b>' if where(m) else ""
            cells[me][m.round] = _e(say(words, "%(mark)s%(score)sv #%(row)s", mark=mark, score=score,
                                        row=rank.get(other, "?"))) + table
    heads = ["#", say(words, "Player")] + [say(words, "Round %(number)s", number=r) for r in range(1, rounds + 1)]
    out = ['<section class="flight"><table class="sheet"><tr>' + _heads(heads + [say(words, "Won")]) + "</tr>"]
    for s in standings:
        out.append(f"<tr><td>{s.rank}</td><td>{_e(s.name)}</td>"
                   + "".join(f"<td>{cells[s.name].get(r, '')}</td>" for r in range(1, rounds + 1))
                   + f"<td>{s.wins}</td></tr>")
    out.append("</table></section>")
    return out


def standings_html(standings: Sequence[Any], payouts: dict[str, Any] | None = None,
                   words: Words = ENGLISH) -> list[str]:
    keys = list(standings[0].tiebreaks) if standings else []
    heads = (["#"] + [say(words, h) for h in (N_("Player"), N_("Won"), N_("Lost"), N_("Points"))]
             + [named(words, k) for k in keys] + [say(words, "Status")])
    title = say(words, "Standings")
    out = [f'<section class="standings"><h2>{_e(title)}</h2><table class="sheet"><tr>' + _heads(heads) + "</tr>"]
    for s in standings:
        out.append(f"<tr><td>{s.rank}</td><td>{_e(s.name)}</td><td>{s.wins}</td><td>{s.losses}</td>"
                   f"<td>{s.points_for}-{s.points_against}</td>"
                   + "".join(f"<td>{_e(f'{s.tiebreaks[k]:g}')}</td>" for k in keys)
                   + f"<td>{_e(named(words, s.status))}</td></tr>")
    out.append("</table>")
    if payouts and payouts.get("final") and payouts.get("paid"):
        pot = say(words, "Pot %(pot)s (%(gross)s in entry fees, rake %(rake)s)", pot=payouts["pot"],
                  gross=payouts["gross"], rake=payouts["rake"])
        title = say(words, "Payouts")
        heads = [say(words, h) for h in (N_("Flight"), N_("Place"), N_("Player"), N_("Amount"))]
        out.append(f'<h2>{_e(title)}</h2><p class="meta">{_e(pot)}</p><table class="sheet payouts"><tr>'
                   + _heads(heads) + "</tr>")
        for p in payouts["paid"]:
            out.append(f"<tr><td>{_e(named(words, p['flight']))}</td><td>{_e(p['place'])}</td><td>{_e(p['name'])}</td>"
                       f"<td>{_e(p['amount'])}</td></tr>")
        out.append("</table>")
    out.append("</section>")
    return out


def draw_page(club: str, event: Any, nodes: Sequence[Any], matches: Sequence[Any],
              standings: Sequence[Any], rounds: int, *, with_standings: bool = True,
              payouts: dict[str, Any] | None = None, css_href: str | None = None,
              css_text: str | None = None, with_draw: bool = True, words: Words = ENGLISH) -> str:
    """The printable draw (module doc); ``with_draw=False``: the standings sheet alone."""
    parts = _head(f"{event.name} — {club}", css_href, css_text, "draw", words)
    parts += [f"<h1>{_e(event.name)}</h1>", _settings_line(club, event, words)]
    if with_draw:
        if nodes:
            parts += bracket_html(nodes, {m.id: m for m in matches}, words)
        elif matches:
            parts += table_html(standings, matches, rounds, words)
        else:
            parts.append('<p class="empty">' + _e(say(words, "No round has been paired yet.")) + "</p>")
    if with_standings:
        parts += standings_html(standings, payouts, words)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def slips_page(club: str, event: Any, matches: Sequence[Any], *, css_href: str | None = None,
               css_text: str | None = None, words: Words = ENGLISH) -> str:
    """One slip per match still to play (module doc)."""
    parts = _head(say(words, "Match slips · %(event)s — %(club)s", event=event.name, club=club), css_href, css_text,
                  "slips", words)
    pending = [m for m in matches if m.status == "pending"]
    if not pending:
        parts.append('<p class="empty">' + _e(say(words, "%(event)s: no match is waiting to be played.", event=event.name))
                     + "</p>")
    points, signature = _e(say(words, "points:")), _e(say(words, "signature:"))
    for m in pending:
        board = where(m, words) or say(words, "board %(number)s", number="?")
        round_, match = say(words, "round %(number)s", number=m.round), say(words, "match %(number)s", number=m.number)
        length = say_n(words, "%(n)d point", "%(n)d points", m.length)
        parts.append(
            f'<div class="slip" id="slip-{m.id}"><p class="slip-head"><b>{_e(event.name)}</b> · '
            f'{_e(round_)} · {_e(match)} · <b class="table">{_e(board)}</b> · '
            f"{_e(length)}</p><table class=\"sheet\">"
            + "".join(f'<tr><td class="who">{_e(p)}</td><td class="box-score">{points}</td>'
                      f'<td class="sign">{signature}</td></tr>' for p in m.players)
            + "</table></div>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


__all__ = ["PRINT_CSS", "draw_page", "slips_page", "bracket_html", "table_html", "standings_html", "where"]
