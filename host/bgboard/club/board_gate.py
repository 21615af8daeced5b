"""The director's door for each board's messages (adapter: it reads the monotonic clock).

:class:`BoardGate` keeps a token bucket per board and kind of message
(:class:`~bgboard.club.board_limits.Bucket`: the rest of a flood is dropped unread and
counted) and says what it ignored in one sentence, then at most once a minute per board while
that board goes on (the messages in between counted in the next sentence).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from bgboard.club.board_limits import Bucket, Limits

log = logging.getLogger(__name__)


class BoardGate:
    """Each board's token buckets and its quiet log (module docstring); ``counts`` is the
    director's own tally, where the dropped messages are counted."""

    def __init__(self, limits: Limits, counts: dict[str, int]) -> None:
        self.limits = limits
        self.counts = counts
        self._buckets: dict[tuple[int, str], Bucket] = {}
        self._quiet: dict[int, tuple[float, int]] = {}  # board -> (last sentence logged at, messages since)

    def admit(self, board: int, kind: str) -> bool:
        """Whether ``board`` may send one more ``kind`` message now (if not: counted, said)."""
        lim = self.limits
        now = time.monotonic()
        bucket = self._buckets.get((board, kind))
        if bucket is None:
            rate, burst = {
                "state": (lim.state_per_s, lim.state_burst),
                "result": (lim.result_per_s, lim.result_burst),
            }.get(kind, (lim.online_per_s, lim.online_burst))
            bucket = self._buckets[(board, kind)] = Bucket(rate, burst, now)
        if bucket.take(now):
            return True
        self.counts["dropped"] += 1
        self.warn(board, "board %d sends more %s messages than a board does: the rest are dropped unread", board, kind)
        return False

    def warn(self, board: int, text: str, *args: Any) -> None:
        """Log one sentence, then at most one a minute per board while it goes on (counted)."""
        now = time.monotonic()
        last, since = self._quiet.get(board, (-1e9, 0))
        if now - last >= 60.0:
            more = f" ({since} more of board {board}'s messages ignored or dropped since the last word)" if since else ""
            log.warning(text + "%s", *args, more)
            self._quiet[board] = (now, 0)
        else:
            self._quiet[board] = (last, since + 1)


__all__ = ["BoardGate"]
