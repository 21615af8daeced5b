"""The club's web site as one Starlette app (adapter): ``create_app(site)``.

Pages are rendered on the server with Jinja2 (autoescape on for every template), live boards
are pushed by Server-Sent Events (:mod:`.room`), the director's pages sit behind the login
(:mod:`.director`).  Reading the club database runs in Starlette's thread pool (the handlers
are plain ``def``), so the event loop that also carries the boards' MQTT messages never waits
on SQLite.  Every response carries a strict Content-Security-Policy: scripts and styles only
from this site, so even a name that slipped past escaping could not run.
"""

from __future__ import annotations

import functools
import logging
import secrets
import sqlite3
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

from bgboard.club.db import ClubDatabaseError, ClubDatabaseUnavailableError, database_error
from bgboard.club.live_boards import LiveHub
from bgboard.club.vocabulary import named
from bgboard.club.web import login as auth
from bgboard.club.web.live_wire import page_words
from bgboard.club.web.boardview import bounded, view_of
from bgboard.club.web.door import Door
from bgboard.club.web.page_language import (LANG_COOKIE, LANG_COOKIE_DAYS, club_words, request_language, safe_next,
                                            switch_links, words_of)
from bgboard.club.web.room import FULL, MAX_STREAMS, MAX_STREAMS_PER_ADDRESS, Fragments, Seats, live_stream, svg
from bgboard.errors import EnvironmentFailure, InputError
from bgboard.language import LANGUAGES, say

HERE = Path(__file__).resolve().parent
log = logging.getLogger(__name__)
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


def create_app(site: Site) -> Starlette:
    envs = {code: templates(code) for code in LANGUAGES}
    for env in envs.values():
        env.globals["site_name"] = site.name
        env.globals["has_club"] = site.club is not None   # also for the live fragments
        env.globals["gallery"] = site.gallery             # (URL, club topic) or None: where the pages watch

    def render(name: str, context: dict[str, Any]) -> str:
        """``name`` in the language ``context["lang"]`` (English when it has none)."""
        return envs[context.get("lang") or "en"].get_template(name).render(context)

    fragments = Fragments(render)

    def tv_pages() -> list[str]:
        """The pages the TV view cycles through: the room, then each running event's."""
        pages = ["/"]
        if site.club is not None:
            from bgboard.club.web.pages import tv_pages as event_pages

            pages += event_pages(site)
        return pages

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render a page; from the event loop pass ``tv_pages`` (it reads the database)."""
        tv = "tv" in request.query_params
        if tv and context.get("tv_pages") is None:
            context["tv_pages"] = tv_pages()
        lang = request_language(request.cookies, request.headers)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        context.update(
            request=request, svg=svg, tv=tv, tv_seconds=site.tv_seconds,
            csrf=auth.csrf_token(request), director=auth.is_director(request),
            has_club=site.club is not None, lang=lang, languages=switch_links(here, lang),
        )
        return HTMLResponse(render(name, context), status_code=status,
                            headers={"Content-Language": lang, "Vary": "Accept-Language, Cookie"})

    def refused(request: Request, error: auth.Refused) -> HTMLResponse:
        return page(request, "refused.html", status=error.status, sentence=error.sentence, tv_pages=[])

    # ------------------------------------------------------------------ the room
    async def cycle(request: Request) -> list[str] | None:
        return await run_in_threadpool(tv_pages) if "tv" in request.query_params else None

    async def room(request: Request) -> Response:
        # the hub belongs to the event loop: read it here, not in a worker thread
        boards = [view_of(live) for live in site.hub.snapshot().values() if live.state or live.online]
        version = site.hub.version
        return page(request, "room.html", boards=boards, version=version, tv_pages=await cycle(request))

    async def board(request: Request) -> Response:
        number = request.path_params["number"]
        live = site.hub.get(number)
        if live is None:
            return refused(request, auth.Refused(404, say(words_of(request), "Board %(number)s has not reported tonight.",
                                                          number=number)))
        version = site.hub.version
        return page(request, "board.html", v=view_of(live), version=version, tv_pages=await cycle(request))

    seats = Seats(site.max_streams, site.max_streams_per_address)

    def full(request: Request) -> Response:
        return refused(request, auth.Refused(503, say(words_of(request), FULL)))

    async def live(request: Request) -> Response:
        return live_stream(site.hub, fragments, request, seats, lambda: full(request))

    async def language(request: Request) -> Response:
        """``GET /language/<code>?next=/path``: the visitor's language switch, remembered in a
        cookie (no secret in it, and nothing else changes: a link may set it, as any page's
        switch does); back to ``next`` on this site."""
        code = request.path_params["code"]
        if code not in LANGUAGES:
            return refused(request, auth.Refused(404, say(words_of(request), "There is no language %(code)s here.",
                                                          code=bounded(code, 20) or "")))
        response = RedirectResponse(safe_next(request.query_params.get("next")), status_code=303)
        response.set_cookie(LANG_COOKIE, code, max_age=LANG_COOKIE_DAYS * 86400, path="/",
                            httponly=True, samesite="lax")
        return response

    # ------------------------------------------------------------------ the director
    login = auth.login_route(page, site.password_hash, site.director_sessions)
    logout = auth.logout_route(refused, site.end_director_sessions)

    routes = [
        Route("/", room),
        Route("/board/{number:int}", board),
        Route("/live", live),
        Route("/language/{code:str}", language),
        Route("/director/login", login, methods=["GET", "POST"]),
        Route("/director/logout", logout, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    if site.club is not None:
        from bgboard.club.web.evening_pages import evening_routes
        from bgboard.club.web.pages import club_routes

        routes[-1:-1] = evening_routes(site, page, refused) + club_routes(site, page, refused)
    async def director(request: Request) -> bool:
        return await run_in_threadpool(auth.check_director, request, site.director_sessions)

    middleware = [
        Middleware(SecurityHeaders, gallery=site.gallery[0] if site.gallery else None),
        Middleware(SessionMiddleware, secret_key=site.secret_key, session_cookie="bgboard_club",
                   max_age=SESSION_HOURS * 3600, same_site="strict"),
        Middleware(Door, director=director, refuse=refused),   # judged on its headers before the body is read
    ]
    def database_trouble(request: Request, exc: Exception) -> Response:
        """A database hiccup (locked by another program, read-only, damaged): 503 and one
        sentence on the page, the details (file, who holds it) in the server's log."""
        where = site.path or "of the site"
        detail = database_error(exc, where) if isinstance(exc, sqlite3.Error) else exc
        log.warning("%s %s: %s", request.method, bounded(request.url.path, 200), detail)
        busy = "busy" in str(detail)
        words = words_of(request)
        sentence = (say(words, "The club's database is busy (another program is changing it): nothing was "
                               "changed, try again in a moment.") if busy else
                    say(words, "The club's database cannot be used just now: nothing was changed; the "
                               "director can see why in the server's log."))
        response = page(request, "refused.html", status=503, sentence=sentence, tv_pages=[])
        if busy:
            response.headers["Retry-After"] = "5"
        return response

    async def database_handler(request: Request, exc: Exception) -> Response:
        return await run_in_threadpool(database_trouble, request, exc)

    def bad_input(request: Request, exc: Exception) -> Response:
        """Any other bad input that reached a handler: 400 and its one sentence."""
        sentence = (bounded(str(exc), 300) if isinstance(exc, InputError) else
                    say(words_of(request), "A number in the request is far too large."))
        return page(request, "refused.html", status=400, sentence=sentence, tv_pages=[])

    def unavailable(request: Request, exc: Exception) -> Response:
        """The machine failing a handler (an engine not installed, ...): 503 and its sentence."""
        log.warning("%s %s: %s", request.method, bounded(request.url.path, 200), bounded(str(exc), 300))
        return page(request, "refused.html", status=503, sentence=bounded(str(exc), 300), tv_pages=[])

    handlers: dict[Any, Any] = {sqlite3.Error: database_handler, ClubDatabaseError: database_handler,
                                ClubDatabaseUnavailableError: database_handler,
                                InputError: bad_input, OverflowError: bad_input,
                                EnvironmentFailure: unavailable}
    app = Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)
    app.state.fragments = fragments
    app.state.seats = seats
    return app
