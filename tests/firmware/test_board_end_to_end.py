"""Whole boards: the simulator's hall-field model -> the real firmware -> the host codec ->
the host's per-place readings (sense.slots), which must agree with the checkers on the table."""

from __future__ import annotations

import math
import random

import pytest

from bgboard.link import messages as m
from bgboard.hardware import load_grid
from bgboard.hardware.physics import ADC_SAMPLES
from bgboard.rules import Position
from bgboard.sense.places import COLOUR_NAMES
from bgboard.sense.slots import PLACE_NUMBERS, SlotMap
from bgboard.sim.field import NOISE_LEVELS, readings
from bgboard.sim.layout import COLOURS, PLACES, WHITE, Layout


def reading_noise(level: str) -> float:
    """The noise of a sensor's reading (counts) at a named level of the simulator: the level is
    one ADC conversion's, the firmware reads the mean of ADC_SAMPLES of them (a ``slots`` line
    sets the reading itself)."""
    return NOISE_LEVELS[level] / math.sqrt(ADC_SAMPLES)

pytestmark = pytest.mark.slow  # whole matches / engines / firmware runs: the full run, not -m "not slow"

START = Layout.from_position(
    Position(
        tuple([0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]),
        tuple([0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]),
    ),
    WHITE,
)
# a late middle game: stacks of 7 and 9, checkers on both bars and in both trays
STACKED = Layout(
    points=(-2, 9, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, -3, 0, 0, 0, 0),
    bar=(1, 1),
    off=(2, 1),
)


@pytest.mark.parametrize("layout", [START, STACKED], ids=["start", "stacked"])
@pytest.mark.parametrize("noise", ["none", "medium"])
def test_firmware_readings_agree_with_the_table(run_firmware, layout: Layout, noise: str) -> None:
    grid = load_grid()
    values = readings(grid, layout, random.Random(7), noise=reading_noise(noise))
    run = run_firmware(["slots " + " ".join(map(str, values)), "@100", "stop"])
    assert run.stderr == ""
    snapshot = run.of(m.Snapshot)[0]
    observation = SlotMap.from_slots(grid.slots).observation(snapshot.states)
    for place in PLACES:
        reading = observation[PLACE_NUMBERS[place]]
        colour, count = layout.at(place)
        assert not reading.mixed, (place, reading)
        assert reading.low <= count <= reading.high, (place, count, reading)
        if count:
            assert COLOUR_NAMES[reading.colour] == COLOURS[colour], place
        if count <= len(grid.of(place)):
            assert reading.exact, (place, count, reading)


def noisy_field(layout: Layout, noise: str, ms: int) -> list[str]:
    """A fresh noisy reading of every slot every 10 ms for ``ms`` milliseconds."""
    rng = random.Random(3)
    lines = []
    for t in range(0, ms, 10):
        lines += [f"@{t}", "slots " + " ".join(map(str, readings(load_grid(), layout, rng,
                                                                 noise=reading_noise(noise))))]
    return lines + ["stop"]


def test_a_still_board_with_medium_noise_reports_nothing(run_firmware) -> None:
    run = run_firmware(noisy_field(STACKED, "medium", 3000))
    assert run.of(m.Changes) == []


def test_high_noise_never_fakes_a_colour_or_a_fault(run_firmware) -> None:
    """At sigma = 900 counts a conversion (a reading: 450, 0.16 of the array's checker) a level
    boundary may wobble through the debounce now and then (a stack level for a moment), but no
    slot changes colour or reads FAULT."""
    run = run_firmware(noisy_field(STACKED, "high", 3000))
    snapshot = run.of(m.Snapshot)[0].states
    for change in (c for frame in run.of(m.Changes) for c in frame.changes):
        assert m.state_colour(change.state) == m.state_colour(snapshot[change.slot]), change
        assert change.state != m.FAULT
