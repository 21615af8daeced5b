"""The display thread: the screen renders and refreshes the panel off the asyncio loop (adapter).

An e-ink refresh takes 2-15 s and a driver waits for it by polling BUSY with ``time.sleep``;
the loop must serve the serial link, the buttons and the clocks meanwhile.  :class:`Painter`
owns a :class:`~bgboard.display.screen.Screen` and runs it on one thread: the loop only hands
over the newest display state (:meth:`Painter.update`) and, on its tick (:meth:`Painter.tick`), wakes the thread
only when the screen's refresh policy has a frame due (the loop ticks every 50 ms, 20 times a
second; a thread woken for nothing on each tick cost more than the drawing); both return at
once.  While the panel is busy, newer states replace
the one waiting, so only the latest frame is drawn when the panel is free again.  A panel
fault is the screen's (kept in :attr:`Painter.error`, retried); anything else a refresh
raises (a full disk under a file panel) is logged and kept there too, never raised into the
match.
"""

from __future__ import annotations

import logging
from typing import Callable

from bgboard.display.screen import Screen
from bgboard.errors import BgboardError
from bgboard.display.display_state import DisplayState
from bgboard.newest import NewestOnly

log = logging.getLogger(__name__)

#: A state to show and whether it asks for a full refresh.
Frame = tuple[DisplayState, bool]


def _merge(waiting: Frame, new: Frame) -> Frame:
    """A newer state replaces the waiting one; a full refresh asked for by either is kept."""
    return new[0], waiting[1] or new[1]


class Painter:
    """Runs ``screen`` on a thread named ``bgboard-display``; ``clock_ms`` is read there."""

    def __init__(self, screen: Screen, clock_ms: Callable[[], int]) -> None:
        self.screen = screen
        self._clock_ms = clock_ms
        self._failure: str | None = None
        self.busy = False  # the thread is rendering or refreshing right now
        # when the screen wants its next tick (the thread's last answer; None: nothing waits)
        self._due: int | None = None
        self._thread: NewestOnly[Frame] = NewestOnly("bgboard-display", self._paint, _merge)

    # ------------------------------------------------------------------ from the loop
    def update(self, state: DisplayState, full: bool = False) -> None:
        """Show ``state`` when the panel is free (replaces a state still waiting)."""
        self._thread.hand((state, full))

    def tick(self) -> None:
        """Let the screen refresh if its policy says the time has come (the thread is woken
        only then: a new state handed over wakes it anyway)."""
        due = self._due
        if due is not None and self._clock_ms() >= due:
            self._thread.wake()

    @property
    def error(self) -> str | None:
        """The last display failure (one sentence), or None once a frame is shown again."""
        return self._failure or self.screen.error

    def close(self, timeout: float | None = None) -> None:
        """Draw what is due, then stop the thread (blocks: call it off the loop)."""
        self._thread.close(timeout)

    # ------------------------------------------------------------------ on the thread
    def _paint(self, frame: Frame | None) -> None:
        self.busy = True
        try:
            if frame is not None:
                self.screen.update(frame[0], self._clock_ms(), frame[1])
            self._due = self.screen.tick(self._clock_ms())
            self._failure = None
        except (BgboardError, OSError) as exc:  # a panel's fault: say it once, keep going
            self._failure = f"the display failed ({exc})"
            self._due = 0  # woken on every tick again (as it was) until a frame is shown
            log.error("%s", self._failure)
        except Exception as exc:  # a program error: its traceback; never into the match
            self._failure = f"the display failed ({type(exc).__name__})"
            self._due = 0
            log.exception("the display failed")
        finally:
            self.busy = False
