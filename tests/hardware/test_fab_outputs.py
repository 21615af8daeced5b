"""The fab files as a fab assembles them without hand fixing (issue 32): Gerbers and
pick-and-place in one origin (the CPL read against the board outline the Gerbers draw, read
back with gerbonara), the assembly fab's rotation offsets from the documented table, an LCSC
and a manufacturer part number on every assembled part, identical parts on one BOM line,
footprints that fit their parts, a power input rated for the worst case with its mate in the
BOM.  The boards come from the one build of tests/hardware/test_kicad.py.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from tests.hardware.test_kicad import BOARDS, HARDWARE, built, smd_parts  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open(newline="")))


def placements(out: Path, board: str) -> dict[str, tuple[str, float, float, float]]:
    """Each footprint of the saved board: ref -> (library:name, x, y, KiCad's rotation), page mm."""
    pcb = (out / "work" / f"{board}.kicad_pcb").read_text()
    found = {}
    for chunk in pcb.split("\n  (footprint ")[1:]:
        head = re.match(r'"([^"]+)".*?\(at ([-\d.]+) ([-\d.]+)(?: ([-\d.]+))?\)', chunk, re.S)
        ref = re.search(r'\(fp_text reference "([^"]+)"', chunk)
        if head and ref:
            found[ref.group(1)] = (head.group(1), float(head.group(2)), float(head.group(3)), float(head.group(4) or 0))
    return found


@pytest.mark.parametrize("board", BOARDS)
def test_every_placement_falls_inside_the_outline_the_gerbers_draw(built, board: str) -> None:
    """The Gerbers and the CPL share one origin: the board's bottom-left corner."""
    from gerbonara import GerberFile
    from gerbonara.utils import MM

    out, _ = built
    (x0, y0), (x1, y1) = GerberFile.open(out / board / "gerber" / f"{board}-EdgeCuts.gm1").bounding_box(MM)
    assert abs(x0) < 0.1 and abs(y0) < 0.1  # the outline itself starts at the origin
    cpl = rows(out / board / f"{board}-cpl.csv")
    assert cpl
    for r in cpl:
        x, y = float(r["Mid X"]), float(r["Mid Y"])
        assert x0 < x < x1 and y0 < y < y1, r
    # and the same spots as on the board: x from the left edge, y up from the bottom edge
    where = placements(out, board)
    u = [r for r in cpl if r["Designator"] in where]
    first = u[0]
    _, px, py, _ = where[first["Designator"]]
    for r in u[1:]:
        _, qx, qy, _ = where[r["Designator"]]
        assert float(r["Mid X"]) - float(first["Mid X"]) == pytest.approx(qx - px, abs=0.01)
        assert float(r["Mid Y"]) - float(first["Mid Y"]) == pytest.approx(py - qy, abs=0.01)


def rotation_table() -> list[tuple[re.Pattern, float]]:
    with open(HARDWARE / "jlcpcb_rotations.csv", newline="") as f:
        reader = csv.reader(f)
        next(reader)
        return [(re.compile(r[0]), float(r[4])) for r in reader]


@pytest.mark.parametrize("board", BOARDS)
def test_rotations_carry_the_fabs_offsets_from_the_table(built, board: str) -> None:
    out, _ = built
    table = rotation_table()
    where = placements(out, board)
    corrected = 0
    for r in rows(out / board / f"{board}-cpl.csv"):
        footprint, _, _, kicad = where[r["Designator"]]
        offset = next((angle for pattern, angle in table if pattern.match(footprint)), 0.0)
        assert float(r["Rotation"]) == pytest.approx((kicad + offset) % 360, abs=0.01), (r, footprint)
        corrected += offset != 0
    assert corrected  # every board carries a SOT-23, SOIC or WS2812B


def test_the_rotation_table_names_the_packages_the_fab_turns() -> None:
    """SOT-23 180, SOIC 270, WS2812B 180 (the table JLCPCB's tools keep, hardware/README.md)."""
    table = rotation_table()

    def offset(footprint: str) -> float:
        return next((angle for pattern, angle in table if pattern.match(footprint)), 0.0)

    assert offset("Package_TO_SOT_SMD:SOT-23") == 180
    assert offset("Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm") == 270
    assert offset("Package_SO:SOIC-14_3.9x8.7mm_P1.27mm") == 270
    assert offset("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm") == 180
    assert offset("Capacitor_SMD:C_0603_1608Metric") == 0


@pytest.mark.parametrize("board", BOARDS)
def test_every_assembled_part_has_an_lcsc_and_a_manufacturer_part_number(built, board: str) -> None:
    out, _ = built
    bom = rows(out / board / f"{board}-bom.csv")
    lcsc = {r["mpn"]: r for r in rows(HARDWARE / "lcsc.csv")}
    assert sorted(ref for r in bom for ref in r["Designator"].split(",")) == sorted(smd_parts(out, board))
    for r in bom:
        assert re.fullmatch(r"C\d+", r["LCSC"]), r
        assert r["Manufacturer"] and r["Manufacturer Part"], r
        assert lcsc[r["Manufacturer Part"]]["lcsc"] == r["LCSC"], r  # one place for the number
        assert int(r["Quantity"]) == len(r["Designator"].split(","))
    # identical parts on one line: no LCSC number on two lines
    assert len({r["LCSC"] for r in bom}) == len(bom)


def test_every_part_number_is_a_real_one_and_in_the_bom(built) -> None:
    """No made-up "PH 1x12 2.54 mm" or "WS2812B-5050": every part of every board names the
    maker's part number, which hardware/bom.csv lists for purchase."""
    from netlist import read_netlist

    out, _ = built
    bought = {r["part_number"] for r in rows(HARDWARE / "bom.csv")}
    for board in BOARDS:
        for ref, part in read_netlist(out / "work" / "nets" / f"{board}.net").parts.items():
            assert part["mpn"] in bought, (board, ref, part["mpn"])
            assert not re.search(r"\d mm$|-5050$", part["mpn"]), (board, ref, part["mpn"])


def test_the_controllers_strip_headers_are_one_part(built) -> None:
    from netlist import read_netlist

    out, _ = built
    parts = read_netlist(out / "work" / "nets" / "controller.net").parts
    headers = {(p["value"], p["footprint"], p["mpn"]) for ref, p in parts.items()
               if p["footprint"].endswith("IDC-Header_2x10_P2.54mm_Vertical")}
    assert len(headers) == 1
    assert sum(p["footprint"].endswith("IDC-Header_2x10_P2.54mm_Vertical") for p in parts.values()) == 28


def test_the_dice_button_footprint_fits_its_part(built) -> None:
    """The Omron B3F-1000 is a 6 x 6 mm switch with pins 6.5 x 4.5 mm apart: the 6 mm footprint
    (the B3F-4055 named before is 12 x 12 mm)."""
    from netlist import read_netlist

    out, _ = built
    button = read_netlist(out / "work" / "nets" / "dice.net").parts["SW1"]
    assert button["mpn"] == "B3F-1000"
    assert button["footprint"].startswith("Button_Switch_THT:SW_PUSH_6mm")
    pcb = (out / "work" / "dice.kicad_pcb").read_text()
    chunk = next(c for c in pcb.split("\n  (footprint ")[1:] if '(fp_text reference "SW1"' in c)
    pads = {(float(x), float(y)) for x, y in re.findall(r'\(pad "\d" thru_hole circle \(at ([-\d.]+) ([-\d.]+)', chunk)}
    xs, ys = sorted({x for x, _ in pads}), sorted({y for _, y in pads})
    assert {round(xs[-1] - xs[0], 2), round(ys[-1] - ys[0], 2)} == {6.5, 4.5}


def test_the_power_input_is_rated_for_the_worst_case_and_its_mate_is_in_the_bom(built) -> None:
    """3.5 A worst case (hardware/README.md, "Power budget"): a Phoenix MKDS 1,5 screw terminal
    (the JST-XH before was rated 3 A), and the supply's 5.5 x 2.1 mm plug has its mate, a jack
    to screw terminal adapter, in the BOM."""
    from netlist import read_netlist

    out, _ = built
    j30 = read_netlist(out / "work" / "nets" / "controller.net").parts["J30"]
    assert j30["mpn"] == "1715721" and "MKDS-1,5-2-5.08" in j30["footprint"]
    bom = {r["part_number"]: r for r in rows(HARDWARE / "bom.csv")}
    assert "1715721" in bom and "B2B-XH-A" not in bom
    assert "5.5 x 2.1 mm plug" in bom["368"]["notes"]


# Heights above the board, mm (datasheets): TI DRV5055 in SOT-23 (DBZ), 1.12 mm at most; a
# 0603 ceramic capacitor (Yageo CC0603, Samsung CL10 ...8: 0.8 mm thick), 0.9 mm at most.
HEIGHT_MM = {"Package_TO_SOT_SMD:SOT-23": 1.12, "Capacitor_SMD:C_0603_1608Metric": 0.9}


@pytest.mark.parametrize("board", ("strip4", "strip5"))
def test_the_sensing_face_holds_only_the_sensors_and_parts_no_taller(built, board: str) -> None:
    """The strips' front (under the playing surface) carries the hall sensors and their 100 nF,
    nothing taller than a sensor, and the LED, which rises into its window in the surface
    (tests/hardware/test_strip_plan.py holds it under the model's window); the multiplexer,
    regulator, their parts and the header (entering from the back) are on the back, so the
    sensors can touch the surface (issue 32, finding 2)."""
    out, _ = built
    pcb = (out / "work" / f"{board}.kicad_pcb").read_text()
    sides = {}
    for chunk in pcb.split("\n  (footprint ")[1:]:
        head = re.match(r'"([^"]+)" \(layer "([FB])\.Cu"\)', chunk)
        ref = re.search(r'\(fp_text reference "([^"]+)"', chunk)
        if head and ref and not ref.group(1).startswith("H"):
            sides[ref.group(1)] = (head.group(2), head.group(1))
    sensors = int(board[5:]) * 2
    front = {ref for ref, (side, _) in sides.items() if side == "F"}
    assert front == {f"U{j + 1}" for j in range(sensors)} | {f"C{j + 1}" for j in range(sensors)} | {"D1"}
    assert all(HEIGHT_MM[sides[ref][1]] <= HEIGHT_MM["Package_TO_SOT_SMD:SOT-23"] for ref in front - {"D1"})
    assert {"U20", "U30", "J1", "C32", "R2", "R3"} <= {ref for ref, (side, _) in sides.items() if side == "B"}
    cpl = {r["Designator"]: r["Layer"] for r in rows(out / board / f"{board}-cpl.csv")}
    assert cpl["U1"] == "T" and cpl["U20"] == "B" and cpl["D1"] == "T"
