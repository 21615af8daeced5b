"""The field computed by magpylib (the adapter: the only module that imports it).

magpylib (https://magpylib.readthedocs.io) gives the exact field of a homogeneously,
axially magnetised cylinder; a checker's magnets are an array of them (sensing.toml's
``[magnet] rings``: one disc on its axis and hexagonal rings round it, :func:`checker`), a
stack is several checkers 7 mm apart.  An array's field is not the same all round it; the
table and every field here are its mean over the directions round the checker
(:data:`DIRECTIONS_DEG`: a checker lies turned any way on the board).
magpylib's magnets are rigid; a real one sits on its recoil line (its polarisation falls
by (mu_rec - 1) mu0 H under its own opposing field H), so the polarisation every field here
uses is the magnet's working point, :func:`working_polarization_t`, solved by
magpylib-material-response (each magnet cut into cells, each cell's polarisation made
consistent with the field of all the others).  :func:`inner_field_ka_m` is the field inside
a magnet against which its grade's coercivity is checked (:mod:`bgboard.hardware.magnet_grades`).
Everything here is in mm and mT; magpylib works in SI units.  ``magpylib`` and
``magpylib-material-response`` are the ``hardware`` extra (``pip install 'bgboard[hardware]'``):
:func:`require` says so in one sentence when one is missing.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Sequence

from bgboard.errors import MissingExtraError, missing_extra
from bgboard.hardware.magnet_grades import GRADE_TABLE
from bgboard.hardware.physics import MAX_STACK, Design, FieldTable, magnet_centres

#: Directions round a checker (°) its field is averaged over: 0-30°, because a hexagonal array
#: repeats every 60° and is mirrored about 0° and 30°.  A lone disc's field is the same in all.
DIRECTIONS_DEG = (0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0)
#: A disc glued off its place: ``(dx, dy, dz mm, tilt °, tilt axis °)`` for each of a checker's discs.
Jitter = Sequence[tuple[float, float, float, float, float]]

#: The table's lateral reach and step (mm). Beyond 80 mm the table says 0: magpylib gives one
#: magnet of the design -0.044 mT there (0.4 % of a checker, 0.8 % of the firmware's threshold)
#: and a stack of 15 -0.135 mT, falling below 0.01 mT past about 135 mm.
REACH_MM = 80.0
STEP_MM = 0.5

MISSING = missing_extra("magpylib", "bgboard hardware field")
MISSING_RESPONSE = missing_extra("magpylib_material_response", "bgboard hardware field")


def require() -> Any:
    """The magpylib module, or :class:`~bgboard.errors.MissingExtraError` (exit 69) saying how
    to install it."""
    try:
        import magpylib
    except ImportError:
        raise MissingExtraError(MISSING) from None
    return magpylib


#: How finely :func:`working_polarization_t` cuts a magnet (around, across, through): 61
#: cells; finer meshes (190, 764, 1,532 cells) move its field at the sensor by under 0.1 %.
MESH = (16, 4, 1)


def _require_response() -> tuple[Any, Any]:
    """magpylib-material-response's ``apply_demag`` and ``mesh_Cylinder``."""
    try:
        import magpylib_material_response as mmr
        from magpylib_material_response.demag import apply_demag
        from magpylib_material_response.meshing import mesh_Cylinder
    except ImportError:
        raise MissingExtraError(MISSING_RESPONSE) from None
    mmr.disable_logging()
    return apply_demag, mesh_Cylinder


def _cylinder(magpy: Any, design: Design, x_mm: float, y_mm: float, level: int, polarization_t: float) -> Any:
    z = design.gap_mm + design.magnet_thickness_mm / 2 + level * design.checker_thickness_mm
    return magpy.magnet.Cylinder(
        polarization=(0, 0, polarization_t),
        dimension=(design.magnet_diameter_mm / 1000, design.magnet_thickness_mm / 1000),
        position=(x_mm / 1000, y_mm / 1000, z / 1000),
    )


def _solved(design: Design, mu_rec: float, remanence_t: float) -> Any:
    """One magnet of ``design`` cut into cells, each at its working point (recoil ``mu_rec``):
    a copy of the one solved once per process (solving takes about a second)."""
    return _solved_once(design, mu_rec, remanence_t).copy()


@functools.lru_cache(maxsize=16)
def _solved_once(design: Design, mu_rec: float, remanence_t: float) -> Any:
    magpy = require()
    apply_demag, mesh_cylinder = _require_response()
    cells = mesh_cylinder(_cylinder(magpy, design, 0.0, 0.0, 0, remanence_t), MESH)
    return apply_demag(cells, susceptibility=mu_rec - 1.0)


@functools.lru_cache(maxsize=32)
def working_polarization_t(design: Design, mu_rec: float | None = None) -> float:
    """The polarisation (T) a magnet of ``design`` keeps at its working point at 20 °C: its
    grade's remanence lowered along its recoil line (``mu_rec``, default the grade's nominal)
    by its own field — the volume mean of the solved cells' polarisation; or, without
    ``mu_rec``, the polarisation a measured strip gave (``[magnet] measured_polarization_t``)."""
    if mu_rec is None and design.measured_polarization_t is not None:
        return design.measured_polarization_t
    grade = GRADE_TABLE[design.grade]
    solved = _solved(design, grade.mu_rec_nominal if mu_rec is None else mu_rec, grade.br_t)
    cells = list(solved.sources_all)
    volume = sum(c.volume for c in cells)
    return float(sum(c.volume * c.polarization[2] for c in cells) / volume)


def turns(design: Design) -> tuple[float, ...]:
    """The turns of a checker its field is averaged over (one for a lone disc)."""
    return DIRECTIONS_DEG if design.magnet_rings else (0.0,)


def checker(magpy: Any, design: Design, x_mm: float = 0.0, y_mm: float = 0.0, level: int = 0, sign: int = 1,
            polarization_t: float | None = None, turn_deg: float = 0.0, tilt_deg: float = 0.0,
            jitter: Jitter | None = None) -> Any:
    """One checker's magnets as a magpylib Collection: its centre at ``(x, y)``, ``level`` up
    a stack, ``sign`` +1 north-up, each disc rigid at ``polarization_t`` (default: the working
    point, :func:`working_polarization_t`), the array turned by ``turn_deg`` about the checker's
    axis and the checker leaning by ``tilt_deg`` about its own centre (y axis); ``jitter``:
    each disc glued off its place."""
    j = working_polarization_t(design) if polarization_t is None else polarization_t
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    z0 = design.gap_mm + design.magnet_thickness_mm / 2 + level * design.checker_thickness_mm
    discs = []
    for i, (px, py) in enumerate(magnet_centres(design)):
        dx = dy = dz = tilt = axis = 0.0
        if jitter is not None:
            dx, dy, dz, tilt, axis = jitter[i]
        px, py = px + dx, py + dy
        m = _cylinder(magpy, design, x_mm + c * px - s * py, y_mm + s * px + c * py, level, sign * j)
        if dz:
            m.move((0.0, 0.0, dz / 1000))
        if tilt:
            m.rotate_from_angax(tilt, (math.cos(math.radians(axis)), math.sin(math.radians(axis)), 0.0), anchor=None)
        discs.append(m)
    col = magpy.Collection(*discs)
    if tilt_deg:
        # a leaning stack: each checker turned about its own centre
        col.rotate_from_angax(tilt_deg, "y", anchor=(x_mm / 1000, y_mm / 1000, z0 / 1000))
    return col


def bz_mt(
    design: Design,
    sensor_x_mm: Sequence[float],
    stack: int = 1,
    offset_mm: float = 0.0,
    lean_mm: float = 0.0,
    tilt_deg: float = 0.0,
    sign: int = 1,
    polarization_t: float | None = None,
    turn_deg: float | None = None,
) -> list[float]:
    """Bz (mT) at sensors at ``sensor_x_mm`` (on the x axis) of a stack of ``stack``
    checkers whose lowest sits at ``offset_mm``; each further checker ``lean_mm`` further
    along x and all turned by ``tilt_deg`` (a leaning stack).  Each magnet rigid at
    ``polarization_t`` (default: its working point, :func:`working_polarization_t`); the mean
    over the checker's turns (:func:`turns`), or the checkers turned by ``turn_deg``."""
    magpy = require()
    observers = [(x / 1000, 0.0, 0.0) for x in sensor_x_mm]
    chosen = turns(design) if turn_deg is None else (turn_deg,)
    total = [0.0] * len(observers)
    for turn in chosen:
        mags = [checker(magpy, design, offset_mm + k * lean_mm, 0.0, k, sign, polarization_t, turn, tilt_deg)
                for k in range(stack)]
        b = magpy.Collection(*mags).getB(observers)
        total = [t + float(v) * 1000 for t, v in zip(total, b[..., 2].reshape(-1))]
    return [t / len(chosen) for t in total]


def _round_about(offsets_mm: Sequence[float], dirs: Sequence[float]) -> list[tuple[float, float, float]]:
    """Observers (m) at each of ``offsets_mm`` from the checker's centre in each of the
    directions ``dirs`` (°), offset after offset."""
    return [(-r * math.cos(math.radians(p)) / 1000, -r * math.sin(math.radians(p)) / 1000, 0.0)
            for r in offsets_mm for p in dirs]


def _means(flat: Sequence[float], per: int) -> list[float]:
    """The means of ``flat``'s runs of ``per`` values (one offset's directions)."""
    return [sum(flat[i:i + per]) / per for i in range(0, len(flat), per)]


def compute_table(design: Design) -> FieldTable:
    """The :class:`FieldTable` of ``design``: one checker's magnets at each stack level, at
    offsets 0..REACH_MM mm in STEP_MM steps, averaged over the directions round it (rounded
    to 0.1 µT, so the file is reproducible)."""
    magpy = require()
    n = int(round(REACH_MM / STEP_MM)) + 1
    dirs = turns(design)
    observers = _round_about([i * STEP_MM for i in range(n)], dirs)
    rows = []
    for level in range(MAX_STACK):
        b = checker(magpy, design, level=level).getB(observers)
        rows.append(tuple(round(v, 4) for v in _means([float(v) * 1000 for v in b[:, 2]], len(dirs))))
    shape = (f"{design.magnet_count} discs {design.magnet_diameter_mm:g} x {design.magnet_thickness_mm:g} mm "
             f"{design.magnet_spacing_mm:g} mm apart, averaged over {len(dirs)} directions round the checker"
             if design.magnet_rings else "one disc")
    source = (f"hardware/make_field.py: magpylib {magpy.__version__} Cylinder, axial, from hardware/sensing.toml ({shape}), "
              f"at the working point J = {working_polarization_t(design):.4f} T (magpylib-material-response)")
    return FieldTable(STEP_MM, tuple(rows), design.key(), source)


# ---------------------------------------------------------------------- working point
#: Where a magnet's neighbours lie in the cases :func:`inner_field_ka_m` checks: ``(x, y,
#: level, sign)`` in mm, stack levels and colour, relative to a north-up magnet on the board.
#: A crowded row: its own row touching it (38 mm) and both neighbouring points' rows 40 mm
#: across, either colour; a pin: the opposite colour lying on it (its field opposes).
NEIGHBOURS: dict[str, tuple[tuple[float, float, int, int], ...]] = {
    "alone": (),
    "bottom of a stack of five": tuple((0.0, 0.0, k, 1) for k in range(1, 5)),
    "middle of a stack of five": tuple((0.0, 0.0, k, 1) for k in (-2, -1, 1, 2)),
    "pinned under one pinner": ((0.0, 0.0, 1, -1),),
    "pinned under two pinners": ((0.0, 0.0, 1, -1), (0.0, 0.0, 2, -1)),
    "crowded row, same colour around": tuple((a, b, 0, 1) for a in (-38.0, 0.0, 38.0) for b in (-40.0, 0.0, 40.0)
                                             if (a, b) != (0.0, 0.0)),
    "crowded row, other colour beside": tuple((a, b, 0, 1 if b == 0 else -1) for a in (-38.0, 0.0, 38.0)
                                              for b in (-40.0, 0.0, 40.0) if (a, b) != (0.0, 0.0)),
}


def _inside(design: Design, level: int) -> list[tuple[float, float, float]]:
    """Points (m) filling a magnet at ``level`` centred on the sensor's axis: 13 radii to 98 % of
    its radius, 8 directions, 3 heights."""
    r_max = design.magnet_diameter_mm / 2 * 0.98
    z0 = design.gap_mm + design.magnet_thickness_mm / 2 + level * design.checker_thickness_mm
    out = []
    for i in range(13):
        r = r_max * i / 12
        for k in range(8):
            a = 2 * math.pi * k / 8
            for j in range(3):
                z = z0 + design.magnet_thickness_mm * 0.45 * (j - 1)
                out.append((r * math.cos(a) / 1000, r * math.sin(a) / 1000, z / 1000))
    return out


def _inside_all(design: Design, level: int) -> list[tuple[float, float, float]]:
    """:func:`_inside` for every disc of a checker (disc after disc, :func:`magnet_centres`)."""
    one = _inside(design, level)
    return [(x + cx / 1000, y + cy / 1000, z) for cx, cy in magnet_centres(design) for x, y, z in one]


def inner_field_ka_m(design: Design, case: str, recoil: bool = True) -> float:
    """The strongest field (kA/m, negative: against its magnetisation) inside any disc of a
    north-up checker of ``design`` at 20 °C, with the neighbouring checkers of
    :data:`NEIGHBOURS` ``[case]`` (the middle of a stack sits two levels up; its pinners and
    the checkers stacked on it lie straight over it, each disc over one of its own).
    ``recoil``: each disc on its recoil line at the low end of its grade's recoil
    permeability (the least relief: the worst case), the checker's other discs and its
    neighbours at their working point; otherwise every magnet rigid at its grade's remanence
    (magpylib's ``getH`` alone: the plainest, most pessimistic figure)."""
    magpy = require()
    import numpy as np

    grade = GRADE_TABLE[design.grade]
    base = 2 if case.startswith("middle") else 0
    points = _inside_all(design, base)
    j = grade.br_t if not recoil else working_polarization_t(design, grade.mu_rec[0])
    sources = [checker(magpy, design, x, y, base + level, sign, j) for x, y, level, sign in NEIGHBOURS[case]]
    if not recoil:
        sources.append(checker(magpy, design, level=base, polarization_t=j))
    h = magpy.getH(magpy.Collection(*sources), points) if sources else np.zeros((len(points), 3))
    if recoil:
        # each disc's own field on its recoil line (the same inside every disc: computed once),
        # the checker's other discs rigid at the working point
        h = h + np.tile(_own_field(design, base), (design.magnet_count, 1))
        if design.magnet_count > 1:
            one = _cylinder(magpy, design, 0.0, 0.0, base, j)
            alone = magpy.getH(one, _inside(design, base))
            h = h + magpy.getH(checker(magpy, design, level=base, polarization_t=j), points) \
                - np.tile(alone, (design.magnet_count, 1))
    return float(min(h[:, 2])) / 1000


def worst_inner_field(design: Design, recoil: bool = True) -> tuple[str, float]:
    """``(case, kA/m)``: the case of :data:`NEIGHBOURS` whose :func:`inner_field_ka_m` is the
    strongest."""
    return min(((case, inner_field_ka_m(design, case, recoil)) for case in NEIGHBOURS), key=lambda p: p[1])


@functools.lru_cache(maxsize=16)
def _own_field(design: Design, base: int) -> Any:
    """H (A/m, points x 3) of one disc of ``design`` at stack level ``base``, solved on its
    recoil line at the low end of its grade's recoil permeability, at its own inside points
    (:func:`_inside`).  The same for every case of :func:`inner_field_ka_m` at that level:
    computed once (the solved magnet's 61 cells at 312 points are most of the work)."""
    magpy = require()
    grade = GRADE_TABLE[design.grade]
    own = _solved(design, grade.mu_rec[0], grade.br_t)
    own.move((0.0, 0.0, base * design.checker_thickness_mm / 1000))
    points = _inside(design, base)
    h = magpy.getH(own, points, squeeze=False).reshape(len(points), 3)
    h.flags.writeable = False  # shared by every later call
    return h


# ---------------------------------------------------------------------- the second method
#: How finely :func:`recoil_bz_mt` cuts each small disc of an array (around, across, through):
#: 12 cells for one checker, 4 for a stack of five (the solution is a dense system over every
#: cell of every disc); 12 and 4 cells give the sensor's field within 0.2 % of each other.
ARRAY_MESH = {1: (6, 2, 1)}
ARRAY_MESH_STACKED = (4, 1, 1)


@functools.lru_cache(maxsize=16)
def recoil_bz_mt(design: Design, stack: int = 1, mu_rec: float | None = None,
                 mesh: tuple[int, int, int] | None = None) -> float:
    """Bz (mT) at the sensor under a centred stack of ``stack`` checkers, every disc cut into
    cells and solved together on its recoil line (magpylib-material-response): the check of
    the rigid model at the working point (:func:`bz_mt`).  Solved once per process for each
    design and stack (a stack of five arrays' 380 cells take seconds).  ``mesh``: how each disc
    is cut (default :data:`MESH` for a lone disc, :data:`ARRAY_MESH` for an array's)."""
    magpy = require()
    apply_demag, mesh_cylinder = _require_response()
    grade = GRADE_TABLE[design.grade]
    if mesh is None:
        mesh = MESH if design.magnet_count == 1 else ARRAY_MESH.get(stack, ARRAY_MESH_STACKED)
    cells = [mesh_cylinder(disc, mesh) for k in range(stack)
             for disc in checker(magpy, design, level=k, polarization_t=grade.br_t).children]
    solved = apply_demag(magpy.Collection(*cells), susceptibility=(grade.mu_rec_nominal if mu_rec is None else mu_rec) - 1.0)
    return float(solved.getB((0.0, 0.0, 0.0))[2]) * 1000


def unit_bz_mt(design: Design, gap_mm: float, configs: Sequence[tuple[float, int]]) -> list[float]:
    """Bz (mT) at a sensor for each ``(offset_mm, stack)``: a centred stack of ``stack``
    north-up checkers whose magnets have unit polarisation (1 T), its centre ``offset_mm``
    from the sensor, the lowest ``gap_mm`` above it, averaged over the directions round it
    (the shape :func:`bgboard.hardware.bench_fit.fit` scales)."""
    magpy = require()
    d = design.with_options(gap_mm=gap_mm)
    dirs = turns(d)
    by_stack: dict[int, list[float]] = {}
    for offset, stack in configs:
        by_stack.setdefault(stack, []).append(offset)
    found: dict[tuple[float, int], float] = {}
    for stack, offsets in by_stack.items():
        if stack == 0:
            found.update({(o, 0): 0.0 for o in offsets})
            continue
        b = magpy.Collection(*[checker(magpy, d, level=k, polarization_t=1.0) for k in range(stack)]).getB(
            _round_about(offsets, dirs))
        found.update(((o, stack), v) for o, v in zip(offsets, _means([float(v) * 1000 for v in b.reshape(-1, 3)[:, 2]], len(dirs))))
    return [found[(o, k)] for o, k in configs]


__all__ = ["ARRAY_MESH", "ARRAY_MESH_STACKED", "DIRECTIONS_DEG", "MESH", "MISSING", "NEIGHBOURS", "REACH_MM", "STEP_MM",
           "Jitter", "bz_mt", "checker", "compute_table", "inner_field_ka_m", "recoil_bz_mt", "require", "turns",
           "unit_bz_mt", "working_polarization_t", "worst_inner_field"]
