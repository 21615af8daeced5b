"""Lay out, route and check the bgboard boards with KiCad 6's pcbnew (Debian's python3).

    /usr/bin/python3 hardware/boards.py --nets DIR --out DIR [--board NAME]

reads the netlists hardware/circuit.py wrote (``strip5.net``, ``strip4.net``, ``controller.net``,
``dice.net``), places every footprint by rule (the strips from hardware/strip_plan.py, the plan the
stack-up model is built from),
routes every net with hardware/router.py (no via in any SMD part's courtyard), adds the outline
(Edge.Cuts), mounting holes, silkscreen labels and the ground pour on both layers, saves
``NAME.kicad_pcb`` with its rule file ``NAME.kicad_dru`` (hardware/fab_rules.py: the fab's
capabilities), fills the pour and runs KiCad's own DRC (``pcbnew.WriteDRCReport``) into
``NAME-drc.rpt``.  hardware/build.py calls it and then writes the fab files.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pcbnew

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fab_rules  # noqa: E402  (hardware/ is not a package)
from circuit import DICE_PINOUT, HEADER_LEGEND, HEADER_PINOUT  # noqa: E402
import router as rt  # noqa: E402
import strip_plan  # noqa: E402

HARDWARE = Path(__file__).resolve().parent
FOOTPRINTS = Path("/usr/share/kicad/footprints")
ORIGIN = (50.0, 50.0)  # the boards' top-left corner on KiCad's page, mm
PLACES = tuple(str(p) for p in range(1, 25)) + ("bar-white", "bar-black", "off-white", "off-black")
POWER_NETS = {"+5V", "GND", "+3V3", "VSYS"}
TRUNK_MM = 2.0  # the controller's +5V and GND trunks (hardware/README.md, "Power budget")


from netlist import Netlist, read_netlist  # noqa: E402


# ------------------------------------------------------------------------------ footprints
def mm(v: float) -> int:
    return pcbnew.FromMM(v)


def point(x: float, y: float):
    return pcbnew.wxPointMM(x, y)


def pico_footprint(board: pcbnew.BOARD) -> pcbnew.FOOTPRINT:
    """The Raspberry Pi Pico as a through-hole module (its datasheet's 2 x 20 pins, 2.54 mm
    apart, rows 17.78 mm apart, board 21 x 51 mm); KiCad 6's library has none."""
    fp = pcbnew.FOOTPRINT(board)
    fp.SetFPID(pcbnew.LIB_ID("bgboard", "RaspberryPi_Pico"))
    for n in range(1, 41):
        pad = pcbnew.PAD(fp)
        pad.SetNumber(str(n))
        pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
        pad.SetShape(pcbnew.PAD_SHAPE_RECT if n == 1 else pcbnew.PAD_SHAPE_CIRCLE)
        pad.SetSize(pcbnew.wxSizeMM(1.7, 1.7))
        pad.SetDrillSize(pcbnew.wxSizeMM(1.0, 1.0))
        pad.SetLayerSet(pcbnew.PAD.PTHMask())
        x, y = (-8.89, -24.13 + (n - 1) * 2.54) if n <= 20 else (8.89, 24.13 - (n - 21) * 2.54)
        pad.SetPos0(point(x, y))
        pad.SetPosition(point(x, y))
        fp.Add(pad)
    for layer, half_w, half_h, width in ((pcbnew.F_SilkS, 10.5, 25.5, 0.15), (pcbnew.F_CrtYd, 10.75, 25.75, 0.05),
                                         (pcbnew.F_Fab, 10.5, 25.5, 0.1)):
        shape = pcbnew.FP_SHAPE(fp)
        shape.SetShape(pcbnew.SHAPE_T_RECT)
        shape.SetStart0(point(-half_w, -half_h))
        shape.SetEnd0(point(half_w, half_h))
        shape.SetLayer(layer)
        shape.SetWidth(mm(width))
        fp.Add(shape)
    usb = pcbnew.FP_TEXT(fp)
    usb.SetText("USB")
    usb.SetPos0(point(0, -23.5))
    usb.SetLayer(pcbnew.F_SilkS)
    usb.SetTextSize(pcbnew.wxSizeMM(1.2, 1.2))
    usb.SetTextThickness(mm(0.18))
    fp.Add(usb)
    return fp


_PLUGINS: dict[str, pcbnew.PLUGIN] = {}  # library path -> its reader, which keeps the library it read


def load_footprint(board: pcbnew.BOARD, name: str) -> pcbnew.FOOTPRINT:
    """A fresh copy of the library footprint ``name`` (``lib:footprint``).  One KiCad reader per
    library for the whole run: pcbnew.FootprintLoad makes a new one, which reads the whole
    ``.pretty`` directory again, on every call."""
    lib, fp_name = name.split(":")
    if name == "bgboard:RaspberryPi_Pico":
        return pico_footprint(board)
    path = str(FOOTPRINTS / f"{lib}.pretty")
    if path not in _PLUGINS:
        _PLUGINS[path] = pcbnew.IO_MGR.PluginFind(pcbnew.IO_MGR.GuessPluginTypeFromLibPath(path))
    fp = _PLUGINS[path].FootprintLoad(path, fp_name)
    if fp is None:
        raise SystemExit(f"boards.py: footprint {name} is not in {FOOTPRINTS} (apt-get install kicad-footprints)")
    fp.SetFPID(pcbnew.LIB_ID(lib, fp_name))  # library:name, as the fab's rotation table names it
    return fp


# ------------------------------------------------------------------------------ boards
@dataclass
class Layout:
    """Where each part goes: ref -> (x, y, rotation degrees), mm from the board's corner."""

    width: float
    height: float
    place: dict[str, tuple[float, float, float]]
    holes: list[tuple[float, float]]
    labels: list[tuple[str, float, float, float]]  # text, x, y, size
    grid: float = rt.GRID
    net_order: list[str] = field(default_factory=list)  # routed first, in this order
    keepouts: list[tuple[float, float, float, float]] = field(default_factory=list)
    # straight tracks laid before routing: (net, layer 0 F.Cu / 1 B.Cu, x1, y1, x2, y2, width)
    trunks: list[tuple[str, int, float, float, float, float, float]] = field(default_factory=list)
    back: set[str] = field(default_factory=set)  # parts on the back side (B.Cu), flipped in place


def layout_strip(nets: Netlist, slots: int) -> Layout:
    """A strip of two sensors per slot, laid out from hardware/strip_plan.py (the plan the
    stack-up model is built from: the strip's size, each part's place and face, the LED under
    the surface's window past the last slot); here the holes, the labels and the routing grid."""
    strip = strip_plan.plan(slots)
    pitch, mid, half = strip.pitch, strip.sensor_line, strip.pitch / 2
    holes = [(pitch * (k + 1) + half / 2, mid) for k in range(1, slots - 1, 2)]
    holes.append((strip.length - 4.5, 4.0))
    labels = [(f"{i}", (i + 0.5) * pitch + half / 4, mid - 3.2, 1.0) for i in range(slots)]
    labels.append((f"bgboard strip{slots}x2  POINT ____  pitch {pitch:g} mm", 2.5 * pitch, strip.width - 1.3, 1.0))
    labels.append(("J1: " + HEADER_LEGEND, 100.0, 1.3, 1.0))
    grid = (pitch / 4) / round((pitch / 4) / 0.475)
    # J1 (on the back, turned 90 degrees): pin 2k - 1 at (jx + (k - 1) 2.54, jy), pin 2k 2.54 mm
    # further in; the two pins of a row that share a net joined by a short track on the back,
    # its ends on the routing grid (within a quarter millimetre of the pads' centres)
    jx, jy, _ = strip.place["J1"]

    def snap(v: float) -> float:
        return round(v / grid) * grid

    trunks = []
    for net, pins in HEADER_PINOUT.items():
        for odd in (p for p in pins if p % 2 == 1 and p + 1 in pins):
            x = snap(jx + (odd - 1) // 2 * 2.54)
            width = rt.POWER.width if net in POWER_NETS else rt.SIGNAL.width
            trunks.append((net, 1, x, snap(jy), x, snap(jy + 2.54), width))
    return Layout(strip.length, strip.width, dict(strip.place), holes, labels, grid=grid,
                  net_order=["GND", "+3V3"], back=set(strip.back), trunks=trunks)


def layout_controller(nets: Netlist) -> Layout:
    """The 28 strip headers (keyed 2 x 10 box headers) upright in one row along the top (place
    order, 10.795 mm apart: their DIN 41651 courtyards are 9.9 mm wide, their silkscreen with
    the pin-1 arrow 10.51 mm), pin 1 at the top left, the
    Pico under them (turned so that its GP2-GP15 row faces them), the 5 V input at the right.
    Every header row but the middle two is one net (circuit.py's ``HEADER_PINOUT``), bused along
    the row by a straight track laid before routing (``trunks``): the +5V rows (1, 10) and the
    GND rows (2, 9) by 2 mm supply trunks (IPC-2221: 3.9 A for a 10 degree rise in 1 oz copper;
    the worst case is 3.5 A), joined at the left end and fed from the input, and the select rows
    (3, 4, 7, 8) by signal tracks; the middle rows (LED data, /E, SIG) are routed."""
    step = 10.795  # the next header's pin-1 arrow clear of this one's outline on the silkscreen
    x_first = 16.51  # pin 1's column of the first header; its courtyard 3.68 mm to the left
    top = 11.43  # pin 1's row: on the router's grid, so the buses run through the pads
    rows = max(max(pins) for pins in HEADER_PINOUT.values()) // 2
    row = [top + (n - 1) * 2.54 for n in range(rows + 1)]  # row[n]: pins 2n - 1 and 2n
    bus = {net: (pins[0] + 1) // 2 for net, pins in HEADER_PINOUT.items()}  # net -> its first row
    place: dict[str, tuple[float, float, float]] = {}
    for k in range(len(PLACES)):
        place[f"J{k + 1}"] = (x_first + k * step, top, 0)
    last = x_first + (len(PLACES) - 1) * step + 2.54  # the last header's even column
    x_in = last + 12.7  # J30, the screw terminal: pin 1 (+5V) on row 1, pin 2 (GND) 5.08 mm under it
    place["J30"] = (x_in, top, 270)
    place["C30"] = (x_in + 12.7, row[6], 270)  # + on top
    pico_y = row[rows] + 41.91  # room between the headers and the Pico for the ESD arrays
    pico_x = 76.2
    place["U1"] = (pico_x, pico_y, 270)  # pin 1 top right (the USB end to the right), pins 1-20 along the top
    # the ESD arrays (circuit.py: U10.. the LED chain's links four to an array, then S0-S3,
    # the enable, ADC and button lines): the links' under the headers they join, the rest in a
    # row over the Pico
    chained = (len(PLACES) + 1 + 3) // 4
    for m in range(chained):
        place[f"U{10 + m}"] = (x_first + (4 * m + 2) * step, row[rows] + 12.7, 90)
    for m in range((4 + 10 + 3 + 1 + 3) // 4):
        place[f"U{10 + chained + m}"] = (pico_x - 20.32 + m * 10.16, pico_y - 14.605, 90)
    place["R1"] = (pico_x + 35.56, pico_y - 5.08, 0)
    place["R2"] = (pico_x + 35.56, pico_y - 2.54, 0)
    place["R3"] = (pico_x + 35.56, pico_y + 0.0, 0)
    place["R5"] = (pico_x + 35.56, pico_y + 5.08, 0)  # the supply-sense divider
    place["R6"] = (pico_x + 35.56, pico_y + 7.62, 0)
    place["U2"] = (pico_x + 50.8, pico_y - 1.27, 0)
    place["R4"] = (pico_x + 50.8, pico_y + 8.89, 0)
    place["C32"] = (pico_x + 50.8, pico_y - 10.16, 0)
    place["J29"] = (pico_x + 76.2, pico_y - 3.81, 0)
    place["D1"] = (pico_x + 95.25, pico_y + 6.35, 0)
    width, height = x_in + 21.59, pico_y + 15.24
    holes = [(4.0, 4.0), (width - 4.0, 4.0), (4.0, height - 4.0), (width - 4.0, height - 4.0),
             (pico_x + 63.5, height - 4.0)]
    tags = {"bar-white": "BW", "bar-black": "BB", "off-white": "OW", "off-black": "OB"}
    labels = [(tags.get(p, p), x_first + 1.27 + k * step, top - 6.6, 1.0) for k, p in enumerate(PLACES)]
    labels.append(("strip headers: " + HEADER_LEGEND, 120, row[rows] + 7.0, 1.0))
    labels.append(("DICE: " + dice_legend(), pico_x + 76.2, pico_y - 11.0, 1.0))
    labels.append(("5V IN", x_in, top - 6.6, 1.0))
    labels.append(("bgboard controller", 40, height - 2.2, 1.2))
    left = x_first - 5.08  # the +5V rows' joint, left of the first header's courtyard
    gnd_left = x_first - 2.54  # the GND rows' joint, between it and the first header's pins
    v5_rows = HEADER_PINOUT["+5V"][::2]
    gnd_rows = HEADER_PINOUT["GND"][::2]
    r5 = [(p + 1) // 2 for p in v5_rows]
    rg = [(p + 1) // 2 for p in gnd_rows]
    trunks = [("+5V", 0, left, row[r5[0]], x_in, row[r5[0]], TRUNK_MM),
              ("+5V", 0, left, row[r5[1]], last, row[r5[1]], TRUNK_MM),
              ("+5V", 0, left, row[r5[0]], left, row[r5[1]], TRUNK_MM),
              ("GND", 0, gnd_left, row[rg[0]], last, row[rg[0]], TRUNK_MM),
              ("GND", 0, gnd_left, row[rg[1]], x_in, row[rg[1]], TRUNK_MM),
              ("GND", 0, gnd_left, row[rg[0]], gnd_left, row[rg[1]], TRUNK_MM),
              ("GND", 0, x_in, row[3], x_in, row[rg[1]], TRUNK_MM)]  # J30's pin 2 down to the lower GND row
    for i in range(4):
        first_row, second_row = bus[f"S{i}"], (HEADER_PINOUT[f"S{i}"][1] + 1) // 2
        assert first_row == second_row, "a select line's two pins share a header row"
        trunks.append((f"S{i}", 0, x_first, row[first_row], last, row[first_row], rt.SIGNAL.width))
    return Layout(width, height, place, holes, labels, grid=rt.GRID / 2, net_order=["GND", "+5V"], trunks=trunks)


def dice_legend() -> str:
    """The dice header's pins, for the silkscreen: "1,8 5V 2,7 GND ..." from circuit.py's ``DICE_PINOUT``."""
    return " ".join(f"{','.join(map(str, pins))} {net.lstrip('+')}" for net, pins in DICE_PINOUT.items())


def layout_dice(nets: Netlist) -> Layout:
    """Two dice of seven pips (firmware/leds.py order: top-left, top-right, middle-left,
    centre, middle-right, bottom-left, bottom-right), the roll button between them."""
    pip = [(-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1)]
    spacing = 8.89
    place: dict[str, tuple[float, float, float]] = {}
    for die, cx in enumerate((17.78, 62.23)):
        for k, (dx, dy) in enumerate(pip):
            n = die * 7 + k + 1
            x, y = cx + dx * spacing, 20.32 + dy * spacing
            place[f"D{n}"] = (x, y, 0)
            place[f"C{n}"] = (x, y + 4.445, 0)
    place["SW1"] = (36.83, 17.78, 0)
    place["J1"] = (34.29, 39.37, 90)  # the keyed 2 x 4 box header along the bottom edge, between the dice
    place["R1"] = (50.8, 39.37, 90)  # the data series resistor, beside J1
    place["U1"] = (55.88, 39.37, 90)  # the ESD clamp of J1's signals, beside it
    width, height = 80.01, 45.72
    holes = [(4.0, 4.0), (width - 4.0, 4.0), (4.0, height - 4.0), (width - 4.0, height - 4.0)]
    labels = [("ROLL", 40.0, 27.0, 1.0), (dice_legend(), 20.3, height - 1.3, 1.0), ("bgboard dice", 40.0, 2.4, 1.0)]
    return Layout(width, height, place, holes, labels, grid=rt.GRID / 2, net_order=["GND", "+5V"])  # half grid: the SOT-23-6 pads


# ------------------------------------------------------------------------------ building
def build_board(name: str, nets: Netlist, layout: Layout, out: Path) -> dict:
    """Place, route, outline, label and check one board; its DRC summary."""
    board = pcbnew.BOARD()
    ds = board.GetDesignSettings()
    ds.SetCopperLayerCount(2)
    fab_rules.apply(board)
    x0, y0 = ORIGIN
    # the drill and place origin at the board's bottom-left corner: the Gerbers, the drill files
    # and the pick-and-place all count from it (hardware/build.py plots with it)
    ds.SetAuxOrigin(point(x0, y0 + layout.height))
    ds.SetGridOrigin(point(x0, y0 + layout.height))
    netinfo: dict[str, pcbnew.NETINFO_ITEM] = {}
    for n, net_name in enumerate(sorted(nets.nets), start=1):
        info = pcbnew.NETINFO_ITEM(board, net_name, n)
        board.Add(info)
        netinfo[net_name] = info
    pin_net = {(ref, pin): net_name for net_name, nodes in nets.nets.items() for ref, pin in nodes}

    footprints: dict[str, pcbnew.FOOTPRINT] = {}
    for ref, part in sorted(nets.parts.items()):
        if ref not in layout.place:
            raise SystemExit(f"boards.py: {name} has no place for {ref}")
        fp = load_footprint(board, part["footprint"])
        fp.SetReference(ref)
        fp.SetValue(part["value"])
        x, y, rot = layout.place[ref]
        fp.SetPosition(point(x0 + x, y0 + y))
        fp.SetOrientationDegrees(rot)
        fp.Reference().SetLayer(pcbnew.F_Fab)  # references on the assembly drawing, not the silkscreen
        fp.Value().SetVisible(False)
        if not fab_rules.is_smd(fp):  # soldered by hand: not in the fab's pick-and-place nor its BOM
            fp.SetAttributes(fp.GetAttributes() | pcbnew.FP_EXCLUDE_FROM_POS_FILES)
        board.Add(fp)
        if ref in layout.back:  # (on the board: a flip asks it for its layers)
            fp.Flip(fp.GetPosition(), False)  # to the back, its reference to B.Fab with it
        footprints[ref] = fp
        for pad in fp.Pads():
            net_name = pin_net.get((ref, pad.GetNumber()))
            if net_name:
                pad.SetNet(netinfo[net_name])
    for k, (hx, hy) in enumerate(layout.holes):
        fp = load_footprint(board, "MountingHole:MountingHole_3.2mm_M3")
        fp.SetReference(f"H{k + 1}")
        fp.SetAttributes(fp.GetAttributes() | pcbnew.FP_EXCLUDE_FROM_POS_FILES | pcbnew.FP_EXCLUDE_FROM_BOM)
        fp.Reference().SetLayer(pcbnew.F_Fab)
        fp.Value().SetVisible(False)
        fp.SetPosition(point(x0 + hx, y0 + hy))
        board.Add(fp)
    outline = pcbnew.PCB_SHAPE(board)
    outline.SetShape(pcbnew.SHAPE_T_RECT)
    outline.SetStart(point(x0, y0))
    outline.SetEnd(point(x0 + layout.width, y0 + layout.height))
    outline.SetLayer(pcbnew.Edge_Cuts)
    outline.SetWidth(mm(0.1))
    board.Add(outline)
    for text, tx, ty, size in layout.labels:
        label = pcbnew.PCB_TEXT(board)
        label.SetText(text)
        label.SetPosition(point(x0 + tx, y0 + ty))
        label.SetLayer(pcbnew.F_SilkS)
        label.SetTextSize(pcbnew.wxSizeMM(size, size))
        label.SetTextThickness(mm(max(size * 0.15, fab_rules.SILK_TEXT_STROKE_MIN)))
        board.Add(label)

    # the router's view: every pad (holes as obstacles)
    ids = {net_name: n for n, net_name in enumerate(sorted(nets.nets), start=1)}
    pads: list[rt.Pad] = []
    by_net: dict[str, list[rt.Pad]] = {}
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            box = pad.GetBoundingBox()
            pos = pad.GetPosition()
            layers = tuple(k for k, layer in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)) if pad.IsOnLayer(layer))
            shape = {pcbnew.PAD_SHAPE_CIRCLE: "circle", pcbnew.PAD_SHAPE_OVAL: "oval"}.get(pad.GetShape(), "rect")
            net_name = pad.GetNetname()
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                size = pcbnew.ToMM(pad.GetDrillSize().x)
                p = rt.Pad(pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y), size, size, "circle", (0, 1), -1,
                           f"{fp.GetReference()} hole")
            else:
                w, h = pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())
                p = rt.Pad(pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y), w, h, shape, layers,
                           ids.get(net_name, 0), f"{fp.GetReference()}.{pad.GetNumber()}")
            pads.append(p)
            if net_name:
                by_net.setdefault(net_name, []).append(p)
    keepouts = [(x0 + a, y0 + b, x0 + c, y0 + d) for a, b, c, d in layout.keepouts]
    # no via in an SMD pad: none in any SMD part's courtyard (the rule of NAME.kicad_dru)
    via_keepouts = [fab_rules.courtyard(fp) for fp in board.GetFootprints() if fab_rules.is_smd(fp)]
    first = [n for n in layout.net_order if n in by_net]

    def span(n: str) -> float:  # short nets first: they leave the most room
        xs = [p.x for p in by_net[n]]
        return max(xs) - min(xs)

    rest = sorted((n for n in by_net if n not in first and len(by_net[n]) > 1), key=lambda n: (span(n), n))
    for attempt in range(4):  # rip everything up and retry with the nets that failed first
        router = rt.Router(x0, y0, layout.width, layout.height, pads, keepouts, grid=layout.grid,
                           via_keepouts=via_keepouts)
        routes, failed = {}, []
        for net_name, layer, xa, ya, xb, yb, width in layout.trunks:
            try:
                router.prewire(ids[net_name], layer, x0 + xa, y0 + ya, x0 + xb, y0 + yb, width, net_name)
            except rt.RoutingError as exc:
                failed.append((net_name, str(exc)))
        for net_name in first + rest:
            cls = rt.POWER if net_name in POWER_NETS else rt.SIGNAL
            try:
                routes[net_name] = router.route(ids[net_name], by_net[net_name], cls, net_name)
            except rt.RoutingError as exc:
                failed.append((net_name, str(exc)))
        if not failed:
            break
        names = [n for n, _ in failed]
        rest = names + [n for n in rest if n not in names]
    failed = [why for _, why in failed]
    for net_name, route in routes.items():
        for layer, xa, ya, xb, yb, width in route.tracks:
            track = pcbnew.PCB_TRACK(board)
            track.SetStart(point(xa, ya))
            track.SetEnd(point(xb, yb))
            track.SetWidth(mm(width))
            track.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
            track.SetNet(netinfo[net_name])
            board.Add(track)
        for vx, vy in route.vias:
            via = pcbnew.PCB_VIA(board)
            via.SetPosition(point(vx, vy))
            via.SetWidth(mm(rt.VIA_DIAMETER))
            via.SetDrill(mm(rt.VIA_DRILL))
            via.SetViaType(pcbnew.VIATYPE_THROUGH)
            via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
            via.SetNet(netinfo[net_name])
            board.Add(via)
    if "GND" in netinfo:
        fab_rules.pour(board, netinfo["GND"], x0, y0, layout.width, layout.height)
    out.mkdir(parents=True, exist_ok=True)
    pcb = out / f"{name}.kicad_pcb"
    board.BuildConnectivity()
    pcbnew.SaveBoard(str(pcb), board)
    fab_rules.write_rules(board, pcb)
    # loaded again, the board has its project and its rule file: the pour is filled by those
    # rules, saved filled, and KiCad's DRC checks the board as the fab gets it
    board = pcbnew.LoadBoard(str(pcb))
    fab_rules.fill(board)
    pcbnew.SaveBoard(str(pcb), board)
    render(board, out / f"{name}.png")
    report = out / f"{name}-drc.rpt"
    pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True)
    summary = drc_summary(report.read_text())
    summary.update({"board": name, "routing_failures": failed, "width_mm": layout.width, "height_mm": layout.height,
                    "parts": len(nets.parts), "tracks": len(board.GetTracks()),
                    "vias": sum(1 for t in board.GetTracks() if t.GetClass() == "PCB_VIA"),
                    "vias_in_smd_pads": fab_rules.vias_in_smd_pads(board),
                    "small_silkscreen_text": fab_rules.small_silkscreen_text(board)})
    return summary


def render(board: pcbnew.BOARD, path: Path, scale: float = 8.0) -> None:
    """A picture of the board as a maker sees it (Pillow): the outline, copper of both layers
    (F.Cu red, B.Cu blue), pads (the front's gold, the back's grey), vias, holes, and the
    silkscreen labels, top view."""
    from PIL import Image, ImageDraw, ImageFont

    box = board.GetBoardEdgesBoundingBox()
    bx, by = pcbnew.ToMM(box.GetX()), pcbnew.ToMM(box.GetY())
    w, h = pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())
    margin = 2.0
    image = Image.new("RGB", (int((w + 2 * margin) * scale), int((h + 2 * margin) * scale)), "white")
    draw = ImageDraw.Draw(image, "RGBA")

    def xy(x: float, y: float) -> tuple[float, float]:
        return ((x - bx + margin) * scale, (y - by + margin) * scale)

    draw.rectangle((*xy(bx, by), *xy(bx + w, by + h)), fill=(20, 90, 40), outline="black", width=2)
    for track in board.GetTracks():
        if track.GetClass() == "PCB_VIA":
            continue
        colour = (200, 60, 50, 230) if track.GetLayer() == pcbnew.F_Cu else (70, 110, 230, 160)
        a, b = track.GetStart(), track.GetEnd()
        draw.line((*xy(pcbnew.ToMM(a.x), pcbnew.ToMM(a.y)), *xy(pcbnew.ToMM(b.x), pcbnew.ToMM(b.y))), fill=colour,
                  width=max(1, int(pcbnew.ToMM(track.GetWidth()) * scale)))
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            bb = pad.GetBoundingBox()
            corners = (*xy(pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY())),
                       *xy(pcbnew.ToMM(bb.GetRight()), pcbnew.ToMM(bb.GetBottom())))
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                draw.ellipse(corners, fill="black")
                continue
            shape = draw.ellipse if pad.GetShape() in (pcbnew.PAD_SHAPE_CIRCLE, pcbnew.PAD_SHAPE_OVAL) else draw.rectangle
            shape(corners, fill=(215, 180, 60) if pad.IsOnLayer(pcbnew.F_Cu) else (175, 175, 200))  # the back's grey
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_PTH:
                c = pad.GetPosition()
                r = pcbnew.ToMM(pad.GetDrillSize().x) / 2
                draw.ellipse((*xy(pcbnew.ToMM(c.x) - r, pcbnew.ToMM(c.y) - r),
                              *xy(pcbnew.ToMM(c.x) + r, pcbnew.ToMM(c.y) + r)), fill="black")
    for track in board.GetTracks():
        if track.GetClass() == "PCB_VIA":
            c = track.GetPosition()
            r = pcbnew.ToMM(track.GetWidth()) / 2
            draw.ellipse((*xy(pcbnew.ToMM(c.x) - r, pcbnew.ToMM(c.y) - r),
                          *xy(pcbnew.ToMM(c.x) + r, pcbnew.ToMM(c.y) + r)), fill=(215, 180, 60))
    font = ImageFont.load_default()
    for drawing in board.GetDrawings():
        if drawing.GetClass() == "PTEXT" and drawing.GetLayer() == pcbnew.F_SilkS:
            c = drawing.GetPosition()
            x, y = xy(pcbnew.ToMM(c.x), pcbnew.ToMM(c.y))
            text = drawing.GetText()
            tw = draw.textlength(text, font=font)
            draw.text((x - tw / 2, y - 5), text, fill="white", font=font)
    for fp in board.GetFootprints():
        c = fp.GetPosition()
        x, y = xy(pcbnew.ToMM(c.x), pcbnew.ToMM(c.y))
        ref = fp.GetReference()
        if not ref.startswith("H"):
            draw.text((x - 3 * len(ref), y - 5), ref, fill=(255, 255, 255, 200), font=font)
    image.save(path, optimize=True)


def drc_summary(text: str) -> dict:
    """The counts of a KiCad DRC report: violations, unconnected pads, footprint errors."""
    def count(pattern: str) -> int:
        m = re.search(r"\*\* Found (\d+) " + pattern, text)
        if not m:
            raise SystemExit(f"boards.py: the DRC report has no line '** Found N {pattern}'")
        return int(m.group(1))

    return {"violations": count("DRC violations"), "unconnected": count("unconnected pads"),
            "footprint_errors": count("Footprint errors")}


def boards_of(nets_dir: Path) -> list[str]:
    return sorted(p.stem for p in nets_dir.glob("*.net") if p.stem != "system")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nets", type=Path, required=True, help="directory of circuit.py's netlists")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--board", action="append", help="only this board (repeatable)")
    args = parser.parse_args(argv)
    with open(HARDWARE / "grid.toml", "rb") as f:  # sensors per slot: one, or two
        first = tomllib.load(f)["slot"][0]
    if len(first.get("sensors", [0])) != 2:
        print("boards.py: the boards carry two sensors per slot; grid.toml has one "
              "(python hardware/make_grid.py --per-slot 2 --out hardware)", file=sys.stderr)
        return 2
    results = []
    for name in args.board or boards_of(args.nets):
        nets = read_netlist(args.nets / f"{name}.net")
        if name.startswith("strip"):
            layout = layout_strip(nets, int(name[5:]))
        elif name == "controller":
            layout = layout_controller(nets)
        elif name == "dice":
            layout = layout_dice(nets)
        else:
            raise SystemExit(f"boards.py: no layout for board {name}")
        summary = build_board(name, nets, layout, args.out)
        results.append(summary)
        print(json.dumps(summary), file=sys.stderr)
    (args.out / "drc.json").write_text(json.dumps(results, indent=1) + "\n")
    bad = [r for r in results if r["violations"] or r["unconnected"] or r["footprint_errors"] or r["routing_failures"]
           or r["vias_in_smd_pads"] or r["small_silkscreen_text"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
