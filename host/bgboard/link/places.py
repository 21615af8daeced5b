"""From slot states to what is known about each place (pure).

The firmware reports raw slot states (docs/protocol.md: ``level << 2 | colour``); this
module says, per place, what they prove.  Certain: the colour of every occupied slot, and
*at least one checker per occupied slot*.  The count is also certain (exact) when the
place's last slot is empty and no slot reads a stack, because checkers fill the slots from
the base.  Otherwise the field strength of the stacked slots gives an **estimate**
(about +-1 checker per stack), and the certain maximum is the number of checkers of that
colour (15, or fewer when the caller knows where the others are).

``Grid`` is ``hardware/grid.toml`` parsed by :func:`parse_grid` (pure: text in).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Sequence

from bgboard.errors import InputError
from bgboard.link.messages import BLACK, FAULT, MAX_LEVEL, WHITE, state_colour, state_level

POINT_PLACES = tuple(str(p) for p in range(1, 25))
BAR_PLACES = ("bar-white", "bar-black")
OFF_PLACES = ("off-white", "off-black")
PLACES = POINT_PLACES + BAR_PLACES + OFF_PLACES
COLOUR_NAMES = {WHITE: "white", BLACK: "black"}


class GridError(InputError):
    """A grid.toml that does not describe a board (one sentence naming the problem)."""


@dataclass(frozen=True, slots=True)
class GridSlot:
    """One hall sensor: the ``index``-th slot of ``place`` read on ``mux`` ``channel``."""

    place: str
    index: int
    mux: int
    channel: int


@dataclass(frozen=True, slots=True)
class Grid:
    """Every sensing slot in wire order (the slot numbers of the protocol)."""

    slots: tuple[GridSlot, ...]

    def of(self, place: str) -> tuple[int, ...]:
        """The slot numbers of ``place`` from its base outwards."""
        return tuple(i for i, s in enumerate(self.slots) if s.place == place)

    def places(self) -> tuple[str, ...]:
        """Every place with slots, in wire order."""
        return tuple(dict.fromkeys(s.place for s in self.slots))


def parse_grid(text: str) -> Grid:
    """Parse ``hardware/grid.toml`` text; raises :class:`GridError` if it is not a board."""
    try:
        data = tomllib.loads(text)
        slots = tuple(
            GridSlot(str(s["place"]), int(s["index"]), int(s["mux"]), int(s["channel"]))
            for s in data["slot"]
        )
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise GridError(f"the sensor grid cannot be read: {exc}") from None
    seen: set[tuple[int, int]] = set()
    for number, slot in enumerate(slots):
        if slot.place not in PLACES:
            raise GridError(f"slot {number} sits under an unknown place {slot.place!r}")
        if not (0 <= slot.channel < 16 and slot.mux >= 0):
            raise GridError(f"slot {number} is on a channel that does not exist")
        if (slot.mux, slot.channel) in seen:
            raise GridError(f"slot {number} shares multiplexer {slot.mux} channel {slot.channel}")
        seen.add((slot.mux, slot.channel))
    grid = Grid(slots)
    for place in PLACES:
        indexes = [slots[i].index for i in grid.of(place)]
        if indexes != list(range(len(indexes))) or not indexes:
            raise GridError(f"the slots of place {place} are not numbered 0, 1, 2... from its base")
    return grid


@dataclass(frozen=True, slots=True)
class PlaceReading:
    """What the sensors prove about one place.

    ``colour`` is "white", "black" or None (empty, mixed or unreadable); ``low``..``high``
    is the CERTAIN range of the count; ``estimate`` the range the field strength suggests
    (inside low..high); ``mixed`` when both colours are seen (a checker in transit or a
    misplaced one); ``fault`` when a sensor of the place is broken or flickering.
    """

    place: str
    colour: str | None
    low: int
    high: int
    estimate: tuple[int, int]
    mixed: bool = False
    fault: bool = False

    @property
    def exact(self) -> bool:
        """True when the count is certain."""
        return self.low == self.high and not self.mixed and not self.fault


def _slot_estimate(level: int, checkers: int) -> tuple[int, int]:
    if level <= 1:
        return level, level
    if level >= MAX_LEVEL:
        return MAX_LEVEL - 1, checkers
    return level - 1, level + 1


def place_reading(place: str, states: Sequence[int], checkers: int = 15) -> PlaceReading:
    """The reading of one place from its slot states (base first)."""
    colours = {state_colour(s) for s in states} - {0}
    fault = FAULT in colours
    colours.discard(FAULT)
    occupied = sum(1 for s in states if state_colour(s) in (WHITE, BLACK))
    if len(colours) > 1:
        return PlaceReading(place, None, 0, 2 * checkers, (0, 2 * checkers), mixed=True, fault=fault)
    colour = COLOUR_NAMES[colours.pop()] if colours else None
    if fault:
        return PlaceReading(place, colour, occupied, checkers, (occupied, checkers), fault=True)
    levels = [state_level(s) for s in states]
    stacked = any(level >= 2 for level in levels)
    if not stacked and (not states or state_colour(states[-1]) == 0):
        return PlaceReading(place, colour, occupied, occupied, (occupied, occupied))
    low_est = sum(_slot_estimate(level, checkers)[0] for level in levels)
    high_est = sum(_slot_estimate(level, checkers)[1] for level in levels)
    if not stacked:  # every slot covered by one magnet: nothing hides above them
        high_est = occupied
    low_est = max(occupied, min(low_est, checkers))
    high_est = max(low_est, min(high_est, checkers))
    return PlaceReading(place, colour, occupied, checkers, (low_est, high_est))


def place_readings(grid: Grid, states: Sequence[int], checkers: int = 15) -> dict[str, PlaceReading]:
    """Every place's reading from a whole SNAPSHOT's states (grid order)."""
    if len(states) != len(grid.slots):
        raise GridError(f"the board reported {len(states)} slots but the grid has {len(grid.slots)}")
    return {
        place: place_reading(place, [states[i] for i in grid.of(place)], checkers)
        for place in grid.places()
    }
