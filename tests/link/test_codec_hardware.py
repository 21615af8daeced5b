"""hardware/pins.toml read by the host: every Pi pin, checked for clashes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.link.hardware import PinsError, parse_pins, read_grid, read_pins

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "hardware" / "pins.toml").read_text()


def test_the_display_pins_are_the_waveshare_hat_ones() -> None:
    pins = read_pins()
    d = pins.display
    assert (d.rst, d.dc, d.cs, d.busy) == (17, 25, 8, 24)
    assert pins.buttons[0].roll == 5 and pins.buttons[1].drop == 26
    assert len(read_grid().slots) == 138


def test_hardware_dir_can_be_moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BGBOARD_HARDWARE", str(tmp_path))
    with pytest.raises(PinsError, match="cannot read"):
        read_pins()
    (tmp_path / "pins.toml").write_text(TEXT.replace("roll = 13", "roll = 20"))
    assert read_pins().buttons[1].roll == 20


@pytest.mark.parametrize("old, new, words", [
    ("roll = 13", "roll = 17", "both use GPIO 17"),
    ("drop = 12", "drop = 40", "not a Raspberry Pi GPIO"),
    ("busy = 24", "", "busy"),
    ("rst = 17", "rst = 'x'", "rst"),
    ("[pi.display]", "[pi.display", "not valid TOML"),
])
def test_bad_pins_get_one_sentence(old: str, new: str, words: str) -> None:
    with pytest.raises(PinsError, match=words):
        parse_pins(TEXT.replace(old, new, 1))
