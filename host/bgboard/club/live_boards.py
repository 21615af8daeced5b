"""The room's live board states, in memory: the hub between the boards and the pages.

Pure and in-process: no I/O, no clock, no threads.  The director's MQTT side feeds it
(``bgboard club serve --broker``), the web pages read it (``bgboard club serve --http``)::

    from bgboard.club.live_boards import LiveHub
    hub = LiveHub()
    hub.update(7, payload)        # a board's retained ``.../board/7/state`` message (a dict)
    hub.offline(7)                # its last will fired (``.../board/7/online`` = "offline")
    hub.snapshot()                # {7: BoardLive(board=7, state={...}, online=False, version=2)}

    async with hub.subscribe() as changes:     # one per SSE client
        async for live in changes:             # BoardLive, newest state of a changed board
            ...

Every call must come from the thread of the asyncio loop that runs the subscribers (the
director runs the broker client and the web server in one loop; another thread hands its
messages over with ``loop.call_soon_threadsafe(hub.update, board, payload)``).

**Coalescing.**  A subscriber never queues more than one entry per board: if a board changes
three times before a slow client reads, the client gets only the newest state.  So a slow or
stalled browser costs at most one entry per board, and a fast one sees every change.

**The state dict** is the board's state payload (docs/club-protocol.md: the fields of
``bgboard.net.protocol.BoardState``, made from a match by ``bgboard.net.board_report.board_state``).
The pages read ``players``, ``length``, ``score``, ``cube``, ``cube_owner``, ``crawford``,
``turn``, ``dice``, ``position_id`` (from the view of ``turn``, player 0's when it is null),
``clocks``, ``clock_running``, ``phase``, ``event`` and ``match``, and show "-" for any that is
missing or malformed (``bgboard.club.web.boardview`` checks them: a board's payload is
untrusted).  The hub itself keeps whatever dict it is given (a copy).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, AsyncIterator, Iterator, Mapping

from bgboard.errors import InputError

MAX_BOARD = 9999


class BadBoardError(InputError):
    """A board number that is not a whole number from 1 to 9999."""


@dataclass(frozen=True, slots=True)
class BoardLive:
    """One board as the room sees it: its last ``state`` (read-only), whether it is
    ``online`` and the hub's ``version`` counter at its last change (grows across boards,
    so it orders every change in the room)."""

    board: int
    state: Mapping[str, Any]
    online: bool
    version: int


def _check_board(board: object) -> int:
    if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= MAX_BOARD:
        raise BadBoardError(f"a board number is a whole number from 1 to {MAX_BOARD}, not {board!r}")
    return board


class Subscription:
    """The changes one reader has not seen yet, newest state per board (see the module): it
    remembers the hub's version it has read up to and takes from the hub what is newer."""

    def __init__(self, hub: "LiveHub") -> None:
        self._hub = hub
        self._seen = hub.version
        self.closed = False

    @property
    def seen(self) -> int:
        """The hub's version this reader has read up to."""
        return self._seen

    def _unseen(self) -> list[BoardLive]:
        """The boards changed since the last read, newest first (the hub keeps them in the
        order they changed, so this stops at the first one already seen)."""
        out: list[BoardLive] = []
        for live in self._hub.newest_first():
            if live.version <= self._seen:
                break
            out.append(live)
        return out

    def pending(self) -> int:
        """How many boards have changed since the last read."""
        return len(self._unseen())

    def take(self) -> list[BoardLive]:
        """Every pending change now (oldest first), without waiting."""
        out = self._unseen()
        out.reverse()
        self._seen = self._hub.version
        return out

    async def next_batch(self) -> list[BoardLive]:
        """Wait until at least one board has changed, then take every pending change."""
        while self._hub.version <= self._seen:
            if self.closed:
                raise StopAsyncIteration
            await self._hub.changed()
        return self.take()

    def __aiter__(self) -> AsyncIterator[BoardLive]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[BoardLive]:
        while True:
            try:
                batch = await self.next_batch()
            except StopAsyncIteration:
                return
            for live in batch:
                yield live

    def close(self) -> None:
        """Stop reading: the hub forgets this subscriber and a waiting read ends."""
        self.closed = True
        self._hub.unsubscribe(self)
        self._hub.wake()

    async def __aenter__(self) -> "Subscription":
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()


class LiveHub:
    """The latest state and online flag of every board that has reported (see the module).
    A change costs the same however many read it: the hub keeps each board's newest state in
    the order the boards changed and wakes the waiting readers once; each reader then takes
    what is newer than what it has read (with 2,000 open pages, a board's move used to be
    handed to each of them: issue 35)."""

    def __init__(self) -> None:
        self._boards: dict[int, BoardLive] = {}   # in the order they last changed
        self._subscribers: set[Subscription] = set()
        self._waiting: "set[asyncio.Future[None]]" = set()
        self.version = 0

    def _set(self, board: int, state: Mapping[str, Any], online: bool) -> BoardLive:
        self.version += 1
        live = BoardLive(board, state, online, self.version)
        self._boards.pop(board, None)
        self._boards[board] = live
        self.wake()
        return live

    def newest_first(self) -> Iterator[BoardLive]:
        """Every board's newest state, the board changed last first."""
        return reversed(self._boards.values())

    def wake(self) -> None:
        """Wake every reader waiting in :meth:`changed` (only those waiting now: a reader
        that is busy or pacing itself costs a change nothing)."""
        waiting, self._waiting = self._waiting, set()
        for future in waiting:
            if not future.done():
                future.set_result(None)

    async def changed(self) -> None:
        """Wait for the next change (or :meth:`wake`)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.add(future)
        try:
            await future
        finally:
            self._waiting.discard(future)

    def update(self, board: int, state: Mapping[str, Any]) -> BoardLive:
        """A board's new state (it is online again if it was not).  Raises
        :class:`BadBoardError` for a bad board number; the state is copied, not checked."""
        board = _check_board(board)
        if not isinstance(state, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance] - input from outside is checked at run time
            raise InputError(f"board {board}'s state must be a JSON object, not {type(state).__name__}")
        return self._set(board, MappingProxyType(dict(state)), True)

    def offline(self, board: int) -> BoardLive:
        """A board's last will fired: keep its last state, mark it offline."""
        board = _check_board(board)
        last = self._boards.get(board)
        return self._set(board, last.state if last else MappingProxyType({}), False)

    def get(self, board: int) -> BoardLive | None:
        """One board, or None if it never reported."""
        return self._boards.get(board)

    def snapshot(self) -> dict[int, BoardLive]:
        """Every board that has reported, by board number (a new dict; entries are frozen)."""
        return dict(sorted(self._boards.items()))

    def close(self) -> None:
        """End every subscription (their readers stop after what they have not yet read):
        the server is shutting down.  New subscriptions may still be made."""
        for subscription in list(self._subscribers):
            subscription.close()

    def subscribe(self) -> Subscription:
        """A new reader of changes from now on (read :meth:`snapshot` first for the room as
        it is).  Close it (``async with`` or :meth:`Subscription.close`) when the client goes."""
        subscription = Subscription(self)
        self._subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Forget a reader (its :meth:`Subscription.close` calls this)."""
        self._subscribers.discard(subscription)

    @property
    def subscribers(self) -> int:
        """How many readers are subscribed."""
        return len(self._subscribers)
