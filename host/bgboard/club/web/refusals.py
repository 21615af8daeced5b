"""The club site's refusals that come from an exception a handler raised (adapter): a
database hiccup (503, one sentence, the details in the server's log), bad input (400 and its
sentence) and the machine failing (503 and its sentence), each as the ``refused.html`` page."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from bgboard.club.db import ClubDatabaseError, ClubDatabaseUnavailableError, database_error
from bgboard.club.web.boardview import bounded
from bgboard.club.web.page_language import words_of
from bgboard.errors import EnvironmentFailure, InputError
from bgboard.language import say

log = logging.getLogger(__name__)


def refusal_handlers(site: Any, page: Callable[..., Response]) -> dict[Any, Any]:
    """Starlette's exception handlers for the club site ``site`` (its ``path`` named in the
    log), each page made by ``page``."""

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

    return {sqlite3.Error: database_handler, ClubDatabaseError: database_handler,
            ClubDatabaseUnavailableError: database_handler,
            InputError: bad_input, OverflowError: bad_input,
            EnvironmentFailure: unavailable}


__all__ = ["refusal_handlers"]
