"""A person's hand moving checkers one at a time (pure).

Moving a checker is not an instant jump from one layout to the next: the checker is lifted
(its field fades over a few scans), carried across other places (a brief partial field over
each), and set down (the field grows, then settles).  :func:`carry` turns one move into a
timed list of :class:`Frame` values which the sensor field turns into readings; the
firmware has to debounce exactly this kind of flicker.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.sim.field import Hand
from bgboard.sim.layout import BAR_PLACES, OFF_PLACES, Layout

#: Field strength of a lifted checker over its source / destination, in order.
LIFT = (0.6, 0.25)
SET_DOWN = (0.3, 0.7)
PASS_OVER = 0.15


@dataclass(frozen=True, slots=True)
class Frame:
    """The table for ``ms`` milliseconds: ``layout`` plus an optional hand above it."""

    ms: int
    layout: Layout
    hand: Hand | None = None


def _order(place: str) -> float:
    """Position of a place along the table, to know what a hand passes over."""
    if place in BAR_PLACES:
        return 12.5
    if place in OFF_PLACES:
        return 0.0 if place == OFF_PLACES[0] else 25.0
    return float(int(place))


def carry(
    layout: Layout, src: str, dst: str, *, step_ms: int = 40, flicker: bool = True, pin: bool = False
) -> tuple[tuple[Frame, ...], Layout]:
    """Frames of one checker carried from ``src`` to ``dst``, and the layout afterwards.

    With ``flicker`` off the move is a single jump (for fast, clean runs).  ``pin``: a
    Plakoto pinner set on a single checker of the other colour (the field model's pin:
    opposite magnets on one slot, :mod:`bgboard.sim.field`).
    """
    lifted, colour = layout.lift(src)
    after = lifted.put(dst, colour, pin=pin)
    if not flicker:
        return (Frame(step_ms, after),), after
    frames = [Frame(step_ms, lifted, Hand(src, colour, s)) for s in LIFT]
    frames.append(Frame(step_ms, lifted))
    a, b = _order(src), _order(dst)
    lo, hi = sorted((a, b))
    over = [str(p) for p in range(1, 25) if lo < p < hi]
    if a > b:
        over.reverse()
    for place in over[:: max(1, len(over) // 3 or 1)][:3]:
        frames.append(Frame(step_ms // 2 or 1, lifted, Hand(place, colour, PASS_OVER)))
    frames.extend(Frame(step_ms, lifted, Hand(dst, colour, s)) for s in SET_DOWN)
    frames.append(Frame(step_ms, after))
    return tuple(frames), after
