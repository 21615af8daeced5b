"""Boards put down by hand on the physics field (bgboard.sim.placement: scatter, every
magnet's field at every sensor), read by the real firmware under MicroPython, the host's
reading agreeing with the checkers on the table."""

from __future__ import annotations

import random

import pytest

from bgboard.hardware import load_grid
from bgboard.hardware.physics import load_design, load_table
from bgboard.link import messages as m
from bgboard.sense.places import board_of
from bgboard.sense.slots import SlotMap
from bgboard.sim.layout import WHITE, Layout
from bgboard.sim.placement import Scatter, readings
from bgboard.rules.starts import start_position

STACKED = Layout(points=(-2, 9, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, -3, 0, 0, 0, 0),
                 bar=(1, 1), off=(2, 1))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("layout", [Layout.from_position(start_position(), WHITE), STACKED], ids=["start", "stacked"])
def test_a_board_put_down_by_hand_reads_right_through_the_firmware(run_firmware, layout: Layout, seed: int) -> None:
    design = load_design()
    grid = load_grid()
    values = readings(design, grid, load_table(design), layout, random.Random(seed), Scatter(), gain_spread=0.05)
    run = run_firmware(["slots " + " ".join(map(str, values)), "@100", "stop"])
    assert run.returncode == 0, run.stderr
    states = run.of(m.Snapshot)[0].states
    observation = SlotMap.from_slots(grid.slots).observation(states)
    assert observation.consistent_with(board_of(layout.to_position(WHITE), WHITE))
