"""The director's login and the CSRF guard of every form (Starlette adapter).

* The session is Starlette's signed cookie (itsdangerous): ``director`` is set after a
  correct password, with the club's session token (``Director.director_sessions``) of that
  moment; a logout or a new password changes the token in the database, so every saved
  cookie stops working at once (:func:`check_director`, on every director page and form).
* Every form carries ``<input name="csrf">``; every POST is refused (403, one sentence) unless
  the token equals the session's (compared in constant time).  A login changes the token.
* Guessing is slowed and then stopped (:class:`LoginGuard`): one password is checked at a
  time, a wrong one costs a half-second pause, and after :data:`CLIENT_FREE` wrong passwords
  from one address (or :data:`GLOBAL_FREE` from everywhere within :data:`GLOBAL_WINDOW_S`)
  the login is locked for a time that doubles with each further failure (429, one sentence
  with the wait).  Every failure is logged.  Checking the password runs argon2 off the loop.
* :func:`login_route` and :func:`logout_route` are the ``/director/login`` and
  ``/director/logout`` pages the club's site and the federation's portal share.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from bgboard.club.web import password as passwords
from bgboard.errors import InputError

SESSION_DIRECTOR = "director"
SESSION_TOKEN = "director_sessions"
SESSION_CSRF = "csrf"
MAX_FIELD = 1000
WRONG_PASSWORD_PAUSE_S = 0.5
CLIENT_FREE = 5          # wrong passwords from one address before it is locked out
GLOBAL_FREE = 20         # wrong passwords from everywhere within GLOBAL_WINDOW_S before all are
GLOBAL_WINDOW_S = 600.0
LOCK_BASE_S = 30.0       # the first lockout; each further failure doubles it
LOCK_MAX_S = 3600.0
MAX_CLIENTS = 10_000     # addresses remembered (the oldest forgotten first)

log = logging.getLogger(__name__)


class Refused(InputError):
    """A request the site refuses: ``status`` and one sentence for the page (``retry_after``
    seconds for a lockout)."""

    def __init__(self, status: int, sentence: str, retry_after: int | None = None) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence
        self.retry_after = retry_after


@dataclass
class _Client:
    failures: int = 0
    locked_until: float = 0.0


def _lock_s(over: int) -> float:
    """The lockout after ``over`` failures beyond the free ones (1: the first lockout)."""
    return min(LOCK_MAX_S, LOCK_BASE_S * 2.0 ** min(over - 1, 30))


class LoginGuard:
    """Back-off and lockout of the director's login, per client address and for everyone;
    ``clock`` is monotonic seconds (the adapter's clock, handed in)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.lock = asyncio.Lock()   # one password checked at a time: parallel guesses queue
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._recent: deque[float] = deque()
        self._global_until = 0.0

    def wait_s(self, client: str) -> float:
        """How long ``client`` must still wait before a password is checked (0: now)."""
        now = self.clock()
        mine = self._clients.get(client)
        until = max(self._global_until, mine.locked_until if mine else 0.0)
        return max(0.0, until - now)

    def failed(self, client: str) -> tuple[int, int]:
        """Count a wrong password; (this client's failures in a row, failures everywhere
        within the window)."""
        now = self.clock()
        mine = self._clients.pop(client, None) or _Client()
        self._clients[client] = mine   # newest last
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)
        mine.failures += 1
        if mine.failures >= CLIENT_FREE:
            mine.locked_until = now + _lock_s(mine.failures - CLIENT_FREE + 1)
        self._recent.append(now)
        while self._recent and self._recent[0] < now - GLOBAL_WINDOW_S:
            self._recent.popleft()
        if len(self._recent) >= GLOBAL_FREE:
            self._global_until = now + _lock_s(len(self._recent) - GLOBAL_FREE + 1)
        return mine.failures, len(self._recent)

    def succeeded(self, client: str) -> None:
        self._clients.pop(client, None)


def client_of(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def csrf_token(request: Request) -> str:
    """The session's CSRF token (made on first use)."""
    token = request.session.get(SESSION_CSRF)
    if not isinstance(token, str) or len(token) != 43:
        token = secrets.token_urlsafe(32)
        request.session[SESSION_CSRF] = token
    return token


def is_director(request: Request) -> bool:
    """Whether the cookie says so (for showing the director's links; the pages and forms
    that act check :func:`check_director`)."""
    return request.session.get(SESSION_DIRECTOR) is True


def check_director(request: Request, current_token: Callable[[], str]) -> bool:
    """Whether this is a director's session that has not ended (reads the database: call
    it off the event loop).  An ended one is cleared from the cookie."""
    if not is_director(request):
        return False
    token = request.session.get(SESSION_TOKEN)
    if isinstance(token, str) and secrets.compare_digest(token.encode(), current_token().encode()):
        return True
    request.session.pop(SESSION_DIRECTOR, None)
    request.session.pop(SESSION_TOKEN, None)
    return False


async def checked_form(request: Request) -> dict[str, str]:
    """The POSTed form's fields, after the CSRF check (:class:`Refused` 403 if it fails);
    each field bounded to :data:`MAX_FIELD` characters, files refused."""
    form = await request.form(max_files=0, max_fields=50)
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    sent = fields.pop("csrf", "")
    expected = request.session.get(SESSION_CSRF)
    if not isinstance(expected, str) or not secrets.compare_digest(sent.encode(), expected.encode()):
        raise Refused(403, "This form is out of date or did not come from this site: "
                           "reload the page and send it again.")
    for key, value in fields.items():
        if len(value) > MAX_FIELD:
            raise Refused(400, f"The field '{key[:30]}' is too long.")
    return fields


def _locked(wait: float) -> Refused:
    seconds = max(1, math.ceil(wait))
    return Refused(429, f"Too many wrong passwords: the director's login is locked, try again in "
                        f"{seconds} s.", retry_after=seconds)


async def log_in(request: Request, stored_hash: Callable[[], str | None], guard: LoginGuard,
                 current_token: Callable[[], str] = lambda: "") -> None:
    """Check the login form; on success mark the session as the director's (with the club's
    session token) and change its CSRF token.  :class:`Refused` 401 for a wrong password,
    429 while locked out, 403 when no password is set."""
    fields = await checked_form(request)
    client = client_of(request)
    async with guard.lock:
        wait = guard.wait_s(client)
        if wait > 0:
            log.warning("director login refused from %s: locked out for %.0f s more", client, wait)
            raise _locked(wait)
        hashed = await run_in_threadpool(stored_hash)
        if not hashed:
            raise Refused(403, "No director password is set: run 'bgboard club director-password' "
                               "on the director's computer first.")
        if not await run_in_threadpool(passwords.verify, hashed, fields.get("password", "")):
            mine, everyone = guard.failed(client)
            log.warning("director login failed from %s: wrong password (%d in a row from there, "
                        "%d from everywhere in %.0f min)", client, mine, everyone, GLOBAL_WINDOW_S / 60)
            await asyncio.sleep(WRONG_PASSWORD_PAUSE_S)   # slows guessing; the loop goes on
            wait = guard.wait_s(client)
            if wait > 0:
                raise _locked(wait)
            raise Refused(401, "That password is not the director's password.")
        guard.succeeded(client)
        token = await run_in_threadpool(current_token)
    log.info("director logged in from %s", client)
    request.session.clear()
    request.session[SESSION_DIRECTOR] = True
    request.session[SESSION_TOKEN] = token
    request.session[SESSION_CSRF] = secrets.token_urlsafe(32)


def log_out(request: Request) -> None:
    request.session.clear()


def login_route(page: Callable[..., Response], stored_hash: Callable[[], str | None],
                current_token: Callable[[], str], *,
                worded: Callable[[str], str] = lambda sentence: sentence) -> Callable[[Request], Awaitable[Response]]:
    """``/director/login``: GET shows ``login.html`` (rendered by ``page``), POST logs in
    (:func:`log_in`, with its own :class:`LoginGuard`) and goes to ``/director``; a refusal is
    the form again with its sentence (through ``worded``) and, when locked, ``Retry-After``."""
    guard = LoginGuard()

    async def login(request: Request) -> Response:
        if request.method == "GET":
            return page(request, "login.html")
        try:
            await log_in(request, stored_hash, guard, current_token)
        except Refused as error:
            response = page(request, "login.html", status=error.status, sentence=worded(error.sentence))
            if error.retry_after is not None:
                response.headers["Retry-After"] = str(error.retry_after)
            return response
        return RedirectResponse("/director", status_code=303)

    return login


def logout_route(refused: Callable[[Request, Refused], Any],
                 end_sessions: Callable[[], None]) -> Callable[[Request], Awaitable[Response]]:
    """``/director/logout`` (a checked form): this browser's cookie is cleared first (even if
    the database is busy), then ``end_sessions`` ends the director's sessions in the database
    (a saved copy of the cookie is dead too); back to ``/``."""

    async def logout(request: Request) -> Response:
        try:
            await checked_form(request)
        except Refused as error:
            return refused(request, error)
        was_director = is_director(request)
        log_out(request)
        if was_director:
            await run_in_threadpool(end_sessions)
        return RedirectResponse("/", status_code=303)

    return logout
