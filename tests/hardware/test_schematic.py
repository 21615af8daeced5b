"""hardware/schematic.py: the KiCad 6 schematic writer's pieces, on KiCad 6's own symbol
libraries (KiCad's ERC of the written schematics: tests/hardware/test_kicad.py).  The
libraries missing is a failure (tools/test-services installs kicad-symbols)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import schematic  # noqa: E402

SYMBOLS = Path("/usr/share/kicad/symbols")


@pytest.fixture(scope="module")
def library() -> schematic.Library:
    if not (SYMBOLS / "Regulator_Linear.kicad_sym").exists():
        pytest.fail("KiCad 6's symbol libraries are missing: run tools/test-services (apt-get install kicad-symbols)")
    return schematic.Library(SYMBOLS)


def test_parse_and_dump_round_trip() -> None:
    text = '(a "b \\"c\\"" (d 1.27 -2) hide (e (f)))'
    tree = schematic.parse(text)
    assert tree == ["a", '"b \\"c\\""', ["d", "1.27", "-2"], "hide", ["e", ["f"]]]
    assert schematic.parse(schematic.dump(tree)) == tree
    assert schematic.unq(tree[1]) == 'b "c"' and schematic.q('b "c"') == tree[1]


def test_a_derived_symbol_is_flattened_as_kicad_embeds_it(library: schematic.Library) -> None:
    sym = library.symbol("Regulator_Linear", "MCP1700x-330xxTT")  # extends MCP1700x-300xxTT
    assert sym[1] == '"Regulator_Linear:MCP1700x-330xxTT"'
    assert not any(isinstance(x, list) and x[0] == "extends" for x in sym)
    values = [x[2] for x in sym if isinstance(x, list) and x[0] == "property" and x[1] == '"Value"']
    assert values == ['"MCP1700x-330xxTT"']  # the child's own properties
    assert ["in_bom", "yes"] in sym and ["pin_names", ["offset", "0.254"]] in sym  # the parent's flags
    units = schematic.units_of(sym)
    assert list(units) == [1] and sorted(p["number"] for p in units[1]) == ["1", "2", "3"]


def test_a_multi_unit_symbol_places_every_unit_with_its_own_pins(library: schematic.Library) -> None:
    units = schematic.units_of(library.symbol("74xx", "74LS125"))
    assert list(units) == [1, 2, 3, 4, 5]  # four buffers and the power unit
    assert sorted(p["number"] for p in units[5]) == ["14", "7"]
    assert all(len(units[u]) == 3 for u in range(1, 5))


def test_a_drawn_symbol_has_every_pin_with_its_type() -> None:
    sym = schematic.drawn_symbol("Thing", [("1", "A", "input"), ("2", "GND", "power_in"), ("3", "B", "output")])
    assert sym[1] == '"bgboard:Thing"'
    pins = schematic.units_of(sym)[1]
    assert [(p["number"], p["type"]) for p in pins] == [("1", "input"), ("2", "power_in"), ("3", "output")]
    assert {p["angle"] for p in pins} == {0, 180}  # left side and right side
