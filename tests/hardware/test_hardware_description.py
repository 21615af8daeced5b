"""bgboard.hardware: the one reader of pins.toml and grid.toml, shipped with the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard import hardware
from bgboard.hardware import HardwareError, firmware_dir, load_grid, load_pins, parse_grid, parse_pins

REPO = Path(__file__).resolve().parents[2]
PINS = (REPO / "hardware" / "pins.toml").read_text()
GRID = (REPO / "hardware" / "grid.toml").read_text()


def test_the_package_ships_the_repository_files_not_copies() -> None:
    # in a checkout the package's files are links to hardware/ and firmware/: one copy of each fact
    assert (hardware.HERE / "pins.toml").resolve() == REPO / "hardware" / "pins.toml"
    assert (hardware.HERE / "grid.toml").resolve() == REPO / "hardware" / "grid.toml"
    assert firmware_dir() == REPO / "firmware"


def test_the_board_as_built() -> None:
    pins = load_pins()
    d = pins.display
    assert (d.rst, d.dc, d.cs, d.busy, d.spi_bus, d.spi_device) == (17, 25, 8, 24, 0, 0)
    assert pins.buttons == {(0, "roll"): 5, (0, "double"): 6, (0, "drop"): 12,
                            (1, "roll"): 13, (1, "double"): 19, (1, "drop"): 26}
    grid = load_grid()
    assert len(grid.slots) == 24 * 5 + 2 * 4 + 2 * 5 == 138
    assert grid.per_slot == 2 and len(grid.sensors()) == 276  # hardware/README.md, "A lone checker anywhere"
    assert (grid.count("point"), grid.count("bar"), grid.count("off")) == (5, 4, 5)
    assert grid.places() == hardware.PLACES
    assert (firmware_dir() / "main.py").is_file() and (firmware_dir() / "sim" / "machine.py").is_file()


def test_bgboard_hardware_names_another_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BGBOARD_HARDWARE", str(tmp_path))
    with pytest.raises(HardwareError, match=r"cannot read .*pins.toml .*check BGBOARD_HARDWARE"):
        load_pins()
    (tmp_path / "pins.toml").write_text(PINS.replace("roll = 13", "roll = 20"))
    assert load_pins().buttons[1, "roll"] == 20
    (tmp_path / "grid.toml").write_bytes(b"slot = [\xff]")
    with pytest.raises(HardwareError, match="is not UTF-8 text: save it as UTF-8"):
        load_grid()


@pytest.mark.parametrize("old, new, words", [
    ("roll = 13", "roll = 17", "pi.buttons.black.roll and pi.display.rst both use GPIO 17"),
    ("drop = 12", "drop = 40", "pi.buttons.white.drop = 40 is not a Raspberry Pi GPIO"),
    ("busy = 24", "", "needs a pin number for pi.display.busy"),
    ("rst = 17", "rst = 'x'", "needs a pin number for pi.display.rst"),
    ("rst = 17", "rst = true", "needs a pin number for pi.display.rst"),
    ("[pi.buttons.black]", "[pi.buttons.other]", r"needs a table \[pi.buttons.black\]"),
    ("[pi.display]", "[pi.display", "pins.toml is not valid TOML"),
])
def test_bad_pins_get_one_sentence(old: str, new: str, words: str) -> None:
    assert old in PINS
    with pytest.raises(HardwareError, match=words):
        parse_pins(PINS.replace(old, new, 1))


@pytest.mark.parametrize("old, new, words", [
    ('{ place = "1", index = 1, sensors = [[0, 2], [0, 3]] }', '{ place = "25", index = 1, sensors = [[0, 2], [0, 3]] }',
     "slot 1 of grid.toml sits under an unknown place '25'"),
    ('{ place = "1", index = 1, sensors = [[0, 2], [0, 3]] }', '{ place = "1", index = 1, sensors = [[0, 0], [0, 3]] }',
     "slots 0 and 1 of grid.toml share mux 0 channel 0"),
    ('{ place = "1", index = 1, sensors = [[0, 2], [0, 3]] }', '{ place = "1", index = 1, sensors = [[0, 2], [0, 16]] }',
     "a CD74HC4067 has 0 to 15"),
    ('{ place = "1", index = 1, sensors = [[0, 2], [0, 3]] }', '{ place = "1", index = 7, sensors = [[0, 2], [0, 3]] }',
     "the slots of place 1 in grid.toml must be numbered 0, 1, 2"),
    ('{ place = "1", index = 1, sensors = [[0, 2], [0, 3]] }', '{ place = "1", index = -1, sensors = [[0, 2], [0, 3]] }',
     "slot 1 of grid.toml needs a place and whole numbers"),
    ("slot = [", "slots = [", "grid.toml needs a list slot"),
])
def test_bad_grids_get_one_sentence(old: str, new: str, words: str) -> None:
    assert old in GRID
    with pytest.raises(HardwareError, match=words):
        parse_grid(GRID.replace(old, new, 1))
