"""Calibration: per-sensor baselines persist in flash; a corrupt file falls back to defaults."""

from __future__ import annotations

import json
from pathlib import Path

from bgboard.link import messages as m

from fwrun import _BOARD, PER_SLOT, STACK_GAIN, SWING, as_reported, counts, host

SLOTS: int = _BOARD["SLOT_COUNT"]

N: int = _BOARD["SENSOR_COUNT"]


def offsets() -> list[int]:
    """Sensor-to-sensor spread of the no-field reading (up to 1,200 counts either way: under
    half a checker's swing, the most the firmware's empty calibration accepts)."""
    return [32768 + ((i * 37) % 13 - 6) * 200 for i in range(N)]


def test_calibrate_empty_persists_and_survives_reboot(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    base = offsets()
    run = run_firmware(["slots " + " ".join(map(str, base)), "@100",
                        host(m.Calibrate(m.CALIBRATE_EMPTY), 0), "@400", "stop"], flash=flash)
    assert run.of(m.Ack) == [m.Ack(0, m.Calibrate.KIND)]
    assert run.of(m.Snapshot)[-1] == m.Snapshot(m.SNAPSHOT_CALIBRATED, (0,) * SLOTS)
    saved = json.loads((flash / "calibration.json").read_text())
    assert saved["empty"] == base

    # A sensor whose baseline sits 1200 counts low: with the stored baseline a black checker
    # (−SWING) still reads one black, and the empty sensor reads empty after the reboot.
    low = base.index(min(base))
    run = run_firmware([f"slots {' '.join(map(str, base))}", "@100",
                        f"sensor {low} {base[low] - SWING}", "@300", "stop"], flash=flash)
    assert run.of(m.Hello)[0].calibration == m.CALIBRATION_LOADED
    assert run.of(m.Snapshot)[0].states == (0,) * SLOTS
    slot = as_reported([6 if i == low // PER_SLOT else 0 for i in range(SLOTS)]).index(6)
    assert run.of(m.Changes) == [m.Changes((m.SlotChange(slot, 6),))]


def test_calibrate_checkers_records_each_sensors_swing(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    weak = round(0.8 * SWING)  # a sensor a little further from its magnet
    run = run_firmware([f"slot 9 {32768 + weak}", "@100", host(m.Calibrate(m.CALIBRATE_CHECKERS), 0),
                        "@300", "stop"], flash=flash)
    assert run.of(m.Ack) == [m.Ack(0, m.Calibrate.KIND)]
    saved = json.loads((flash / "calibration.json").read_text())
    # the sensor under the slot's centre (the only one lit along its place) records its swing
    first = 9 * PER_SLOT
    assert saved["swing"][first] == weak and saved["swing"][first - 1] == saved["swing"][first + 1] == SWING
    # Two stacked magnets on that weak slot now read level 2, not 1.
    run = run_firmware([f"slot 9 {32768 + round((1 + STACK_GAIN) * weak)}", "@100", "stop"], flash=flash)
    two = m.slot_state(m.WHITE, 2)
    assert run.of(m.Snapshot)[0].states == as_reported([two if i == 9 else 0 for i in range(SLOTS)])


def test_calibrating_empty_with_checkers_on_the_board_is_refused(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    run = run_firmware([f"slot 30 {counts('white')}", "@100", host(m.Calibrate(m.CALIBRATE_EMPTY), 4),
                        "@300", "stop"], flash=flash)
    [error] = run.of(m.DeviceError)
    assert (error.name, error.command_seq) == ("calibration_refused", 4)
    assert "slot 30" in error.text
    assert not (flash / "calibration.json").exists()


def corrupt_runs(run_firmware, flash: Path, text: str):
    flash.mkdir(exist_ok=True)
    (flash / "calibration.json").write_text(text)
    return run_firmware([f"slot 2 {counts('white')}", "@100", "stop"], flash=flash)


def test_corrupt_calibration_falls_back_to_defaults_and_reports(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    good = run_firmware(["@50", host(m.Calibrate(m.CALIBRATE_EMPTY), 0), "@300", "stop"], flash=flash)
    assert good.returncode == 0
    text = (flash / "calibration.json").read_text()
    data = json.loads(text)
    flipped = dict(data, empty=[data["empty"][0] + 1] + data["empty"][1:])
    wrong_count = dict(data, slots=10)
    silly = dict(data, swing=[0] * N)
    for bad, why in [
        (text[: len(text) // 2], "not readable"),
        ("\x00\xff garbage", "not readable"),
        (json.dumps(flipped), "corrupt"),
        (json.dumps(wrong_count), "another board"),
        (json.dumps(silly), "impossible values"),
        ("[1, 2, 3]", "another board"),
    ]:
        run = corrupt_runs(run_firmware, flash, bad)
        assert run.returncode == 0, run.stderr
        hello, error, snapshot = run.messages[:3]
        assert hello.calibration == m.CALIBRATION_CORRUPT
        assert error.name == "calibration_corrupt" and why in error.text and "defaults" in error.text
        white = m.slot_state(m.WHITE, 1)
        assert snapshot.states == as_reported([white if i == 2 else 0 for i in range(SLOTS)])  # defaults classify


def test_unwritable_flash_reports_calibration_unsaved(run_firmware, tmp_path: Path) -> None:
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "calibration.json.tmp").mkdir()  # the temporary file cannot be created
    run = run_firmware(["@50", host(m.Calibrate(m.CALIBRATE_DEFAULTS), 3), "@300", "stop"], flash=flash)
    assert run.of(m.Ack) == [m.Ack(3, m.Calibrate.KIND)]
    assert [e.name for e in run.of(m.DeviceError)] == ["calibration_unsaved"]


def test_calibrate_checkers_subtracts_the_crowds_field(run_firmware, tmp_path: Path) -> None:
    """Points 15-17 full of white checkers on their slots (the physics field of the board as
    built): a centre sensor of point 16 reads its checker less the neighbours' rim return
    (a quarter of a checker on the array of discs); the calibration records its swing without that crowd, as the
    firmware subtracts it when it reads (firmware/crowd.py)."""
    import random

    from bgboard.hardware import load_grid
    from bgboard.hardware.physics import load_design, load_table
    from bgboard.sim.layout import Layout
    from bgboard.sim.placement import Scatter, readings

    design, grid = load_design(), load_grid()
    points = tuple(5 if p in (15, 16, 17) else 0 for p in range(1, 25))
    values = readings(design, grid, load_table(design), Layout(points), random.Random(1), Scatter(0, 0, 0, 0, 0))
    flash = tmp_path / "flash"
    run = run_firmware(["slots " + " ".join(map(str, values)), "@200", host(m.Calibrate(m.CALIBRATE_CHECKERS), 0),
                        "@500", "stop"], flash=flash)
    assert run.of(m.Ack) == [m.Ack(0, m.Calibrate.KIND)]
    saved = json.loads((flash / "calibration.json").read_text())
    centre = grid.sensors().index((grid.of("16")[2], 0))
    raw = values[centre] - 32768
    assert raw < 0.8 * SWING  # the crowd takes a quarter of a checker from the reading
    # the swing recorded without it, but for the fields under 0.005 of a checker the table
    # leaves out (hardware/make_board.py CROWD_LEAST: the far neighbours, 2.3 % together on
    # the array, whose return field reaches further than the disc's 1-2 %)
    assert abs(saved["swing"][centre] - SWING) <= 0.03 * SWING
    assert abs(saved["swing"][centre] - SWING) < abs(raw - SWING) / 2
