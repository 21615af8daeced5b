"""Slot states from the wire (hardware/grid.toml order) become observations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, Observation, SensorFaultError, Slots, board_of
from bgboard.hardware import load_grid
from bgboard.sense.slots import SlotMap
from tests.control.fakeboard import slot_states

GRID = SlotMap.from_slots(load_grid().slots)


def test_the_grid_has_the_documented_slots() -> None:
    assert GRID.count == 24 * 5 + 2 * 4 + 2 * 5
    assert GRID.slots() == Slots(point=5, bar=4, tray=5)


def test_the_start_position_reads_exactly() -> None:
    board = board_of(start_position(), WHITE)
    assert GRID.observation(slot_states(board, GRID)) == Observation.of_board(board, GRID.slots())


@given(st.lists(st.integers(-9, 9), min_size=28, max_size=28))
def test_any_board_reads_as_the_sensor_model_says(board: list[int]) -> None:
    assert GRID.observation(slot_states(board, GRID)) == Observation.of_board(board, GRID.slots())


def test_a_faulty_slot_names_its_place() -> None:
    states = slot_states(board_of(start_position(), WHITE), GRID)
    states[GRID.places[6][2]] = 3  # a fault on point 7's third slot
    with pytest.raises(SensorFaultError, match="check point 7: a sensor reports a fault"):
        GRID.observation(states)
    with pytest.raises(SensorFaultError, match="the board reported 3 slots, the grid has 138"):
        GRID.observation([0, 0, 0])
