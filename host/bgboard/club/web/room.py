"""The room's pages and their live feed: every board's card, one board large, and the
Server-Sent Events stream that pushes a changed board's new card to every open page
(:func:`room_routes`: ``/``, ``/board/N``, ``/live``).

A change is rendered and encoded once per board, version, view and language (:class:`Fragments`),
however many browsers watch; each browser's stream coalesces (``bgboard.club.live_boards``), so a
slow phone gets the newest card of each board, never a backlog, and everything pending for
it goes out in one write.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator, Callable, Iterable

from markupsafe import Markup
from sse_starlette.event import ServerSentEvent
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bgboard.club.live_boards import MAX_BOARD, BoardLive, LiveHub
from bgboard.club.web.board_picture import board_svg
from bgboard.club.web.boardview import BoardView, view_of
from bgboard.club.web.login import Refused
from bgboard.club.web.page_language import request_language, words_of
from bgboard.digits import whole_number
from bgboard.language import ENGLISH, N_, Words, say

VIEWS = ("card", "large")
PING_S = 15
PACE_S = 0.5                   # a stream sends at most one batch this often: the changes meanwhile go in it
MAX_STREAMS = 2000             # live streams at once, from everywhere (bounded further by the descriptors)
MAX_STREAMS_PER_ADDRESS = 16   # from one address (a TV and the phones behind one router)
FULL = N_("The room is full: every seat for live updates is taken, try again in a minute.")


class Seats:
    """The live streams open now, per address and in all; :meth:`take` says whether one more
    may open (the caller gives it back when the stream ends)."""

    def __init__(self, most: int = MAX_STREAMS, per_address: int = MAX_STREAMS_PER_ADDRESS) -> None:
        self.most = most
        self.per_address = per_address
        self.taken = 0
        self._by_address: dict[str, int] = {}
        self.refused = 0

    def take(self, address: str) -> bool:
        mine = self._by_address.get(address, 0)
        if self.taken >= self.most or mine >= self.per_address:
            self.refused += 1
            return False
        self.taken += 1
        self._by_address[address] = mine + 1
        return True

    def give_back(self, address: str) -> None:
        self.taken -= 1
        left = self._by_address.get(address, 1) - 1
        if left > 0:
            self._by_address[address] = left
        else:
            self._by_address.pop(address, None)


def svg(view: BoardView, words: Words = ENGLISH) -> Markup:
    """The board's drawing, marked safe for the templates (board_svg escapes its text)."""
    return Markup(board_svg(view, words))


class Fragments:
    """A board's card (or large view) as a ready Server-Sent Event, made once per hub
    version, view and language however many browsers receive it (the newest per board is kept)."""

    def __init__(self, render: Callable[[str, dict[str, Any]], str]) -> None:
        self._render = render
        self._cache: dict[tuple[int, str, str], tuple[int, bytes]] = {}
        self._batches: dict[tuple[object, ...], bytes] = {}
        self.renders = 0

    def batch(self, key: tuple[object, ...], make: Callable[[], bytes]) -> bytes:
        """One write of several events, made once for every stream that asks with the same
        ``key`` (its view, its board, and the hub versions it goes from and to): the streams
        woken on the same tick share it (the newest few are kept)."""
        hit = self._batches.get(key)
        if hit is None:
            hit = make()
            if len(self._batches) >= 64:
                self._batches.pop(next(iter(self._batches)))
            self._batches[key] = hit
        return hit

    def html(self, live: BoardLive, view: str, lang: str = "en") -> str:
        """The fragment's HTML in ``lang`` ("" for a board that left the room)."""
        if not live.state and not live.online:
            return ""
        return self._render(f"{view}.html", {"v": view_of(live), "svg": svg, "lang": lang})

    def event(self, live: BoardLive, view: str, lang: str = "en") -> bytes:
        """The encoded ``board`` event: ``id`` the hub version, ``data`` {"board", "html"}."""
        key = (live.board, view, lang)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == live.version:
            return hit[1]
        self.renders += 1
        data = json.dumps({"board": live.board, "html": self.html(live, view, lang)})
        encoded = ServerSentEvent(data=data, event="board", id=str(live.version)).encode()
        self._cache[key] = (live.version, encoded)
        return encoded


def _since(request: Request) -> int:
    text = request.headers.get("last-event-id") or request.query_params.get("since") or "0"
    return whole_number(text, "since (a board's version)", 0, 2**53)


def live_stream(hub: LiveHub, fragments: Fragments, request: Request, seats: Seats | None = None,
                full: Callable[[], Response] | None = None) -> Response:
    """``GET /live?view=card|large[&board=N][&since=VERSION]``: an SSE stream of ``board``
    events, ``data`` = ``{"board": n, "html": "..."}`` (an empty html: the board left).
    Beyond the ``seats``, ``full()`` (503, "the room is full") and the connection is closed."""
    view = request.query_params.get("view", "card")
    if view not in VIEWS:
        view = "card"
    board_text = request.query_params.get("board", "")
    only = whole_number(board_text, "board", 1, MAX_BOARD) if board_text else None
    since = _since(request)
    lang = request_language(request.cookies, request.headers)   # the page's language: its fragments speak it
    address = request.client.host if request.client is not None else "unknown"
    if seats is not None and not seats.take(address):
        response = full() if full is not None else Response(FULL, status_code=503)
        response.headers["retry-after"] = "60"
        response.headers["connection"] = "close"
        return response
    subscription = hub.subscribe()   # before the snapshot: nothing falls between them

    def chunk(lives: Iterable[BoardLive]) -> bytes:
        """Every wanted change of a batch in one write to the socket."""
        return b"".join(fragments.event(live, view, lang) for live in lives if only in (None, live.board))

    async def stream() -> AsyncIterator[bytes]:
        try:
            first = chunk(live for live in hub.snapshot().values() if live.version > since)
            if first:
                yield first
            while True:
                before = subscription.seen
                lives = await subscription.next_batch()
                batch = fragments.batch((view, lang, only, before, subscription.seen), lambda: chunk(lives))
                if batch:
                    yield batch
                    # paced on a shared tick: with 2,000 pages open, 200 boards' moves cost each
                    # page one wake-up per PACE_S, not one per move, and the pages woken on the
                    # same tick share one rendering and one batch (issue 35)
                    loop = asyncio.get_running_loop()
                    await asyncio.sleep(PACE_S - loop.time() % PACE_S)
        except StopAsyncIteration:
            return
        finally:
            subscription.close()
            if seats is not None:
                seats.give_back(address)

    return EventSourceResponse(stream(), ping=PING_S, headers={"Cache-Control": "no-store"})


def room_routes(hub: LiveHub, page: Callable[..., Response], refused: Callable[[Request, Refused], Response],
                tv_pages: Callable[[], list[str]], fragments: Fragments, seats: Seats) -> list[Route]:
    """The room's pages: every board's card (``/``), one board large (``/board/N``) and their
    live stream (``/live``, beyond the ``seats`` refused as full).  ``tv_pages`` reads the
    database: it runs in the thread pool, the hub on the event loop."""

    async def cycle(request: Request) -> list[str] | None:
        return await run_in_threadpool(tv_pages) if "tv" in request.query_params else None

    async def room(request: Request) -> Response:
        # the hub belongs to the event loop: read it here, not in a worker thread
        boards = [view_of(live) for live in hub.snapshot().values() if live.state or live.online]
        version = hub.version
        return page(request, "room.html", boards=boards, version=version, tv_pages=await cycle(request))

    async def board(request: Request) -> Response:
        number = request.path_params["number"]
        live = hub.get(number)
        if live is None:
            return refused(request, Refused(404, say(words_of(request), "Board %(number)s has not reported tonight.",
                                                     number=number)))
        version = hub.version
        return page(request, "board.html", v=view_of(live), version=version, tv_pages=await cycle(request))

    def full(request: Request) -> Response:
        return refused(request, Refused(503, say(words_of(request), FULL)))

    async def live(request: Request) -> Response:
        return live_stream(hub, fragments, request, seats, lambda: full(request))

    return [Route("/", room), Route("/board/{number:int}", board), Route("/live", live)]
