"""The room's pages and their live feed: every board's card, one board large, and the
Server-Sent Events stream that pushes a changed board's new card to every open page.

A change is rendered once per board, version and view (:class:`Fragments`), however many
browsers watch, and each browser's stream coalesces (``bgboard.club.live``): a slow phone
gets the newest card of each board, never a backlog.
"""

from __future__ import annotations

import json
from typing import Any, AsyncIterator, Callable

from markupsafe import Markup
from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import Response

from bgboard.club.live import BoardLive, LiveHub
from bgboard.club.web.boardsvg import board_svg
from bgboard.club.web.boardview import BoardView, view_of

VIEWS = ("card", "large")
PING_S = 15


def svg(view: BoardView) -> Markup:
    """The board's drawing, marked safe for the templates (board_svg escapes its text)."""
    return Markup(board_svg(view))


class Fragments:
    """The HTML of a board's card (or large view), rendered once per hub version."""

    def __init__(self, render: Callable[[str, dict[str, Any]], str]) -> None:
        self._render = render
        self._cache: dict[tuple[int, str], tuple[int, str]] = {}
        self.renders = 0

    def html(self, live: BoardLive, view: str) -> str:
        key = (live.board, view)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == live.version:
            return hit[1]
        self.renders += 1
        text = "" if not live.state and not live.online else self._render(
            f"{view}.html", {"v": view_of(live), "svg": svg})
        self._cache[key] = (live.version, text)
        return text


def _since(request: Request) -> int:
    text = request.headers.get("last-event-id") or request.query_params.get("since") or "0"
    return int(text) if text.isdigit() and len(text) < 16 else 0


def live_stream(hub: LiveHub, fragments: Fragments, request: Request) -> Response:
    """``GET /live?view=card|large[&board=N][&since=VERSION]``: an SSE stream of ``board``
    events, ``data`` = ``{"board": n, "html": "..."}`` (an empty html: the board left)."""
    view = request.query_params.get("view", "card")
    if view not in VIEWS:
        view = "card"
    board_text = request.query_params.get("board", "")
    only = int(board_text) if board_text.isdigit() and len(board_text) < 6 else None
    since = _since(request)
    subscription = hub.subscribe()   # before the snapshot: nothing falls between them

    def event(live: BoardLive) -> dict[str, str]:
        data = json.dumps({"board": live.board, "html": fragments.html(live, view)})
        return {"event": "board", "id": str(live.version), "data": data}

    async def stream() -> AsyncIterator[dict[str, str]]:
        try:
            for live in hub.snapshot().values():
                if live.version > since and only in (None, live.board):
                    yield event(live)
            while True:
                for live in await subscription.next_batch():
                    if only in (None, live.board):
                        yield event(live)
        except StopAsyncIteration:
            return
        finally:
            subscription.close()

    return EventSourceResponse(stream(), ping=PING_S, headers={"Cache-Control": "no-store"})
