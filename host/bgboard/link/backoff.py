"""The waits between reconnection attempts (pure): one class for the board's serial link
(:class:`bgboard.link.reconnect.Link`) and the club network's sessions
(:mod:`bgboard.net.boardlink`, :mod:`bgboard.club.boards`).

The waits double (``factor``) from ``first`` to at most ``most`` seconds; :meth:`Backoff.reset`
starts again from ``first`` once a connection got through.  ``jitter`` spreads each wait over
``1 ± jitter/2`` of its step, so a room of boards does not reconnect in step after the broker
comes back; 0 gives the exact sequence (the serial link: one board, one port).
"""

from __future__ import annotations

import random

__all__ = ["Backoff"]


class Backoff:
    """Waits between reconnection attempts (see the module docstring)."""

    def __init__(self, first: float = 0.5, most: float = 10.0, *, factor: float = 2.0, jitter: float = 0.5,
                 rng: random.Random | None = None) -> None:
        if not 0 < first <= most or factor < 1 or not 0 <= jitter < 2:
            raise ValueError(f"a backoff needs 0 < first <= most, factor >= 1 and jitter in [0, 2): "
                             f"{first}, {most}, {factor}, {jitter}")
        self.first = first
        self.most = most
        self.factor = factor
        self.jitter = jitter
        self.rng = rng or random.Random()
        self.next = first

    def delay(self) -> float:
        """The next wait (and multiply the one after by ``factor``, up to ``most``)."""
        step = self.next
        self.next = min(self.most, self.next * self.factor)
        if not self.jitter:
            return step
        return step * (1 - self.jitter / 2 + self.jitter * self.rng.random())

    def reset(self) -> None:
        """Connected: start from ``first`` again next time."""
        self.next = self.first
