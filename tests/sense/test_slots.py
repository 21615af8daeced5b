"""Slot states from the wire (hardware/grid.toml order) become observations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgboard.link.messages import slot_state
from bgboard.rules.variants import start_position
from bgboard.sense.board import WHITE, Observation, SensorFaultError, Slots, board_of
from bgboard.sense.slots import SlotMap

GRID = SlotMap.load()


def _states(board: list[int] | tuple[int, ...]) -> list[int]:
    """The slot states a board produces: one checker per slot, the rest stacked on the last."""
    states = [0] * GRID.count
    for place, wires in enumerate(GRID.places, start=1):
        n = board[place - 1]
        colour = 1 if n > 0 else 2
        for i, wire in enumerate(wires):
            if i < abs(n):
                level = 1 if i < len(wires) - 1 else min(7, abs(n) - i)
                states[wire] = slot_state(colour, level)
    return states


def test_the_grid_has_the_documented_slots() -> None:
    assert GRID.count == 24 * 5 + 2 * 4 + 2 * 5
    assert GRID.slots() == Slots(point=5, bar=4, tray=5)


def test_the_start_position_reads_exactly() -> None:
    board = board_of(start_position(), WHITE)
    assert GRID.observation(_states(board)) == Observation.of_board(board, GRID.slots())


@given(st.lists(st.integers(-9, 9), min_size=28, max_size=28))
def test_any_board_reads_as_the_sensor_model_says(board: list[int]) -> None:
    assert GRID.observation(_states(board)) == Observation.of_board(board, GRID.slots())


def test_a_faulty_slot_names_its_place() -> None:
    states = _states(board_of(start_position(), WHITE))
    states[GRID.places[6][2]] = 3  # a fault on point 7's third slot
    with pytest.raises(SensorFaultError, match="check point 7: a sensor reports a fault"):
        GRID.observation(states)
    with pytest.raises(SensorFaultError, match="the board reported 3 slots, the grid has 138"):
        GRID.observation([0, 0, 0])
