"""The virtual sensor field: checkers on the table -> hall-sensor ADC readings (pure).

Every place (point, bar half, bear-off tray) has a row of sensing *slots* (from
grid.toml through :mod:`bgboard.hardware`: place, mux, channel).  Checkers fill a place's slots one per slot
from the edge inward; checkers beyond the last slot stack on it, and the stack's field grows
(linearly, ``1 + 0.30·(k−1)`` swings for k checkers, clamped to the ADC's range).

A linear ratiometric hall sensor reads half scale with no field; a white checker (magnet
north-up) pulls the reading one way, a black one (south-up) the other.  Readings are
16-bit ``ADC.read_u16()`` counts, as the firmware's ``hal`` sees them.

On top of the resting field: Gaussian noise (``noise`` = standard deviation in counts of
each reading :func:`readings` returns: a field line written with it holds its noise until
the next line, while the firmware under the machine shim draws its own for every ADC
conversion, firmware/sim/README.md), a
*hand* carrying a checker over a place (in-transit flicker: partial field strength), and
optionally a *stuck* sensor that always reads one value.  Randomness comes only from the
``random.Random`` passed in, so a run is a function of its seed.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from typing import Mapping, Sequence

from bgboard.hardware import Grid, Slot
from bgboard.hardware.physics import MAX_STACK, load_design, load_table, response
from bgboard.sim.layout import BAR_PLACES, OFF_PLACES, POINT_PLACES, WHITE, Layout
from bgboard.sim.placement import sensor_spots

FULL_SCALE = 65535
#: Readings stay this far from the rails: closer is what an open or shorted sensor gives
#: (the firmware reports it as a fault; a real DRV5055 saturates before the rail).
RAIL_BAND = 600

#: Named noise levels for ``bgboard sim --noise``: the standard deviation in ADC counts of one
#: ADC *conversion*; the firmware's reading is the mean of board.ADC_SAMPLES (4) conversions,
#: with half of it (``low``: 90 counts a reading, 0.013 of a checker; ``high``: 450).
NOISE_LEVELS: Mapping[str, float] = {"none": 0.0, "low": 180.0, "medium": 450.0, "high": 900.0}

#: The design's response (hardware/sensing.toml through its magpylib field table).
_DESIGN = load_design()
_TABLE = load_table(_DESIGN)
PHYSICS = response(_DESIGN, _TABLE)
#: With two sensors per slot: what a stack of k = 1, 2 ... checkers gives the sensor half a
#: pitch from it, in checker units (just outside the array of discs the field reverses: about
#: -0.03 for one checker; a stack's higher magnets reach further: +0.08 for two, +0.28 for five).
HALF_PITCH_FIELD: tuple[float, ...] = tuple(
    sum(_TABLE.at(level, _DESIGN.slot_pitch_mm / 2) for level in range(k)) / PHYSICS.b0_mt for k in range(1, MAX_STACK + 1))


@functools.lru_cache(maxsize=1024)
def _half_pitch(units: float, stack: tuple[float, ...]) -> float:
    """What a slot reading ``units`` gives the sensor half a pitch away: the stack whose
    centred field is nearest (a weaker field, a hand or a pin's residue, in proportion).
    Remembered: a slot takes a few values only (empty, a checker, stacks, a pin, a hand's
    strengths), and every frame of a carried checker asks for all 276 sensors."""
    k, share = _stack_of(units, stack)
    return share * HALF_PITCH_FIELD[k - 1]


def _stack_of(units: float, stack: tuple[float, ...]) -> tuple[int, float]:
    """The stack a slot reading ``units`` stands for, ``(height, share)``: the stack whose
    centred field is nearest, all of it (``share`` ±1 by colour); under one checker's field
    (a pin's residue, a hand) one checker's, in proportion."""
    a = abs(units)
    sign = 1.0 if units >= 0 else -1.0
    if a < stack[0]:
        return 1, sign * a
    return 1 + min(range(len(stack)), key=lambda i: abs(stack[i] - a)), sign

def default_grid(point_slots: int, bar_slots: int, off_slots: int) -> Grid:
    """A grid with other slot counts than the board's (:func:`bgboard.hardware.load_grid`),
    numbered place by place, 16 channels per multiplexer (for tests of other boards)."""
    slots: list[Slot] = []
    counts = [(p, point_slots) for p in POINT_PLACES]
    counts += [(p, bar_slots) for p in BAR_PLACES] + [(p, off_slots) for p in OFF_PLACES]
    n = 0
    for place, k in counts:
        for i in range(k):
            slots.append(Slot(place, i, n // 16, n % 16))
            n += 1
    return Grid(tuple(slots))


@dataclass(frozen=True, slots=True)
class Calibration:
    """How a sensor responds: counts with no field, and the swing of one checker.

    ``stack_gain`` is what the second checker of a stack adds, relative to the first (the
    firmware's level model); ``stack_field`` the field of k = 1, 2 ... stacked checkers in
    checker units (the physics: each further one adds less); ``white_sign`` is +1 when a
    north-up (white) magnet raises the reading.  ``pin_residual``: what is left, in checker
    units of the pinned (lower) checker's colour, of a Plakoto pin's two opposite magnets on
    one slot (below the firmware's 0.5 + 0.08 threshold to read a checker from empty; with
    noise the slot may now and then read a weak checker of the pinned colour or flicker: the
    host reads a pinned point either way, bgboard.sense.tavli).
    """

    empty: int = 32768
    swing: int = PHYSICS.swing
    white_sign: int = +1
    stack_field: tuple[float, ...] = PHYSICS.stack_units

    @property
    def stack_gain(self) -> float:
        """What the second checker of a stack adds, relative to the first."""
        return self.stack_field[1] - 1.0

    @property
    def pin_residual(self) -> float:
        """A pin's two opposite magnets: the lower one's field less the upper one's (the
        upper one is the second of a stack: what it adds, ``stack_gain``)."""
        return 1.0 - self.stack_gain

    def counts(self, units: float) -> float:
        """Reading for a signed field in checker units (+ white, - black)."""
        return self.empty + self.white_sign * self.swing * units

    def stack_units(self, k: int) -> float:
        """Field of ``k`` checkers stacked on one slot, in checker units (k >= 1)."""
        return self.stack_field[min(k, MAX_STACK) - 1]


@dataclass(frozen=True, slots=True)
class Hand:
    """A checker of ``colour`` held over ``place`` at ``strength`` (1 = resting on it)."""

    place: str
    colour: int
    strength: float


@dataclass(frozen=True, slots=True)
class Faults:
    """Sensor faults: ``stuck`` maps a slot (place, index) to the counts it always reads."""

    stuck: Mapping[tuple[str, int], int] | None = None


def slot_units(
    grid: Grid, layout: Layout, hand: Hand | None = None, calibration: Calibration = Calibration()
) -> dict[Slot, float]:
    """The noiseless field at every slot in checker units (+ white, - black)."""
    units: dict[Slot, float] = {}
    for place in grid.places():
        _place_units(units, grid, layout, place, hand, calibration)
    return units


def _place_units(units: dict[Slot, float], grid: Grid, layout: Layout, place: str, hand: Hand | None,
                 calibration: Calibration) -> None:
    """The field at the slots of one ``place`` into ``units`` (:func:`slot_units`)."""
    slots = grid.of(place)
    colour, count = layout.at(place)
    sign = 1.0 if colour == WHITE else -1.0
    row = list(slots)
    if place in POINT_PLACES and int(place) in layout.pins and count:
        # a Plakoto pin: the pinned checker at the base under the first pinner; the
        # opposite magnets on one slot partly cancel (the nearer, pinned one wins a little)
        units[row[0]] = -sign * calibration.pin_residual
        row, count = row[1:], count - 1
    last = len(row) - 1
    for i, slot in enumerate(row):
        if count > i and i < last:
            units[slot] = sign
        elif i == last and count > last:
            units[slot] = sign * calibration.stack_units(count - last)
        else:
            units[slot] = 0.0
    if hand is not None and hand.place == place and slots:
        top = row[min(count, last)] if row else slots[0]  # above the checkers (and a pin's base)
        hsign = 1.0 if hand.colour == WHITE else -1.0
        units[top] = units[top] + hsign * hand.strength


def sensor_units(grid: Grid, units: Mapping[Slot, float], calibration: Calibration = Calibration()) -> list[float]:
    """Every sensor's field (checker units, :meth:`Grid.sensors` order) from each slot's: a
    slot's centre sensor reads the slot; with two sensors per slot the one half a pitch
    further reads what the slots either side of it give there (:data:`HALF_PITCH_FIELD`); and
    every sensor the return field of the checkers on the slots :data:`FAR_FROM_MM` and more
    away (:func:`far_units`)."""
    stack = calibration.stack_field
    far = far_units(grid, units, stack)
    return [_sensor_field(units, slot, part, beyond, stack) + f for (slot, part, beyond), f in zip(_neighbours(grid), far)]


#: From this far (mm) a slot's checkers reach a sensor with their magnets' return field (the
#: sensors of the neighbouring slots and points: hardware/README.md, "Crowds"), counted from
#: the slot's centre as the firmware's crowd correction counts it (hardware/make_board.py).
FAR_FROM_MM = 30.0


@functools.lru_cache(maxsize=None)
def _far_field(k: int, tenths_mm: int) -> float:
    """What ``k`` stacked checkers give a sensor ``tenths_mm`` / 10 mm from them (checker units)."""
    d = tenths_mm / 10
    return sum(_TABLE.at(level, d) for level in range(k)) / PHYSICS.b0_mt


_FAR: dict[int, tuple[Grid, dict[Slot, tuple[tuple[int, int], ...]]]] = {}


def _far_plan(grid: Grid) -> dict[Slot, tuple[tuple[int, int], ...]]:
    """For every slot, ``(sensor, distance in tenths of a mm)`` of the sensors from
    :data:`FAR_FROM_MM` to the field table's reach off its centre (once per grid)."""
    known = _FAR.get(id(grid))
    if known is not None and known[0] is grid:
        return known[1]
    spots = sensor_spots(_DESIGN, grid)
    index = {sensor: n for n, sensor in enumerate(grid.sensors())}
    plan: dict[Slot, tuple[tuple[int, int], ...]] = {}
    for slot in grid.slots:
        cx, cy = spots[index[slot, 0]]
        row = []
        for n, (sx, sy) in enumerate(spots):
            d = math.hypot(sx - cx, sy - cy)
            if FAR_FROM_MM <= d < _TABLE.reach_mm:
                row.append((n, round(d * 10)))
        plan[slot] = tuple(row)
    if len(_FAR) > 16:
        _FAR.clear()
    _FAR[id(grid)] = (grid, plan)
    return plan


def far_units(grid: Grid, units: Mapping[Slot, float], stack: tuple[float, ...]) -> list[float]:
    """Every sensor's field (checker units) from the checkers :data:`FAR_FROM_MM` and more
    away: a slot reading a stack gives that stack's field (its higher magnets reach further),
    a weaker one (a pin's residue, a hand) its share of one checker's."""
    out = [0.0] * len(grid.sensors())
    plan = _far_plan(grid)
    for slot, u in units.items():
        if not u:
            continue
        k, scale = _stack_of(u, stack)
        for n, tenths in plan.get(slot, ()):
            out[n] += scale * _far_field(k, tenths)
    return out


def _sensor_field(units: Mapping[Slot, float], slot: Slot, part: int, beyond: Slot | None,
                  stack: tuple[float, ...]) -> float:
    """One sensor's field from the slots' (:func:`sensor_units`): its slot's at the slot's
    centre, else what its slot and the next one (``beyond``) give half a pitch away."""
    if part == 0:
        return units[slot]
    near = _half_pitch(units[slot], stack)
    return near + _half_pitch(units[beyond], stack) if beyond is not None else near


_NEIGHBOURS: dict[int, tuple[Grid, tuple[tuple[Slot, int, Slot | None], ...]]] = {}


def _neighbours(grid: Grid) -> tuple[tuple[Slot, int, Slot | None], ...]:
    """Every sensor as ``(slot, part, the next slot of its place or None)``, worked out once
    per grid (the grid kept beside it, so its id is not reused)."""
    known = _NEIGHBOURS.get(id(grid))
    if known is not None and known[0] is grid:
        return known[1]
    plan: list[tuple[Slot, int, Slot | None]] = []
    for slot, part in grid.sensors():
        row = grid.of(slot.place)
        plan.append((slot, part, row[slot.index + 1] if slot.index + 1 < len(row) else None))
    if len(_NEIGHBOURS) > 16:
        _NEIGHBOURS.clear()
    _NEIGHBOURS[id(grid)] = (grid, tuple(plan))
    return _NEIGHBOURS[id(grid)][1]


def readings(
    grid: Grid,
    layout: Layout,
    rng: random.Random,
    *,
    noise: float = 0.0,
    hand: Hand | None = None,
    calibration: Calibration = Calibration(),
    faults: Faults = Faults(),
) -> tuple[int, ...]:
    """ADC counts of every sensor, in :meth:`Grid.sensors` order (with one sensor per slot,
    ``grid.slots`` order), kept within the sensor's range (``RAIL_BAND`` from either rail; a
    stuck sensor reads exactly its value: ``Faults.stuck`` keys are (place, n), n the
    sensor's number along the place from its base — the slot index with one per slot)."""
    units = sensor_units(grid, slot_units(grid, layout, hand, calibration), calibration)
    stuck = faults.stuck or {}
    per = grid.per_slot
    out: list[int] = []
    for (slot, part), u in zip(grid.sensors(), units):
        fixed = stuck.get((slot.place, slot.index * per + part))
        if fixed is not None:
            out.append(fixed)
            continue
        value = calibration.counts(u)
        if noise:
            value += rng.gauss(0.0, noise)
        out.append(max(RAIL_BAND, min(FULL_SCALE - RAIL_BAND, int(round(value)))))
    return tuple(out)



class PlaceField:
    """:func:`readings` without noise or faults, put together place by place: a sensor reads
    its own place's slots, so each place's field is made once for what lies on it (its
    checkers, a pin, a hand over it) and remembered, and then the far field of every occupied
    slot (:func:`far_units`) is added.  A carried checker's frame changes one or two places of
    28: the same counts as :func:`readings`, bit for bit, at a fraction of the work."""

    def __init__(self, grid: Grid, calibration: Calibration = Calibration()) -> None:
        self.grid = grid
        self.calibration = calibration
        self.size = len(grid.sensors())
        where: dict[str, list[int]] = {}
        plan: dict[str, list[tuple[Slot, int, Slot | None]]] = {}
        for n, (slot, part, beyond) in enumerate(_neighbours(grid)):
            where.setdefault(slot.place, []).append(n)
            plan.setdefault(slot.place, []).append((slot, part, beyond))
        self._places = tuple((place, place in POINT_PLACES, tuple(where[place]), tuple(plan[place])) for place in where)
        self._known: dict[tuple[str, tuple[int, int], bool, Hand | None],
                          tuple[dict[Slot, float], tuple[float, ...]]] = {}

    def __call__(self, layout: Layout, hand: Hand | None = None, far: bool = True) -> tuple[int, ...]:
        """Every sensor's counts, in :meth:`Grid.sensors` order; without ``far``, less the far
        field of the other slots (what the firmware's crowd correction leaves: the field a
        modelled firmware, which has no crowd correction of its own, is given)."""
        near = [0.0] * self.size
        slots: dict[Slot, float] = {}
        known = self._known
        for place, point, positions, plan in self._places:
            at = layout.at(place)
            key = (place, at, point and int(place) in layout.pins, hand if hand is not None and hand.place == place else None)
            found = known.get(key)
            if found is None:
                if len(known) > 8192:
                    known.clear()
                found = known[key] = self._counts(layout, place, key[3], plan)
            slots.update(found[0])
            for n, value in zip(positions, found[1]):
                near[n] = value
        c = self.calibration
        around = far_units(self.grid, slots, c.stack_field) if far else [0.0] * self.size
        return tuple(max(RAIL_BAND, min(FULL_SCALE - RAIL_BAND, int(round(c.counts(u + f))))) for u, f in zip(near, around))

    def _counts(self, layout: Layout, place: str, hand: Hand | None,
                plan: tuple[tuple[Slot, int, Slot | None], ...]) -> tuple[dict[Slot, float], tuple[float, ...]]:
        """The place's slots' units and its sensors' (before the far field of the other slots)."""
        c = self.calibration
        units: dict[Slot, float] = {}
        _place_units(units, self.grid, layout, place, hand, c)
        return units, tuple(_sensor_field(units, *sensor, c.stack_field) for sensor in plan)
