"""The screen: renderer + refresh policy + a panel, driven by the caller's clock.

The controller calls :meth:`Screen.update` whenever the display state changes and
:meth:`Screen.tick` when the time returned by the previous call has come (or on its own
loop).  The screen renders, lets the :class:`~bgboard.display.refresh.RefreshPolicy`
decide, shows the frame and sleeps the panel.  Time is passed in (milliseconds).
A panel fault (:class:`~bgboard.display.panel.PanelError`, e.g. a stuck BUSY line) never
propagates into the match: it is kept in :attr:`Screen.error` and the frame is retried as
a full refresh after :attr:`Screen.retry_ms`.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from PIL import Image

from bgboard.display.panel import Panel, PanelError
from bgboard.display.refresh import Refresh, RefreshConfig, RefreshPolicy, RefreshState
from bgboard.display.renderer import render
from bgboard.display.display_state import DisplayState
from bgboard.language import ENGLISH, Words

log = logging.getLogger(__name__)

#: Frames kept by the state they show: a match comes back to a state it showed a few frames
#: before (a press and its release, a roll read again), a frame is a function of its state
#: alone, and drawing one again was half of a simulated match's time (docs/performance.md).
KEPT_FRAMES = 8


class Screen:
    """Shows :class:`DisplayState` values on ``panel`` following the refresh policy."""

    def __init__(self, panel: Panel, config: RefreshConfig | None = None, words: Words = ENGLISH) -> None:
        self.panel = panel
        self.words = words  # the players' language (the config's display.language)
        self.policy = RefreshPolicy(panel.caps, config)
        self.state = RefreshState()
        self.last_shown: DisplayState | None = None
        self.history: list[Refresh] = []
        self.error: str | None = None  # the last panel failure (one sentence), if any
        self.retry_ms = 5000
        self._pending_state: DisplayState | None = None
        self._frames: OrderedDict[DisplayState, Image.Image] = OrderedDict()

    def update(self, state: DisplayState, now_ms: int, full: bool = False) -> int | None:
        """Queue ``state`` (``full=True`` at game end); returns when to call :meth:`tick`."""
        if state.phase in ("game-over", "match-over"):
            full = True
        if state == self._pending_state and not full and self.state.pending is not None:
            return self.policy.due_ms(self.state)  # the same state again: nothing new
        image = self._frame(state)
        self.state = self.policy.submit(self.state, image, now_ms, full)
        self._pending_state = state
        return self.policy.due_ms(self.state)

    def _frame(self, state: DisplayState) -> Image.Image:
        """``state``'s frame: drawn, or kept from the last :data:`KEPT_FRAMES` drawn."""
        image = self._frames.get(state)
        if image is None:
            image = self._frames[state] = render(state, self.panel.caps, self.words)
            if len(self._frames) > KEPT_FRAMES:
                self._frames.popitem(last=False)
        else:
            self._frames.move_to_end(state)
        return image

    def tick(self, now_ms: int) -> int | None:
        """Refresh the panel if the policy says so; returns the next time to tick
        (``None`` = nothing waits)."""
        self.state, decision = self.policy.poll(self.state, now_ms)
        if decision is not None:
            try:
                self.panel.show(decision.image, decision.full)
                if decision.sleep_after:
                    self.panel.sleep()
            except PanelError as exc:
                # a display fault must never stop the match: remember it, retry later
                if self.error != str(exc):  # one line per fault, not one per retry
                    log.warning("the panel failed: %s; retried in %.0f s", exc, self.retry_ms / 1000)
                self.error = str(exc)
                self.state = self.policy.failed(self.state, decision, now_ms, self.retry_ms)
                return self.policy.due_ms(self.state)
            if self.error is not None:
                log.info("the panel works again")
            self.error = None
            self.history.append(decision)
            self.last_shown = self._pending_state
        return self.policy.due_ms(self.state)
