"""One thread that works on the newest thing handed to it (adapter support).

The display thread (:mod:`bgboard.display.painter`) and the records thread
(:mod:`bgboard.match.recordfile`) both take work from the asyncio loop without making it
wait: the loop hands over the newest state and returns at once; while the thread is busy a
newer hand-over replaces the one waiting, so only the newest is worked on when the thread
is free.  This module is that mailbox and thread, once: a lock, a wake-up event and a
closing flag.  The work function is called with the newest item (None when only woken);
anything it raises is logged and never stops the thread.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Generic, TypeVar

__all__ = ["NewestOnly"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class NewestOnly(Generic[T]):
    """Runs ``work(item)`` on a daemon thread named ``name`` for the newest handed ``item``.

    ``merge(waiting, new)`` (optional) combines a new item with one still waiting instead
    of replacing it.  ``work`` gets None when the thread was only woken (:meth:`wake`).
    """

    def __init__(self, name: str, work: Callable[[T | None], None],
                 merge: Callable[[T, T], T] | None = None) -> None:
        self._work = work
        self._merge = merge
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._item: T | None = None
        self._closing = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def hand(self, item: T) -> None:
        """Work on ``item`` when the thread is free (replaces, or merges with, one waiting)."""
        with self._lock:
            waiting = self._item
            self._item = item if waiting is None or self._merge is None else self._merge(waiting, item)
        self._wake.set()

    def wake(self) -> None:
        """Call the work function once more, with None if nothing is waiting."""
        self._wake.set()

    def close(self, timeout: float | None = None) -> None:
        """Work on what is waiting, then stop the thread (idempotent; blocks: call it off the loop)."""
        with self._lock:
            self._closing = True
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            with self._lock:
                item, closing = self._item, self._closing
                self._item = None
            try:
                self._work(item)
            except Exception:  # a fault in the work must not end the thread silently
                log.exception("the %s thread failed; it goes on with the next item", self._thread.name)
            if closing:
                return
