"""Magnets put on the board as built, for the physics tests of tests/hardware and tests/sim:
a spot along and across a place's row, and both neighbouring points full (the sensing
physics of hardware/sensing.toml, bgboard.sim.placement's rows)."""

from __future__ import annotations

import random

from bgboard.hardware.physics import Magnet, load_design
from bgboard.sim.placement import Row, rows

DESIGN = load_design()
ROWS = rows(DESIGN)
PITCH = DESIGN.slot_pitch_mm


def at(row: Row, along: float, across: float = 0.0) -> tuple[float, float]:
    """The board position ``along`` mm from the row's frame and ``across`` mm off its line."""
    return row.x + row.dx * along + row.dy * across, row.y + row.dy * along + row.dx * across


def crowd(place: str, rng: random.Random) -> list[Magnet]:
    """Both neighbouring points full (a row of 5 each, either colour, players' scatter)."""
    out: list[Magnet] = []
    n = int(place)
    for other in (str(n - 1), str(n + 1)):
        colour = rng.choice((1, -1))
        for k in range(5):
            x, y = at(ROWS[other], DESIGN.base_mm + k * PITCH + rng.gauss(0.0, 3.0), rng.gauss(0.0, 2.0))
            out.append(Magnet(x, y, 0, colour))
    return out
