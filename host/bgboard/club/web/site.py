"""The club's web site as one Starlette app (adapter): ``create_app(site)``.

Pages are rendered on the server with Jinja2 (autoescape on for every template), live boards
are pushed by Server-Sent Events (:mod:`.room`), the director's pages sit behind the login
(:mod:`.login`).  The routes come by page group, each a small function returning its routes —
the room's (:mod:`.room`), the language switch and the login here, the club's events, matches
and director's desk (:mod:`.pages`, :mod:`.director_pages`), the evening's sheets, players and
set-up (:mod:`.evening_pages`, :mod:`.setup_pages`) — and :func:`create_app` puts them
together; a refusal raised by a handler is :mod:`.refusals`'.  Reading the club database runs in Starlette's thread pool (the handlers
are plain ``def``), so the event loop that also carries the boards' MQTT messages never waits
on SQLite.  Every response carries a strict Content-Security-Policy: scripts and styles only
from this site, so even a name that slipped past escaping could not run.
"""

from __future__ import annotations

import functools
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bgboard.club.live_boards import LiveHub
from bgboard.club.vocabulary import named
from bgboard.club.web import login as auth
from bgboard.club.web.live_wire import page_words
from bgboard.club.web.boardview import bounded
from bgboard.club.web.door import Door
from bgboard.club.web.page_language import (LANG_COOKIE, LANG_COOKIE_DAYS, club_words, request_language, safe_next,
                                            switch_links, words_of)
from bgboard.club.web.refusals import refusal_handlers
from bgboard.club.web.room import MAX_STREAMS, MAX_STREAMS_PER_ADDRESS, Fragments, Seats, room_routes, svg
from bgboard.language import LANGUAGES, say

HERE = Path(__file__).resolve().parent
SESSION_HOURS = 12
TV_SECONDS = 20
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


@dataclass
class Site:
    """What the pages read and change: the room's ``hub``; ``club``, the club service
    (``bgboard.club.service``; None: only the room is served); ``password_hash`` and
    the club's ``name``."""

    hub: LiveHub
    club: Any = None
    password_hash: Callable[[], str | None] = lambda: None
    name: str = "bgboard club"
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    tv_seconds: int = TV_SECONDS
    path: Path | str | None = None  # the club database's file or address (named in the server's log)
    director_sessions: Callable[[], str] = lambda: ""          # the live sessions' token
    end_director_sessions: Callable[[], None] = lambda: None   # a new token: all sessions end
    max_streams: int = MAX_STREAMS                          # live streams at once (the room's seats)
    max_streams_per_address: int = MAX_STREAMS_PER_ADDRESS
    gallery: tuple[str, str] | None = None   # (WebSocket URL, club topic): the pages watch the live boards there


def headers_for(gallery: str | None) -> list[tuple[bytes, bytes]]:
    """:data:`HEADERS`, the pages allowed to open a WebSocket to the ``gallery`` if there is one."""
    if not gallery:
        return HEADERS
    policy = HEADERS[0][1] + b"; connect-src 'self' " + gallery.encode()
    return [(HEADERS[0][0], policy), *HEADERS[1:]]


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP response (see :func:`headers_for`)."""

    def __init__(self, app: ASGIApp, gallery: str | None = None) -> None:
        self.app = app
        self.headers = headers_for(gallery)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + self.headers
            await send(message)

        await self.app(scope, receive, with_headers)


def templates(language: str = "en") -> Environment:
    """The pages' templates speaking ``language``: Jinja2's i18n extension with the club's
    catalogue installed (``{% trans %}`` and ``_()`` in the templates; docs/languages.md)."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    words = club_words(language)
    env.install_gettext_translations(words, newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = language
    env.globals["words"] = words
    env.globals["gallery_words"] = page_words(words)   # the gallery script's words, once per language
    env.globals["named"] = functools.partial(named, words)   # a stored code (format, status) in words
    return env


class Pages:
    """The site's pages rendered in each visitor's language: one Jinja2 environment per
    language, the live fragments, and the one way every page and refusal is made."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.envs = {code: templates(code) for code in LANGUAGES}
        for env in self.envs.values():
            env.globals["site_name"] = site.name
            env.globals["has_club"] = site.club is not None   # also for the live fragments
            env.globals["gallery"] = site.gallery             # (URL, club topic) or None: where the pages watch
        self.fragments = Fragments(self.render)

    def render(self, name: str, context: dict[str, Any]) -> str:
        """``name`` in the language ``context["lang"]`` (English when it has none)."""
        return self.envs[context.get("lang") or "en"].get_template(name).render(context)

    def tv_pages(self) -> list[str]:
        """The pages the TV view cycles through: the room, then each running event's."""
        pages = ["/"]
        if self.site.club is not None:
            from bgboard.club.web.pages import tv_pages as event_pages

            pages += event_pages(self.site)
        return pages

    def page(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render a page; from the event loop pass ``tv_pages`` (it reads the database)."""
        site = self.site
        tv = "tv" in request.query_params
        if tv and context.get("tv_pages") is None:
            context["tv_pages"] = self.tv_pages()
        lang = request_language(request.cookies, request.headers)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        context.update(
            request=request, svg=svg, tv=tv, tv_seconds=site.tv_seconds,
            csrf=auth.csrf_token(request), director=auth.is_director(request),
            has_club=site.club is not None, lang=lang, languages=switch_links(here, lang),
        )
        return HTMLResponse(self.render(name, context), status_code=status,
                            headers={"Content-Language": lang, "Vary": "Accept-Language, Cookie"})

    def refused(self, request: Request, error: auth.Refused) -> HTMLResponse:
        return self.page(request, "refused.html", status=error.status, sentence=error.sentence, tv_pages=[])


def language_routes(refused: Callable[[Request, auth.Refused], Response]) -> list[Route]:
    """``GET /language/<code>?next=/path``: the visitor's language switch."""

    async def language(request: Request) -> Response:
        """The switch, remembered in a cookie (no secret in it, and nothing else changes: a link
        may set it, as any page's switch does); back to ``next`` on this site."""
        code = request.path_params["code"]
        if code not in LANGUAGES:
            return refused(request, auth.Refused(404, say(words_of(request), "There is no language %(code)s here.",
                                                          code=bounded(code, 20) or "")))
        response = RedirectResponse(safe_next(request.query_params.get("next")), status_code=303)
        response.set_cookie(LANG_COOKIE, code, max_age=LANG_COOKIE_DAYS * 86400, path="/",
                            httponly=True, samesite="lax")
        return response

    return [Route("/language/{code:str}", language)]


def login_routes(site: Site, pages: Pages) -> list[Route]:
    """The director's login and logout."""
    return [
        Route("/director/login", auth.login_route(pages.page, site.password_hash, site.director_sessions),
              methods=["GET", "POST"]),
        Route("/director/logout", auth.logout_route(pages.refused, site.end_director_sessions), methods=["POST"]),
    ]


def club_routes(site: Site, pages: Pages) -> list[Route]:
    """The pages over the club database, by page group (the evening's first, as before the
    club's own: ``/director/setup`` is a page, ``/director/ACTION`` a form's answer)."""
    from bgboard.club.web.director_pages import director_routes
    from bgboard.club.web.evening_pages import player_routes, sheet_routes
    from bgboard.club.web.pages import event_routes, match_routes
    from bgboard.club.web.setup_pages import setup_routes

    groups = (sheet_routes, player_routes, setup_routes, event_routes, match_routes, director_routes)
    return [route for group in groups for route in group(site, pages.page, pages.refused)]


def middleware(site: Site, refused: Callable[[Request, auth.Refused], Response]) -> list[Middleware]:
    """The security headers, the signed session and the door (a request judged on its
    headers before its body is read)."""

    async def director(request: Request) -> bool:
        return await run_in_threadpool(auth.check_director, request, site.director_sessions)

    return [
        Middleware(SecurityHeaders, gallery=site.gallery[0] if site.gallery else None),
        Middleware(SessionMiddleware, secret_key=site.secret_key, session_cookie="bgboard_club",
                   max_age=SESSION_HOURS * 3600, same_site="strict"),
        Middleware(Door, director=director, refuse=refused),
    ]


def create_app(site: Site) -> Starlette:
    """The club's site: the room, the visitor's language and the director's login, and the
    club's pages when there is a club (:func:`club_routes`)."""
    pages = Pages(site)
    seats = Seats(site.max_streams, site.max_streams_per_address)
    routes = [
        *room_routes(site.hub, pages.page, pages.refused, pages.tv_pages, pages.fragments, seats),
        *language_routes(pages.refused),
        *login_routes(site, pages),
        *(club_routes(site, pages) if site.club is not None else []),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, middleware=middleware(site, pages.refused),
                    exception_handlers=refusal_handlers(site, pages.page))
    app.state.fragments = pages.fragments
    app.state.seats = seats
    return app
