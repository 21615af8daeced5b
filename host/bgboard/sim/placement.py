"""Checkers as players really put them down, and what every sensor then reads (pure).

:mod:`bgboard.sim.field` puts each checker on its sensor's centre; this module scatters
them the way hands do and sums every magnet's field at every sensor from the sensing
physics' table (:mod:`bgboard.hardware.physics`, computed with magpylib), neighbours and the
facing point included — what the recognition benchmark (benchmarks/physics_recognition.py)
and tests/sim/test_placement.py read through the firmware's classifier.

The board (mm, seen from above, white's home bottom right): the bar's centre line at x = 0,
points ``point_pitch`` wide, white's points 1-12 along the bottom edge (y = 0), black's
13-24 along the top; slot i of a point ``base + i`` slot pitches from its base, so the last
slots of facing points are ``tip_gap`` apart; the bar halves run from the middle outwards
(the middle line is their frame), the trays lie beyond point 1 / 24.

Placement scatter (:class:`Scatter`, standard deviations in mm): a row's first checker lies
``N(0, base)`` off its sensor along the row (never into the frame); each next one a slot
pitch plus ``N(0, gap)`` further than the one before (never overlapping it), so a row's far
end wanders like a random walk; across the row ``N(0, across)``, within ``across_limit`` of
the row's centre line.  The sensors sit where a row of checkers lies on average: the design's
``base_mm`` from the frame and a slot pitch of a checker plus the millimetre a player's row
gains per checker (hardware/sensing.toml).  Checkers beyond a row's
slots are stacked on a checker of the row chosen at random (players stack where they like),
each ``N(0, lean)`` off the one below; a lone checker may be set down anywhere along its place
(``lone``: how often).  A Plakoto pin (``layout.pins``; the point's count is its pinners) is
the row's first checker, of the other colour, with the first pinner on it ``N(0, pin)`` off
in each direction and the further pinners in a row after it.  Randomness comes only from the
``random.Random`` passed in.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from bgboard.hardware import BAR_PLACES, OFF_PLACES, POINT_PLACES, Grid, Slot
from bgboard.hardware.physics import Design, FieldTable, Magnet, field_mt, reading_noise_mt
from bgboard.sim.layout import WHITE, Layout

BAR_WIDTH_MM = 50.0
TRAY_GAP_MM = 30.0  # from point 1's / 24's outer side to the tray's centre line, beyond a checker's radius


@dataclass(frozen=True, slots=True)
class Scatter:
    """How far from the ideal spot players put checkers (mm; see the module docstring)."""

    base: float = 3.0
    gap: float = 1.5
    across: float = 2.0
    across_limit: float = 5.0
    lean: float = 1.5
    #: the chance that a place's lone checker is set down anywhere along the place (uniformly,
    #: from the frame to half a pitch past its last slot) instead of at its base — a Plakoto
    #: pin's pinned checker too (it was a lone checker), with room left for the pinners after it
    lone: float = 0.0
    #: how far a Plakoto pinner lies off the checker it pins, in each direction (the pinner
    #: sits wherever it is set: hardware/README.md, "Plakoto pins")
    pin: float = 3.0




@dataclass(frozen=True, slots=True)
class Row:
    """Where a place's slots lie: slot i at ``origin + (base + i · pitch) · direction``."""

    x: float
    y: float
    dx: float
    dy: float


def rows(design: Design) -> dict[str, Row]:
    """Every place's row on the board (see the module docstring)."""
    w, p = design.point_pitch_mm, design.slot_pitch_mm
    height = 2 * (design.base_mm + 4 * p) + design.tip_gap_mm  # bottom edge to top edge
    half = BAR_WIDTH_MM / 2
    out: dict[str, Row] = {}
    for point in range(1, 25):
        if point <= 6:
            x = half + (6 - point + 0.5) * w
        elif point <= 12:
            x = -(half + (point - 7 + 0.5) * w)
        elif point <= 18:
            x = -(half + (18 - point + 0.5) * w)
        else:
            x = half + (point - 19 + 0.5) * w
        out[str(point)] = Row(x, 0.0, 0.0, 1.0) if point <= 12 else Row(x, height, 0.0, -1.0)
    middle = height / 2
    out[BAR_PLACES[0]] = Row(0.0, middle, 0.0, -1.0)  # white's bar half runs down from the middle
    out[BAR_PLACES[1]] = Row(0.0, middle, 0.0, 1.0)
    tray = half + 6 * w + TRAY_GAP_MM + design.checker_diameter_mm / 2
    out[OFF_PLACES[0]] = Row(tray, 0.0, 0.0, 1.0)
    out[OFF_PLACES[1]] = Row(tray, height, 0.0, -1.0)
    return out


def sensor_xy(design: Design, row: Row, index: int, part: int = 0, per_slot: int = 1) -> tuple[float, float]:
    """The board position of the ``part``-th of the ``per_slot`` sensors of a row's
    ``index``-th slot: the first at the slot's centre, a second half a pitch further from the
    base (between this slot and the next: hardware/README.md, "A lone checker anywhere")."""
    along = design.base_mm + index * design.slot_pitch_mm + part * design.slot_pitch_mm / per_slot
    return row.x + row.dx * along, row.y + row.dy * along


def sensor_spots(design: Design, grid: Grid) -> list[tuple[float, float]]:
    """Every sensor's board position, in the firmware's sensor order (:meth:`Grid.sensors`)."""
    where = rows(design)
    per = grid.per_slot
    return [sensor_xy(design, where[slot.place], slot.index, part, per) for slot, part in grid.sensors()]


def place_magnets(design: Design, grid: Grid, layout: Layout, rng: random.Random,
                  scatter: Scatter = Scatter()) -> list[Magnet]:
    """Every checker's magnet, put down with ``scatter``."""
    d = design.checker_diameter_mm
    magnets: list[Magnet] = []
    for place, row in rows(design).items():
        colour, count = layout.at(place)
        if not count:
            continue
        sign = 1 if colour == WHITE else -1
        slots = len(grid.of(place))
        pinned = place in POINT_PLACES and int(place) in layout.pins
        flat = min(count, slots)
        # against the frame at the least, touching the previous checker at the least
        along = max(d / 2, design.base_mm + rng.gauss(0.0, scatter.base))
        if (count == 1 or pinned) and scatter.lone and rng.random() < scatter.lone:
            end = design.base_mm + (slots - 1) * design.slot_pitch_mm + design.slot_pitch_mm / 2
            along = rng.uniform(d / 2, max(d / 2, end - (flat - 1) * (design.slot_pitch_mm + 1.0)))
        spots: list[tuple[float, float]] = []
        for i in range(flat):
            if i:
                along = max(along + d, along + design.slot_pitch_mm + rng.gauss(0.0, scatter.gap))
            across = max(-scatter.across_limit, min(scatter.across_limit, rng.gauss(0.0, scatter.across)))
            x = row.x + row.dx * along + row.dy * across
            y = row.y + row.dy * along + row.dx * across
            if i == 0 and pinned:  # the pinned checker, the first pinner on it
                magnets.append(Magnet(x, y, 0, -sign))
                x, y = x + rng.gauss(0.0, scatter.pin), y + rng.gauss(0.0, scatter.pin)
            spots.append((x, y))
            magnets.append(Magnet(x, y, 1 if i == 0 and pinned else 0, sign))
        heights = [1 if pinned else 0] + [0] * (flat - 1)
        for _ in range(count - flat):
            i = rng.randrange(flat)
            heights[i] += 1
        for i, extra in enumerate(heights):
            x, y = spots[i]
            base = 1 if i == 0 and pinned else 0  # a pin's first pinner is already level 1
            for level in range(base + 1, extra + 1):
                x += rng.gauss(0.0, scatter.lean)
                y += rng.gauss(0.0, scatter.lean)
                magnets.append(Magnet(x, y, level, sign))
    return magnets


def fields_mt(design: Design, grid: Grid, table: FieldTable, magnets: list[Magnet]) -> dict[tuple[Slot, int], float]:
    """Bz at every sensor ``(slot, part)`` of ``grid`` from all ``magnets``."""
    out: dict[tuple[Slot, int], float] = {}
    for sensor, (sx, sy) in zip(grid.sensors(), sensor_spots(design, grid)):
        out[sensor] = field_mt(table, sx, sy, magnets)  # it leaves out the magnets beyond the table's reach
    return out


def readings(design: Design, grid: Grid, table: FieldTable, layout: Layout, rng: random.Random, scatter: Scatter = Scatter(), gain_spread: float = 0.0) -> tuple[int, ...]:
    """ADC counts of every sensor (:meth:`Grid.sensors` order) for ``layout`` put down with ``scatter``: the
    field times the sensor's sensitivity (each sensor's gain off by ``N(0, gain_spread)``,
    the spread an uncalibrated board keeps), plus the noise of the firmware's reading (the mean
    of ADC_SAMPLES conversions: :func:`bgboard.hardware.physics.reading_noise_mt`), clipped to
    the sensor's range."""
    magnets = place_magnets(design, grid, layout, rng, scatter)
    fields = fields_mt(design, grid, table, magnets)
    per_mt = design.counts_per_mt
    limit = design.sensor.range_mt
    noise = reading_noise_mt(design.sensor)
    out: list[int] = []
    for sensor in grid.sensors():
        b = fields[sensor] * (1.0 + rng.gauss(0.0, gain_spread) if gain_spread else 1.0)
        b += rng.gauss(0.0, noise)
        b = max(-limit, min(limit, b))
        out.append(int(round(32768 + b * per_mt)))
    return tuple(out)


def hypot_offsets(design: Design, grid: Grid, magnets: list[Magnet]) -> list[float]:
    """How far each ground-level magnet lies from its nearest sensor (mm): the scatter a
    placement really has, for the benchmark's report."""
    sensors = sensor_spots(design, grid)
    out = []
    for m in magnets:
        if m.level == 0:
            out.append(min(math.hypot(m.x - x, m.y - y) for x, y in sensors))
    return out


__all__ = ["BAR_WIDTH_MM", "Row", "Scatter", "fields_mt", "hypot_offsets", "place_magnets",
           "readings", "rows", "sensor_spots", "sensor_xy"]
