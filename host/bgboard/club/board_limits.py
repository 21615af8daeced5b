"""What one board may send the director, and how the director works through it (pure).

:class:`Limits` are the director's settings for the boards' traffic (rates, bursts, queues,
batches, the checking workers); :class:`Bucket` is the token bucket the director keeps per
board and kind of message (docs/club-protocol.md): the time is passed in, never read here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one board may send, and how the director works through it.  A board sends a
    state at most every 0.1 s and a result every few seconds until acked: the buckets leave
    it ample room and stop a flood at the door."""

    state_per_s: float = 20.0
    state_burst: float = 100.0
    result_per_s: float = 5.0
    result_burst: float = 50.0
    online_per_s: float = 2.0
    online_burst: float = 20.0
    queued_results: int = 100  # per board, waiting for a check
    batch: int = 500  # results stored in one transaction at most
    checks: int = 2  # .mat checks at once (worker processes; 0: threads of this process)
    processes: bool = True
    watch_s: float = 0.5  # how often the database is asked whether someone else changed it
    busy_timeout_ms: int = 1000  # SQLite's wait for a lock before the director's own backoff


class Bucket:
    """A token bucket: ``burst`` messages at once, ``rate`` a second after that."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


__all__ = ["Limits", "Bucket"]
