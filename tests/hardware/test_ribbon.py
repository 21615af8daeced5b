"""A strip's cable turned round at one end (issue 32): the header as built shorts the supply and
puts ground on the LED data line; the keyed order (hardware/ribbon.py) hurts nothing, pin by pin,
and its boxed header is KiCad 6's own footprint, whose courtyard sets the controller's new block."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import ribbon  # noqa: E402

FOOTPRINT = Path("/usr/share/kicad/footprints/Connector_IDC.pretty/IDC-Header_2x08_P2.54mm_Vertical.kicad_mod")


def test_the_header_as_built_is_harmful_turned_round() -> None:
    rows = {pin: (a, b, v) for pin, a, b, v in ribbon.table(ribbon.AS_BUILT)}
    assert rows[1] == ("+5V", "GND", "harmful: +5V on GND, a short of the supply")
    assert rows[3][2].startswith("harmful") and rows[3][:2] == ("DO", "GND")  # the LED data line on ground
    assert not ribbon.harmless(ribbon.AS_BUILT)
    assert sum(v.startswith("harmful") for *_, v in ribbon.table(ribbon.AS_BUILT)) == 7  # all but the select lines and SIG meeting DI


def test_the_keyed_order_is_harmless_turned_round() -> None:
    assert ribbon.harmless(ribbon.KEYED)
    for pin, a, b, v in ribbon.table(ribbon.KEYED):
        # a supply meets only itself; no LED data line meets a supply
        assert (ribbon.KIND[a] == "supply") == (ribbon.KIND[b] == "supply"), pin
        assert ribbon.KIND[a] != "supply" or a == b, pin


def test_the_keyed_order_carries_every_net_and_guards_the_analog_line() -> None:
    assert set(ribbon.KEYED) == set(ribbon.AS_BUILT) == set(ribbon.KIND)
    assert ribbon.KEYED.count("+5V") == 2 and ribbon.KEYED.count("GND") == 6
    for net in ("SIG", "/E"):  # each between two grounds on the ribbon
        k = ribbon.KEYED.index(net)
        assert ribbon.KEYED[k - 1] == ribbon.KEYED[k + 1] == "GND", net


def test_the_led_data_lines_need_a_resistor_at_the_strips_output_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ribbon, "LIMITED", frozenset({"DI"}))
    assert not ribbon.harmless(ribbon.KEYED)
    assert ribbon.verdict("DI", "DO", ribbon.KEYED).startswith("harmful")


def test_the_multiplexer_is_off_only_when_its_enable_meets_an_input() -> None:
    # the keyed order puts the strip's /E on the controller's ADC input: pulled up, SIG off
    assert ribbon.verdict("/E", "SIG", ribbon.KEYED).startswith("harmless")
    # were /E mirrored onto a select line the multiplexer could turn on against the controller
    other = list(ribbon.KEYED)
    other[ribbon.KEYED.index("SIG")], other[ribbon.KEYED.index("S1")] = "S1", "SIG"
    assert ribbon.verdict("S2", "SIG", other).startswith("harmful")


def test_the_boxed_header_is_kicad_6s_and_28_fit_290_mm() -> None:
    text = FOOTPRINT.read_text(encoding="utf-8")  # Debian's kicad-footprints: fails if it is missing
    assert "DIN 41651" in text
    assert len(re.findall(r'\(pad "\d+" thru_hole', text)) == len(ribbon.KEYED)
    xs = [float(x) for x in re.findall(r'\(fp_line \(start (-?[\d.]+) -?[\d.]+\) \(end -?[\d.]+ -?[\d.]+\) \(layer "F.CrtYd"\)', text)]
    xs += [float(x) for x in re.findall(r'\(fp_line \(start -?[\d.]+ -?[\d.]+\) \(end (-?[\d.]+) -?[\d.]+\) \(layer "F.CrtYd"\)', text)]
    width = max(xs) - min(xs)
    assert width == pytest.approx(9.9, abs=0.01)
    pitch = 10.16  # four grid steps: the next courtyard 0.26 mm clear
    assert 27 * pitch + width < 290
