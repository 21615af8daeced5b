"""hardware/: the BOM agrees with the TOML files, and the picture is drawn from them."""

from __future__ import annotations

import csv
import sys
import tomllib

import pytest
from PIL import Image

from bgboard.hardware.physics import load_design

from fwrun import ROOT

sys.path.insert(0, str(ROOT / "hardware"))
import draw  # noqa: E402

PINS = tomllib.loads((ROOT / "hardware/pins.toml").read_text())
GRID = tomllib.loads((ROOT / "hardware/grid.toml").read_text())
ROWS = list(csv.DictReader((ROOT / "hardware/bom.csv").open()))
#: every sensor: (its slot, its part, mux, channel)
SENSORS = [(s, k, m, c) for s in GRID["slot"] for k, (m, c) in enumerate(draw.sensors_of(s))]
PER_SLOT = len(draw.sensors_of(GRID["slot"][0]))


def quantity(part: str) -> int:
    return next(int(r["quantity"]) for r in ROWS if r["part_number"] == part)


def test_bom_totals_add_up() -> None:
    parts, total = ROWS[:-1], ROWS[-1]
    for r in parts:
        assert abs(int(r["quantity"]) * float(r["unit_price_usd"]) - float(r["total_usd"])) < 0.005, r
        assert r["manufacturer"] and r["part_number"]
    assert total["item"] == "TOTAL"
    assert abs(sum(float(r["total_usd"]) for r in parts) - float(total["total_usd"])) < 0.005


def test_bom_quantities_match_the_grid_and_pins() -> None:
    sensor = tomllib.loads((ROOT / "hardware/sensing.toml").read_text())["sensor"]["name"]
    assert quantity(f"{sensor}QDBZR") == len(SENSORS)  # the sensor of sensing.toml
    assert quantity("CD74HC4067M96") == PINS["pico"]["mux"]["count"]
    assert quantity("WS2812B-B/W") == PINS["pico"]["leds"]["count"]
    assert quantity("1479") == 3 * len(PINS["pi"]["buttons"])
    magnet = tomllib.loads((ROOT / "hardware/sensing.toml").read_text())["magnet"]
    size = f"{magnet['diameter_mm']:g}x{magnet['thickness_mm']:g} {magnet['grade']}"
    per_checker = load_design(ROOT / "hardware/sensing.toml").magnet_count  # the discs of one checker
    assert per_checker == 19
    # the discs of sensing.toml, 19 in each of 30 checkers, and up to a tenth more as spares
    assert 30 * per_checker <= quantity(f"NdFeB disc {size}") <= 33 * per_checker


def test_the_prototypes_order_adds_up_at_the_boms_prices() -> None:
    """hardware/prototype.md's order: its rows sum to its total, and the magnets (ten checkers'
    discs and spares) and the inserts' PLA cost what bom.csv's unit prices make them."""
    text = (ROOT / "hardware/prototype.md").read_text()
    table = text[text.index("| part | how many | USD |"):]
    rows = [line.strip("|").split("|") for line in table[:table.index("\n\n")].splitlines()[2:]]
    cells = {part.strip(): (count.strip(), float(usd.strip().strip("*"))) for part, count, usd in rows}
    total = cells.pop("**total**")[1]
    assert sum(usd for _, usd in cells.values()) == pytest.approx(total, abs=0.005)
    unit = {r["part_number"]: float(r["unit_price_usd"]) for r in ROWS[:-1]}
    per_checker = load_design(ROOT / "hardware/sensing.toml").magnet_count
    discs = next(v for k, v in cells.items() if "NdFeB discs" in k)
    assert 10 * per_checker <= int(discs[0]) <= 11 * per_checker
    assert discs[1] == pytest.approx(int(discs[0]) * unit["NdFeB disc 2x1 N38"], abs=0.005)
    pla = next(v for k, v in cells.items() if k.startswith("PLA"))
    assert pla[1] == pytest.approx(int(pla[0].removesuffix(" g")) * unit["PLA filament 1.75 mm"], abs=0.005)


def test_grid_fits_the_multiplexers() -> None:
    mux = PINS["pico"]["mux"]
    channels = {(m, c) for _, _, m, c in SENSORS}
    assert len(channels) == len(SENSORS)
    assert all(0 <= m < mux["count"] and 0 <= c < mux["channels"] for m, c in channels)


def test_every_slot_is_drawn_in_its_multiplexers_colour() -> None:
    image = draw.render(*draw.load())
    spots = set()
    for slot, part, mux, _ in SENSORS:
        x, y = draw.slot_xy(slot["place"], slot["index"] + part / PER_SLOT)
        assert image.getpixel((x, y + 8)) == draw.MUX_COLOURS[mux], slot
        spots.add((x, y))
    assert len(spots) == len(SENSORS)  # no two sensors drawn on the same spot


def test_committed_picture_is_up_to_date() -> None:
    committed = Image.open(ROOT / "hardware/layout.png").convert("RGB")
    assert committed.tobytes() == draw.render(*draw.load()).tobytes()
