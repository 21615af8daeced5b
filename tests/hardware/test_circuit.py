"""hardware/circuit.py's reading of grid.toml: the boards carry one multiplexer per strip, sensor j
on channel j, and a grid wired any other way is refused in one sentence (the netlists themselves:
tests/hardware/test_kicad.py)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import circuit  # noqa: E402
import make_grid  # noqa: E402


def test_the_committed_grid_puts_each_place_on_its_own_multiplexer() -> None:
    pins, grid = circuit.load()
    mux = circuit.mux_of(grid)
    assert [mux[p] for p in circuit.PLACES] == list(range(len(circuit.PLACES)))  # place order
    assert pins["pico"]["mux"]["count"] == len(mux) == 28


@pytest.mark.parametrize("change, words", [
    (lambda g: g["slot"][1]["sensors"].__setitem__(0, [0, 5]), "sensor 2 of place 1 on multiplexer 0 channel 5"),
    (lambda g: g["slot"][7]["sensors"].__setitem__(1, [0, 5]), "sensor 5 of place 2 on multiplexer 0"),
    (lambda g: [s.__setitem__("sensors", [[0, c] for _, c in s["sensors"]]) for s in g["slot"] if s["place"] == "2"],
     "two places the same multiplexer"),
])
def test_a_grid_the_boards_cannot_carry_is_one_sentence(change, words: str) -> None:
    grid = tomllib.loads(make_grid.grid_text(2))
    change(grid)
    with pytest.raises(SystemExit, match=words):
        circuit.mux_of(grid)


def test_the_one_sensor_per_slot_grid_is_refused() -> None:
    grid = tomllib.loads(make_grid.grid_text(1))  # nine controller multiplexers: the design before
    with pytest.raises(SystemExit, match="each strip carries one multiplexer with sensor j on channel j"):
        circuit.mux_of(grid)


def test_circuit_py_refuses_the_grid_in_one_sentence_and_exit_2(tmp_path: Path) -> None:
    """circuit.py run on a copy of hardware/ whose grid.toml has one sensor per slot (the nine
    controller multiplexers before): exit 2, one sentence, no traceback, no netlist."""
    import shutil
    import subprocess

    for name in ("circuit.py", "schematic.py", "pins.toml", "sensing.toml", "lcsc.csv"):
        shutil.copy(ROOT / "hardware" / name, tmp_path / name)
    (tmp_path / "grid.toml").write_text(make_grid.grid_text(1))
    run = subprocess.run([sys.executable, str(tmp_path / "circuit.py"), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 2, run.stderr[-2000:]
    said = [line for line in run.stderr.splitlines() if line.startswith("circuit.py:")]
    assert len(said) == 1 and "each strip carries one multiplexer" in said[0], run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    assert not list((tmp_path / "out").glob("*.net"))
