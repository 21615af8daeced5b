"""Match clocks with a simple delay (US rules), as pure values; time is passed in (ms).

Per the US 2013 clock rules (docs/host.md): each player's reserve is 2 minutes per point of
the match length, less 1 minute per point already scored by either player when the clocks
are set; every turn starts with a 12-second delay that runs down before the reserve does
(simple delay, not Bronstein: unused delay is lost).  A player whose reserve runs out
loses the match, unless an overtime allowance is configured (given once per player).

A :class:`Clock` is a frozen value: :meth:`Clock.start`, :meth:`Clock.stop` return new
clocks.  :meth:`Clock.to_dict` / :meth:`Clock.from_dict` round-trip it for the journal, so the
clocks survive a restart (the running clock restarts from its last journalled reserve: time the host was down is
not charged).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bgboard.errors import InputError


class ClockSettingError(InputError):
    """Clock settings that cannot be used (negative times)."""


@dataclass(frozen=True, slots=True)
class ClockRules:
    """Clock settings: ``per_point_ms`` reserve per match point, ``scored_ms`` taken off per
    point already scored, ``delay_ms`` per turn, ``overtime_ms`` once per player (0 = none)."""

    per_point_ms: int = 120_000
    scored_ms: int = 60_000
    delay_ms: int = 12_000
    overtime_ms: int = 0

    def __post_init__(self) -> None:
        for name in ("per_point_ms", "scored_ms", "delay_ms", "overtime_ms"):
            if getattr(self, name) < 0:
                raise ClockSettingError(f"clock {name.removesuffix('_ms')} cannot be negative")

    def reserve(self, length: int, score: tuple[int, int]) -> int:
        """The reserve each player starts with at this match length and score."""
        return max(0, self.per_point_ms * length - self.scored_ms * (score[0] + score[1]))


@dataclass(frozen=True, slots=True)
class Clock:
    """Both players' reserves (ms), whose clock runs since when, and the overtime used.

    ``reserve`` is what is left *before* the running turn; :meth:`remaining` includes it.
    """

    rules: ClockRules
    reserve: tuple[int, int]
    running: int | None = None
    since_ms: int = 0
    overtime_used: tuple[bool, bool] = (False, False)

    @classmethod
    def set(cls, rules: ClockRules, length: int, score: tuple[int, int] = (0, 0)) -> "Clock":
        """Clocks set for a match of ``length`` at ``score``, both stopped."""
        r = rules.reserve(length, score)
        return cls(rules, (r, r))

    def _charge(self, now_ms: int) -> tuple[tuple[int, int], tuple[bool, bool]]:
        reserve = list(self.reserve)
        used = list(self.overtime_used)
        if self.running is not None:
            p = self.running
            spent = max(0, now_ms - self.since_ms - self.rules.delay_ms)
            reserve[p] -= spent
            if reserve[p] <= 0 and self.rules.overtime_ms and not used[p]:
                reserve[p] += self.rules.overtime_ms
                used[p] = True
        return (reserve[0], reserve[1]), (used[0], used[1])

    def start(self, player: int, now_ms: int) -> "Clock":
        """Stop the running clock (if any) and start ``player``'s with a fresh delay."""
        reserve, used = self._charge(now_ms)
        return replace(self, reserve=reserve, running=player, since_ms=now_ms, overtime_used=used)

    def stop(self, now_ms: int) -> "Clock":
        """Stop both clocks, charging the running player."""
        reserve, used = self._charge(now_ms)
        return replace(self, reserve=reserve, running=None, since_ms=now_ms, overtime_used=used)

    def remaining(self, player: int, now_ms: int) -> int:
        """``player``'s reserve at ``now_ms`` (never below 0), overtime included once granted."""
        reserve, _ = self._charge(now_ms)
        return max(0, reserve[player])

    def delay_left(self, now_ms: int) -> int:
        """What is left of the running player's delay (0 when stopped)."""
        if self.running is None:
            return 0
        return max(0, self.rules.delay_ms - (now_ms - self.since_ms))

    def flagged(self, now_ms: int) -> int | None:
        """The player whose time has run out (they lose the match), or None."""
        if self.running is None:
            return None
        reserve, _ = self._charge(now_ms)
        return self.running if reserve[self.running] <= 0 else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (for the journal)."""
        return {
            "rules": [self.rules.per_point_ms, self.rules.scored_ms, self.rules.delay_ms, self.rules.overtime_ms],
            "reserve": list(self.reserve),
            "running": self.running,
            "since_ms": self.since_ms,
            "overtime_used": list(self.overtime_used),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Clock":
        """Rebuild a clock written by :meth:`to_dict`."""
        a, b, c, d = data["rules"]
        r0, r1 = data["reserve"]
        u0, u1 = data["overtime_used"]
        return cls(ClockRules(a, b, c, d), (int(r0), int(r1)), data["running"], int(data["since_ms"]), (bool(u0), bool(u1)))

    def resumed(self, now_ms: int) -> "Clock":
        """The clock after a restart at ``now_ms``: the same player's clock runs on from the
        reserve last journalled, with a fresh delay (the time the host was down is not charged)."""
        return replace(self, since_ms=now_ms)
