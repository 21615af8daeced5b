"""The door of the club's pages (a pure ASGI middleware; Starlette adapter): a request that
sends a body is judged on its headers before one byte of the body is read.

* A form posted from another site (its ``Origin`` is not this server, or the browser says
  ``Sec-Fetch-Site: cross-site``) is refused (403).
* A body larger than its route takes (:func:`body_limit`: a ``.mat`` upload's size on the
  evening's forms, a few KB for the login) is refused (413) when its ``Content-Length`` says
  so, and cut off while it streams when it does not (chunked): the route never sees more.
* Every director route but the login and the logout needs the director's live session
  (:func:`bgboard.club.web.login.check_director`, off the event loop): an anonymous request
  is refused (403) before its body is read — a 400 MB anonymous upload costs the server the
  headers and what the socket had already buffered, no temporary file.

* The evening's forms (the ``.mat`` upload) are held in memory, never in a temporary file
  (bgboard.club.web.setup_pages), on a budget: while bodies of :data:`UPLOAD_BUDGET` bytes
  in all are being read, one more is refused (503, try again in a moment) before it is read.

Each refusal says ``Connection: close``, so the server stops reading the unread body; the
form's CSRF token is still checked by the route after this (bgboard.club.web.login).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bgboard.club.checks import MAX_MAT
from bgboard.club.web.login import Refused
from bgboard.digits import is_whole

MAX_FORM = 256 * 1024           # a director's form (names, scores, reasons: fields of at most 1,000 characters)
MAX_LOGIN = 8 * 1024            # the login and the logout: a password and a token
MAX_UPLOAD = MAX_MAT + 64 * 1024  # the evening's forms: one .mat record and its fields
UPLOAD_BUDGET = 8 * MAX_UPLOAD  # the evening's bodies in flight at once, all together (held in memory)
OPEN_DOORS = ("/director/login", "/director/logout")  # director routes anyone may post to
READING = ("GET", "HEAD", "OPTIONS")

log = logging.getLogger(__name__)


class BodyTooLarge(Refused):
    """The body streamed past its route's limit: the form that reads it answers 413 with
    the sentence (:class:`Door` does, if it comes through)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"That is more than this form takes ({limit // 1024} KB at most).")


def body_limit(path: str) -> int:
    """The most bytes of body the route at ``path`` reads."""
    if path in OPEN_DOORS:
        return MAX_LOGIN
    if path.startswith("/director/evening/"):
        return MAX_UPLOAD
    return MAX_FORM


def needs_director(path: str) -> bool:
    return path.startswith("/director/") and path not in OPEN_DOORS


def same_origin(request: Request) -> bool:
    """False for a request a browser says came from another site (Origin, Sec-Fetch-Site);
    a client that sends neither (a script, a test) is judged by the CSRF token alone."""
    if request.headers.get("sec-fetch-site", "same-origin") == "cross-site":
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


def _declared(request: Request) -> int | None:
    text = request.headers.get("content-length")
    return int(text) if text is not None and is_whole(text) and len(text) < 19 else None


class Door:
    """The middleware (module doc): ``director(request)`` says whether the request is the
    director's live session; ``refuse(request, Refused)`` renders the refusal's page."""

    def __init__(self, app: ASGIApp, director: Callable[[Request], Awaitable[bool]],
                 refuse: Callable[[Request, Refused], Response]) -> None:
        self.app = app
        self.director = director
        self.refuse = refuse
        self.uploading = 0      # bytes of the evening's bodies being read now (their limit, or what they declared)

    async def _refused(self, scope: Scope, receive: Receive, send: Send, request: Request, error: Refused) -> None:
        response = self.refuse(request, error)
        response.headers["connection"] = "close"
        await response(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in READING:
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        path: str = scope["path"]
        limit = body_limit(path)
        declared = _declared(request)
        if not same_origin(request):
            error = Refused(403, "This form did not come from this site: open the page here and send it again.")
        elif needs_director(path) and not await self.director(request):
            error = Refused(403, "Log in as the director first.")
        elif declared is not None and declared > limit:
            error = Refused(413, f"That is more than this form takes ({limit // 1024} KB at most).")
        else:
            error = None
        share = min(declared, limit) if declared is not None else limit
        if error is None and limit == MAX_UPLOAD:
            if self.uploading + share > UPLOAD_BUDGET:
                log.warning("%s %s: refused, %d bytes of uploads are being read already", scope["method"],
                            path[:100], self.uploading)
                error = Refused(503, "Too many uploads at once: send it again in a moment.", retry_after=5)
            else:
                self.uploading += share
        else:
            share = 0
        if error is not None:
            await self._refused(scope, receive, send, request, error)
            return
        try:
            await self._through(scope, receive, send, request, path, limit)
        finally:
            self.uploading -= share

    async def _through(self, scope: Scope, receive: Receive, send: Send, request: Request, path: str,
                       limit: int) -> None:
        """The request past the door, its body bounded to ``limit`` while it streams."""
        read = 0
        started = False
        whole = False    # the body read to its end

        async def bounded() -> Message:
            nonlocal read, whole
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                whole = not message.get("more_body", False)
                if read > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if not whole:   # answered before the body's end: the rest is never read
                    message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, bounded, watched)
        except ClientDisconnect:   # the client went away mid-body: nothing to answer, no traceback
            log.info("%s %s: the client left before its body was read", scope["method"], path[:100])
        except BodyTooLarge as error:
            log.info("%s %s: a body past %d bytes cut off", scope["method"], path[:100], limit)
            if not started:
                await self._refused(scope, receive, send, request, error)


__all__ = ["Door", "BodyTooLarge", "body_limit", "needs_director", "same_origin", "MAX_FORM", "MAX_LOGIN", "MAX_UPLOAD",
           "UPLOAD_BUDGET"]
