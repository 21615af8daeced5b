"""The virtual board's physics: layouts, sensor readings, a hand carrying checkers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.rules import Position
from bgboard.hardware import Grid, load_grid
from bgboard.sim.field import Calibration, Faults, Hand, PlaceField, default_grid, readings, slot_units
from bgboard.sim.hand import carry
from bgboard.sim.layout import BLACK, PLACES, WHITE, Layout, place_of

START = Position.from_points(
    [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Random legal-looking positions: 15 checkers a side spread over points, bar and off."""
    mine = [0] * 26
    theirs = [0] * 26
    for side, other in ((mine, theirs), (theirs, mine)):
        for _ in range(15):
            idx = draw(st.integers(0, 25))
            if 1 <= idx <= 24 and other[25 - idx]:
                idx = 0
            side[idx] += 1
    return Position(tuple(mine), tuple(theirs))


def test_start_layout_is_white_on_24_13_8_6() -> None:
    layout = Layout.from_position(START, WHITE)
    assert layout.points[23] == 2 and layout.points[12] == 5
    assert layout.points[7] == 3 and layout.points[5] == 5
    assert layout.points[0] == -2 and layout.points[11] == -5
    assert layout.points[16] == -3 and layout.points[18] == -5


@given(positions(), st.sampled_from([WHITE, BLACK]))
def test_layout_round_trips_the_position(position: Position, colour: int) -> None:
    layout = Layout.from_position(position, colour)
    assert layout.to_position(colour) == position
    assert Layout.from_position(position.swap(), 1 - colour) == layout


def test_black_places_are_mirrored() -> None:
    assert place_of(1, BLACK) == "24" and place_of(24, BLACK) == "1"
    assert place_of(25, BLACK) == "bar-black" and place_of(0, WHITE) == "off-white"


def _decode(grid, values, cal: Calibration = Calibration()) -> dict[str, tuple[int, int]]:
    """Read counts back as a noiseless classifier would (one checker per filled slot: each
    slot's centre sensor)."""
    out: dict[str, tuple[int, int]] = {}
    for place in grid.places():
        n, colour = 0, WHITE
        for slot in grid.of(place):
            v = values[sensor(grid, place, slot.index)] - cal.empty
            if abs(v) > cal.swing / 2:
                n += 1
                colour = WHITE if v > 0 else BLACK
        out[place] = (colour, n)
    return out


@pytest.mark.slow
@given(positions(), st.sampled_from([WHITE, BLACK]))
@settings(max_examples=40)
def test_noiseless_slots_show_what_lies_there(position: Position, colour: int) -> None:
    grid = load_grid()
    layout = Layout.from_position(position, colour)
    values = readings(grid, layout, random.Random(1))
    seen = _decode(grid, values)
    for place in PLACES:
        c, n = layout.at(place)
        slots = len(grid.of(place))
        assert seen[place][1] == min(n, slots)
        if n:
            assert seen[place][0] == c


def test_stack_beyond_the_slots_raises_the_last_slot_monotonically() -> None:
    grid = default_grid(point_slots=4, bar_slots=4, off_slots=5)
    last = grid.of("6")[-1]
    i = grid.slots.index(last)
    values = []
    for n in range(4, 16):
        pts = [0] * 24
        pts[5] = n
        values.append(readings(grid, Layout(tuple(pts)), random.Random(0))[i])
    assert values == sorted(values) and len(set(values)) == len(values)
    # the physics: each further magnet sits 7 mm higher and adds less, and even the
    # tallest stack stays inside the sensor's linear range (well clear of the rails)
    steps = [b - a for a, b in zip(values, values[1:])]
    assert steps == sorted(steps, reverse=True)
    cal = Calibration()
    assert values[1] - values[0] == round(cal.swing * (cal.stack_field[1] - 1))
    assert values[-1] < 65535 - 600 - 10 * 450


def sensor(grid: Grid, place: str, index: int, part: int = 0) -> int:
    """The number of the ``part``-th sensor of a place's ``index``-th slot in the readings."""
    return grid.sensors().index((grid.of(place)[index], part))


def test_black_reads_below_empty_and_white_above() -> None:
    grid = load_grid()
    pts = [0] * 24
    pts[0], pts[5] = 1, -1  # 200 mm apart: beyond each other's field
    v = readings(grid, Layout(tuple(pts)), random.Random(0))
    cal = Calibration()
    assert v[sensor(grid, "1", 0)] == cal.empty + cal.swing
    assert v[sensor(grid, "6", 0)] == cal.empty - cal.swing
    assert v[sensor(grid, "3", 0)] == cal.empty


def test_a_neighbours_return_field_reaches_a_sensor_40_mm_away() -> None:
    # point 2's black checker 40 mm across: its magnets' return field (the table's, -0.039 of a
    # checker) takes that much black field from point 1's sensor, i.e. adds white
    grid = load_grid()
    pts = [0] * 24
    pts[0], pts[1] = 1, -1
    v = readings(grid, Layout(tuple(pts)), random.Random(0))
    cal = Calibration()
    white = (v[sensor(grid, "1", 0)] - cal.empty) / cal.swing
    assert white == pytest.approx(1.0 + 0.0385, abs=0.003)
    assert PlaceField(grid)(Layout(tuple(pts))) == v  # the same, place by place
    assert PlaceField(grid)(Layout(tuple(pts)), far=False)[sensor(grid, "1", 0)] == cal.empty + cal.swing


def test_noise_is_seeded_and_has_the_requested_spread() -> None:
    grid = load_grid()
    layout = Layout(tuple([0] * 24))
    a = readings(grid, layout, random.Random(7), noise=450.0)
    b = readings(grid, layout, random.Random(7), noise=450.0)
    assert a == b
    spread = [v - 32768 for v in a]
    sd = (sum(x * x for x in spread) / len(spread)) ** 0.5
    assert 300 < sd < 600


def test_a_stuck_sensor_reads_its_value_whatever_lies_there() -> None:
    grid = load_grid()
    pts = [0] * 24
    pts[6] = 3
    faults = Faults(stuck={("7", 0): 1234})
    v = readings(grid, Layout(tuple(pts)), random.Random(0), faults=faults)
    assert v[sensor(grid, "7", 0)] == 1234
    others = [sensor(grid, "7", i, k) for i in range(len(grid.of("7"))) for k in range(grid.per_slot)][1:]
    assert others and all(v[n] != 1234 for n in others)


def test_a_hand_adds_partial_field_on_the_next_slot() -> None:
    grid = load_grid()
    pts = [0] * 24
    pts[3] = 2
    units = slot_units(grid, Layout(tuple(pts)), Hand("4", WHITE, 0.3))
    assert [units[s] for s in grid.of("4")] == [1.0, 1.0, 0.3, 0.0, 0.0]


@given(positions())
@settings(max_examples=30)
def test_carry_conserves_checkers_in_every_frame(position: Position) -> None:
    layout = Layout.from_position(position, WHITE)
    src = next(p for p in PLACES if layout.at(p)[1] and layout.at(p)[0] == WHITE) if any(
        layout.at(p)[1] and layout.at(p)[0] == WHITE for p in PLACES
    ) else None
    if src is None:
        return
    frames, after = carry(layout, src, "off-white")
    total = sum(abs(n) for n in after.points) + sum(after.bar) + sum(after.off)
    assert total == 30
    assert frames[-1].layout == after and frames[-1].hand is None
    for f in frames[:-1]:
        on_table = sum(abs(n) for n in f.layout.points) + sum(f.layout.bar) + sum(f.layout.off)
        assert on_table == 29  # the carried checker is in the hand


def test_the_place_by_place_field_reads_as_the_reference_bit_for_bit() -> None:
    """The table's field (PlaceField: each place's counts remembered by what lies on it)
    against readings(), over boards with stacks, pins, the bar, the trays and a hand over
    any place, on the board's grid (two sensors per slot) and a one-sensor grid."""
    from bgboard.sim.field import PlaceField

    rng = random.Random(33)
    for grid in (load_grid(), default_grid(5, 4, 5)):
        field = PlaceField(grid)
        for _ in range(300):
            points = [0] * 24
            for p in rng.sample(range(24), 10):
                points[p] = rng.choice((1, -1)) * rng.randint(1, 9)
            pins = frozenset(p + 1 for p in range(24) if points[p] and rng.random() < 0.2)
            layout = Layout(tuple(points), (rng.randint(0, 3), rng.randint(0, 3)), (rng.randint(0, 15), rng.randint(0, 15)),
                            pins)
            hand = (Hand(rng.choice(PLACES), rng.choice((WHITE, BLACK)), rng.choice((0.2, 0.5, 0.8, 1.0)))
                    if rng.random() < 0.7 else None)
            assert field(layout, hand) == readings(grid, layout, rng, hand=hand), (layout, hand)
