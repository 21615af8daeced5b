"""Checkers put down with players' scatter on the physics field (bgboard.sim.placement),
read by the firmware's own classifier and run rule (firmware/classify.py, runs.py under CPython) and recognised by
the host: the recognition benchmark's path (benchmarks/physics_recognition.py) in small."""

from __future__ import annotations

import random
import runpy
import sys
from pathlib import Path

import pytest

from bgboard.hardware import firmware_dir, load_grid
from bgboard.hardware.physics import load_design, load_table, response
from bgboard.sense.places import Observation, board_of
from bgboard.sense.slots import SlotMap
from bgboard.sim.field import Calibration
from bgboard.sim.layout import WHITE, Layout
from bgboard.sim.placement import Scatter, fields_mt, hypot_offsets, place_magnets, readings, rows, sensor_xy
from bgboard.rules.starts import start_position

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import physics_recognition  # noqa: E402

from tests.support import firmware_slot_states  # noqa: E402

NO_SCATTER = Scatter(0.0, 0.0, 0.0, 0.0, 0.0)  # every checker exactly on its slot

DESIGN = load_design()
TABLE = load_table(DESIGN)
GRID = load_grid()


def test_the_simulators_field_is_the_physics() -> None:
    resp = response(DESIGN, TABLE)
    # the simulator's sensors and the firmware are calibrated for this response, not for
    # numbers of their own
    cal = Calibration()
    assert (cal.swing, cal.stack_gain, cal.stack_field) == (resp.swing, resp.stack_gain, resp.stack_units)
    firmware = runpy.run_path(str(firmware_dir() / "board.py"))
    assert (firmware["SWING"], firmware["STACK_GAIN_MILLI"]) == (resp.swing, round(1000 * resp.stack_gain))
    # one checker alone on its sensor reads B0: the swing the firmware is calibrated for
    pts = [0] * 24
    pts[6] = 1
    fields = fields_mt(DESIGN, GRID, TABLE, place_magnets(DESIGN, GRID, Layout(tuple(pts)), random.Random(1), NO_SCATTER))
    assert fields[GRID.of("7")[0], 0] == pytest.approx(resp.b0_mt, abs=1e-9)
    assert all(abs(b) < 0.05 * resp.b0_mt for (s, _), b in fields.items() if s.place not in ("7", "6", "8"))


def test_every_sensor_has_its_own_spot_and_rows_keep_apart() -> None:
    where = rows(DESIGN)
    spots = [sensor_xy(DESIGN, where[s.place], s.index) for s in GRID.slots]
    assert len(set(spots)) == len(GRID.slots) == 138
    closest = min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(spots) for b in spots[i + 1:])
    assert closest >= DESIGN.checker_diameter_mm  # two checkers centred on two sensors never overlap


def test_scatter_moves_checkers_off_their_sensors_by_players_amounts() -> None:
    layout = Layout.from_position(start_position(), WHITE)
    assert max(hypot_offsets(DESIGN, GRID, place_magnets(DESIGN, GRID, layout, random.Random(1), NO_SCATTER))) < 1e-9
    offsets = sorted(x for seed in range(40) for x in hypot_offsets(
        DESIGN, GRID, place_magnets(DESIGN, GRID, layout, random.Random(seed), Scatter())))
    assert 1.0 < offsets[len(offsets) // 2] < 6.0 and offsets[-1] > 8.0


def test_the_physics_placement_band_is_the_scatters_ninetieth_percentile() -> None:
    # the stack levels' thresholds are set over PLACEMENT_MM (bgboard.hardware.physics): it is
    # this simulator's fact, computed here on 400 seeded start positions put down by hand
    from bgboard.hardware.physics import PLACEMENT_MM

    layout = Layout.from_position(start_position(), WHITE)
    offsets = sorted(x for seed in range(400) for x in hypot_offsets(
        DESIGN, GRID, place_magnets(DESIGN, GRID, layout, random.Random(seed), Scatter())))
    assert abs(offsets[int(0.9 * len(offsets))] - PLACEMENT_MM) <= 0.125


def test_the_start_position_put_down_by_hand_reads_right() -> None:
    slot_map = SlotMap.from_slots(GRID.slots)
    layout = Layout.from_position(start_position(), WHITE)
    truth = board_of(start_position(), WHITE)
    for seed in range(20):
        raw = readings(DESIGN, GRID, TABLE, layout, random.Random(seed), Scatter(), gain_spread=0.05)
        observation = slot_map.observation(firmware_slot_states(GRID, raw))
        assert observation.consistent_with(truth)
        assert observation == Observation.of_board(truth, slot_map.slots())


def test_a_few_hundred_plays_on_the_physics_field_have_no_false_accept() -> None:
    tally = physics_recognition.main(300, seed=5)  # raises AssertionError at a false accept
    legal = sum(v for k, v in tally.items() if k.startswith("legal"))
    assert legal == 300
    assert tally.get("legal: played", 0) + tally.get("legal: ambiguous offer", 0) >= 0.95 * legal
