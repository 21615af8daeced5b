"""Backgammon's start positions (gnubg's layouts): standard, Nackgammon and Hypergammon with
1, 2 or 3 checkers.  Each is a game of the registry (:mod:`bgboard.rules.games`) that plays
on backgammon's :class:`Position` and fast generator."""

from __future__ import annotations

from bgboard.errors import InputError
from bgboard.rules.position import Position

# Checkers per point (from each player's own view) at the start, identical for both sides.
_LAYOUTS: dict[str, dict[int, int]] = {
    "standard": {24: 2, 13: 5, 8: 3, 6: 5},
    "nackgammon": {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    "hypergammon1": {24: 1},
    "hypergammon2": {24: 1, 23: 1},
    "hypergammon3": {24: 1, 23: 1, 22: 1},
}

#: Names of backgammon's starts.
STARTS: tuple[str, ...] = tuple(_LAYOUTS)


class UnknownVariantError(InputError):
    """A variant (game or match format) name bgboard does not know."""


def _layout(variant: str) -> dict[int, int]:
    try:
        return _LAYOUTS[variant]
    except KeyError:
        raise UnknownVariantError(
            f"unknown variant {variant!r}: choose one of {', '.join(STARTS)}"
        ) from None


def checkers_of(variant: str) -> int:
    """Checkers each player has in ``variant`` (15, or 1/2/3 in Hypergammon)."""
    return sum(_layout(variant).values())


def start_position(variant: str = "standard") -> Position:
    """The position before the opening roll (symmetrical, so either side may be on roll)."""
    return layout_position(_layout(variant))


def layout(variant: str) -> dict[int, int]:
    """The checkers per point (each player's own view) of backgammon's start ``variant``."""
    return dict(_layout(variant))


def layout_position(points: dict[int, int]) -> Position:
    """The symmetrical position with ``points`` (checkers per point, each player's own view)
    on both sides: a start before the opening roll."""
    side = [0] * 26
    for point, n in points.items():
        side[point] = n
    return Position(tuple(side), tuple(side))
