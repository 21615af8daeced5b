"""Settling: act on a board reading only once it has been stable for a while.

Checkers in transit and a hand over the board produce bursts of readings.  A
:class:`Settler` is fed every reading with the time it arrived (time is passed in, in
milliseconds) and hands out an observation once it has not changed for ``settle_ms``.
It also watches for a place that keeps flickering — a loose magnet or a failing sensor —
and names it ("check point 7").

Pure code: no I/O, no clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from bgboard.sense.places import PLACES, Observation, place_name

DEFAULT_SETTLE_MS = 300


@dataclass(frozen=True, slots=True)
class Flicker:
    """A place that changed ``changes`` times within the watch window: probably a fault."""

    place: int
    changes: int

    def __str__(self) -> str:
        return f"check {place_name(self.place)}: its sensor keeps changing"


class Settler:
    """Debounces whole-board readings (see the module docstring).

    ``settle_ms``: quiet time before a reading counts; ``window_ms`` and ``changes``:
    a place that changes at least ``changes`` times within ``window_ms`` is reported by
    :meth:`flickering`.
    """

    def __init__(self, settle_ms: int = DEFAULT_SETTLE_MS, window_ms: int = 3000, changes: int = 8) -> None:
        if settle_ms < 0 or window_ms <= 0 or changes < 2:
            raise ValueError("settle_ms >= 0, window_ms > 0 and changes >= 2 are required")
        self.settle_ms = settle_ms
        self.window_ms = window_ms
        self.changes = changes
        self._current: Observation | None = None
        self._since = 0
        self._settled: Observation | None = None
        self._history: dict[int, deque[int]] = {p: deque() for p in PLACES}

    @property
    def settled(self) -> Observation | None:
        """The last observation handed out by :meth:`poll` (None before the first)."""
        return self._settled

    def feed(self, observation: Observation, now_ms: int) -> None:
        """Record a reading that arrived at ``now_ms``."""
        if self._current is not None and observation.codes == self._current.codes:
            if observation.states != self._current.states:
                # the same codes from other slot states (a seed variant's reading keeps them:
                # a Plakoto pin's base slot): the newer states count, as settled as before
                self._current = observation
            return
        if self._current is not None:
            for place, old, new in zip(PLACES, self._current.codes, observation.codes):
                if old != new:
                    times = self._history[place]
                    times.append(now_ms)
                    while times and now_ms - times[0] > self.window_ms:
                        times.popleft()
        self._current = observation
        self._since = now_ms

    def due(self) -> int | None:
        """The time at which the current reading will have settled (None if nothing pending)."""
        if self._current is None or self._current is self._settled:
            return None
        return self._since + self.settle_ms

    def poll(self, now_ms: int) -> Observation | None:
        """The current reading if it is stable for ``settle_ms`` and not handed out yet."""
        if self._current is None or self._current is self._settled:
            return None
        if now_ms - self._since < self.settle_ms:
            return None
        self._settled = self._current
        return self._current

    def flickering(self, now_ms: int) -> tuple[Flicker, ...]:
        """Places that changed too often within the window ending at ``now_ms``."""
        found: list[Flicker] = []
        for place, times in self._history.items():
            while times and now_ms - times[0] > self.window_ms:
                times.popleft()
            if len(times) >= self.changes:
                found.append(Flicker(place, len(times)))
        return tuple(found)
