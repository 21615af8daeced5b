"""The federation's web pages (Starlette adapter): ``bgboard federation serve --http``.

Read-only for the public — the rating list, each member's rating result by result, the
members, the clubs, each season's standings, every club's live boards (``/live``, from the
bridged state topics: :mod:`~bgboard.federation.live_watch`) — and the officers' page behind a password,
with the club pages' security, reused as it is: the argon2id hash
(:mod:`bgboard.club.web.password`, set by ``bgboard federation officer-password``), the
signed session cookie, the CSRF token of every form and the login's back-off and lockout
(:mod:`bgboard.club.web.login`), the door that judges a request on its headers before its body
is read and keeps every ``/director/`` route for a live officer's session
(:mod:`bgboard.club.web.door`), the security headers (a strict Content-Security-Policy) and
Jinja2 templates with autoescape (:mod:`bgboard.club.web.site`).  The officers' routes are
under ``/director/`` because that door keeps them; a logout ends every officer's session.

The database is read off the event loop (Starlette's thread pool); the rating list is
derived again only when a result was stored or corrected since.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from pathlib import Path
from typing import Any, Callable

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bgboard.club.web import login as auth
from bgboard.club.web.door import Door
from bgboard.club.web.site import HERE as CLUB_WEB, SESSION_HOURS, SecurityHeaders
from bgboard.errors import EnvironmentFailure, InputError
from bgboard.federation.ledger import Ledger
from bgboard.federation.live_watch import LiveWatch
from bgboard.federation.rating_list import RatingBook, RatingLine, RatingStep
from bgboard.federation.season import season_standings
from bgboard.net.protocol import check_club

HERE = Path(__file__).resolve().parent
MAX_LIST = 2000  # lines of the rating list on one page
RATINGS_MARGIN_S = 60.0  # a result's transaction may commit this long after its stored_at


class Portal:
    """What the pages read, from the federation's database at ``db_url``."""

    def __init__(self, db_url: str, name: str) -> None:
        self.db_url = db_url
        self.name = name
        self._lock = threading.Lock()
        self._cached: tuple[tuple[int, str], list[RatingLine], list[RatingStep]] | None = None
        self._book = RatingBook()

    def ledger(self) -> Ledger:
        return Ledger(self.db_url)

    def ratings(self) -> tuple[list[RatingLine], list[RatingStep]]:
        with self._lock, self.ledger() as ledger:
            version = ledger.version()  # a new result or a club's correction
            if self._cached is None or self._cached[0] != version:
                if self._cached is None:
                    self._book = RatingBook(ledger.results())
                else:   # each result stored or corrected since, rated in its place (a margin for late commits)
                    for result in ledger.results(changed_since=self._cached[0][1], margin_s=RATINGS_MARGIN_S):
                        self._book.add(result)
                    if len(self._book) < version[0]:   # one committed later than the margin: from scratch
                        self._book = RatingBook(ledger.results())
                self._cached = (version, self._book.lines(), self._book.steps())
            return self._cached[1], self._cached[2]

    def officer_hash(self) -> str | None:
        with self.ledger() as ledger:
            return ledger.meta("officer_password")

    def sessions(self) -> str:
        with self.ledger() as ledger:
            token = ledger.meta("officer_sessions")
            if not token:  # none yet, or a new password ended the old ones
                token = secrets.token_urlsafe(32)
                ledger.set_meta("officer_sessions", token)
            return token

    def end_sessions(self) -> None:
        with self.ledger() as ledger:
            ledger.set_meta("officer_sessions", secrets.token_urlsafe(32))


class PortalPages:
    """The portal's templates (the club's login form among them, under ``club/``) and the one
    way a page and a refusal are made."""

    def __init__(self, name: str) -> None:
        # "club/..." is the club's own template (the login form is one form): it extends this portal's base.html
        loader = ChoiceLoader([FileSystemLoader(HERE / "templates"),
                               PrefixLoader({"club": FileSystemLoader(CLUB_WEB / "templates")})])
        self.env = Environment(loader=loader,
                               autoescape=select_autoescape(default=True, default_for_string=True),
                               trim_blocks=True, lstrip_blocks=True)
        self.env.globals["site_name"] = name

    def page(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        context.setdefault("officer", auth.is_director(request))
        context["csrf"] = auth.csrf_token(request)
        return HTMLResponse(self.env.get_template(name).render(context), status_code=status)

    def refused(self, request: Request, error: auth.Refused) -> HTMLResponse:
        return self.page(request, "refused.html", status=error.status, sentence=error.sentence)


def list_routes(portal: Portal, page: Callable[..., HTMLResponse]) -> list[Route]:
    """The overview, the rating list and each member's results, the members and the clubs."""

    def overview(request: Request) -> Response:
        lines, _ = portal.ratings()
        with portal.ledger() as ledger:
            clubs, seasons, members = ledger.clubs(), ledger.seasons(), ledger.members()
        names = {m["id"]: m["name"] for m in members}
        return page(request, "overview.html", clubs=clubs, seasons=seasons, lines=lines[:10], names=names,
                    results=sum(c["results"] for c in clubs))

    def ratings(request: Request) -> Response:
        lines, _ = portal.ratings()
        with portal.ledger() as ledger:
            names = {m["id"]: m["name"] for m in ledger.members()}
        return page(request, "ratings.html", lines=lines[:MAX_LIST], names=names, more=max(0, len(lines) - MAX_LIST))

    def member(request: Request) -> Response:
        member_id = str(request.path_params["member"])[:40]
        lines, steps = portal.ratings()
        with portal.ledger() as ledger:
            found = next((m for m in ledger.members() if m["id"] == member_id), None)
        if found is None:
            raise InputError(f"There is no member {member_id!r}.")
        line = next((x for x in lines if x.member == member_id), None)
        return page(request, "member.html", member=found, line=line,
                    steps=[s for s in steps if s.member == member_id])

    def members(request: Request) -> Response:
        with portal.ledger() as ledger:
            return page(request, "members.html", members=ledger.members())

    def clubs(request: Request) -> Response:
        with portal.ledger() as ledger:
            return page(request, "clubs.html", clubs=ledger.clubs())

    return [Route("/", overview), Route("/ratings", ratings), Route("/member/{member}", member),
            Route("/members", members), Route("/clubs", clubs)]


def season_routes(portal: Portal, page: Callable[..., HTMLResponse], watch: "LiveWatch | None") -> list[Route]:
    """Each season's standings and every club's live boards."""

    def season(request: Request) -> Response:
        name = str(request.path_params["season"])[:100]
        lines, _ = portal.ratings()
        with portal.ledger() as ledger:
            if name not in ledger.seasons():
                raise InputError(f"There is no season {name!r}.")
            table = season_standings(ledger.results(), ledger.counted_events(name),
                                     {x.member: x.rating for x in lines})
            counted = sorted(ledger.counted_events(name))
        return page(request, "season.html", season=name, table=table, counted=counted)

    async def live(request: Request) -> Response:
        """Every club's boards as they play (on the loop: the watch's dictionary is the loop's)."""
        clubs = watch.by_club() if watch is not None else {}
        return page(request, "live.html", clubs=clubs, watching=watch is not None)

    return [Route("/season/{season}", season), Route("/live", live)]


def officer_routes(portal: Portal, pages: PortalPages) -> list[Route]:
    """The officers' login and logout, their page and the form that counts an event in a season."""
    login = auth.login_route(pages.page, portal.officer_hash, portal.sessions, worded=lambda sentence: sentence.replace(
        "the director's", "the officers'").replace("bgboard club director-password", "bgboard federation officer-password"))
    logout = auth.logout_route(pages.refused, portal.end_sessions)

    def officers(request: Request) -> Response:
        # "/director" itself is not behind the door (only "/director/..." is): checked here
        if not auth.check_director(request, portal.sessions):
            return RedirectResponse("/director/login", status_code=303)
        with portal.ledger() as ledger:
            return pages.page(request, "officers.html", clubs=ledger.clubs(), seasons=ledger.seasons())

    async def count(request: Request) -> Response:
        try:
            fields = await auth.checked_form(request)
        except auth.Refused as error:
            return pages.refused(request, error)
        season_name = " ".join(fields.get("season", "").split())[:100]
        event = " ".join(fields.get("event", "").split())[:64]
        if not season_name or not event:
            raise InputError("Name the season and the event.")
        club = check_club(fields.get("club", "").strip())

        def write() -> None:
            with portal.ledger() as ledger:
                ledger.count_event(season_name, club, event)

        await run_in_threadpool(write)
        return RedirectResponse(f"/season/{season_name}", status_code=303)

    return [
        Route("/director/login", login, methods=["GET", "POST"]),
        Route("/director/logout", logout, methods=["POST"]),
        Route("/director", officers), Route("/director/count", count, methods=["POST"]),
    ]


def create_portal(portal: Portal, secret_key: str | None = None, watch: "LiveWatch | None" = None) -> Starlette:
    """The portal's site: its page groups, the club pages' middleware, its refusals."""
    pages = PortalPages(portal.name)
    page = pages.page
    routes = [
        *list_routes(portal, page), *season_routes(portal, page, watch), *officer_routes(portal, pages),
        Mount("/static", StaticFiles(directory=CLUB_WEB / "static"), name="static"),
    ]

    async def officer(request: Request) -> bool:
        return await run_in_threadpool(auth.check_director, request, portal.sessions)

    def bad_input(request: Request, exc: Exception) -> Response:
        return page(request, "refused.html", status=400, sentence=str(exc)[:300])

    def unavailable(request: Request, exc: Exception) -> Response:
        return page(request, "refused.html", status=503,
                    sentence="The federation's database cannot be used just now: try again in a moment.")

    middleware = [
        Middleware(SecurityHeaders),
        Middleware(SessionMiddleware, secret_key=secret_key or secrets.token_urlsafe(32),
                   session_cookie="bgboard_federation", max_age=SESSION_HOURS * 3600, same_site="strict"),
        Middleware(Door, director=officer, refuse=pages.refused),
    ]
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={InputError: bad_input, EnvironmentFailure: unavailable})


async def serve_portal(db_url: str, name: str, host: str, port: int, *, watch: "LiveWatch | None" = None,
                       ready: Callable[[str, int], None] | None = None, stop: "asyncio.Event | None" = None) -> None:
    """Serve the pages until cancelled (or ``stop`` is set)."""
    from bgboard.club.web.server import serve_http

    await serve_http(create_portal(Portal(db_url, name), watch=watch), host, port, ready=ready, stop=stop)


__all__ = ["Portal", "create_portal", "serve_portal"]
