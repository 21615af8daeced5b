"""A ribbon's socket pressed on turned round at one end (issue 32): the 1 x 12 header before
shorted the supply and put ground on the LED data line; the keyed 2 x 10 strip header and the
2 x 4 dice header as built (hardware/circuit.py, checked pin by pin by hardware/ribbon.py) hurt
nothing, and their box headers are KiCad 6's own footprints, whose outlines set the
controller's new row of headers (the built boards' nets: tests/hardware/test_kicad.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import circuit  # noqa: E402
import ribbon  # noqa: E402

IDC = Path("/usr/share/kicad/footprints/Connector_IDC.pretty")


def test_the_header_before_was_harmful_turned_round() -> None:
    rows = {pin: (a, b, v) for pin, a, b, v in ribbon.table(ribbon.BEFORE)}
    assert rows[1] == ("+5V", "GND", "harmful: +5V on GND, a short of the supply")
    assert rows[3][2].startswith("harmful") and rows[3][:2] == ("DO", "GND")  # the LED data line on ground
    assert not ribbon.harmless(ribbon.BEFORE)
    assert sum(v.startswith("harmful") for *_, v in ribbon.table(ribbon.BEFORE)) == 7  # all but the select lines and SIG on DI


def test_the_strip_header_as_built_is_harmless_turned_round() -> None:
    assert ribbon.AS_BUILT == tuple(net for pin in range(1, 21) for net, pins in circuit.HEADER_PINOUT.items() if pin in pins)
    assert ribbon.harmless(ribbon.AS_BUILT)
    for pin, a, b, _ in ribbon.table(ribbon.AS_BUILT):
        # a supply meets only itself; no LED data line meets a supply
        assert (ribbon.KIND[a] == "supply") == (ribbon.KIND[b] == "supply"), pin
        assert ribbon.KIND[a] != "supply" or a == b, pin


def test_the_dice_header_turned_round_is_the_same_header() -> None:
    assert ribbon.DICE == ribbon.DICE[::-1]
    assert ribbon.harmless(ribbon.DICE)


def test_the_strip_header_carries_every_net_and_buses_by_rows() -> None:
    assert set(ribbon.AS_BUILT) == set(ribbon.BEFORE) == set(ribbon.KIND) - {"BTN"}
    assert ribbon.AS_BUILT.count("+5V") == 4 and ribbon.AS_BUILT.count("GND") == 4
    # every header row (pins 2k - 1, 2k) but the middle two is one net: the controller buses it
    mixed = [k for k in range(10) if ribbon.AS_BUILT[2 * k] != ribbon.AS_BUILT[2 * k + 1]]
    assert mixed == [4, 5]
    assert {ribbon.AS_BUILT[2 * k] for k in range(10) if k not in mixed} == {"+5V", "GND", "S0", "S1", "S2", "S3"}


def test_the_led_data_lines_need_a_resistor_at_the_strips_output_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # circuit.py puts 330 ohm at the LED's data output (R3) as at its input (R2): without it a
    # ribbon turned round drives the strip's DO against the controller's LED line
    monkeypatch.setattr(ribbon, "LIMITED", frozenset({"DI"}))
    assert not ribbon.harmless(ribbon.AS_BUILT)
    assert ribbon.verdict("DI", "DO", ribbon.AS_BUILT).startswith("harmful")


def test_the_multiplexer_is_off_only_when_its_enable_meets_an_input() -> None:
    # the order puts the strip's /E on the controller's ADC input: pulled up, SIG off
    assert ribbon.verdict("/E", "SIG", ribbon.AS_BUILT).startswith("harmless")
    # were /E mirrored onto a select line the multiplexer could turn on against the controller
    other = list(ribbon.AS_BUILT)
    other[9], other[4] = "S0", "/E"
    assert ribbon.verdict("S0", "SIG", other).startswith("harmful")


def _courtyard_x(name: str) -> tuple[float, float]:
    text = (IDC / f"{name}.kicad_mod").read_text(encoding="utf-8")  # Debian's kicad-footprints: fails if missing
    assert "DIN 41651" in text
    xs = [float(v) for line in re.findall(r'\(fp_line \(start [^)]*\) \(end [^)]*\) \(layer "F.CrtYd"\)', text)
          for v in re.findall(r"(?:start|end) (-?[\d.]+)", line)]
    return min(xs), max(xs)


def test_the_box_headers_are_kicad_6s_and_28_fit_in_305_mm() -> None:
    assert circuit.FOOTPRINT["idc20"] == "Connector_IDC:IDC-Header_2x10_P2.54mm_Vertical"
    assert circuit.FOOTPRINT["idc8"] == "Connector_IDC:IDC-Header_2x04_P2.54mm_Vertical"
    low, high = _courtyard_x("IDC-Header_2x10_P2.54mm_Vertical")
    assert high - low == pytest.approx(9.9, abs=0.01)
    pitch = 10.795  # the controller's step (hardware/boards.py): the silkscreen's pin-1 arrow clear
    assert 27 * pitch + (high - low) < 305
