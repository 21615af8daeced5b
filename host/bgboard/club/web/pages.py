"""The club's pages over the club service (``bgboard.club.director.Director``).

Public: the events, an event's bracket (elimination, both flights) or round-by-round table
(Swiss, round robin), its standings with tie-breaks, the ratings, a match's record with its
``.mat``.  The director's (after the login, every form with its CSRF token): pair the next
round, enter or correct a result, award a forfeit, withdraw a player, add penalty points —
each a call of the same ``Director`` method as the CLI, with the actor :data:`ACTOR` in the
audit log.  Handlers that read or change the database are plain functions (Starlette runs
them in its thread pool) and open their own connection.  The routes come by page group
(:func:`event_routes`, :func:`match_routes`; the director's are
:mod:`bgboard.club.web.director_pages`), put together by :func:`bgboard.club.web.site.create_app`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bgboard.club import analysis_queue
from bgboard.club.model import ELIMINATION
from bgboard.club.web import login as auth
from bgboard.club.web.page_language import words_of
from bgboard.club.web.record import read_record
from bgboard.errors import InputError
from bgboard.language import ENGLISH, N_, Words, say

ACTOR = "director (web)"
FLASH = "flash"
STAGE_NAMES = {"main": N_("Main flight"), "consolation": N_("Consolation flight")}


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 penalty point', '2 penalty points'."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def event_url(name: str) -> str:
    return "/events/" + quote(name, safe="")


def standings_url(name: str) -> str:
    return "/standings/" + quote(name, safe="")


@dataclass
class Column:
    """A bracket's stage: the final, or round ``number`` (the template says which)."""

    number: int
    final: bool
    matches: list[dict[str, Any]] = field(default_factory=list)


def bracket_columns(nodes: list[Any], matches: dict[int, Any]) -> dict[str, list[Column]]:
    """Bracket nodes → per flight, one column per stage, each match with players, scores and
    the winner marked."""
    flights: dict[str, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for node in nodes:
        flights[node.flight][node.stage].append(node)
    out: dict[str, list[Column]] = {}
    for flight, stages in flights.items():
        columns = []
        order = sorted(stages)
        for number, stage in enumerate(order, 1):   # stages count across flights: renumber
            column = Column(number, stage == order[-1])
            for node in stages[stage]:
                info = matches.get(node.match_id) if node.match_id is not None else None
                score = info.score if info is not None and info.score else None
                column.matches.append({
                    "node": node.node, "players": node.players, "winner": node.winner,
                    "score": score, "match_id": node.match_id, "state": node.state,
                    "forfeit": info is not None and info.status == "forfeit",
                    "has_mat": info is not None and info.has_mat,
                    "number": info.number if info is not None else None,
                    "board": info.board if info is not None and info.status == "pending" else None,
                })
            columns.append(column)
        out[flight] = columns
    return out


def round_table(standings: list[Any], matches: list[Any], rounds: int,
                words: Words = ENGLISH) -> list[dict[str, Any]]:
    """Swiss / round robin: a row per player (standings order), a cell per round, in
    ``words``' language."""
    cells: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for m in matches:
        a, b = m.players
        for me, other, side in ((a, b, 0), (b, a, 1)):
            if me is None:
                continue
            if other is None:
                cells[me][m.round] = {"text": say(words, "bye"), "match_id": None}
                continue
            if m.winner is None:
                mark = "·"
            else:  # a won or lost match's letter ("W" and "L" in English)
                mark = say(words, "W") if m.winner == me else say(words, "L")
            score = f" {m.score[side]}-{m.score[1 - side]}" if m.score else ""
            extra = " (" + say(words, "forfeit") + ")" if m.status == "forfeit" else ""
            where = " · " + say(words, "board %(number)s", number=m.board) if m.status == "pending" and m.board else ""
            text = say(words, "%(mark)s%(score)s v %(opponent)s", mark=mark, score=score, opponent=other)
            cells[me][m.round] = {"text": f"{text}{extra}{where}", "match_id": m.id}
    return [{"standing": s, "cells": [cells[s.name].get(r) for r in range(1, rounds + 1)]}
            for s in standings]


def not_found(refused: Callable[..., Response], request: Request, sentence: str) -> Response:
    return refused(request, auth.Refused(404, sentence))


def event_routes(site: Any, page: Callable[..., Response], refused: Callable[..., Response]) -> list[Route]:
    """The events, an event's bracket or table, its standings and the ratings (public);
    ``site.club()`` opens a ``Director``."""

    def events(request: Request) -> Response:
        with site.club() as club:
            return page(request, "events.html", events=club.events(), event_url=event_url)

    def event(request: Request) -> Response:
        name = request.path_params["name"]
        with site.club() as club:
            try:
                info = club.event(name)
            except InputError as error:
                return not_found(refused, request, str(error))
            matches = club.matches(info.name)
            standings = club.standings(info.name)
            rounds = club.rounds(info.name)
            champion = next((s.name for s in standings if s.status == "champion"), None)
            context: dict[str, Any] = dict(event=info, champion=champion, standings_url=standings_url,
                                           rounds=rounds, stage_names=STAGE_NAMES,
                                           pr_rows=analysis_queue.pr_table(club.db, info.name),
                                           payouts=evening_payouts(club, info.name))
            if info.format in ELIMINATION:
                context["flights"] = bracket_columns(club.bracket(info.name), {m.id: m for m in matches})
            else:
                count = max([r.round for r in rounds] + [info.rounds or 0])
                context["table"] = round_table(standings, matches, count, words_of(request))
                context["round_numbers"] = list(range(1, count + 1))
            return page(request, "event.html", **context)

    def standings(request: Request) -> Response:
        name = request.path_params["name"]
        with site.club() as club:
            try:
                info = club.event(name)
            except InputError as error:
                return not_found(refused, request, str(error))
            rows = club.standings(info.name)
            keys = list(rows[0].tiebreaks) if rows else []
            return page(request, "standings.html", event=info, rows=rows, keys=keys,
                        event_url=event_url)

    def ratings(request: Request) -> Response:
        with site.club() as club:
            return page(request, "ratings.html", players=club.ratings(), pr_rows=analysis_queue.pr_table(club.db))

    return [
        Route("/events", events),
        Route("/events/{name:path}", event),
        Route("/standings/{name:path}", standings),
        Route("/ratings", ratings),
    ]


def match_routes(site: Any, page: Callable[..., Response], refused: Callable[..., Response]) -> list[Route]:
    """A match's record with its analysis, and its ``.mat`` (public)."""

    def match(request: Request) -> Response:
        number = request.path_params["number"]
        with site.club() as club:
            try:
                info = club.match(number)
            except InputError as error:
                return not_found(refused, request, str(error))
            text = club.match_record(number)
            analysis = analysis_queue.match_figures(club.db, info.id)
        record, problem = None, None
        if text:
            try:
                record = read_record(text, words_of(request))
            except InputError as error:
                problem = str(error)
        return page(request, "match.html", m=info, record=record, problem=problem,
                    event_url=event_url, analysis=analysis)

    def mat(request: Request) -> Response:
        number = request.path_params["number"]
        with site.club() as club:
            try:
                text = club.match_record(number)
            except InputError as error:
                return not_found(refused, request, str(error))
        if not text:
            return not_found(refused, request, f"Match {number} has no .mat record.")
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="match-{number}.mat"'})

    return [Route("/match/{number:int}", match), Route("/match/{number:int}/mat", mat)]


def evening_payouts(club: Any, event: str) -> dict[str, Any] | None:
    """The event's payouts for its page (None: it has no entry fee)."""
    from bgboard.club.evening import payouts_or_none

    return payouts_or_none(club, event)


def tv_pages(site: Any) -> list[str]:
    """Each running event's bracket/table and standings, for the TV view's cycle."""
    with site.club() as club:
        running = [e.name for e in club.events() if e.status != "finished"]
    return [url for name in running for url in (event_url(name), standings_url(name))]
