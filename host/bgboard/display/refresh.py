"""The refresh policy: when to refresh the panel, and partially or fully.  Pure.

E-ink panels are slow and ghost.  The policy

* **coalesces bursts**: a new frame waits ``coalesce_ms`` after the latest change (a
  play of four steps becomes one refresh), but never longer than ``max_hold_ms`` after
  the first pending change;
* uses a **partial refresh for small changes** (at most ``partial_max_changed`` of the
  pixels differ) on panels that have one;
* forces a **full refresh** for the first frame, after ``partials_before_full`` partial
  refreshes in a row (5–8: clears ghosting), at game end (a frame submitted with
  ``full=True``) and for large changes;
* is **never faster than the panel**: no refresh starts before the previous one has
  finished (``PanelSpec.full_ms`` / ``partial_ms``);
* asks for the panel to **sleep after every refresh** (``Refresh.sleep_after``).

State is a frozen :class:`RefreshState`; time is passed in as milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PIL import Image, ImageChops

from bgboard.display.panels import PanelSpec


@dataclass(frozen=True, slots=True)
class RefreshConfig:
    """Tunable limits of the policy (defaults suit the Waveshare b/w panels)."""

    partials_before_full: int = 6
    coalesce_ms: int = 250
    max_hold_ms: int = 1000
    partial_max_changed: float = 0.35

    def __post_init__(self) -> None:
        if not 5 <= self.partials_before_full <= 8:
            raise ValueError("partials_before_full must be from 5 to 8")
        if self.coalesce_ms < 0 or self.max_hold_ms < self.coalesce_ms:
            raise ValueError("need 0 <= coalesce_ms <= max_hold_ms")
        if not 0.0 <= self.partial_max_changed <= 1.0:
            raise ValueError("partial_max_changed is a fraction from 0 to 1")


@dataclass(frozen=True, slots=True)
class RefreshState:
    """What the panel shows, what waits to be shown, and the panel's timing."""

    shown: Image.Image | None = None
    pending: Image.Image | None = None
    pending_full: bool = False
    first_pending_ms: int = 0
    last_pending_ms: int = 0
    partials: int = 0
    busy_until_ms: int = 0


@dataclass(frozen=True, slots=True)
class Refresh:
    """A decision: show ``image`` now, fully or partially, then sleep the panel."""

    image: Image.Image
    full: bool
    reason: str
    sleep_after: bool = True


def changed_fraction(old: Image.Image, new: Image.Image) -> float:
    """The fraction of pixels that differ between two frames of one panel."""
    diff = ImageChops.difference(old.convert("L"), new.convert("L"))
    if diff.getbbox() is None:
        return 0.0
    unchanged = diff.histogram()[0]
    return 1.0 - unchanged / (new.width * new.height)


class RefreshPolicy:
    """The decisions for one panel (see the module docstring); holds configuration only."""

    def __init__(self, caps: PanelSpec, config: RefreshConfig | None = None) -> None:
        self.caps = caps
        self.config = config or RefreshConfig()

    def submit(self, state: RefreshState, image: Image.Image, now_ms: int,
               full: bool = False) -> RefreshState:
        """A new frame to show (it replaces any frame still waiting).  ``full=True``
        (game end, a new game) makes the next refresh a full one."""
        first = state.first_pending_ms if state.pending is not None else now_ms
        return replace(state, pending=image, pending_full=state.pending_full or full,
                       first_pending_ms=first, last_pending_ms=now_ms)

    def due_ms(self, state: RefreshState) -> int | None:
        """When the waiting frame may be shown (``None`` = nothing waits)."""
        if state.pending is None:
            return None
        cfg = self.config
        settle = min(state.last_pending_ms + cfg.coalesce_ms,
                     state.first_pending_ms + cfg.max_hold_ms)
        return max(settle, state.busy_until_ms)

    def poll(self, state: RefreshState, now_ms: int) -> tuple[RefreshState, Refresh | None]:
        """Decide at ``now_ms``: a :class:`Refresh` to perform now, or ``None`` (call
        again at :meth:`due_ms`)."""
        due = self.due_ms(state)
        if due is None or now_ms < due:
            return state, None
        image = state.pending
        assert image is not None
        cleared = replace(state, pending=None, pending_full=False)
        shown = state.shown
        if shown is not None and not state.pending_full and changed_fraction(shown, image) == 0.0:
            return cleared, None  # the change was undone within the burst
        full, reason = self._kind(state, image)
        took = self.caps.full_ms if full or self.caps.partial_ms is None else self.caps.partial_ms
        after = replace(cleared, shown=image, partials=0 if full else state.partials + 1,
                        busy_until_ms=now_ms + took)
        return after, Refresh(image=image, full=full, reason=reason)

    def failed(self, state: RefreshState, refresh: Refresh, now_ms: int,
               retry_ms: int = 5000) -> RefreshState:
        """The panel could not show ``refresh``: what it shows is unknown, so the frame
        (or a newer one already waiting) is retried as a full refresh after ``retry_ms``."""
        pending = state.pending if state.pending is not None else refresh.image
        return replace(state, shown=None, pending=pending, pending_full=True,
                       first_pending_ms=now_ms, last_pending_ms=now_ms, partials=0,
                       busy_until_ms=now_ms + retry_ms)

    def _kind(self, state: RefreshState, image: Image.Image) -> tuple[bool, str]:
        cfg = self.config
        if state.shown is None:
            return True, "first frame"
        if not self.caps.partial:
            return True, "panel has no partial refresh"
        if state.pending_full:
            return True, "requested (game end)"
        if state.partials >= cfg.partials_before_full:
            return True, f"after {state.partials} partial refreshes"
        if changed_fraction(state.shown, image) > cfg.partial_max_changed:
            return True, "large change"
        return False, "small change"
