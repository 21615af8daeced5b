"""The director's login and the CSRF guard of every form (Starlette adapter).

* The session is Starlette's signed cookie (itsdangerous): ``director`` is set after a
  correct password, and a ``csrf`` token (32 random bytes) lives in it from the first page.
* Every form carries ``<input name="csrf">``; every POST is refused (403, one sentence) unless
  the token equals the session's (compared in constant time).  A login changes the token.
* A wrong password is refused with 401 and one sentence after a half-second pause (to slow
  guessing); checking it runs argon2 off the event loop.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from bgboard.club.web import password as passwords

SESSION_DIRECTOR = "director"
SESSION_CSRF = "csrf"
MAX_FIELD = 1000
WRONG_PASSWORD_PAUSE_S = 0.5


class Refused(Exception):
    """A request the site refuses: ``status`` and one sentence for the page."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence


def csrf_token(request: Request) -> str:
    """The session's CSRF token (made on first use)."""
    token = request.session.get(SESSION_CSRF)
    if not isinstance(token, str) or len(token) != 43:
        token = secrets.token_urlsafe(32)
        request.session[SESSION_CSRF] = token
    return token


def is_director(request: Request) -> bool:
    return request.session.get(SESSION_DIRECTOR) is True


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


async def log_in(request: Request, stored_hash: Callable[[], str | None]) -> None:
    """Check the login form; on success mark the session as the director's and change its
    CSRF token.  :class:`Refused` 401 for a wrong password, 403 when no password is set."""
    fields = await checked_form(request)
    hashed = await run_in_threadpool(stored_hash)
    if not hashed:
        raise Refused(403, "No director password is set: run 'bgboard club director-password' "
                           "on the director's computer first.")
    if not await run_in_threadpool(passwords.verify, hashed, fields.get("password", "")):
        await asyncio.sleep(WRONG_PASSWORD_PAUSE_S)   # slows guessing; the loop goes on
        raise Refused(401, "That password is not the director's password.")
    request.session.clear()
    request.session[SESSION_DIRECTOR] = True
    request.session[SESSION_CSRF] = secrets.token_urlsafe(32)


def log_out(request: Request) -> None:
    request.session.clear()
