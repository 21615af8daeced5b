"""Checkers on the physical board, seen from white's side (pure).

The physical board is numbered from white's (player 0's) view: white's home board is
points 1-6, white moves from 24 towards 1 and bears off to the white tray; black's home is
points 19-24 (black's own points 1-6).  A :class:`Layout` is what a camera above the table
would see: per *place* (24 points, the two bar halves, the two bear-off trays) how many
checkers of which colour lie there.

Places are named by strings of grid.toml (:data:`bgboard.hardware.PLACES`): ``"1"`` .. ``"24"`` for the
points, ``"bar-white"``/``"bar-black"`` and ``"off-white"``/``"off-black"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.hardware import BAR_PLACES, OFF_PLACES, PLACES, POINT_PLACES  # noqa: F401 - the places of this layout
from bgboard.rules import BAR, OFF, Position
from bgboard.sense.tavli import Physical

__all__ = ["BAR_PLACES", "BLACK", "COLOURS", "OFF_PLACES", "PLACES", "POINT_PLACES", "WHITE", "Layout", "place_of"]

WHITE = 0
BLACK = 1
COLOURS = ("white", "black")



@dataclass(frozen=True, slots=True)
class Layout:
    """Checkers on the table.

    ``points`` holds 24 signed counts for physical points 1..24: positive = white,
    negative = black.  ``bar`` and ``off`` are ``(white, black)`` counts.  ``pins``: the
    points where one checker of the other colour lies pinned under those counted (Plakoto).
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    pins: frozenset[int] = frozenset()

    @classmethod
    def from_physical(cls, physical: Physical) -> "Layout":
        """The table of a seed variant's board (:func:`bgboard.sense.tavli.physical`):
        on a pinned point ``points`` counts the pinners on top and ``pins`` names it; the
        trays hold Race's unentered checkers with the borne-off ones."""
        c = physical.counts
        return cls(tuple(c[:24]), (c[24], -c[25]), (c[26], -c[27]), physical.pinned)

    @classmethod
    def from_position(cls, position: Position, on_roll: int) -> "Layout":
        """The table showing ``position`` (seen by the player on roll, ``on_roll`` = 0 white
        or 1 black)."""
        white, black = (position.mine, position.theirs) if on_roll == WHITE else (
            position.theirs,
            position.mine,
        )
        points = tuple(white[p] - black[25 - p] for p in range(1, 25))
        return cls(points, (white[BAR], black[BAR]), (white[OFF], black[OFF]))

    def to_position(self, on_roll: int) -> Position:
        """The rules engine's position with ``on_roll`` (0 white / 1 black) on roll."""
        white = [0] * 26
        black = [0] * 26
        for i, n in enumerate(self.points):
            p = i + 1
            if n > 0:
                white[p] = n
            elif n < 0:
                black[25 - p] = -n
        white[BAR], black[BAR] = self.bar
        white[OFF], black[OFF] = self.off
        w, b = tuple(white), tuple(black)
        return Position(w, b) if on_roll == WHITE else Position(b, w)

    def at(self, place: str) -> tuple[int, int]:
        """``(colour, count)`` at a place; colour is meaningless when count is 0."""
        if place in BAR_PLACES:
            colour = BAR_PLACES.index(place)
            return colour, self.bar[colour]
        if place in OFF_PLACES:
            colour = OFF_PLACES.index(place)
            return colour, self.off[colour]
        n = self.points[int(place) - 1]
        return (WHITE if n >= 0 else BLACK), abs(n)

    def lift(self, place: str) -> tuple["Layout", int]:
        """Take the top checker off ``place``: the new layout and the checker's colour (the
        last pinner lifted off a Plakoto pin frees the pinned checker under it)."""
        colour, count = self.at(place)
        if count == 0:
            raise ValueError(f"no checker to lift at {place}")
        after = self._add(place, colour, -1)
        if count == 1 and place in POINT_PLACES and int(place) in self.pins:
            points = list(after.points)
            points[int(place) - 1] = -1 if colour == WHITE else 1
            after = Layout(tuple(points), after.bar, after.off, self.pins - {int(place)})
        return after, colour

    def put(self, place: str, colour: int, pin: bool = False) -> "Layout":
        """Put a checker of ``colour`` on ``place`` (which must not hold the other colour,
        unless ``pin``: a Plakoto pinner set on a single checker of the other colour)."""
        here, count = self.at(place)
        if count and here != colour and place in POINT_PLACES:
            if not (pin and count == 1 and int(place) not in self.pins):
                raise ValueError(f"point {place} holds the other colour")
            points = list(self.points)
            points[int(place) - 1] = 1 if colour == WHITE else -1
            return Layout(tuple(points), self.bar, self.off, self.pins | {int(place)})
        return self._add(place, colour, +1)

    def _add(self, place: str, colour: int, delta: int) -> "Layout":
        if place in BAR_PLACES:
            bar = list(self.bar)
            bar[colour] += delta
            return Layout(self.points, (bar[0], bar[1]), self.off, self.pins)
        if place in OFF_PLACES:
            off = list(self.off)
            off[colour] += delta
            return Layout(self.points, self.bar, (off[0], off[1]), self.pins)
        points = list(self.points)
        points[int(place) - 1] += delta if colour == WHITE else -delta
        return Layout(tuple(points), self.bar, self.off, self.pins)

    def physical(self) -> Physical:
        """The host's view of this table (:class:`bgboard.sense.tavli.Physical`): 28
        signed counts, pins kept."""
        return Physical((*self.points, self.bar[0], -self.bar[1], self.off[0], -self.off[1]), self.pins)


def place_of(index: int, colour: int) -> str:
    """The physical place of a mover's own index (0 off, 1..24 points, 25 bar)."""
    if index == BAR:
        return BAR_PLACES[colour]
    if index == OFF:
        return OFF_PLACES[colour]
    return str(index if colour == WHITE else 25 - index)
