"""Slot states -> per-place readings (colour, certain range, estimate), and the grid."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from bgboard.errors import InputError
from bgboard.link import messages as m
from bgboard.link.places import GridError, PlaceReading, parse_grid, place_reading, place_readings

ROOT = Path(__file__).resolve().parents[2]
GRID = parse_grid((ROOT / "hardware" / "grid.toml").read_text())
W1, B1 = m.slot_state(m.WHITE, 1), m.slot_state(m.BLACK, 1)


def slots_for(colour: int, count: int, size: int = 5) -> list[int]:
    """Ideal slot states of ``count`` checkers: one per slot from the base, the rest
    stacked on the last slot (level capped at 7)."""
    states = []
    for i in range(size):
        if i < size - 1:
            states.append(m.slot_state(colour, 1) if count > i else 0)
        else:
            k = count - (size - 1)
            states.append(m.slot_state(colour, min(k, 7)) if k > 0 else 0)
    return states


def test_grid_has_every_place_with_its_slots() -> None:
    assert len(GRID.slots) == 138
    assert GRID.places()[:24] == tuple(str(p) for p in range(1, 25))
    assert [len(GRID.of(p)) for p in GRID.places()[24:]] == [4, 4, 5, 5]


@pytest.mark.parametrize("count", range(0, 5))
def test_a_place_with_its_last_slot_empty_is_exact(count: int) -> None:
    reading = place_reading("7", slots_for(m.WHITE, count))
    assert reading == PlaceReading("7", "white" if count else None, count, count, (count, count))
    assert reading.exact


@given(st.sampled_from([m.WHITE, m.BLACK]), st.integers(5, 15))
def test_a_stack_is_certain_only_from_below_and_estimated_around_its_count(colour: int, count: int) -> None:
    reading = place_reading("13", slots_for(colour, count))
    assert reading.colour == ("white" if colour == m.WHITE else "black")
    assert (reading.low, reading.high) == (5, 15)
    low, high = reading.estimate
    assert reading.low <= low <= count <= high <= reading.high
    assert not reading.exact
    if count == 5:
        assert reading.estimate == (5, 5)  # the last slot reads one magnet


def test_both_colours_on_one_point_is_mixed() -> None:
    reading = place_reading("3", [W1, B1, 0, 0, 0])
    assert reading.mixed and reading.colour is None and not reading.exact


def test_a_fault_keeps_the_colour_seen_but_not_the_count() -> None:
    reading = place_reading("off-white", [W1, W1, m.FAULT, 0, 0])
    assert (reading.colour, reading.low, reading.high, reading.fault) == ("white", 2, 15, True)


def test_whole_snapshot_and_wrong_length() -> None:
    states = [0] * 138
    states[GRID.of("24")[0]] = B1
    readings = place_readings(GRID, states)
    assert list(readings) == list(GRID.places())
    assert readings["24"] == PlaceReading("24", "black", 1, 1, (1, 1))
    with pytest.raises(GridError):
        place_readings(GRID, states[:-1])


@pytest.mark.parametrize("text, words", [
    ("slot = [", "cannot be read"),
    ('slot = [{ place = "99", index = 0, mux = 0, channel = 0 }]', "unknown place"),
    ('slot = [{ place = "1", index = 0, mux = 0, channel = 16 }]', "does not exist"),
    ('slot = [{ place = "1", index = 0, mux = 0, channel = 1 }, { place = "2", index = 0, mux = 0, channel = 1 }]',
     "shares"),
    ('slot = [{ place = "1", index = 1, mux = 0, channel = 1 }]', "not numbered"),
])
def test_bad_grids_get_one_sentence(text: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        parse_grid(text)
