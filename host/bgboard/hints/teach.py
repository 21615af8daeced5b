"""Teaching texts: where a lifted checker may go, and why a play is illegal (pure).

Both come from the rules engine (``legal_steps``, ``explain``); this module turns them
into what the display shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from bgboard.rules import Step, explain, legal_steps
from bgboard.rules.position import BAR, Position

__all__ = ["Destinations", "destinations", "illegal_reason"]


@dataclass(frozen=True, slots=True)
class Destinations:
    """Where the checker lifted from ``frm`` may legally go now (``to`` 0 = off)."""

    frm: int
    to: tuple[int, ...]

    @property
    def text(self) -> str:
        """One sentence for the display."""
        where = "the bar" if self.frm == BAR else f"point {self.frm}"
        if not self.to:
            return f"The checker from {where} cannot move now."
        names = ", ".join("off" if t == 0 else str(t) for t in self.to)
        return f"The checker from {where} can go to {names}."


def destinations(position: Position, dice: tuple[int, int], steps_so_far: Sequence[Step], frm: int) -> Destinations:
    """Legal destinations of a checker lifted from ``frm`` (mover's numbering, 25 = bar).

    ``position`` is the position before the roll was started and ``steps_so_far`` the steps
    already made this turn (the rules engine's ``legal_steps`` convention).  A destination
    reachable by more than one die appears once, in descending order.
    """
    steps = legal_steps(position, dice, tuple(steps_so_far))
    targets = sorted({s.to for s in steps if s.frm == frm}, reverse=True)
    return Destinations(frm, tuple(targets))


def illegal_reason(position: Position, dice: tuple[int, int], result: Position) -> str | None:
    """None if ``result`` can be reached legally with ``dice``, else the reason in words."""
    return explain(position, dice, result)
