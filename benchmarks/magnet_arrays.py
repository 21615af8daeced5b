"""Stock magnets in numbers (issue 32): a checker carrying an array of small stock NdFeB discs
instead of one disc pressed to size, against every constraint the board puts on a checker's
magnet: the design's array (hardware/sensing.toml, :data:`CHOSEN`) beside the others tried.

Why an array: a lone checker reads a quarter pitch off its sensor only under a wide magnet
(reach ~ its radius), a Plakoto pinner sits and a stack lifts one checker at a time only while
the magnets' moment is small, and a thin disc keeps its field only in a grade whose HcJ is well
above its own field, J/mu0 (benchmarks/magnet_candidates.py: no stock disc does all three).  A
hexagonal array of small discs spread over the checker is wide (its field, seen from a few
millimetres, is that of a disc of the array's width with the mean polarisation of the array)
and weak (its mean polarisation is the magnets' J times the area they cover), while each disc,
as thick as it is wide or nearly, sits far from its own coercivity.  What it costs: the field
ripples over the magnets until the sensor lies about one magnet spacing below them, so the
magnets sit deeper in the checker (a larger gap), and the field at a sensor between two sensors'
positions depends a little on how the checker is turned.

Every figure is computed with the project's physics (:mod:`bgboard.hardware.magnets` and
:mod:`bgboard.hardware.magnet_forces`: magpylib for the fields, its getFT for the forces,
magpylib-material-response for the second method; the classifier's thresholds and
:mod:`bgboard.hardware.physics`' reach rules on the array's table, its field averaged over the
directions round the checker, and the reach again in the worst direction):

* keeps its field: the strongest opposing field inside any of its magnets (magpylib's rigid
  ``getH`` at the grade's remanence, the most pessimistic figure), alone, pinned under two
  pinners (each magnet straight under one of theirs), in the middle of a stack of five, on a
  crowded row; margin against the grade's guaranteed HcJ at -20 and 60 °C;
* reach: a lone checker reads as one 9.75 mm off a sensor (two sensors per slot), alone and
  crowded, and in the worst direction (the sensor under a gap between magnets);
* a stack: the second checker adds at least LEVEL_SEPARATION (0.25 of a checker);
* forces: two stacked same-colour checkers pull with less than a checker's weight; a Plakoto
  pinner 0-15 mm off its victim, turned any way, is lifted by less than half its weight and
  pushed sideways by less than friction holds (:func:`bgboard.hardware.physics.pin_sits`);
  neighbours 38-40 mm apart push or pull with less than friction x weight;
* placement: magnets glued up to 0.25 mm off their holes' centres, 0.15 mm high or low and
  tilted up to 5° (seeded): the field on a sensor, the reach and the pinner's lift stay inside
  the limits;
* the second method: every magnet of the array cut into cells and solved on its recoil line
  (magpylib-material-response) against the rigid array at its working point: within 5 % at the
  sensor, for one checker and a stack of five.

Grades (bgboard.hardware.magnet_grades): N38, dhit.pl's material table (Br 1220-1260 mT, HcJ
>= 955 kA/m, alpha(Br) -0.12 %/K, alpha(HcJ) -0.6 %/K at the worse ends of the catalogue ranges).

Usage: python benchmarks/magnet_arrays.py [--json] [--quick]   (--quick: the design's array alone)
"""

from __future__ import annotations

import functools
import json
import math
import random
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from bgboard.hardware import magnet_forces, magnets
from bgboard.hardware.magnet_grades import GRADE_TABLE, MIN_MARGIN, STORAGE_C, margin
from bgboard.hardware.magnets import DIRECTIONS_DEG, Jitter
from bgboard.hardware.physics import (
    LEVEL_SEPARATION,
    SENSORS,
    Design,
    FieldTable,
    crowded_tolerance_mm,
    hex_centres,
    load_design,
    response,
    single_tolerance_mm,
)

#: A lone checker must read as one this far off a sensor (two sensors per 39 mm slot).
QUARTER_PITCH_MM = 9.75
#: Placement tolerance of a glued magnet: off its hole's centre (mm), high or low (mm), tilt (°).
PLACEMENT = (0.25, 0.15, 5.0)


@dataclass(frozen=True, slots=True)
class Array:
    """``rings`` hexagonal rings of stock discs ``diameter_mm`` x ``thickness_mm`` of ``grade``
    round one on the checker's axis (0: that disc alone; 1: 7 discs; 2: 19) ``spacing_mm``
    apart, their bottom faces ``gap_mm`` above the sensor's element: sensing.toml's
    ``[magnet]`` with ``rings`` and ``spacing_mm``, and the gap."""

    name: str
    diameter_mm: float
    thickness_mm: float
    grade: str
    rings: int
    spacing_mm: float
    gap_mm: float

    @property
    def count(self) -> int:
        return len(self.positions())

    def positions(self) -> list[tuple[float, float]]:
        """The discs' centres (mm) on the checker, the first on its axis (a hexagonal array)."""
        return list(hex_centres(self.rings, self.spacing_mm))

    @property
    def width_mm(self) -> float:
        """Across the array (its outer discs' outer edges)."""
        return 2 * self.rings * self.spacing_mm + self.diameter_mm


#: The arrays examined: where the discs sit at the checker's underside (a 4 mm gap) the field
#: ripples; a spacing of 6-7 mm needs about that gap; 2 x 1 and 3 x 1 mm are among the
#: commonest stock discs, N38 the commonest grade.  (Twelve 3 x 1 mm discs on a 22 mm circle
#: near the rim, with none on the axis, were computed before the array went into sensing.toml:
#: under its middle a ring's field is its return, so a centred checker read as the other colour.)
ARRAYS: tuple[Array, ...] = (
    Array("7 x 3x1.5 N38, 18 mm apart, at the underside", 3.0, 1.5, "N38", 1, 9.0, 4.0),
    Array("7 x 3x1.5 N38, 20 mm apart, at the top", 3.0, 1.5, "N38", 1, 10.0, 9.0),
    Array("19 x 2x1 N38, 6 mm apart, at the underside", 2.0, 1.0, "N38", 2, 6.0, 4.0),
    Array("19 x 2x1 N38, 6 mm apart, 2 mm up", 2.0, 1.0, "N38", 2, 6.0, 5.5),
    Array("19 x 3x1 N38, 6.5 mm apart, 2.5 mm up", 3.0, 1.0, "N38", 2, 6.5, 6.0),
    Array("19 x 3x1 N38, 7 mm apart, 3 mm up", 3.0, 1.0, "N38", 2, 7.0, 6.5),
    Array("19 x 2x1 N38, 6.5 mm apart, 2.5 mm up", 2.0, 1.0, "N38", 2, 6.5, 6.0),
    Array("19 x 2x1 N38, 7 mm apart, 2.5 mm up", 2.0, 1.0, "N38", 2, 7.0, 6.0),
    Array("19 x 2x1 N38, 7 mm apart, 3 mm up", 2.0, 1.0, "N38", 2, 7.0, 6.5),
    Array("19 x 2x1 N38, 6.5 mm apart, 3 mm up", 2.0, 1.0, "N38", 2, 6.5, 6.5),
)
#: The design's array (hardware/sensing.toml): every constraint on the magnet met, and the
#: recognition benchmark's best read (hardware/README.md, "Stock discs in an array").
CHOSEN = ARRAYS[8]
#: Gaps (mm) the chosen array is also computed at: the window a stack-up may land in.
GAP_WINDOW_MM = (5.5, 6.0, 6.5, 7.0, 7.5)


# ---------------------------------------------------------------------- the magnets
def _design(base: Design, a: Array) -> Design:
    """The board's design with the array's discs, grade and gap as its magnets."""
    return base.with_options(magnet=(a.diameter_mm, a.thickness_mm), grade=a.grade, gap_mm=a.gap_mm,
                             rings=a.rings, spacing_mm=a.spacing_mm)


def working_j(base: Design, a: Array) -> float:
    """The polarisation (T) a disc of the array keeps on its recoil line (the grade's nominal
    permeability; the array's other discs change it by well under 0.1 %)."""
    return magnets.working_polarization_t(_design(base, a))


def bz_rows(base: Design, a: Array, offsets: list[float]) -> list[list[float]]:
    """Bz (mT) at a sensor ``offset`` mm from the checker's centre in each direction of
    :data:`DIRECTIONS_DEG`: ``[offset][direction]``."""
    d = _design(base, a)
    return [[magnets.bz_mt(d, [-r], turn_deg=-p)[0] for p in DIRECTIONS_DEG] for r in offsets]


@functools.lru_cache(maxsize=32)
def mean_table(base: Design, a: Array) -> FieldTable:
    """The array's :class:`FieldTable` (:func:`bgboard.hardware.magnets.compute_table`: its
    field averaged over the directions round it), computed once per array and design."""
    return magnets.compute_table(_design(base, a))


def worst_direction_reach_mm(base: Design, a: Array, table: FieldTable, step: float = 0.5,
                             jitter: Jitter | None = None) -> float:
    """:func:`single_tolerance_mm` in the worst direction: how far off its sensor a lone checker
    reads as one whichever way it is turned (its field in every direction at least 0.58 of
    the mean centred field, the next sensor a pitch away under 0.42 in every direction)."""
    magpy = magnets.require()
    b0 = table.at(0, 0.0)
    pitch = base.slot_pitch_mm
    col = magnets.checker(magpy, _design(base, a), jitter=jitter)
    x = 0.0
    while x + step <= pitch / 2:
        r = x + step
        obs = []
        for p in range(0, 360, 15):
            c, s = math.cos(math.radians(p)), math.sin(math.radians(p))
            obs += [(-r * c / 1000, -r * s / 1000, 0.0), ((pitch - r) * c / 1000, (pitch - r) * s / 1000, 0.0)]
        b = col.getB(obs)[:, 2] * 1000
        here, other = b[0::2] / b0, b[1::2] / b0
        if min(here) < 0.58 or max(abs(other)) >= 0.42:
            break
        x = r
    return x


def gap_window(base: Design, a: Array) -> list[tuple[float, float, float, float, float, float]]:
    """The array at each gap of :data:`GAP_WINDOW_MM`: ``(gap, B0 mT, lone, crowded, worst
    direction reach mm, what the second checker adds)``."""
    out = []
    for gap in GAP_WINDOW_MM:
        b = Array(a.name, a.diameter_mm, a.thickness_mm, a.grade, a.rings, a.spacing_mm, gap)
        table = mean_table(base, b)
        resp = response(base, table)
        out.append((gap, round(table.at(0, 0.0), 2), single_tolerance_mm(base, table), crowded_tolerance_mm(base, table),
                    worst_direction_reach_mm(base, b, table), round(resp.stack_gain, 3)))
    return out


def recoil_check(base: Design, a: Array, stack: int, mesh: tuple[int, int, int] | None = None) -> tuple[float, float]:
    """Bz (mT) at the sensor under a centred stack of ``stack`` checkers: (rigid discs at their
    working point, every disc cut into cells — ``mesh``, default
    :data:`bgboard.hardware.magnets.ARRAY_MESH` — and solved together on its recoil line)."""
    d = _design(base, a)
    return magnets.bz_mt(d, [0.0], stack=stack)[0], magnets.recoil_bz_mt(d, stack, mesh=mesh)


# ---------------------------------------------------------------------- placement
def jitters(a: Array, seed: int) -> Jitter:
    """Each disc of one checker glued off: up to :data:`PLACEMENT` (seeded)."""
    rng = random.Random(seed)
    off, high, tilt = PLACEMENT
    out = []
    for _ in range(a.count):
        r, ang = off * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        out.append((r * math.cos(ang), r * math.sin(ang), rng.uniform(-high, high), rng.uniform(0, tilt), rng.uniform(0, 360)))
    return out


def placement(base: Design, a: Array, table: FieldTable, checkers: int = 6) -> dict[str, float]:
    """Checkers glued off (:func:`jitters`, seeds 1..checkers): the field centred on a sensor
    (least and most, in checker units), the least worst-direction reach (mm) and the strongest
    pinner lift and stack pull (mN) between two of them."""
    magpy = magnets.require()
    d = _design(base, a)
    b0 = table.at(0, 0.0)
    fields, reaches = [], []
    for seed in range(1, checkers + 1):
        jit = jitters(a, seed)
        fields.append(float(magnets.checker(magpy, d, jitter=jit).getB((0, 0, 0))[2]) * 1000 / b0)
        reaches.append(worst_direction_reach_mm(base, a, table, jitter=jit))
    f = magnet_forces.forces(d, (jitters(a, 1), jitters(a, 2)))
    return {"b0_low": round(min(fields), 3), "b0_high": round(max(fields), 3), "reach": min(reaches),
            "pin_lift": f["pin_lift"], "stack_pull": f["stack_pull"]}


# ---------------------------------------------------------------------- the verdict
@dataclass(frozen=True, slots=True)
class Verdict:
    """One array's figures and the constraints it breaks."""

    array: str
    count: int
    width_mm: float
    gap_mm: float
    working_j_t: float
    b0_mt: float
    stack_gain: float
    third_adds: float
    stack15_mt: float
    sensor: str
    lone_mm: float
    crowded_mm: float
    worst_dir_mm: float
    inner_case: str
    inner_ka_m: float
    margin_cold: float
    margin_hot: float
    stack_pull_mn: float
    pin_lift_mn: float
    pin_side_mn: float
    pinner_sits: bool
    neighbour_mn: float
    fails: tuple[str, ...]


def evaluate(base: Design, a: Array) -> Verdict:
    """Every figure of one array on the board (slot pitch, thresholds, checker as designed)."""
    table = mean_table(base, a)
    b0 = table.at(0, 0.0)
    fails = []
    if b0 <= 0:
        # a ring's field under its middle is its return field: a centred checker reads as the other colour
        fails.append("other colour when centred")
        stack_gain = third = stack15 = lone = crowded = worst_dir = 0.0
        sensor = "none"
    else:
        resp = response(base, table)
        stack_gain, third = resp.stack_gain, resp.stack_units[2] - resp.stack_units[1]
        stack15 = resp.stack_units[-1] * b0
        fitting = [s for s in SENSORS.values() if s.range_mt > 1.1 * stack15]
        sensor = max(fitting, key=lambda s: s.mv_per_mt).name if fitting else "none"
        lone, crowded = single_tolerance_mm(base, table), crowded_tolerance_mm(base, table)
        worst_dir = worst_direction_reach_mm(base, a, table)
    d = _design(base, a)
    case, inner = magnets.worst_inner_field(d, recoil=False)
    grade = GRADE_TABLE[a.grade]
    cold, hot = (margin(grade, inner, t, typical=False) for t in STORAGE_C)
    f = magnet_forces.forces(d)
    if min(cold, hot) < MIN_MARGIN:
        fails.append("loses field")
    if min(lone, crowded, worst_dir) < QUARTER_PITCH_MM:
        fails.append("short reach")
    if stack_gain < LEVEL_SEPARATION:
        fails.append("stack not seen")
    if f["stack_pull"] >= base.weight_mn:
        fails.append("stack holds together")
    if not f["pin_sits"]:
        fails.append("pinner lifted or slid")
    if f["neighbour"] >= base.friction * base.weight_mn:
        fails.append("neighbours slide")
    if sensor == "none":
        fails.append("past every sensor's range")
    return Verdict(a.name, a.count, a.width_mm, a.gap_mm, round(working_j(base, a), 4), round(b0, 2),
                   round(stack_gain, 3), round(third, 3), round(stack15, 1),
                   sensor, lone, crowded, worst_dir, case, round(inner, 1), round(cold, 3), round(hot, 3),
                   f["stack_pull"], f["pin_lift"], f["pin_side"], bool(f["pin_sits"]), f["neighbour"], tuple(fails))


def ripple(base: Design, a: Array, offsets: tuple[float, ...] = (3.0, 6.0, 9.75, 12.0)) -> list[tuple[float, float, float]]:
    """How the field (mT) at a sensor ``offset`` mm from the checker's centre changes as the
    checker turns: ``(offset, least, most)`` over :data:`DIRECTIONS_DEG`."""
    rows = bz_rows(base, a, list(offsets))
    return [(r, round(min(d), 2), round(max(d), 2)) for r, d in zip(offsets, rows)]


def reversed_disc(base: Design, a: Array, index: int, offsets: tuple[float, ...] = (0.0, 3.0, 6.0, 9.75)) -> list[float]:
    """A checker with disc ``index`` glued the wrong way up: its field (in checker units) at
    a sensor ``offset`` mm from its centre, along the x axis (the disc's side)."""
    magpy = magnets.require()
    j = working_j(base, a)
    col = magnets.checker(magpy, _design(base, a))
    col.children[index].polarization = (0.0, 0.0, -j)
    b0 = mean_table(base, a).at(0, 0.0)
    return [round(float(col.getB((-r / 1000, 0.0, 0.0))[2]) * 1000 / b0, 3) for r in offsets]


def main(argv: list[str]) -> int:
    base = load_design()
    start = time.perf_counter()
    arrays = (CHOSEN,) if "--quick" in argv else ARRAYS
    verdicts = [evaluate(base, a) for a in arrays]
    if "--json" in argv:
        print(json.dumps([asdict(v) for v in verdicts], indent=1))
        return 0
    print(f"arrays on the design's board (slot pitch {base.slot_pitch_mm:g} mm, a {base.checker_mass_g:g} g checker: "
          f"weight {base.weight_mn:.1f} mN, friction {base.friction:g}), {time.perf_counter() - start:.1f} s")
    print("| array | width mm | gap mm | J work T | B0 mT | 2nd / 3rd adds | 15 stacked mT, sensor "
          "| reach lone / crowded / worst direction mm | H inside kA/m (case) | margin -20 / 60 °C "
          "| stack pull mN | pinner lift / side mN | neighbours mN | breaks |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|")
    for v in verdicts:
        print(f"| {v.array} | {v.width_mm:g} | {v.gap_mm:g} | {v.working_j_t:.3f} | {v.b0_mt:.2f} | {v.stack_gain:.2f} / {v.third_adds:.2f} "
              f"| {v.stack15_mt:.1f}, {v.sensor.removeprefix('DRV5055')} | {v.lone_mm:g} / {v.crowded_mm:g} / {v.worst_dir_mm:g} "
              f"| {v.inner_ka_m:.0f} ({v.inner_case}) | {v.margin_cold:+.0%} / {v.margin_hot:+.0%} | {v.stack_pull_mn:.0f} "
              f"| {v.pin_lift_mn:.0f} / {v.pin_side_mn:.0f} | {v.neighbour_mn:.1f} | {', '.join(v.fails) or '-'} |")
    for a, v in zip(arrays, verdicts):
        if v.fails:
            continue
        table = mean_table(base, a)
        p = placement(base, a, table)
        print(f"{a.name}: glued off (up to {PLACEMENT[0]:g} mm, {PLACEMENT[1]:g} mm high/low, {PLACEMENT[2]:g}°, six checkers): "
              f"centred field {p['b0_low']:.3f}-{p['b0_high']:.3f} of a checker, worst-direction reach {p['reach']:g} mm, "
              f"pinner lift {p['pin_lift']:.0f} mN, stack pull {p['stack_pull']:.0f} mN")
        for r, low, high in ripple(base, a):
            print(f"{a.name}: {r:g} mm off a sensor, turned any way: {low:.2f}-{high:.2f} mT")
        for index in (0, 1, a.count - 1):
            print(f"{a.name}: disc {index} (at {a.positions()[index][0]:.0f}, {a.positions()[index][1]:.0f} mm) the wrong way up: "
                  f"{reversed_disc(base, a, index)} of a checker 0 / 3 / 6 / 9.75 mm off a sensor")
        for off, up, side, holds in magnet_forces.pin_table(_design(base, a)):
            print(f"{a.name}: a pinner {off:g} mm off its victim: lifted by {up:.0f} mN (half its weight: "
                  f"{base.weight_mn / 2:.1f}), pushed sideways by {side:.0f} mN (friction holds {holds:.0f})")
        for gap, b0, lone, crowded, worst, gain in gap_window(base, a):
            print(f"{a.name} at a {gap:g} mm gap: B0 {b0:.2f} mT, reach {lone:g} / {crowded:g} / {worst:g} mm, "
                  f"the second checker adds {gain:.2f}")
        for stack, mesh in ((1, (6, 2, 1)), (1, (4, 1, 1)), (5, (4, 1, 1))):  # 12 / 4 cells a disc
            rigid, solved = recoil_check(base, a, stack, mesh)
            print(f"{a.name}: {stack} stacked, rigid at the working point {rigid:.3f} mT, "
                  f"solved on the recoil line ({mesh} cells a disc) {solved:.3f} mT ({rigid / solved - 1:+.2%})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
