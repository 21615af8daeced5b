"""firmware/crowd.py under MicroPython: the field of the checkers around every sensor follows
the slot states — each slot's field added when it fills, its sign with its colour, taken away
when it empties or reads FAULT — exactly as summing board.py's crowd table afresh."""

from __future__ import annotations

from pathlib import Path

from fwrun import run_script

SCRIPT = r'''
import os
import board
from calibration import defaults
from classify import Classifier
from crowd import Crowd

N = board.SENSOR_COUNT
S = board.SLOT_COUNT
first, sensor, field = board.CROWD_FIRST, board.CROWD_SENSOR, board.CROWD_FIELD


def afresh(states):
    """Every sensor's crowd summed from the table for ``states``."""
    out = [0] * N
    for j in range(S):
        sign = (0, 1, -1, 0)[states[j] & 3]
        for k in range(first[2 * j] | first[2 * j + 1] << 8, first[2 * j + 2] | first[2 * j + 3] << 8):
            out[sensor[2 * k] | sensor[2 * k + 1] << 8] -= sign * field[k]
    return out


classifier = Classifier(defaults(N), N)
crowd = Crowd(classifier, S)
states = bytearray(S)
bad = 0
for trial in range(60):
    changed = []
    r = os.urandom(S)
    for j in range(S):
        if r[j] < 40:
            states[j] = (0, 1 << 2 | 1, 1 << 2 | 2, 2 << 2 | 1, 3)[r[j] % 5]
            changed.append(j)
    crowd.update(states, changed, len(changed))
    if list(classifier.crowd) != afresh(states):
        bad += 1
for j in range(S):
    states[j] = 0
crowd.update(states)
print("mismatches", bad, "left", sum(abs(c) for c in classifier.crowd), "entries", len(field))
'''


def test_the_crowd_follows_the_slot_states(tmp_path: Path) -> None:
    done = run_script(SCRIPT, tmp_path)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words[:4] == ["mismatches", "0", "left", "0"], done.stdout
    assert int(words[5]) > 1000  # the table reaches every slot's neighbours


def test_the_table_is_the_physics_from_30_mm_on() -> None:
    """board.py's crowd table: a checker's own field at each sensor 30 mm or more from its slot's
    centre (the magpylib table), never at a nearer sensor."""
    import math
    import sys

    from bgboard.hardware import firmware_dir, load_grid
    from bgboard.hardware.physics import load_design, load_table
    from bgboard.sim.placement import sensor_spots

    sys.path.insert(0, str(firmware_dir()))
    import board

    design, grid = load_design(), load_grid()
    table = load_table(design)
    spots = sensor_spots(design, grid)
    b0 = table.at(0, 0.0)
    first = [board.CROWD_FIRST[2 * j] | board.CROWD_FIRST[2 * j + 1] << 8 for j in range(len(grid.slots) + 1)]
    for j, slot in enumerate(grid.slots):
        cx, cy = spots[grid.sensors().index((slot, 0))]
        for k in range(first[j], first[j + 1]):
            s = board.CROWD_SENSOR[2 * k] | board.CROWD_SENSOR[2 * k + 1] << 8
            d = math.hypot(spots[s][0] - cx, spots[s][1] - cy)
            assert d >= 30.0
            assert -board.CROWD_FIELD[k] == round(table.at(0, d) / b0 * board.CROWD_SCALE)
