"""The fab's published capabilities as the boards' design rules, in KiCad 6's own terms.

Every board hardware/boards.py builds gets, beside its ``NAME.kicad_pcb``, a custom rule file
``NAME.kicad_dru`` (KiCad 6 syntax, which pcbnew's DRC loads with the board), so that KiCad's
own DRC -- not a check of ours -- fails on:

* a via in or under any SMD part: ``(constraint disallow via)`` inside the courtyard of every
  footprint whose pads are all surface-mount.  A via in an SMD pad wicks solder away in
  reflow unless it is filled and capped (an extra process); KiCad's default rules do not
  flag one, because the via and the pad are of one net.  KiCad 6 has no rule on a pad itself
  (``physical_hole_clearance`` came with KiCad 7), so the rule keeps vias out of the part's
  courtyard, which holds its pads;
* anything finer than the fab makes (``FAB`` below): track width, copper clearance, copper to
  the board edge, drill, via diameter and annular ring, hole to hole.

KiCad 6's rules cannot check text sizes (``text_height`` and ``text_thickness`` came with
KiCad 7): :func:`small_silkscreen_text` lists the silkscreen texts below the fab's minimum,
and hardware/boards.py refuses a board with any.

:func:`pour` adds the ground pour on both copper layers, filled (by KiCad's zone filler)
before the DRC runs.

Runs under Debian's python3 (pcbnew), imported by hardware/boards.py.
"""

from __future__ import annotations

from pathlib import Path

try:
    import pcbnew
except ImportError:  # the figures alone, for the tests under the project's own Python
    pcbnew = None  # type: ignore[assignment]

# JLCPCB, "PCB Capabilities", standard 1-2 layer FR-4, 1 oz outer copper (the figures of its
# capability page; REFERENCE: "Boards a fab assembles as sent").  Millimetres.
FAB = "JLCPCB standard 2-layer FR-4, 1 oz"
TRACK_MIN = 0.127  # minimum trace width (5 mil)
CLEARANCE_MIN = 0.127  # minimum spacing between copper of two nets (5 mil)
EDGE_CLEARANCE_MIN = 0.3  # copper to the routed board edge
VIA_DRILL_MIN = 0.3  # 1-2 layer boards: smallest via hole
VIA_DIAMETER_MIN = 0.6  # 1-2 layer boards: smallest via pad
ANNULAR_MIN = (VIA_DIAMETER_MIN - VIA_DRILL_MIN) / 2  # 0.15 mm of copper round a via's hole
HOLE_TO_HOLE_MIN = 0.254  # two holes of one net, edge to edge
HOLE_TO_HOLE_NETS_MIN = 0.5  # two holes of different nets, edge to edge
SILK_TEXT_HEIGHT_MIN = 1.0  # silkscreen text height
SILK_TEXT_STROKE_MIN = 0.15  # silkscreen stroke width
# The ground pour (ours, wider than the fab's minimum: a pour's edge near a fine track is the
# usual place for a sliver): 0.3 mm from other nets, thermal spokes 0.5 mm wide.
POUR_CLEARANCE = 0.3
POUR_MIN_WIDTH = 0.25
POUR_SPOKE = 0.5
POUR_GAP = 0.5


def mm(v: float) -> int:
    return pcbnew.FromMM(v)


def is_smd(fp: pcbnew.FOOTPRINT) -> bool:
    """A footprint whose pads are all surface-mount (the parts reflow solders)."""
    pads = list(fp.Pads())
    return bool(pads) and all(p.GetAttribute() == pcbnew.PAD_ATTRIB_SMD for p in pads)


def courtyard(fp: pcbnew.FOOTPRINT) -> tuple[float, float, float, float]:
    """The box round a footprint's courtyard (both sides' courtyard layers), board mm."""
    boxes = [g.GetBoundingBox() for g in fp.GraphicalItems() if g.GetLayer() in (pcbnew.F_CrtYd, pcbnew.B_CrtYd)]
    if not boxes:  # a footprint without a courtyard: its pads
        boxes = [p.GetBoundingBox() for p in fp.Pads()]
    return (pcbnew.ToMM(min(b.GetX() for b in boxes)), pcbnew.ToMM(min(b.GetY() for b in boxes)),
            pcbnew.ToMM(max(b.GetRight() for b in boxes)), pcbnew.ToMM(max(b.GetBottom() for b in boxes)))


def design_rules(smd_refs: list[str]) -> str:
    """The text of a board's ``.kicad_dru``: the fab's limits and no via in an SMD part."""
    courtyards = " || ".join(f"A.insideCourtyard('{ref}')" for ref in sorted(smd_refs))
    lines = [
        "(version 1)",
        f"# {FAB}: the fab's published capabilities (hardware/fab_rules.py writes this file)",
        f'(rule "fab: track width" (constraint track_width (min {TRACK_MIN}mm)))',
        f'(rule "fab: copper clearance" (constraint clearance (min {CLEARANCE_MIN}mm)))',
        f'(rule "fab: copper to board edge" (constraint edge_clearance (min {EDGE_CLEARANCE_MIN}mm)))',
        f'(rule "fab: drill" (constraint hole_size (min {VIA_DRILL_MIN}mm)))',
        f'(rule "fab: via diameter" (constraint via_diameter (min {VIA_DIAMETER_MIN}mm)) (condition "A.Type == \'Via\'"))',
        f'(rule "fab: annular ring" (constraint annular_width (min {ANNULAR_MIN:.3f}mm)) (condition "A.Type == \'Via\'"))',
        f'(rule "fab: hole to hole" (constraint hole_to_hole (min {HOLE_TO_HOLE_MIN}mm)))',
        f'(rule "fab: hole to hole, two nets" (constraint hole_to_hole (min {HOLE_TO_HOLE_NETS_MIN}mm))'
        ' (condition "A.Net != B.Net"))',
        "# the ground pour keeps further from other nets than the fab needs",
        f'(rule "pour clearance" (constraint clearance (min {POUR_CLEARANCE}mm))'
        ' (condition "A.Type == \'Zone\' || B.Type == \'Zone\'"))',
        "# a via in an SMD pad wicks solder in reflow: none in any surface-mount part's courtyard",
    ]
    if courtyards:
        lines.append(f'(rule "no via in an SMD part" (constraint disallow via) (condition "{courtyards}"))')
    return "\n".join(lines) + "\n"


def apply(board: pcbnew.BOARD) -> None:
    """The fab's limits as the board's own design settings too (saved in its ``.kicad_pro``)."""
    ds = board.GetDesignSettings()
    ds.m_TrackMinWidth = mm(TRACK_MIN)
    ds.m_MinClearance = mm(CLEARANCE_MIN)
    ds.m_CopperEdgeClearance = mm(EDGE_CLEARANCE_MIN)
    ds.m_MinThroughDrill = mm(VIA_DRILL_MIN)
    ds.m_ViasMinSize = mm(VIA_DIAMETER_MIN)
    ds.m_ViasMinAnnularWidth = mm(ANNULAR_MIN)
    ds.m_HoleToHoleMin = mm(HOLE_TO_HOLE_MIN)


def write_rules(board: pcbnew.BOARD, pcb: Path) -> Path:
    """Write ``pcb``'s ``.kicad_dru`` for ``board``; its path."""
    rules = pcb.with_suffix(".kicad_dru")
    rules.write_text(design_rules([fp.GetReference() for fp in board.GetFootprints() if is_smd(fp)]))
    return rules


def pour(board: pcbnew.BOARD, net: pcbnew.NETINFO_ITEM, x0: float, y0: float, width: float, height: float) -> None:
    """A ground pour over the whole board on F.Cu and on B.Cu (pads joined by thermal spokes)."""
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        zone = pcbnew.ZONE(board)
        zone.SetLayer(layer)
        zone.SetNet(net)
        outline = zone.Outline()
        outline.NewOutline()
        for x, y in ((x0, y0), (x0 + width, y0), (x0 + width, y0 + height), (x0, y0 + height)):
            outline.Append(mm(x), mm(y))
        zone.SetLocalClearance(mm(POUR_CLEARANCE))
        zone.SetMinThickness(mm(POUR_MIN_WIDTH))
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        zone.SetThermalReliefSpokeWidth(mm(POUR_SPOKE))
        zone.SetThermalReliefGap(mm(POUR_GAP))
        zone.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        board.Add(zone)


def fill(board: pcbnew.BOARD) -> None:
    """Fill every zone (KiCad's zone filler, with the board's rules loaded)."""
    filler = pcbnew.ZONE_FILLER(board)
    filler.Fill(board.Zones())


def vias_in_smd_pads(board: pcbnew.BOARD) -> int:
    """How many (via, SMD pad) pairs overlap: the count of the issue's finding (0 on a board
    fit for a standard order)."""
    vias = [t for t in board.GetTracks() if t.GetClass() == "PCB_VIA"]
    return sum(1 for fp in board.GetFootprints() for pad in fp.Pads() if pad.GetAttribute() == pcbnew.PAD_ATTRIB_SMD
               for via in vias if pad.HitTest(via.GetPosition(), via.GetWidth() // 2))


def small_silkscreen_text(board: pcbnew.BOARD) -> list[str]:
    """Visible silkscreen texts below the fab's minimum height or stroke, each as one phrase."""
    texts = [d for d in board.GetDrawings() if d.GetClass() == "PTEXT"]
    for fp in board.GetFootprints():
        texts += [fp.Reference(), fp.Value()] + [g for g in fp.GraphicalItems() if g.GetClass() == "MTEXT"]
    small = []
    for t in texts:
        if t.GetLayer() not in (pcbnew.F_SilkS, pcbnew.B_SilkS) or not t.IsVisible():
            continue
        height, stroke = pcbnew.ToMM(t.GetTextHeight()), pcbnew.ToMM(t.GetTextThickness())
        if height < SILK_TEXT_HEIGHT_MIN - 1e-6 or stroke < SILK_TEXT_STROKE_MIN - 1e-6:
            small.append(f"'{t.GetText()}' {height:.2f} mm high, {stroke:.2f} mm stroke")
    return small
