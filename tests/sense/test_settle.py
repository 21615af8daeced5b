"""Settling bursts of readings, flicker faults, and slot readings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgboard.sense.places import (
    CAPPED,
    MIXED,
    Observation,
    SensorFaultError,
    Slots,
    code_reading,
    reading_from_slots,
)
from bgboard.sense.settle import Flicker, Settler

EMPTY = Observation((0,) * 28)


def _with(place: int, code: int) -> Observation:
    codes = [0] * 28
    codes[place - 1] = code
    return Observation(tuple(codes))


def test_a_reading_counts_only_after_it_has_been_stable() -> None:
    settler = Settler(settle_ms=300)
    settler.feed(EMPTY, 0)
    assert settler.poll(299) is None
    assert settler.poll(300) == EMPTY
    assert settler.poll(400) is None  # handed out once
    settler.feed(_with(7, 1), 500)
    settler.feed(_with(7, 2), 600)  # a burst restarts the wait
    assert settler.due() == 900
    assert settler.poll(850) is None
    assert settler.poll(900) == _with(7, 2)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 400)), min_size=1, max_size=30))
def test_only_readings_held_for_the_settle_time_are_handed_out(burst: list[tuple[int, int]]) -> None:
    settler = Settler(settle_ms=300)
    now = 0
    out = []
    for value, hold in burst:
        settler.feed(_with(3, value), now)
        due = settler.due()
        for t in sorted({now + hold - 1} | ({due} if due is not None and due < now + hold else set())):
            got = settler.poll(t)
            if got is not None:
                out.append(got.codes[2])
        now += hold
    runs: list[list[int]] = []  # equal readings in a row are one reading: [value, ms]
    for value, hold in burst:
        if runs and runs[-1][0] == value:
            runs[-1][1] += hold
        else:
            runs.append([value, hold])
    assert out == [value for value, ms in runs if ms > 300]


def test_a_flickering_place_is_named() -> None:
    settler = Settler(settle_ms=300, window_ms=2000, changes=6)
    for i in range(8):
        settler.feed(_with(7, i % 2), i * 100)
    assert settler.flickering(800) == (Flicker(7, 7),)
    assert str(settler.flickering(800)[0]) == "check point 7: its sensor keeps changing"
    assert settler.flickering(5000) == ()


def test_slot_readings_become_counts_with_uncertainty() -> None:
    assert reading_from_slots(7, [0, 0, 0, 0, 0]) == 0
    assert reading_from_slots(7, [1, 1, 0, 0, 0]) == 2
    assert reading_from_slots(7, [-1, -1, -1, 0, 0]) == -3
    assert reading_from_slots(7, [1, 1, 1, 1, 1]) == 5
    assert reading_from_slots(7, [1, 1, 1, 1, 1], stacked=True) == CAPPED + 6
    assert str(code_reading(CAPPED + 6)) == "6 or more white"
    # a stack seen on a shorter row (players stack where they like): one more than its slots
    assert reading_from_slots(7, [-1, -1, 0, 0, 0], stacked=True) == -(CAPPED + 3)
    assert reading_from_slots(7, [1, -1, 0, 0, 0]) == MIXED
    with pytest.raises(SensorFaultError, match="check point 7"):
        reading_from_slots(7, [1, 0, 1, 0, 0])


@given(st.lists(st.integers(-15, 15), min_size=28, max_size=28))
def test_a_board_is_consistent_with_its_own_readings(board: list[int]) -> None:
    slots = Slots(point=5, bar=3, tray=8)
    observation = Observation.of_board(board, slots)
    assert observation.consistent_with(board)
    for place, n in enumerate(board, start=1):
        reading = observation[place]
        assert reading.low <= abs(n) <= reading.high
        assert reading.exact == (abs(n) <= slots.capacity(place))
