"""The stack-up of a place as a solid model (build123d), and the gap measured on it:

    python3 hardware/stackup.py --out DIR [--pictures]

builds one point's stack-up from hardware/stackup.toml and sensing.toml -- the frame, the
playing surface with the strip's stepped pocket and the LED's window, the felt, the strip
with the hall sensors (and only parts no taller) on its sensing face and everything else on
its back, the LED under its window and the acrylic rod in it, a checker on slot 0 with its
printed insert in its pocket and the insert's 19 stock discs (sensing.toml's [magnet] array,
placed where :func:`bgboard.hardware.physics.magnet_centres` puts them) -- then MEASURES on
the solids the distance from the bottom face of the disc on the checker's axis to the Hall
element's sensitive plane (the gap the physics uses: sensing.toml's, which
tests/hardware/test_stackup.py holds equal to this) and writes, in DIR:

* ``stackup-point.step``: the point's stack-up, one named solid per part;
* ``stackup-section.png``: the section drawing (the point's axis at its base and at its
  tip, where the LED's light comes out, and across the strip);
* ``checker.stl``: the checker with the insert's pocket, to 3D-print or to drill to;
* ``insert.stl``: the insert with its 19 blind holes, to 3D-print;
* ``insert-drawing.png``: the insert drawn to print or check it by, its holes numbered and
  their positions listed, and how the discs go in (all the same way up).

``--pictures`` also copies the section drawing to hardware/stackup.png (the README's).
Exit 0; 1 when the measured gap is not sensing.toml's; 2 for bad arguments; 69 when this
Python lacks build123d or matplotlib (``pip install -e '.[hardware]'``), each in one sentence.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
import strip_plan  # noqa: E402  (hardware/ is not a package: the boards' plan, read by both)
from bgboard.hardware import physics  # noqa: E402  (pure: the design and its discs' centres)

HARDWARE = Path(__file__).resolve().parent
STACKUP_FILE = HARDWARE / "stackup.toml"
SENSING_FILE = HARDWARE / "sensing.toml"
PICTURE = HARDWARE / "stackup.png"


@dataclass(frozen=True)
class Params:
    """stackup.toml's tables and sensing.toml's checker, magnet and board (as read, and as
    the physics reads them: ``design``)."""

    stack: dict[str, Any]
    sensing: dict[str, Any]
    design: physics.Design

    def __getitem__(self, key: str) -> dict[str, Any]:
        return self.stack[key]

    @property
    def pitch(self) -> float:
        return float(self.sensing["board"]["slot_pitch_mm"])

    @property
    def base(self) -> float:
        return float(self.sensing["board"]["base_mm"])

    @property
    def centres(self) -> tuple[tuple[float, float], ...]:
        """The discs' centres on the checker (mm from its axis; the first on the axis)."""
        return physics.magnet_centres(self.design)


def load(stackup: Path = STACKUP_FILE, sensing: Path = SENSING_FILE) -> Params:
    text = sensing.read_text()
    return Params(tomllib.loads(stackup.read_text()), tomllib.loads(text), physics.parse_design(text))


def check(p: Params) -> None:
    """Numbers a stack-up can be built from, or ValueError saying which is not."""
    s, sen = p["surface"], p["sensor"]
    for table, keys in (("surface", ("thickness_mm", "skin_mm", "felt_mm", "ledge_mm")), ("strip", ("thickness_mm",)),
                        ("sensor", ("height_mm", "element_depth_mm")), ("window", ("diameter_mm",)),
                        ("led", ("size_mm", "height_mm")),
                        ("checker_insert", ("diameter_mm", "pocket_clearance_mm", "hole_clearance_mm",
                                            "hole_extra_depth_mm", "min_wall_mm"))):
        for key in keys:
            value = p[table][key]
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < 100:
                raise ValueError(f"[{table}] {key} must be a length in mm above 0, not {value!r}")
    if s["skin_mm"] + sen["height_mm"] >= s["thickness_mm"]:
        raise ValueError("[surface] thickness_mm leaves no ledge under the skin for the strip")
    if sen["element_depth_mm"] >= sen["height_mm"]:
        raise ValueError("[sensor] element_depth_mm is deeper than the package")
    if p["led"]["size_mm"] * math.sqrt(2) >= p["window"]["diameter_mm"]:
        raise ValueError("[window] diameter_mm is narrower than the LED's diagonal: it cannot rise into it")
    ins, d = p["checker_insert"], p.design
    reach = max(math.hypot(cx, cy) for cx, cy in p.centres) + (d.magnet_diameter_mm + ins["hole_clearance_mm"]) / 2
    if reach + ins["min_wall_mm"] > ins["diameter_mm"] / 2 + 1e-9:
        raise ValueError(f"[checker_insert] diameter_mm leaves less than {ins['min_wall_mm']:g} mm outside "
                         f"the outer holes (they reach {reach:.2f} mm from its axis)")
    if ins["diameter_mm"] + ins["pocket_clearance_mm"] > d.checker_diameter_mm - 2.0:
        raise ValueError("[checker_insert] diameter_mm leaves less than 1 mm of the checker round its pocket")
    if insert_thickness(p) >= d.checker_thickness_mm - 1.0:
        raise ValueError("[checker_insert] the pocket leaves less than 1 mm of the checker over it")


def insert_thickness(p: Params) -> float:
    """The insert (and its pocket's depth): the floor under the discs (sensing.toml's
    depth_mm) and the holes over it (a disc's thickness and its tolerance)."""
    d = p.design
    return d.magnet_depth_mm + d.magnet_thickness_mm + p["checker_insert"]["hole_extra_depth_mm"]


def physics_gap_mm(p: Params) -> float:
    """The gap the physics uses (bgboard.hardware.physics.Design.gap_mm, from sensing.toml)."""
    return p.design.gap_mm


@dataclass
class Place:
    """The solids of one place, in its coordinates: x from the frame's inner face along the
    place, y across it (0 on the sensors' line), z up from the playing surface's top face."""

    slots: int
    parts: dict[str, Any] = field(default_factory=dict)  # name -> build123d Solid
    led_xy: tuple[float, float] = (0.0, 0.0)
    elements: list[tuple[float, float, float]] = field(default_factory=list)  # sensors' element centres

    def add(self, name: str, solid: Any) -> Any:
        solid.label = name
        self.parts[name] = solid
        return solid


def led_x(p: Params, slots: int) -> float:
    """The LED's (and its window's) centre from the frame (hardware/strip_plan.py: past the
    last slot's checker by the window's clearance, so a place's own checkers never cover it)."""
    return strip_plan.led_from_frame(p.sensing, p.stack, slots)


def strip_span(p: Params, slots: int) -> tuple[float, float]:
    """The strip's base and far edge from the frame: the board's own outline (strip_plan)."""
    x0 = strip_plan.base_from_frame(p.sensing)
    return x0, x0 + strip_plan.plan(slots, p.sensing, p.stack).length


# packages whose body is long across the board's x at rotation 0 (KiCad's SOT-23 and SOIC
# have their pin rows along y): the model turns them as the board does
_LONG_IN_Y = ("sensor", "regulator", "mux")


def _footprint_box(name: str, table: dict[str, Any], rot: float) -> tuple[float, float]:
    """A part's body along the model's x and y, turned as the board turns its footprint."""
    a, b = float(table.get("length_mm", table.get("size_mm", 0))), float(table.get("width_mm", table.get("size_mm", 0)))
    if name.rstrip("0123456789") in _LONG_IN_Y:
        a, b = b, a
    return (b, a) if round(rot) % 180 == 90 else (a, b)


def _box(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float) -> Any:
    from build123d import Align, Box, Pos

    lo = (Align.MIN, Align.MIN, Align.MIN)
    return Pos(x0, y0, z0) * Box(x1 - x0, y1 - y0, z1 - z0, align=lo)


def _disc(x: float, y: float, z0: float, diameter: float, height: float) -> Any:
    from build123d import Align, Cylinder, Pos

    return Pos(x, y, z0) * Cylinder(diameter / 2, height, align=(Align.CENTER, Align.CENTER, Align.MIN))


def _centred(x: float, y: float, z0: float, length: float, width: float, height: float) -> Any:
    return _box(x - length / 2, x + length / 2, y - width / 2, y + width / 2, z0, z0 + height)


def first_hit_up(shape: Any, x: float, y: float, below: float) -> float:
    """The lowest z above ``below`` where a vertical line at (x, y) meets ``shape``'s faces:
    how the model is measured (a probe, not a formula)."""
    from build123d import Axis

    hits = [v.Z for v, _ in shape.find_intersection_points(Axis((x, y, below), (0, 0, 1))) if v.Z > below + 1e-9]
    if not hits:
        raise ValueError(f"no face above ({x:.2f}, {y:.2f}, {below:.2f})")
    return min(hits)


def build_place(p: Params, slots: int = 5, checker_slot: int | None = 0) -> Place:
    """One place's stack-up.  Parts are placed by contact, each on a face measured on the
    solids already built (the felt on the surface, the strip against the pocket's ledge,
    the checker on the felt), so the gap below is a measurement of the model."""
    s, st, sen = p["surface"], p["strip"], p["sensor"]
    place = Place(slots)
    board = strip_plan.plan(slots, p.sensing, p.stack)  # the strip board's own layout
    x0, x1 = strip_span(p, slots)
    mid = board.sensor_line

    def at(ref: str) -> tuple[float, float, float]:  # a board part's place in the model's x, y
        bx, by, rot = board.place[ref]
        return x0 + bx, mid - by, rot

    lx, ly, _ = at("D1")
    place.led_xy = (lx, ly)
    length = x1 + 10.0
    half_w = float(p.sensing["board"]["point_pitch_mm"]) / 2
    y_lo, y_hi = mid - board.width, mid  # the strip across: the board's edges
    c, ledge, t = s["pocket_clearance_mm"], s["ledge_mm"], s["thickness_mm"]
    ledge_z = -(s["skin_mm"] + sen["height_mm"])  # a sensor of the maximum height touches the skin
    window = p["window"]["diameter_mm"]
    # two M2 x 3 pan-head screws (ISO 7045: head 4.0 x 1.6 mm) beside the strip, their heads in
    # counterbores and over its edge by 1 mm, their 3 mm in the land: they hold it on the ledge
    screws = [(x0 + p.pitch, y_lo - 1.0), (x1 - p.pitch, y_lo - 1.0)]
    surface = _box(0, length, -half_w, half_w, -t, 0)
    surface -= _box(x0 - c, x1 + c, y_lo - c, y_hi + c, -t, ledge_z)                         # the strip's pocket
    surface -= _box(x0 + ledge, x1 - ledge, y_lo + ledge, y_hi - ledge, ledge_z - 1, -s["skin_mm"])  # the parts'
    surface -= _disc(lx, ly, -t - 1, window, t + 2)                                           # the window
    back_z = ledge_z - st["thickness_mm"]
    for sx, sy in screws:
        surface -= _disc(sx, sy, -t - 1, 4.4, back_z + t + 1) + _disc(sx, sy, -t - 1, 1.6, t - 0.5)  # head, pilot
    surface = place.add("surface", surface)
    top = surface.bounding_box().max.Z
    felt = _box(0, length, -half_w, half_w, top, top + s["felt_mm"]) - _disc(lx, ly, top - 1, window, s["felt_mm"] + 2)
    felt = place.add("felt", felt)

    # the strip: its sensing face against the ledge, probed beside the parts' pocket
    face_z = first_hit_up(surface, x0 + ledge / 2, (y_lo + y_hi) / 2, -t - 1)
    back_z = face_z - st["thickness_mm"]
    place.add("strip", _box(x0, x1, y_lo, y_hi, back_z, face_z))

    def front(name: str, ref: str, table: dict[str, Any], height: float) -> tuple[float, float]:
        x, y, rot = at(ref)
        place.add(name, _centred(x, y, face_z, *_footprint_box(name, table, rot), height))
        return x, y

    for j in range(2 * slots):
        x, y = front(f"sensor{j + 1}", f"U{j + 1}", sen, sen["height_mm"])
        element_z = face_z + sen["height_mm"] - sen["element_depth_mm"]
        place.elements.append((x, y, element_z))
        place.add(f"element{j + 1}", _centred(x, y, element_z - 0.005, 0.3, 0.3, 0.01))
        front(f"c100n{j + 1}", f"C{j + 1}", p["cap_100n"], p["cap_100n"]["height_mm"])
    led = p["led"]
    led_top = face_z + led["height_mm"]
    front("led", "D1", led, led["height_mm"])
    felt_top = felt.bounding_box().max.Z
    place.add("light_rod", _disc(lx, ly, led_top, window, felt_top - led_top))

    # the back: everything taller than the sensors, hanging below the strip
    def back(name: str, ref: str, table: dict[str, Any]) -> None:
        x, y, rot = at(ref)
        place.add(name, _centred(x, y, back_z - table["height_mm"], *_footprint_box(name, table, rot),
                                 table["height_mm"]))

    back("mux", "U20", p["mux"])
    back("regulator", "U30", p["regulator"])
    back("c1u_in", "C30", p["cap_1u"])
    back("c1u_out", "C31", p["cap_1u"])
    h = p["header"]
    jx, jy, _ = at("J1")  # pin 1; its two rows of pins run along the strip (the board turns it by
    # 90 degrees), the even row one pitch further from the sensors' line
    along = (h["pins"] // 2 - 1) * h["pitch_mm"]
    hx0, hx1 = jx - h["past_end_pins_mm"], jx + along + h["past_end_pins_mm"]
    hy0, hy1 = jy - h["pitch_mm"] - h["past_pin_rows_mm"], jy + h["past_pin_rows_mm"]
    place.add("header", _box(hx0, hx1, hy0, hy1, back_z - h["insulator_mm"], back_z))
    place.add("socket", _box(hx0, hx1, hy0, hy1, back_z - h["height_with_socket_mm"], back_z - h["insulator_mm"]))
    for i, (sx, sy) in enumerate(screws):
        place.add(f"screw{i + 1}", _disc(sx, sy, back_z - 1.6, 4.0, 1.6) + _disc(sx, sy, back_z, 1.6, 3.0))

    # the frame: the rim at the place's base and the case's bottom panel
    f = p["frame"]
    bottom_top = -t - f["cavity_mm"]
    rim = _box(-f["rim_width_mm"], 0, -half_w, half_w, bottom_top - f["bottom_mm"], felt_top + f["rim_over_felt_mm"])
    place.add("frame", rim + _box(0, length, -half_w, half_w, bottom_top - f["bottom_mm"], bottom_top))

    if checker_slot is not None:
        for name, solid in checker_parts(p, p.base + checker_slot * p.pitch, 0.0, felt_top).items():
            place.add(name, solid)
    return place


def checker_parts(p: Params, x: float, y: float, z0: float) -> dict[str, Any]:
    """A checker resting at z0: its body with the insert's pocket in its underside, the
    printed insert in the pocket flush with the checker's face, and a disc on the floor of
    each of the insert's holes (``magnet1`` on the checker's axis, then the rings)."""
    ch, d, ins = p.sensing["checker"], p.design, p["checker_insert"]
    pocket_d = ins["diameter_mm"] + ins["pocket_clearance_mm"]
    hole_d = d.magnet_diameter_mm + ins["hole_clearance_mm"]
    hole_depth = d.magnet_thickness_mm + ins["hole_extra_depth_mm"]
    body = _disc(x, y, z0, ch["diameter_mm"], ch["thickness_mm"]) - _disc(x, y, z0 - 1, pocket_d, insert_thickness(p) + 1)
    body.label = "checker"
    bottom = first_hit_up(body, x + (ch["diameter_mm"] + pocket_d) / 4, y, z0 - 1)  # its face, beside the pocket
    floor = first_hit_up(body, x, y, z0 - 1)  # the pocket's floor
    insert = _disc(x, y, bottom, ins["diameter_mm"], floor - bottom)
    for cx, cy in p.centres:
        insert -= _disc(x + cx, y + cy, floor - hole_depth, hole_d, hole_depth + 1)
    parts = {"checker": body, "insert": insert}
    for i, (cx, cy) in enumerate(p.centres):
        hole_floor = first_hit_up(insert, x + cx, y + cy, bottom + 0.01)  # probed from inside the insert
        parts[f"magnet{i + 1}"] = _disc(x + cx, y + cy, hole_floor, d.magnet_diameter_mm, d.magnet_thickness_mm)
    return parts


def magnets(parts: dict[str, Any]) -> list[Any]:
    """The discs among a checker's (or a place's) parts, the one on the axis first."""
    return [s for n, s in parts.items() if n.startswith("magnet")]


def measured_gap_mm(place: Place) -> float:
    """The bottom face of the disc on the checker's axis to the Hall element's plane of the
    sensor under it, on the solids (the checker over slot 0's sensor)."""
    box = place.parts["magnet1"].bounding_box()
    cx = (box.min.X + box.max.X) / 2
    x, _, _ = min(place.elements, key=lambda e: abs(e[0] - cx))
    element = place.parts[f"element{[e[0] for e in place.elements].index(x) + 1}"].bounding_box()
    return box.min.Z - (element.min.Z + element.max.Z) / 2


def insert_mass_g(p: Params) -> float:
    """One printed insert's PLA, solid (the filament line of bom.csv)."""
    return checker_parts(p, 0, 0, 0)["insert"].volume / 1000 * p["checker_insert"]["pla_g_per_cm3"]


def window_clear(place: Place) -> bool:
    """Light's path: the LED clear of the surface, and nothing but the acrylic rod between
    its top and the air above the felt, at its centre and its four top corners."""
    led = place.parts["led"]
    if (led & place.parts["surface"]).volume > 1e-6 or (led & place.parts["felt"]).volume > 1e-6:
        return False
    box = led.bounding_box()
    half = (box.max.X - box.min.X) / 2 - 0.05
    lx, ly = place.led_xy
    for dx, dy in ((0, 0), (half, half), (half, -half), (-half, half), (-half, -half)):
        for name in ("surface", "felt"):
            try:
                first_hit_up(place.parts[name], lx + dx, ly + dy, box.max.Z)
                return False
            except ValueError:
                pass
    return True


def light(p: Params) -> dict[str, tuple[float, float]]:
    """The LED's axial luminous intensity over the rod (mcd, datasheet range x the rod's
    transmission), at full drive and at the firmware's cap."""
    n = p["window"]["refractive_index"]
    transmission = (1 - ((n - 1) / (n + 1)) ** 2) ** 2
    cap = p["window"]["firmware_cap"]
    out: dict[str, tuple[float, float]] = {"transmission": (transmission, transmission)}
    for colour in ("red", "green", "blue"):
        lo, hi = p["led"][f"{colour}_mcd"]
        out[colour] = (lo * transmission, hi * transmission)
        out[f"{colour}_capped"] = (lo * transmission * cap, hi * transmission * cap)
    return out


def write_step(place: Place, path: Path) -> None:
    from build123d import Compound, export_step

    assembly = Compound(label="bgboard point stack-up", children=list(place.parts.values()))
    export_step(assembly, str(path))


def write_checker_stls(p: Params, checker: Path, insert: Path) -> None:
    """The checker with its pocket, and the insert turned holes up, as it is printed."""
    from build123d import export_stl

    parts = checker_parts(p, 0, 0, 0)
    export_stl(parts["checker"], str(checker), tolerance=0.02, angular_tolerance=0.1)
    export_stl(parts["insert"], str(insert), tolerance=0.02, angular_tolerance=0.1)


COLOURS = {"surface": "#c8a165", "felt": "#2e7d32", "strip": "#1b5e20", "frame": "#8d6e63", "checker": "#eeeeee",
           "magnet": "#616161", "insert": "#ffcc80", "light_rod": "#b3e5fc", "led": "#fff176", "sensor": "#212121",
           "element": "#e53935", "c100n": "#a1887f", "mux": "#263238", "regulator": "#37474f", "c1u": "#a1887f",
           "header": "#424242", "socket": "#757575", "screw": "#9e9e9e"}


def _colour(name: str) -> str:
    return COLOURS.get(name.rstrip("0123456789").removesuffix("_in").removesuffix("_out"), "#90a4ae")


def _section_polygons(solid: Any, plane: Any) -> list[list[tuple[float, float, float]]]:
    polys = []
    for face in solid.intersect(plane) or []:
        if not hasattr(face, "outer_wire"):
            continue
        for wire in face.wires():
            points: list[tuple[float, float, float]] = []
            for edge in wire.order_edges():
                n = 1 if edge.geom_type.name == "LINE" else 24
                points += [tuple(edge.position_at(i / n)) for i in range(n + 1)]
            polys.append(points)
    return polys


def draw_section(p: Params, place: Place, gap: float, path: Path) -> None:
    """Three views: the point's axis at its base (frame, checker, sensors: the gap) and at its
    tip (the LED, its window and rod), and across the strip through slot 0's second sensor."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from build123d import Plane
    from matplotlib.patches import Polygon

    lx = place.led_xy[0]
    x0, _ = strip_span(p, place.slots)
    across_x = x0 + p.pitch  # slot 0's second sensor, the header and the regulator's capacitor
    fig = plt.figure(figsize=(12, 7.5), dpi=110)
    grid = fig.add_gridspec(2, 2, width_ratios=[1.6, 1])
    views = [(fig.add_subplot(grid[0, :]), Plane.XZ, (-16, 46), "along the point, at its base: gap and checker"),
             (fig.add_subplot(grid[1, 0]), Plane.XZ, (lx - 25, lx + 12), "along the point, at its tip: the LED's light path"),
             (fig.add_subplot(grid[1, 1]), Plane.YZ.offset(across_x), (-21, 21), f"across the strip, {across_x:.1f} mm from the frame")]
    for ax, plane, xlim, title in views:
        horizontal = 1 if plane.z_dir.X else 0  # YZ sections: y across; XZ: x along
        for name, solid in place.parts.items():
            if name.startswith("element"):
                continue
            for poly in _section_polygons(solid, plane):
                pts = [(pt[horizontal], pt[2]) for pt in poly]
                ax.add_patch(Polygon(pts, closed=True, facecolor=_colour(name), edgecolor="black", linewidth=0.4))
        for x, y, z in place.elements:
            u = y if horizontal else x
            ax.plot([u - 0.4, u + 0.4], [z, z], color=_colour("element"), linewidth=2)
        ax.set_xlim(*xlim)
        ax.set_ylim(-16 if horizontal == 0 else -16, 9.5)
        ax.set_aspect("equal")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("mm", fontsize=8)
        ax.tick_params(labelsize=7)
    base_ax = views[0][0]
    magnet_z = place.parts["magnet1"].bounding_box().min.Z
    ex, _, ez = place.elements[0]
    base_ax.annotate("", xy=(ex + 3, ez), xytext=(ex + 3, magnet_z), arrowprops={"arrowstyle": "<->", "linewidth": 0.8})
    base_ax.text(ex + 3.6, (ez + magnet_z) / 2, f"gap {gap:.2f} mm\n(measured)", fontsize=8, va="center")
    notes = [("checker", 8, 6.2), ("19 discs in the printed insert", 6.5, 2.3), ("felt", 41, 1.2),
             ("surface", 41, -1.2), ("sensor (element in red)", 1, -4.3), ("strip", 41, -3.9),
             ("parts on the back", 35, -7.5), ("frame", -14, 7)]
    for text, x, z in notes:
        base_ax.text(x, z, text, fontsize=7)
    light_ax = views[1][0]
    lo, hi = light(p)["green"]
    light_ax.text(lx - 24, 4.5, f"acrylic rod in an {p['window']['diameter_mm']:.0f} mm window over the WS2812B:\n"
                  f"green {lo:.0f}-{hi:.0f} mcd at full drive (datasheet x {light(p)['transmission'][0]:.0%})",
                  fontsize=7)
    fig.suptitle(f"bgboard: one point's stack-up (hardware/stackup.toml, sensing.toml); checker on slot 0", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def draw_insert(p: Params, path: Path) -> None:
    """The insert as a maker prints or checks it: seen from its top (the holes' side), each
    hole numbered, the positions listed; its section through holes 1, 2 and 5; how the
    discs go in."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from build123d import Plane
    from matplotlib.patches import Circle, Polygon

    ins, d = p["checker_insert"], p.design
    parts = checker_parts(p, 0, 0, 0)
    hole_d = d.magnet_diameter_mm + ins["hole_clearance_mm"]
    hole_depth = d.magnet_thickness_mm + ins["hole_extra_depth_mm"]
    r = ins["diameter_mm"] / 2
    on_axis = sorted((cx, i + 1) for i, (cx, cy) in enumerate(p.centres) if abs(cy) < 1e-6)
    fig = plt.figure(figsize=(12, 7), dpi=110)
    grid = fig.add_gridspec(2, 2, width_ratios=[1.1, 1], height_ratios=[1.5, 1])
    top, side, table = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[:, 1])
    top.add_patch(Circle((0, 0), r, facecolor=_colour("insert"), edgecolor="black", linewidth=0.6))
    for i, (cx, cy) in enumerate(p.centres):
        top.add_patch(Circle((cx, cy), hole_d / 2, facecolor="white", edgecolor="black", linewidth=0.5))
        top.text(cx, cy - hole_d / 2 - 0.3, str(i + 1), fontsize=7, ha="center", va="top")
    top.annotate("", xy=(-r, -r - 1.5), xytext=(r, -r - 1.5), arrowprops={"arrowstyle": "<->", "linewidth": 0.6})
    top.text(0, -r - 2.0, f"Ø {ins['diameter_mm']:g}", fontsize=8, ha="center", va="top")
    top.set_xlim(-r - 2, r + 2)
    top.set_ylim(-r - 4, r + 2)
    top.set_aspect("equal")
    top.set_title(f"from the top (the holes' side): {len(p.centres)} holes Ø {hole_d:g} x {hole_depth:g} deep, "
                  f"{d.magnet_spacing_mm:g} mm apart", fontsize=9)
    for name in ("insert", *[n for n in parts if n.startswith("magnet")]):
        for poly in _section_polygons(parts[name], Plane.XZ):
            side.add_patch(Polygon([(pt[0], pt[2]) for pt in poly], closed=True, facecolor=_colour(name),
                                   edgecolor="black", linewidth=0.4))
    side.set_xlim(-r - 2, r + 2)
    side.set_ylim(-1, insert_thickness(p) + 1.5)
    side.set_aspect("equal")
    side.set_title(f"section through holes {', '.join(str(n) for _, n in on_axis)} (discs in grey): "
                   f"{insert_thickness(p):g} mm thick, "
                   f"the discs' floor {d.magnet_depth_mm:g} mm up", fontsize=9)
    for ax in (top, side):
        ax.set_xlabel("mm", fontsize=8)
        ax.tick_params(labelsize=7)
    rows = [f"{i + 1:>2}  {round(cx, 2) + 0.0:7.2f}  {round(cy, 2) + 0.0:7.2f}" for i, (cx, cy) in enumerate(p.centres)]
    how = (f"Print in PLA, 100 % infill, holes up, 0.1-0.2 mm layers.\n"
           f"Every disc the same way up: north up in a white checker's\n"
           f"insert, south up in a black one's.  Take the discs off one end\n"
           f"of a stack (a stack's discs all point one way), pressing the\n"
           f"end disc into its hole and sliding the stack off sideways;\n"
           f"check each filled insert with a marked reference disc\n"
           f"(hardware/prototype.md).  A drop of glue under each disc,\n"
           f"the insert glued into the checker's {ins['diameter_mm'] + ins['pocket_clearance_mm']:g} mm pocket, "
           f"{insert_thickness(p):g} mm deep.")
    table.axis("off")
    table.text(0, 1, "hole   x mm     y mm\n" + "\n".join(rows), family="monospace", fontsize=8, va="top",
               transform=table.transAxes)
    table.text(0, 0.02, how, fontsize=8, va="bottom", transform=table.transAxes)
    fig.suptitle(f"bgboard: the checker insert ({len(p.centres)} stock {d.magnet_diameter_mm:g} x "
                 f"{d.magnet_thickness_mm:g} mm {d.grade} discs; hardware/stackup.toml, sensing.toml)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for the STEP, the PNGs and the STLs")
    parser.add_argument("--pictures", action="store_true", help="also copy the section drawing to hardware/stackup.png")
    parser.add_argument("--stackup", type=Path, default=STACKUP_FILE, help="the stack-up's numbers (default: hardware/)")
    parser.add_argument("--sensing", type=Path, default=SENSING_FILE, help="the sensing design (default: hardware/)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    try:
        p = load(args.stackup, args.sensing)
        check(p)  # before build123d's import: bad numbers are refused in a moment
        import build123d  # noqa: F401
        import matplotlib  # noqa: F401

        started = time.perf_counter()
        place = build_place(p)
        gap = measured_gap_mm(place)
    except ImportError as exc:
        print(f"stackup.py: this Python lacks {exc.name}: run `pip install -e '.[hardware]'`", file=sys.stderr)
        return 69
    except (OSError, tomllib.TOMLDecodeError, ValueError) as exc:
        print(f"stackup.py: cannot build the stack-up: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError) as exc:
        print(f"stackup.py: {args.stackup.name} or {args.sensing.name} lacks or mistypes {exc}", file=sys.stderr)
        return 2
    out: Path = args.out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"stackup.py: cannot write to {out}: {exc.strerror}", file=sys.stderr)
        return 2
    built = time.perf_counter() - started
    write_step(place, out / "stackup-point.step")
    write_checker_stls(p, out / "checker.stl", out / "insert.stl")
    draw_section(p, place, gap, out / "stackup-section.png")
    draw_insert(p, out / "insert-drawing.png")
    if args.pictures:
        shutil.copy(out / "stackup-section.png", PICTURE)
    wanted = physics_gap_mm(p)
    lit = light(p)
    print(f"stackup: gap measured {gap:.3f} mm (sensing.toml: {wanted:.3f} mm); {len(place.parts)} solids built in "
          f"{built:.2f} s, files in {time.perf_counter() - started:.2f} s; insert {insert_mass_g(p):.2f} g of PLA; "
          f"green through the window {lit['green'][0]:.0f}-{lit['green'][1]:.0f} mcd -> {out}", file=sys.stderr)
    if not math.isclose(gap, wanted, abs_tol=0.01):
        print(f"stackup.py: the model's gap is {gap:.3f} mm but sensing.toml's is {wanted:.3f} mm: "
              "change one of them (hardware/README.md, 'Stack-up')", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
