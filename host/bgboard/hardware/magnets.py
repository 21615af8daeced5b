"""The field computed by magpylib (the adapter: the only module that imports it).

magpylib (https://magpylib.readthedocs.io) gives the exact field of a homogeneously,
axially magnetised cylinder; a checker's magnet is one, a stack is several 7 mm apart.
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
from bgboard.hardware.physics import MAX_STACK, Design, FieldTable

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


def _magnet(magpy: Any, design: Design, x_mm: float, level: int, sign: int = 1, tilt_deg: float = 0.0,
            polarization_t: float | None = None) -> Any:
    j = working_polarization_t(design) if polarization_t is None else polarization_t
    m = _cylinder(magpy, design, x_mm, 0.0, level, sign * j)
    if tilt_deg:
        # a leaning stack: each checker turned about its own centre (y axis)
        m.rotate_from_angax(tilt_deg, "y", anchor=None)
    return m


def bz_mt(
    design: Design,
    sensor_x_mm: Sequence[float],
    stack: int = 1,
    offset_mm: float = 0.0,
    lean_mm: float = 0.0,
    tilt_deg: float = 0.0,
    sign: int = 1,
    polarization_t: float | None = None,
) -> list[float]:
    """Bz (mT) at sensors at ``sensor_x_mm`` (on the x axis) of a stack of ``stack``
    checkers whose lowest sits at ``offset_mm``; each further checker ``lean_mm`` further
    along x and all turned by ``tilt_deg`` (a leaning stack).  Each magnet rigid at
    ``polarization_t`` (default: its working point, :func:`working_polarization_t`)."""
    magpy = require()
    mags = [_magnet(magpy, design, offset_mm + k * lean_mm, k, sign, tilt_deg, polarization_t) for k in range(stack)]
    observers = [(x / 1000, 0.0, 0.0) for x in sensor_x_mm]
    b = magpy.Collection(*mags).getB(observers)
    return [float(v) * 1000 for v in b[..., 2].reshape(-1)]


def compute_table(design: Design) -> FieldTable:
    """The :class:`FieldTable` of ``design``: one magnet at each stack level, at offsets
    0..REACH_MM mm in STEP_MM steps (rounded to 0.1 µT, so the file is reproducible)."""
    magpy = require()
    n = int(round(REACH_MM / STEP_MM)) + 1
    observers = [(i * STEP_MM / 1000, 0.0, 0.0) for i in range(n)]
    rows = []
    for level in range(MAX_STACK):
        b = _magnet(magpy, design, 0.0, level).getB(observers)
        rows.append(tuple(round(float(v) * 1000, 4) for v in b[:, 2]))
    source = (f"hardware/make_field.py: magpylib {magpy.__version__} Cylinder, axial, from hardware/sensing.toml, "
              f"at the working point J = {working_polarization_t(design):.4f} T (magpylib-material-response)")
    return FieldTable(STEP_MM, tuple(rows), design.key(), source)


def neighbour_force_mn(design: Design, distance_mm: float) -> float:
    """The sideways force (mN) between two same-colour checkers' magnets ``distance_mm``
    apart on the board (they repel; a checker's friction on felt is of the order of 40 mN)."""
    magpy = require()
    a = _magnet(magpy, design, 0.0, 0)
    b = _magnet(magpy, design, distance_mm, 0)
    force = magpy.getFT(a, b, meshing=300)
    return abs(float(force[0][0])) * 1000


def stack_force_mn(design: Design, opposite: bool) -> float:
    """The vertical force (mN, + pushes the upper checker up) between a checker's magnet and
    the one of a checker lying on it: the same colour (attract) or ``opposite`` (a Plakoto pin)."""
    magpy = require()
    a = _magnet(magpy, design, 0.0, 0)
    b = _magnet(magpy, design, 0.0, 1, -1 if opposite else 1)
    force = magpy.getFT(a, b, meshing=300)
    return float(force[0][2]) * 1000


def pin_forces_mn(design: Design, offset_mm: float) -> tuple[float, float]:
    """The force (mN) of a pinned checker's magnet on the opposite-colour checker lying on it
    ``offset_mm`` off its centre (a Plakoto pin): ``(sideways, up)`` — sideways pushes the
    pinner further off (+), up lifts it (+).  Magpylib's ``getFT`` on the two cylinders."""
    magpy = require()
    lower = _magnet(magpy, design, 0.0, 0)
    upper = _magnet(magpy, design, offset_mm, 1, -1)
    force = magpy.getFT(lower, upper, meshing=300)
    return float(force[0][0]) * 1000, float(force[0][2]) * 1000


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
    """Points (m) filling a magnet at ``level`` on the sensor's axis: 13 radii to 98 % of its
    radius, 8 directions, 3 heights."""
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


def inner_field_ka_m(design: Design, case: str, recoil: bool = True) -> float:
    """The strongest field (kA/m, negative: against its magnetisation) inside a north-up
    magnet of ``design`` at 20 °C, with its neighbours of :data:`NEIGHBOURS` ``[case]``
    (the middle of a stack sits two levels up).  ``recoil``: the magnet on its recoil line at
    the low end of its grade's recoil permeability (the least relief: the worst case), its
    neighbours at their working point; otherwise every magnet rigid at its grade's remanence
    (magpylib's ``getH`` alone: the plainest, most pessimistic figure)."""
    magpy = require()
    grade = GRADE_TABLE[design.grade]
    base = 2 if case.startswith("middle") else 0
    points = _inside(design, base)
    if not recoil:
        j = grade.br_t
        sources = [_cylinder(magpy, design, 0.0, 0.0, base, j)]
        sources += [_cylinder(magpy, design, x, y, base + level, sign * j) for x, y, level, sign in NEIGHBOURS[case]]
        h = magpy.getH(sources, points, sumup=True)
        return float(min(h[:, 2])) / 1000
    import numpy as np

    j = working_polarization_t(design, grade.mu_rec[0])
    neighbours = [_cylinder(magpy, design, x, y, base + level, sign * j) for x, y, level, sign in NEIGHBOURS[case]]
    own = _own_field(design, base)
    # the sum magpylib's getH(sumup=True) makes of [own, *neighbours]: source after source
    fields = np.empty((1 + len(neighbours), *own.shape))
    fields[0] = own
    if neighbours:
        fields[1:] = magpy.getH(neighbours, points, squeeze=False).reshape(len(neighbours), *own.shape)
    h = np.sum(fields, axis=0)
    return float(min(h[:, 2])) / 1000


@functools.lru_cache(maxsize=16)
def _own_field(design: Design, base: int) -> Any:
    """H (A/m, points x 3) of a magnet of ``design`` at stack level ``base``, solved on its
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
@functools.lru_cache(maxsize=16)
def recoil_bz_mt(design: Design, stack: int = 1, mu_rec: float | None = None) -> float:
    """Bz (mT) at the sensor under a centred stack of ``stack`` checkers, every magnet cut into
    cells and solved together on its recoil line (magpylib-material-response): the check of
    the rigid model at the working point (:func:`bz_mt`).  Solved once per process for each
    design and stack (five checkers' 305 cells take seconds)."""
    magpy = require()
    apply_demag, mesh_cylinder = _require_response()
    grade = GRADE_TABLE[design.grade]
    cells = [mesh_cylinder(_cylinder(magpy, design, 0.0, 0.0, k, grade.br_t), MESH) for k in range(stack)]
    solved = apply_demag(magpy.Collection(*cells), susceptibility=(grade.mu_rec_nominal if mu_rec is None else mu_rec) - 1.0)
    return float(solved.getB((0.0, 0.0, 0.0))[2]) * 1000


def unit_bz_mt(design: Design, gap_mm: float, configs: Sequence[tuple[float, int]]) -> list[float]:
    """Bz (mT) at a sensor for each ``(offset_mm, stack)``: a centred stack of ``stack``
    north-up magnets of unit polarisation (1 T) whose centre lies ``offset_mm`` from it, the
    lowest ``gap_mm`` above it (the shape :func:`bgboard.hardware.bench_fit.fit` scales)."""
    magpy = require()
    d = design.with_options(gap_mm=gap_mm)
    out = []
    for offset, stack in configs:
        mags = [_cylinder(magpy, d, 0.0, 0.0, k, 1.0) for k in range(stack)]
        out.append(float(magpy.Collection(*mags).getB((offset / 1000, 0.0, 0.0))[2]) * 1000 if mags else 0.0)
    return out


# ---------------------------------------------------------------------- forces
def sideways_force_mn(design: Design, dx_mm: float, dy_mm: float = 0.0, opposite: bool = False) -> float:
    """The force (mN) along the line between two checkers on the board whose centres are
    ``(dx, dy)`` mm apart (+: they repel; ``opposite`` colours attract)."""
    magpy = require()
    j = working_polarization_t(design)
    a = _cylinder(magpy, design, 0.0, 0.0, 0, j)
    b = _cylinder(magpy, design, dx_mm, dy_mm, 0, -j if opposite else j)
    f = magpy.getFT(a, b, meshing=300)[0]
    return float(f[0] * dx_mm + f[1] * dy_mm) / math.hypot(dx_mm, dy_mm) * 1000


def lift_one_force_mn(design: Design, stack: int) -> float:
    """Lifting the top checker off a stack of ``stack``: the net upward force (mN) on the
    checker under it — the lifted magnet's pull less that checker's weight and the pull of the
    checkers below it.  Negative: the stack lets the top checker go alone."""
    magpy = require()
    j = working_polarization_t(design)
    target = _cylinder(magpy, design, 0.0, 0.0, stack - 2, j)
    above = _cylinder(magpy, design, 0.0, 0.0, stack - 1, j)
    below = [_cylinder(magpy, design, 0.0, 0.0, k, j) for k in range(stack - 2)]
    up = float(magpy.getFT(above, target, meshing=300)[0][2])
    down = float(magpy.getFT(magpy.Collection(*below), target, meshing=300)[0][2]) if below else 0.0
    return (up + down) * 1000 - design.weight_mn


__all__ = ["MESH", "MISSING", "NEIGHBOURS", "REACH_MM", "STEP_MM", "bz_mt", "compute_table", "neighbour_force_mn", "pin_forces_mn", "require",
           "stack_force_mn", "inner_field_ka_m", "lift_one_force_mn", "recoil_bz_mt", "sideways_force_mn",
           "unit_bz_mt", "working_polarization_t"]
