"""The boards against the fab's rules, checked by KiCad 6 itself (issue 32): no via in any SMD
pad, the fab's published capabilities as each board's design rules (a ``.kicad_dru`` KiCad's
DRC loads), a ground pour on both layers filled before the DRC, silkscreen text the fab prints.
The boards come from the one build of tests/hardware/test_kicad.py; KiCad missing is a failure.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardware.test_kicad import BOARDS, DEBIAN_PYTHON, HANG_S, HARDWARE, built  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow
sys.path.insert(0, str(HARDWARE))

# A via planted in the VCC pad (pad 1) of a strip's first sensor, then KiCad's DRC: run under
# Debian's python3 (pcbnew).  Prints the report.
PLANT = """
import sys, pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
pad = [p for p in board.FindFootprintByReference("U1").Pads() if p.GetNumber() == "1"][0]
via = pcbnew.PCB_VIA(board)
via.SetPosition(pad.GetPosition())
via.SetWidth(pcbnew.FromMM(0.6))
via.SetDrill(pcbnew.FromMM(0.3))
via.SetNet(pad.GetNet())
via.SetViaType(pcbnew.VIATYPE_THROUGH)
via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
board.Add(via)
pcbnew.WriteDRCReport(board, sys.argv[2], pcbnew.EDA_UNITS_MILLIMETRES, True)
print(open(sys.argv[2]).read())
"""


def drc(built) -> dict[str, dict]:
    out, _ = built
    return {r["board"]: r for r in json.loads((out / "drc.json").read_text())}


@pytest.mark.parametrize("board", BOARDS)
def test_no_via_in_any_smd_pad(built, board: str) -> None:
    """The issue counted about 950 vias in SMD pads across the set (every sensor's VCC pad,
    every 100 nF); the router now keeps vias out of every SMD part's courtyard."""
    result = drc(built)[board]
    assert result["vias"] > 0  # the boards still change layers, elsewhere
    assert result["vias_in_smd_pads"] == 0


@pytest.mark.parametrize("board", BOARDS)
def test_every_project_carries_the_fabs_rules(built, board: str) -> None:
    import fab_rules

    out, _ = built
    rules = (out / "work" / f"{board}.kicad_dru").read_text()
    assert rules.startswith("(version 1)\n")
    for constraint, value in (("track_width", fab_rules.TRACK_MIN), ("clearance", fab_rules.CLEARANCE_MIN),
                              ("edge_clearance", fab_rules.EDGE_CLEARANCE_MIN), ("hole_size", fab_rules.VIA_DRILL_MIN),
                              ("via_diameter", fab_rules.VIA_DIAMETER_MIN), ("annular_width", fab_rules.ANNULAR_MIN),
                              ("hole_to_hole", fab_rules.HOLE_TO_HOLE_NETS_MIN)):
        found = re.findall(rf"\(constraint {constraint} \(min ([\d.]+)mm\)\)", rules)
        assert any(float(v) == pytest.approx(value, abs=1e-3) for v in found), constraint
    # every surface-mount part's courtyard is closed to vias: the sensors, their capacitors...
    disallow = next(line for line in rules.splitlines() if "(constraint disallow via)" in line)
    smd = set(re.findall(r"A\.insideCourtyard\('([^']+)'\)", disallow))
    parts = set(re.findall(r'\(fp_text reference "([^"]+)"', (out / "work" / f"{board}.kicad_pcb").read_text()))
    assert smd and smd <= parts
    if board.startswith("strip"):
        assert {"U1", "C1", "U20", "U30", "D1"} <= smd
    assert not any(ref.startswith("H") or ref == "J1" for ref in smd)  # holes and through-hole headers aside


def test_a_via_in_a_pad_fails_kicads_own_drc(built, tmp_path: Path) -> None:
    """A via planted in a sensor's VCC pad: KiCad's DRC with the board's rule file reports it;
    without the file (KiCad's default rules) it does not, which is why the file is there."""
    out, _ = built
    for suffix in (".kicad_pcb", ".kicad_pro", ".kicad_dru"):
        shutil.copy(out / "work" / f"strip5{suffix}", tmp_path / f"strip5{suffix}")

    def report() -> str:
        run = subprocess.run([DEBIAN_PYTHON, "-c", PLANT, str(tmp_path / "strip5.kicad_pcb"), str(tmp_path / "r.rpt")],
                             capture_output=True, text=True, timeout=HANG_S)
        assert run.returncode == 0, run.stderr
        return run.stdout

    with_rules = report()
    assert "[items_not_allowed]" in with_rules and "Rule: no via in an SMD part; Severity: error" in with_rules
    assert not re.search(r"\*\* Found 0 DRC violations", with_rules)
    (tmp_path / "strip5.kicad_dru").unlink()
    assert "no via in an SMD part" not in report()


@pytest.mark.parametrize("board", BOARDS)
def test_a_filled_ground_pour_on_both_layers(built, board: str) -> None:
    out, _ = built
    pcb = (out / "work" / f"{board}.kicad_pcb").read_text()
    ground = re.search(r'\(net (\d+) "GND"\)', pcb)
    assert ground
    starts = [m for m in re.finditer(r'\n  \(zone \(net \d+\) \(net_name "([^"]+)"\) \(layer "([^"]+)"\)', pcb)]
    ends = [m.start() for m in starts[1:]] + [len(pcb)]
    layers = {m.group(2) for m, end in zip(starts, ends) if m.group(1) == "GND" and "(filled_polygon" in pcb[m.end():end]}
    assert layers == {"F.Cu", "B.Cu"}


@pytest.mark.parametrize("board", BOARDS)
def test_silkscreen_text_is_as_large_as_the_fab_prints(built, board: str) -> None:
    """1.0 mm high, 0.15 mm strokes at least (KiCad 6's rules cannot check it: the build does)."""
    import fab_rules

    out, _ = built
    assert drc(built)[board]["small_silkscreen_text"] == []
    pcb = (out / "work" / f"{board}.kicad_pcb").read_text()
    texts = re.findall(r'\(gr_text "[^"]*" [^\n]*\(layer "F\.SilkS"\)[^\n]*\n\s*\(effects \(font \(size ([\d.]+) '
                       r'([\d.]+)\) \(thickness ([\d.]+)\)', pcb)
    assert texts
    for w, h, stroke in texts:
        assert float(h) >= fab_rules.SILK_TEXT_HEIGHT_MIN and float(stroke) >= fab_rules.SILK_TEXT_STROKE_MIN
