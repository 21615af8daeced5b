"""From the board's slot states (wire protocol) to an :class:`Observation` (pure).

grid.toml (:mod:`bgboard.hardware`) lists every sensing slot in wire order with its place and its index
along the place.  A slot state byte is ``level << 2 | colour`` (docs/protocol.md): colour
0 empty, 1 white, 2 black, 3 fault.  Checkers fill a place from index 0; once every slot
is covered, further checkers stack: a slot's level (its field strength) tells one checker
from a stack (hardware/README.md, "Sensing physics": the second magnet adds 0.57 of the
first), so a place is counted exactly while no slot shows a stack and reads "at least one
more" than its occupied slots when one does — the certain part of the reading, which is
what recognition uses (how tall a stack is, the physics cannot tell).  A fault or a gap in a row names the place to check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection, Mapping, Sequence

from bgboard.language import Phrase
from bgboard.sense.places import (
    BLACK_BAR,
    BLACK_OFF,
    WHITE_BAR,
    WHITE_OFF,
    Observation,
    SensorFaultError,
    Slots,
    place_name,
    reading_from_slots,
)

PLACE_NUMBERS: Mapping[str, int] = {
    **{str(p): p for p in range(1, 25)},
    "bar-white": WHITE_BAR,
    "bar-black": BLACK_BAR,
    "off-white": WHITE_OFF,
    "off-black": BLACK_OFF,
}
FAULT = 3


@dataclass(frozen=True, slots=True)
class SlotMap:
    """For each place 1..28, the wire numbers of its slots from the base outwards."""

    places: tuple[tuple[int, ...], ...]

    @property
    def count(self) -> int:
        """How many slots the board has."""
        return sum(len(p) for p in self.places)

    @classmethod
    def from_slots(cls, slots: Sequence[Any]) -> "SlotMap":
        """From the grid's slots in wire order (anything with ``place`` and ``index``:
        :class:`bgboard.hardware.Slot`)."""
        rows: dict[int, dict[int, int]] = {p: {} for p in range(1, 29)}
        for wire, entry in enumerate(slots):
            try:
                place = PLACE_NUMBERS[str(entry.place)]
                index = int(entry.index)
            except (AttributeError, KeyError, TypeError, ValueError):
                raise SensorFaultError(f"slot {wire} of the grid has no valid place and index") from None
            if index in rows[place]:
                raise SensorFaultError(f"{place_name(place)} has slot index {index} twice in the grid")
            rows[place][index] = wire
        places: list[tuple[int, ...]] = []
        for place in range(1, 29):
            row = rows[place]
            if not row or sorted(row) != list(range(len(row))):
                raise SensorFaultError(f"{place_name(place)} needs slots numbered 0, 1, 2 ... in the grid")
            places.append(tuple(row[i] for i in range(len(row))))
        return cls(tuple(places))

    def slots(self) -> Slots:
        """The :class:`Slots` capacities (points, bar halves and trays must be uniform)."""
        point = {len(self.places[p - 1]) for p in range(1, 25)}
        bar = {len(self.places[WHITE_BAR - 1]), len(self.places[BLACK_BAR - 1])}
        tray = {len(self.places[WHITE_OFF - 1]), len(self.places[BLACK_OFF - 1])}
        if len(point) != 1 or len(bar) != 1 or len(tray) != 1:
            raise SensorFaultError("every point, every bar half and every tray needs the same number of slots")
        return Slots(point=point.pop(), bar=bar.pop(), tray=tray.pop())

    def observation(self, states: Sequence[int], skip_base: Collection[int] = ()) -> Observation:
        """The observation of one full set of slot states (wire order).  A faulty slot or a
        checker seen beyond a gap raises :class:`SensorFaultError` naming the place.

        ``skip_base``: places whose base slot is not read (a Plakoto pin: two opposite
        magnets on one slot partly cancel; :mod:`bgboard.sense.tavli`)."""
        if len(states) != self.count:
            raise SensorFaultError(Phrase("the board reported %(slots)d slots, the grid has %(grid)d", slots=len(states),
                                          grid=self.count))
        codes: list[int] = []
        for place, wires in enumerate(self.places, start=1):
            if place in skip_base:
                wires = wires[1:]
            row: list[int] = []
            for wire in wires:
                colour = states[wire] & 3
                if colour == FAULT:
                    raise SensorFaultError(Phrase("check %(place)s: a sensor reports a fault", place=place_name(place)))
                row.append(0 if colour == 0 else (1 if colour == 1 else -1))
            # a stack on any slot (players stack where they like): the physics tells a stack
            # from one checker, not how tall it is
            stacked = any((states[wire] >> 2) >= 2 for wire in wires)
            codes.append(reading_from_slots(place, row, stacked))
        return Observation(tuple(codes))
