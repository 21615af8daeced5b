"""The display thread: the screen renders and refreshes the panel off the asyncio loop (adapter).

An e-ink refresh takes 2-15 s and a driver waits for it by polling BUSY with ``time.sleep``;
the loop must serve the serial link, the buttons and the clocks meanwhile.  :class:`Painter`
owns a :class:`~bgboard.display.screen.Screen` and runs it on one thread: the loop only hands
over the newest display state (:meth:`Painter.update`) and wakes the thread on its tick
(:meth:`Painter.tick`); both return at once.  While the panel is busy, newer states replace
the one waiting, so only the latest frame is drawn when the panel is free again.  A panel
fault is the screen's (kept in :attr:`Painter.error`, retried); anything else a refresh
raises (a full disk under a file panel) is logged and kept there too, never raised into the
match.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from bgboard.display.screen import Screen
from bgboard.display.state import DisplayState

log = logging.getLogger(__name__)


class Painter:
    """Runs ``screen`` on a thread named ``bgboard-display``; ``clock_ms`` is read there."""

    def __init__(self, screen: Screen, clock_ms: Callable[[], int]) -> None:
        self.screen = screen
        self._clock_ms = clock_ms
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._state: DisplayState | None = None
        self._full = False
        self._closing = False
        self._failure: str | None = None
        self.busy = False  # the thread is rendering or refreshing right now
        self._thread = threading.Thread(target=self._run, name="bgboard-display", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ from the loop
    def update(self, state: DisplayState, full: bool = False) -> None:
        """Show ``state`` when the panel is free (replaces a state still waiting)."""
        with self._lock:
            self._state = state
            self._full = self._full or full
        self._wake.set()

    def tick(self) -> None:
        """Let the screen refresh if its policy says the time has come."""
        self._wake.set()

    @property
    def error(self) -> str | None:
        """The last display failure (one sentence), or None once a frame is shown again."""
        return self._failure or self.screen.error

    def close(self, timeout: float | None = None) -> None:
        """Draw what is due, then stop the thread (blocks: call it off the loop)."""
        with self._lock:
            self._closing = True
        self._wake.set()
        self._thread.join(timeout)

    # ------------------------------------------------------------------ on the thread
    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            with self._lock:
                state, full, closing = self._state, self._full, self._closing
                self._state, self._full = None, False
            self.busy = True
            try:
                if state is not None:
                    self.screen.update(state, self._clock_ms(), full)
                self.screen.tick(self._clock_ms())
                self._failure = None
            except Exception as exc:  # never into the match: say it, keep going
                self._failure = f"the display failed ({exc})"
                log.error("%s", self._failure)
            finally:
                self.busy = False
            if closing:
                return
