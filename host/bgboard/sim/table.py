"""The virtual table: checkers, the sensor field and what the sensors report.

:class:`Table` holds the checkers (a :class:`~bgboard.sim.layout.Layout`), moves them as a
hand does (:mod:`bgboard.sim.hand`), and reads the hall field (:mod:`bgboard.sim.field`)
into the host's place codes (:class:`bgboard.sense.board.Observation`).

Readings are classified per slot with the calibration midpoints (the firmware's rule:
a reading more than half a checker's swing away from the empty level is a checker of the
sign's colour) and turned into place codes by the host's own
:func:`bgboard.sense.board.reading_from_slots`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable

from bgboard.sense.board import Observation, reading_from_slots
from bgboard.sim.field import Calibration, Faults, Grid, default_grid, readings
from bgboard.sim.hand import Frame, carry
from bgboard.sim.layout import BAR_PLACES, OFF_PLACES, Layout
from bgboard.sim.players import Move

#: Host place numbers (bgboard.sense.board) of the simulator's place names.
PLACE_NUMBERS = {str(p): p for p in range(1, 25)} | {
    BAR_PLACES[0]: 25,
    BAR_PLACES[1]: 26,
    OFF_PLACES[0]: 27,
    OFF_PLACES[1]: 28,
}


def classify(value: int, calibration: Calibration) -> int:
    """Slot state of one reading: +1 white, -1 black, 0 empty."""
    units = (value - calibration.empty) * calibration.white_sign / calibration.swing
    if units > 0.5:
        return 1
    if units < -0.5:
        return -1
    return 0


@dataclass
class Table:
    """Checkers on the virtual board and the sensors under it (an adapter with state)."""

    layout: Layout
    rng: random.Random
    noise: float = 0.0
    grid: Grid = field(default_factory=default_grid)
    calibration: Calibration = field(default_factory=Calibration)
    faults: Faults = field(default_factory=Faults)
    flicker: bool = True

    def frames(self, moves: Iterable[Move]) -> tuple[Frame, ...]:
        """Carry each checker in turn; the table ends with every move made."""
        out: list[Frame] = []
        for move in moves:
            frames, self.layout = carry(self.layout, move.src, move.dst, flicker=self.flicker)
            out.extend(frames)
        return tuple(out)

    def values(self, frame: Frame | None = None) -> tuple[int, ...]:
        """ADC counts of every slot for a frame (default: the table at rest)."""
        layout = self.layout if frame is None else frame.layout
        hand = None if frame is None else frame.hand
        return readings(
            self.grid,
            layout,
            self.rng,
            noise=self.noise,
            hand=hand,
            calibration=self.calibration,
            faults=self.faults,
        )

    def observe(self, values: tuple[int, ...] | None = None) -> Observation:
        """The host's place codes for a set of readings (default: a scan at rest)."""
        if values is None:
            values = self.values()
        states: dict[str, list[int]] = {}
        for slot, v in zip(self.grid.slots, values):
            states.setdefault(slot.place, []).append(classify(v, self.calibration))
        codes = [0] * 28
        for place, slots in states.items():
            number = PLACE_NUMBERS[place]
            codes[number - 1] = reading_from_slots(number, slots)
        return Observation(tuple(codes))
