"""The virtual table: checkers, the sensor field and what the sensors report.

:class:`Table` holds the checkers (a :class:`~bgboard.sim.layout.Layout`), moves them as a
hand does (:mod:`bgboard.sim.hand`), and reads the hall field (:mod:`bgboard.sim.field`)
into the host's place codes (:class:`bgboard.sense.places.Observation`).

Readings are classified per slot with the calibration midpoints (a reading more than half a
checker's swing away from the empty level is a checker of the sign's colour; more than
halfway from one checker's field to two stacked checkers' — 1.28 swings —, a stack), debounced as the firmware does (a slot's new state counts after 4
identical scans) and turned into place codes by the host's own
:func:`bgboard.sense.places.reading_from_slots`.  (This stands in for the firmware's
classify/debounce when the simulator runs without it; with two sensors per slot the sensors'
states become slot states by the firmware's own run rule, firmware/runs.py.)
"""

from __future__ import annotations

import functools
import importlib.util
import math
import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable

from bgboard.sense.places import Observation, SensorFaultError, place_name, reading_from_slots
from bgboard.hardware import Grid, firmware_dir, load_grid
from bgboard.hardware.physics import ADC_SAMPLES
from bgboard.sim.field import FULL_SCALE, RAIL_BAND, Calibration, Faults, PlaceField
from bgboard.sim.hand import Frame, carry
from bgboard.sim.layout import BAR_PLACES, OFF_PLACES, Layout
from bgboard.sim.checker_moves import Move

@functools.cache
def firmware_runs() -> ModuleType:
    """The firmware's run rule (firmware/runs.py: pure Python that MicroPython and CPython
    both run), loaded from :func:`bgboard.hardware.firmware_dir`: one copy of the rule."""
    path = firmware_dir() / "runs.py"
    spec = importlib.util.spec_from_file_location("bgboard_firmware_runs", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The firmware's rail band (firmware/classify.py RAIL): a reading this close to either rail is
#: an open or shorted sensor, FAULT.
RAIL = 512
#: A faulty sensor's or slot's state among the table's signed states.
FAULTY = 9


def _state(c: Calibration, v: int) -> int:
    """A sensor's signed state for a reading of ``v`` counts (the calibration midpoints: the
    module docstring)."""
    if v <= RAIL or v >= FULL_SCALE - RAIL:
        return FAULTY
    half = c.swing / 2
    hi, lo = c.empty + half, c.empty - half
    stack = c.swing * (1.0 + c.stack_gain / 2)  # more than halfway from one magnet's field to two magnets'
    return (2 if abs(v - c.empty) > stack else 1) * (1 if v > hi else -1 if v < lo else 0) * c.white_sign


@functools.lru_cache(maxsize=8)
def _states(c: Calibration) -> tuple[int, ...]:
    """:func:`_state` of every count 0..65535, made once: the table classifies 276 readings
    a scan, and the model of the firmware scans every 10 simulated ms."""
    return tuple(_state(c, v) for v in range(FULL_SCALE + 1))


#: Host place numbers (bgboard.sense.places) of the simulator's place names.
PLACE_NUMBERS = {str(p): p for p in range(1, 25)} | {
    BAR_PLACES[0]: 25,
    BAR_PLACES[1]: 26,
    OFF_PLACES[0]: 27,
    OFF_PLACES[1]: 28,
}


@dataclass
class Table:
    """Checkers on the virtual board and the sensors under it (an adapter with state)."""

    layout: Layout
    rng: random.Random
    noise: float = 0.0
    grid: Grid = field(default_factory=load_grid)
    calibration: Calibration = field(default_factory=Calibration)
    faults: Faults = field(default_factory=Faults)
    flicker: bool = True
    debounce: int = 4
    #: how the host reads the slot states (wire bytes) of a seed variant's match
    #: (:func:`bgboard.sense.tavli.read_board`); None: the place codes of backgammon
    reader: Callable[[bytes], Observation] | None = None
    #: ``noise`` is one ADC conversion's (``bgboard sim --noise``); a reading is the firmware's
    #: mean of this many conversions (board.ADC_SAMPLES), with noise / sqrt(samples)
    samples: int = ADC_SAMPLES

    def frames(self, moves: Iterable[Move]) -> tuple[Frame, ...]:
        """Carry each checker in turn; the table ends with every move made."""
        out: list[Frame] = []
        for move in moves:
            frames, self.layout = carry(self.layout, move.src, move.dst, flicker=self.flicker, pin=move.pin)
            out.extend(frames)
        return tuple(out)

    def values(self, frame: Frame | None = None, far: bool = True) -> tuple[int, ...]:
        """ADC counts of every sensor for a frame (default: the table at rest); ``far``: with
        the far field of the checkers around each sensor (the board's physics, for the real
        firmware, whose crowd correction takes it away again); without it, what that correction
        leaves, for the modelled firmware, which has none (:meth:`observe`,
        :class:`bgboard.sim.field.PlaceField`).

        The noiseless field of a frame is put together from each place's counts, made once
        per what lies on the place (:class:`bgboard.sim.field.PlaceField`; the reference is
        :func:`bgboard.sim.field.readings`); each scan adds fresh noise from a seeded
        table of Gaussian deviates, so a scan costs a few list operations: the noise of the
        firmware's reading, the mean of ``samples`` conversions of ``noise`` each."""
        layout = self.layout if frame is None else frame.layout
        hand = None if frame is None else frame.hand
        key = (layout, hand, far)
        base = self._base.get(key)
        if base is None:
            if len(self._base) > 64:
                self._base.clear()
            base = self._field(layout, hand, far)  # far: = readings(grid, layout, rng, hand=hand, calibration=...)
            self._base[key] = base
        if self.noise:
            n = len(base)
            if self._cursor + n > len(self._deviates):
                self._cursor = self.rng.randrange(0, len(self._deviates) - n)
            dev = self._deviates[self._cursor : self._cursor + n]
            self._cursor += n
            sigma, low, high = self.noise / math.sqrt(self.samples), RAIL_BAND, FULL_SCALE - RAIL_BAND
            values = [max(low, min(high, round(v + sigma * d))) for v, d in zip(base, dev)]
        else:
            values = list(base)
        per = self.grid.per_slot  # stuck keys: (place, the sensor's number along the place)
        for (place, n), fixed in (self.faults.stuck or {}).items():
            values[self.grid.position(self.grid.of(place)[n // per]) * per + n % per] = fixed
        return tuple(values)

    def observe(self, values: tuple[int, ...] | None = None) -> Observation:
        """The host's place codes for a set of readings (default: a scan at rest)."""
        if values is None:
            values = self.values(far=False)  # the modelled firmware: no crowd correction of its own
        if values and 0 <= min(values) and max(values) <= FULL_SCALE:
            raw = tuple(map(_states(self.calibration).__getitem__, values))
        else:
            raw = tuple(_state(self.calibration, v) for v in values)
        if self.grid.per_slot > 1:
            raw = self._slots_of(raw)
        states = self._debounce(raw)
        cached = self._codes.get(states)
        if cached is not None:
            return cached
        if self.reader is not None:  # the wire's slot bytes: level << 2 | colour (1 white, 2 black)
            wire = bytes(
                3 if x == FAULTY else ((2 if abs(x) == 2 else 1) << 2 | (1 if x > 0 else 2)) if x else 0 for x in states
            )
            observation = self.reader(wire)
            self._codes[states] = observation
            return observation
        per_place: dict[str, list[int]] = {}
        for slot, state in zip(self.grid.slots, states):
            per_place.setdefault(slot.place, []).append(state)
        codes = [0] * 28
        for place, slots in per_place.items():
            number = PLACE_NUMBERS[place]
            if FAULTY in slots:  # as bgboard.sense.slots
                raise SensorFaultError(f"check {place_name(number)}: a sensor reports a fault")
            stacked = any(abs(x) == 2 for x in slots)  # as bgboard.sense.slots: a stack on any slot
            codes[number - 1] = reading_from_slots(number, [max(-1, min(1, x)) for x in slots], stacked)
        observation = Observation(tuple(codes))
        if len(self._codes) > 4096:
            self._codes.clear()
        self._codes[states] = observation
        return observation

    def _slots_of(self, sensors: tuple[int, ...]) -> tuple[int, ...]:
        """The slot states of sensor states (two or more sensors per slot): the firmware's own
        run rule (firmware/runs.py, loaded from the firmware directory), so a stuck sensor or a
        checker between two slots reads here as the board reports it."""
        cached = self._slot_states.get(sensors)
        if cached is not None:
            return cached
        if self._runs is None:
            self._runs = firmware_runs().Runs(*self.grid.firmware_layout())
        wire = bytearray(3 if x == FAULTY else (abs(x) << 2 | (1 if x > 0 else 2)) if x else 0 for x in sensors)
        out = tuple(
            FAULTY if s & 3 == 3 else (s >> 2) * (1 if s & 3 == 1 else -1) if s & 3 else 0
            for s in self._runs.combine(wire)
        )
        if len(self._slot_states) > 4096:
            self._slot_states.clear()
        self._slot_states[sensors] = out
        return out

    @property
    def settled(self) -> bool:
        """True when the last scan's slot states are all reported: none is waiting out the
        debounce."""
        return not any(self._pending)

    def _debounce(self, raw: tuple[int, ...]) -> tuple[int, ...]:
        """Report a slot's new state only after ``DEBOUNCE`` identical scans (the firmware's
        rule, docs/protocol.md "Timing"), so one noisy scan never reaches the host."""
        if self._reported is None or self.debounce <= 1:
            self._reported = raw
            self._pending = [0] * len(raw)
            self._candidate = list(raw)
            return raw
        if raw == self._reported:
            if any(self._pending):
                self._pending = [0] * len(raw)
            return raw
        reported = list(self._reported)
        for i, (r, old) in enumerate(zip(raw, reported)):
            if r == old:
                self._pending[i] = 0
            elif r == self._candidate[i] and self._pending[i]:
                self._pending[i] += 1
                if self._pending[i] >= self.debounce:
                    reported[i] = r
                    self._pending[i] = 0
            else:
                self._candidate[i] = r
                self._pending[i] = 1
                if self.debounce <= 1:
                    reported[i] = r
        self._reported = tuple(reported)
        return self._reported

    def __post_init__(self) -> None:
        self._reported: tuple[int, ...] | None = None
        self._pending: list[int] = []
        self._candidate: list[int] = []
        self._base: dict[tuple[Layout, object, bool], tuple[int, ...]] = {}
        self._field = PlaceField(self.grid, self.calibration)
        self._codes: dict[tuple[int, ...], Observation] = {}
        self._slot_states: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._runs: Any = None
        self._deviates = [self.rng.gauss(0.0, 1.0) for _ in range(1 << 15)]
        self._cursor = 0
