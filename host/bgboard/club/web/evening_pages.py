"""The evening's public pages (over :mod:`bgboard.club.evening`): the sheets to print, the
players' own pages and the room's QR code; the director's set-up and check-in pages are
:mod:`bgboard.club.web.setup_pages`.

Public (no login, as the other club pages): ``/print/EVENT`` (the draw: bracket or table with
board numbers; ``?sheet=standings`` the standings and payouts), ``/slips/EVENT`` (a slip per
match to play), ``/players/NAME`` (a player's events, matches and rating history),
``/qr.svg?path=/...`` (a QR code of this site's address for that page, made with segno).
"""

from __future__ import annotations

import io
from typing import Any, Callable
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bgboard.club import evening as service
from bgboard.club.printing import PRINT_CSS
from bgboard.club.web import login as auth
from bgboard.club.web.page_language import words_of
from bgboard.errors import InputError
from bgboard.language import N_


def checkin_url(name: str) -> str:
    return "/director/checkin/" + quote(name, safe="")


def print_url(name: str) -> str:
    return "/print/" + quote(name, safe="")


def slips_url(name: str) -> str:
    return "/slips/" + quote(name, safe="")


def player_url(name: str) -> str:
    return "/players/" + quote(name, safe="")


def sheet_routes(site: Any, page: Callable[..., Response], refused: Callable[..., Response]) -> list[Route]:
    """The sheets to print (``/print/EVENT``, ``/slips/EVENT``, their stylesheet) and the
    room's QR code (``/qr.svg``), public."""

    def print_sheet(request: Request) -> Response:
        standings = request.query_params.get("sheet") == "standings"
        with site.club() as club:
            try:
                text = service.draw_sheet(club, request.path_params["name"], with_standings=standings,
                                          with_draw=not standings, css_href="/print.css",
                                          words=words_of(request))   # the director's page language
            except InputError as error:  # no such event
                return refused(request, auth.Refused(404, str(error)))
        return HTMLResponse(text)

    def slips(request: Request) -> Response:
        with site.club() as club:
            try:
                return HTMLResponse(service.slips_sheet(club, request.path_params["name"], css_href="/print.css",
                                                        words=words_of(request)))
            except InputError as error:  # no such event
                return refused(request, auth.Refused(404, str(error)))

    async def print_css(request: Request) -> Response:
        return Response(PRINT_CSS, media_type="text/css")

    async def qr(request: Request) -> Response:
        import segno

        path = request.query_params.get("path", "/")
        if not path.startswith("/") or path.startswith("//") or len(path) > 300:
            path = "/"
        url = str(request.base_url).rstrip("/") + path
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, title=url[:300])
        return Response(out.getvalue(), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    return [
        Route("/print.css", print_css),
        Route("/print/{name:path}", print_sheet),
        Route("/slips/{name:path}", slips),
        Route("/qr.svg", qr),
    ]


def player_page(club: Any, name: str, history: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``/players/NAME`` shows of the player ``name`` in the open ``club``: his events
    with his standing, his matches newest first with the rating each moved (his rating
    ``history``), and his performance ratings."""
    me = next(p for p in club.players() if p.name.lower() == " ".join(name.split()).lower())
    events, matches = [], []
    for e in club.events():
        if me.name not in e.players:
            continue
        rows = {s.name: s for s in club.standings(e.name)}
        events.append({"info": e, "standing": rows.get(me.name)})
        matches += [m for m in club.matches(e.name) if me.name in m.players and m.status != "bye"]
    by_match = {h["match_id"]: h for h in history}
    for_page = []
    for m in sorted(matches, key=lambda m: m.id, reverse=True):
        side = m.players.index(me.name)
        h = by_match.get(m.id)
        for_page.append({"m": m, "opponent": m.players[1 - side],
                         "score": f"{m.score[side]}-{m.score[1 - side]}" if m.score else m.status,
                         "result": "" if m.winner is None else (N_("won") if m.winner == me.name else N_("lost")),
                         "change": (h["rating_after"] - h["rating_before"]) if h else None})
    from bgboard.club import analysis_queue

    return dict(me=me, events=events, matches=for_page, history=history,
                pr_history=analysis_queue.pr_history(club.db, me.name),
                pr_overall=next(iter(analysis_queue.pr_table(club.db, player=me.name)), None))


def player_routes(site: Any, page: Callable[..., Response], refused: Callable[..., Response]) -> list[Route]:
    """A player's own page, ``/players/NAME`` (public)."""

    def player(request: Request) -> Response:
        with site.club() as club:
            name = request.path_params["name"]
            try:
                history = club.rating_history(name)
            except InputError as error:
                return refused(request, auth.Refused(404, str(error)))
            return page(request, "player.html", event_url=lambda n: "/events/" + quote(n, safe=""),
                        player_url=player_url, **player_page(club, name, history))

    return [Route("/players/{name:path}", player)]


__all__ = ["sheet_routes", "player_routes", "player_page", "checkin_url", "print_url", "slips_url", "player_url"]
