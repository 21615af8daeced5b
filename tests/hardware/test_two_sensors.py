"""Two hall sensors per slot (issue 22: "one checker anywhere along its point"), on the
physics field: checkers put down anywhere, every magnet's field at every sensor (magpylib's
table, bgboard.sim.placement), the firmware's own classifier and its run rule (firmware/
classify.py, firmware/runs.py, under CPython), the host's reading (bgboard.sense.slots) —
the wire protocol and the host unchanged."""

from __future__ import annotations

import math
import random
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.hardware import Grid, firmware_dir, parse_grid
from bgboard.hardware.physics import Magnet, load_design, load_table
from bgboard.sense.places import CAPPED, SensorFaultError
from bgboard.sense.slots import PLACE_NUMBERS, SlotMap
from bgboard.sim.placement import fields_mt, rows

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
sys.path.insert(0, str(firmware_dir()))
import make_grid  # noqa: E402
from tests.support import firmware_slot_states  # noqa: E402  (the firmware's classifier and run rule)
from tests.board_field import at, crowd  # noqa: E402

DESIGN = load_design()
TABLE = load_table(DESIGN)
GRID2 = parse_grid(make_grid.grid_text(2))
GRID1 = parse_grid(make_grid.grid_text(1))
ROWS = rows(DESIGN)
PITCH = DESIGN.slot_pitch_mm
D = DESIGN.checker_diameter_mm
PLACE_LENGTH = DESIGN.base_mm + 4 * PITCH + PITCH / 2  # a point's length from its frame (5 slots)


def length(place: str) -> float:
    """A place's length from its frame: its last slot's centre plus half a pitch."""
    return DESIGN.base_mm + (len(GRID2.of(place)) - 1) * PITCH + PITCH / 2


def counts_of(grid: Grid, magnets: list[Magnet], stuck: dict[int, int] | None = None) -> list[int]:
    fields = fields_mt(DESIGN, grid, TABLE, magnets)
    per_mt = DESIGN.counts_per_mt
    out = [int(round(32768 + fields[s] * per_mt)) for s in grid.sensors()]
    for sensor, value in (stuck or {}).items():
        out[sensor] = value
    return out


def read(grid: Grid, magnets: list[Magnet], stuck: dict[int, int] | None = None) -> tuple[int, ...]:
    """The host's place codes for ``magnets`` on the table, through the firmware's classifier
    (default calibration) and run rule."""
    states = firmware_slot_states(grid, counts_of(grid, magnets, stuck))
    return SlotMap.from_slots(grid.slots).observation(states).codes


def code_of(codes: tuple[int, ...], place: str) -> int:
    return codes[PLACE_NUMBERS[place] - 1]


def test_the_two_per_slot_grid() -> None:
    assert len(GRID2.slots) == 138 and GRID2.per_slot == 2 and len(GRID2.sensors()) == 276
    assert len({pair for s in GRID2.slots for pair in s.sensors}) == 276
    # one multiplexer on each strip: multiplexer m is place m, channel j its sensor j from the base
    assert max(m for s in GRID2.slots for m, _ in s.sensors) + 1 == make_grid.muxes(2) == 28
    places = GRID2.places()
    for slot in GRID2.slots:
        assert slot.sensors == ((places.index(slot.place), 2 * slot.index), (places.index(slot.place), 2 * slot.index + 1))
    # make_grid's two-per-slot grid is the committed one, and pins.toml has the enable lines
    # its 28 multiplexers need (ten banks: 3 ADC inputs x 10 >= 28), clear of every other pin
    assert GRID2 == parse_grid((ROOT / "hardware" / "grid.toml").read_text())
    pins_text = (ROOT / "hardware" / "pins.toml").read_text()
    assert make_grid.pins_text(2, pins_text) == pins_text
    mux = tomllib.loads(pins_text)["pico"]["mux"]
    assert mux["count"] == 28 and len(mux["enable"]) == 10 and len(mux["adc"]) * len(mux["enable"]) >= 28
    others = {v for k, v in tomllib.loads(pins_text)["pico"].items() if k != "mux" for v in v.values() if isinstance(v, int)}
    used = mux["select"] + mux["enable"] + mux["adc"]
    assert len(set(used)) == len(used) and not set(used) & {25, 15, 16} and not set(mux["enable"]) & others


@pytest.mark.parametrize("place", ["3", "16", "bar-white", "off-black"])
def test_a_lone_checker_reads_as_one_at_every_offset_along_its_place(place: str) -> None:
    """Every 0.25 mm from the frame to the place's end (so at every offset 0..19.5 mm off
    every slot's centre and every sensor), either colour, alone: exactly one checker."""
    row = ROWS[place]
    along = D / 2
    while along <= length(place):
        for colour in (1, -1):
            x, y = at(row, along)
            assert code_of(read(GRID2, [Magnet(x, y, 0, colour)]), place) == colour, (place, along)
        along += 0.25


def test_one_sensor_per_slot_missed_a_lone_checker_half_a_pitch_off() -> None:
    """The design before: between two sensors a lone checker reads as nothing."""
    x, y = at(ROWS["3"], DESIGN.base_mm + PITCH / 2)
    assert code_of(read(GRID1, [Magnet(x, y, 0, 1)]), "3") == 0
    assert code_of(read(GRID2, [Magnet(x, y, 0, 1)]), "3") == 1


def _row(place: str, n: int, colour: int, start: float, across: float, rng: random.Random) -> list[Magnet]:
    """n checkers of ``colour`` in a row along ``place`` from ``start`` (0..1 of the room left),
    each the next touching or a little apart, up to ``across`` mm off the row's line."""
    room = PLACE_LENGTH - D / 2 - (n - 1) * (D + 1.5)
    along = D / 2 + start * max(0.0, room - D / 2)
    magnets = []
    for _ in range(n):
        x, y = at(ROWS[place], along, rng.uniform(-across, across))
        magnets.append(Magnet(x, y, 0, colour))
        along += D + abs(rng.gauss(0.0, 1.5))
    return magnets


@settings(max_examples=300, deadline=None)
@given(place=st.sampled_from(["3", "16"]), colour=st.sampled_from([1, -1]),
       along=st.floats(D / 2, PLACE_LENGTH), across=st.floats(-5.0, 5.0), seed=st.integers(0, 2**32 - 1))
def test_a_lone_checker_anywhere_reads_as_one_on_a_crowded_board(place: str, colour: int, along: float, across: float, seed: int) -> None:
    """Anywhere along its point, up to 5 mm across (players' scatter limit), with both
    neighbouring points full of either colour."""
    x, y = at(ROWS[place], along, across)
    assert code_of(read(GRID2, [Magnet(x, y, 0, colour)] + crowd(place, random.Random(seed))), place) == colour


def test_a_lone_checker_reads_to_8_mm_across_its_row() -> None:
    """Across the row the reach is a sensor's (at most a quarter pitch along): 8 mm everywhere
    (a checker that far across lies half on the neighbouring point)."""
    row = ROWS["3"]
    along = D / 2
    while along <= PLACE_LENGTH:
        for across in (-8.0, 8.0):
            x, y = at(row, along, across)
            assert code_of(read(GRID2, [Magnet(x, y, 0, 1)]), "3") == 1, (along, across)
        along += 0.5


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 5), colour=st.sampled_from([1, -1]), start=st.floats(0.0, 1.0),
       seed=st.integers(0, 2**32 - 1))
def test_a_row_put_down_anywhere_counts_right(n: int, colour: int, start: float, seed: int) -> None:
    """A row of n checkers from anywhere along the point (each the next touching or a little
    apart), both neighbouring points full: exactly n, of its colour."""
    rng = random.Random(seed)
    magnets = _row("16", n, colour, start, 3.0, rng)
    assert code_of(read(GRID2, magnets + crowd("16", rng)), "16") == colour * n


@settings(max_examples=150, deadline=None)
@given(k=st.integers(2, 5), colour=st.sampled_from([1, -1]), along=st.floats(D / 2, PLACE_LENGTH),
       across=st.floats(-3.0, 3.0))
def test_a_stack_anywhere_reads_as_a_stack(k: int, colour: int, along: float, across: float) -> None:
    """A stack of 2..5 alone anywhere along its point reads "at least 2": no spot is more than
    a quarter pitch (9.75 mm) from a sensor, within the 11 mm a stack reads as one to (a row's
    stacks lie on its checkers, over the slots' centre sensors, as with one sensor per slot)."""
    x, y = at(ROWS["3"], along, across)
    magnets = [Magnet(x, y, level, colour) for level in range(k)]
    assert code_of(read(GRID2, magnets), "3") == colour * (CAPPED + 2)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 5), colour=st.sampled_from([1, -1]), start=st.floats(0.0, 1.0),
       sensor=st.integers(0, 9), seed=st.integers(0, 2**32 - 1))
def test_a_sensor_stuck_at_empty_never_adds_a_checker_or_changes_a_colour(n: int, colour: int, start: float, sensor: int, seed: int) -> None:
    """The "gap" fault check of one sensor per slot is gone (rows are reported from the base),
    but a sensor stuck at a plausible empty reading can only make its place read fewer
    checkers than it holds, never more and never the other colour: the host then waits for a
    play that explains the board (never another play's count) — and most often the run rule
    still counts right (a dark sensor inside a run splits it into runs that hold as many)."""
    rng = random.Random(seed)
    magnets = _row("3", n, colour, start, 2.0, rng)
    first = 2 * GRID2.slots.index(GRID2.of("3")[0])
    code = code_of(read(GRID2, magnets, stuck={first + sensor: 32768}), "3")
    assert code == 0 or (code * colour > 0 and abs(code) <= n)


def test_a_fault_on_one_sensor_names_its_place() -> None:
    first = 2 * GRID2.slots.index(GRID2.of("5")[0])
    with pytest.raises(SensorFaultError, match="point 5"):
        read(GRID2, [], stuck={first + 3: 0})


@pytest.mark.parametrize("entry, words", [
    ('{ place = "1", index = 0, sensors = [[0, 0], [0, 0]] }', "share mux 0 channel 0"),
    ('{ place = "1", index = 0, sensors = [[0, 0], [0, 16]] }', "channel 16"),
    ('{ place = "1", index = 0, sensors = [[0, 0], [0]] }', "needs a place and whole numbers"),
    ('{ place = "1", index = 0, sensors = [] }', "needs a place and whole numbers"),
])
def test_a_bad_sensors_entry_gets_one_sentence(entry: str, words: str) -> None:
    from bgboard.hardware import HardwareError

    text = make_grid.grid_text(2).replace('{ place = "1", index = 0, sensors = [[0, 0], [0, 1]] }', entry, 1)
    with pytest.raises(HardwareError, match=words) as caught:
        parse_grid(text)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_every_slot_needs_as_many_sensors() -> None:
    from bgboard.hardware import HardwareError

    text = make_grid.grid_text(2).replace('{ place = "1", index = 1, sensors = [[0, 2], [0, 3]] }',
                                          '{ place = "1", index = 1, sensors = [[0, 2]] }', 1)
    with pytest.raises(HardwareError, match="every slot needs the same number"):
        parse_grid(text)


# ------------------------------------------------------------------ crowds (firmware/crowd.py)
def _full_row(place: str, colour: int, rng: random.Random, off: float) -> list[Magnet]:
    """Five checkers on a place's slots, each up to ``off`` mm off its slot's centre along the
    row and 3 mm across (a neighbour never closer than a checker's width)."""
    magnets: list[Magnet] = []
    last = -1e9
    for k in range(5):
        along = max(last + D, DESIGN.base_mm + k * PITCH + rng.uniform(-off, off))
        magnets.append(Magnet(*at(ROWS[place], along, rng.uniform(-3.0, 3.0)), 0, colour))
        last = along
    return magnets


def _crowded(place: str, colour: int, around: int, rng: random.Random, off: float) -> list[Magnet]:
    """A full row of ``colour`` on ``place`` with both neighbouring points full of ``around``."""
    n = int(place)
    return _full_row(place, colour, rng, off) + [m for p in (str(n - 1), str(n + 1)) for m in _full_row(p, around, rng, off)]


@settings(max_examples=120, deadline=None)
@given(colour=st.sampled_from([1, -1]), around=st.sampled_from([1, -1]), which=st.integers(0, 4),
       seed=st.integers(0, 2**32 - 1))
def test_a_stack_on_a_crowded_full_row_reads_as_a_stack_and_the_row_alone_does_not(
        colour: int, around: int, which: int, seed: int) -> None:
    """Point 16 full (five checkers, each up to 6 mm off its slot's centre), both neighbouring
    points full of either colour: the row reads exactly five, and with a sixth checker stacked
    on any of them (leaning up to 1.5 mm) "at least six" — the crowd's field, up to a quarter
    of a checker, corrected by the firmware (firmware/crowd.py)."""
    rng = random.Random(seed)
    magnets = _crowded("16", colour, around, rng, 6.0)
    assert code_of(read(GRID2, magnets), "16") == colour * 5
    base = magnets[which]
    top = Magnet(base.x + rng.uniform(-1.5, 1.5), base.y + rng.uniform(-1.5, 1.5), 1, colour)
    assert code_of(read(GRID2, magnets + [top]), "16") == colour * (CAPPED + 6)


def test_without_the_crowd_correction_a_crowded_stack_read_as_one_checker() -> None:
    """The case the correction is for: a stack 10.5 mm off its sensor on a full row, both
    neighbouring points full of its colour; the firmware without crowd.py reads it as one."""
    row = [Magnet(*at(ROWS["16"], DESIGN.base_mm + k * PITCH + (10.5 if k == 2 else 0.0)), 0, 1) for k in range(5)]
    around = [Magnet(*at(ROWS[p], DESIGN.base_mm + k * PITCH), 0, 1) for p in ("15", "17") for k in range(5)]
    magnets = row + around + [Magnet(row[2].x, row[2].y, 1, 1)]
    raw = counts_of(GRID2, magnets)
    sys.path.insert(0, str(firmware_dir()))
    import calibration as fw_calibration
    import classify as fw_classify
    from runs import Runs

    classifier = fw_classify.Classifier(fw_calibration.defaults(len(raw)), len(raw))
    runs = Runs(*GRID2.firmware_layout())
    uncorrected = SlotMap.from_slots(GRID2.slots).observation(bytes(runs.combine(classifier.classify_all(raw)))).codes
    assert code_of(uncorrected, "16") == 5  # the stack unseen: a false "exactly five"
    assert code_of(read(GRID2, magnets), "16") == CAPPED + 6
