"""``bgboard hardware fit``: the model fitted back from a measured strip (issue 32) — tested on
readings the model itself makes for the design's array of discs with known perturbations (the
magnets 6 % strong, the gap 0.35 mm wide, each sensor's gain and offset off) and noise at the sensor's level, and on
readings no gap or magnet explains.  Real magpylib through the real CLI entry point."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.hardware import bench_fit, magnets
from bgboard.hardware.physics import load_design

DESIGN = load_design()
#: A bench run of one strip: each sensor empty, one checker centred and off its sensor out past
#: the array's rim (where the field's shape, not its size, tells the gap), stacks centred and off.
CONFIGS = ([(0.0, 0)] * 3 + [(x, 1) for x in (0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0)]
           + [(0.0, k) for k in (2, 3, 4, 5, 10, 15)] + [(6.0, 2), (12.0, 3), (18.0, 5)])
#: Each position read this many times (a bench script's loop, a few milliseconds a reading): the
#: array's field is 23 times the sensor's noise allowance (the disc's was 58) and changes its shape
#: little with the gap; 16 readings of each put the gap's spread at about 0.02 mm (twelve random
#: boards: at most 0.055 mm off, J at most 1.2 %), 8 at 0.035 mm (one of twelve 0.116 mm off).
REPEATS = 16


def readings(j: float, gap: float, seed: int = 1, sensors: int = 10, swap: bool = False) -> str:
    """The CSV a bench script records for the model at polarisation ``j`` and ``gap``, each
    sensor's gain N(1, 2 %) and offset N(32768, 300), Gaussian noise of the sensor's level."""
    rng = random.Random(seed)
    unit = dict(zip(CONFIGS, magnets.unit_bz_mt(DESIGN, gap, CONFIGS)))
    c, noise = DESIGN.counts_per_mt, DESIGN.sensor.noise_mt
    lines = ["sensor,offset_mm,stack,counts"]
    for s in range(sensors):
        gain, offset = rng.gauss(1.0, 0.02), rng.gauss(32768, 300)
        for x, k in CONFIGS:
            b = j * unit[(x, k)] if k else 0.0
            label = (5 if k == 1 else 1) if swap and s == 3 and k else k  # stack heights recorded wrong
            for _ in range(REPEATS):
                lines.append(f"{s},{x:g},{label},{offset + gain * c * (b + rng.gauss(0, noise)):.0f}")
    return "\n".join(lines) + "\n"


def run_fit(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "readings.csv"
    path.write_text(text)
    code = main(["hardware", "fit", str(path), "--json"])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("scale,gap,seed", [(1.06, 6.85, 1), (0.93, 6.2, 2), (1.0, 7.5, 3), (1.02, 5.5, 4)])
def test_the_fit_recovers_a_perturbed_board(tmp_path: Path, capsys: pytest.CaptureFixture[str], scale: float, gap: float,
                                            seed: int) -> None:
    j = scale * magnets.working_polarization_t(DESIGN)
    code, out, err = run_fit(tmp_path, readings(j, gap, seed), capsys)
    assert code == 0, err
    found = json.loads(out)
    assert found["polarization_t"] == pytest.approx(j, rel=0.02)
    assert found["gap_mm"] == pytest.approx(gap, abs=0.1)
    assert found["rms_mt"] < 2 * DESIGN.sensor.noise_mt
    assert len(found["sensors"]) == 10
    assert all(0.9 < s["gain"] < 1.1 and abs(s["offset_counts"] - 32768) < 1500 for s in found["sensors"])


def test_the_fit_finds_each_sensors_gain_and_offset() -> None:
    rng = random.Random(5)
    gains = {str(s): rng.gauss(1.0, 0.03) for s in range(10)}
    mean = sum(gains.values()) / len(gains)
    unit = dict(zip(CONFIGS, magnets.unit_bz_mt(DESIGN, 6.5, CONFIGS)))
    rs = [bench_fit.Reading(s, x, k, 30000 + 100 * int(s) + g * DESIGN.counts_per_mt * 1.2 * unit[(x, k)])
          for s, g in gains.items() for x, k in CONFIGS]
    found = bench_fit.fit(rs, lambda gap, cs: magnets.unit_bz_mt(DESIGN, gap, cs), DESIGN.counts_per_mt, 0.1)
    for s, g in gains.items():
        assert found.sensors[s][0] == pytest.approx(g / mean, rel=1e-3)  # relative to the strip's mean
        assert found.sensors[s][1] == pytest.approx(30000 + 100 * int(s), abs=1)
    assert found.polarization_t == pytest.approx(1.2 * mean, rel=1e-3)
    assert found.gap_mm == pytest.approx(6.5, abs=0.01)


def test_readings_no_gap_or_magnet_explain_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fit(tmp_path, readings(1.21, 6.5, swap=True), capsys)
    assert code == 2 and out == ""
    assert err.startswith("bgboard: no gap from 1 to 12 mm and no magnet explain these readings")
    assert err.count("\n") == 1


@pytest.mark.parametrize("text,sentence", [
    ("a,b\n1,2\n", "the readings need a header line sensor,offset_mm,stack,counts"),
    ("sensor,offset_mm,stack,counts\n", "the readings file has no readings"),
    ("sensor,offset_mm,stack,counts\n1,x,1,300\n", "line 2 of the readings is not a sensor"),
    ("sensor,offset_mm,stack,counts\n1,0,99,300\n", "line 2 of the readings is out of range"),
    ("sensor,offset_mm,stack,counts\n1,0,0,32768\n1,0,1,40000\n", "readings of one position and one stack height cannot tell"),
])
def test_bad_readings_say_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, sentence: str) -> None:
    code, out, err = run_fit(tmp_path, text, capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"bgboard: {sentence}") and err.count("\n") == 1


def test_a_missing_file_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "fit", str(tmp_path / "none.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_text_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "readings.csv"
    path.write_text(readings(1.21, 6.5))
    assert main(["hardware", "fit", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("magnet J = ") and "the design's 6.5 mm" in out and out.count("\n") == 12


def test_the_measured_board_regenerates_the_sensing_design_and_its_field(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from bgboard.hardware.physics import load_table, parse_design, response

    path = tmp_path / "readings.csv"
    j = 1.05 * magnets.working_polarization_t(DESIGN)
    path.write_text(readings(j, 6.0, seed=4))
    assert main(["hardware", "fit", str(path), "--json", "--out", str(tmp_path / "measured")]) == 0
    found = json.loads(capsys.readouterr().out)
    measured = parse_design((tmp_path / "measured" / "sensing.toml").read_text())
    assert measured.gap_mm == pytest.approx(found["gap_mm"], abs=0.01)
    assert measured.measured_polarization_t == pytest.approx(found["polarization_t"], abs=1e-4)
    table = load_table(measured, tmp_path / "measured" / "field_table.json")  # the table of that design
    # the firmware's default swing made from it is the fit's
    assert response(measured, table).swing == pytest.approx(found["swing"], abs=2)
    assert abs(found["swing"] - response(DESIGN, load_table(DESIGN)).swing) > 100  # and not the design's
