"""The field computed by magpylib (the adapter: the only module that imports it).

magpylib (https://magpylib.readthedocs.io) gives the exact field of a homogeneously,
axially magnetised cylinder; a checker's magnet is one, a stack is several 7 mm apart.
Everything here is in mm and mT; magpylib works in SI units.  ``magpylib`` is the
``hardware`` extra (``pip install 'bgboard[hardware]'``): :func:`require` says so in one
sentence when it is missing.
"""

from __future__ import annotations

from typing import Any, Sequence

from bgboard.errors import MissingExtraError, missing_extra
from bgboard.hardware.physics import MAX_STACK, Design, FieldTable

#: The table's lateral reach and step (mm). Beyond 80 mm the table says 0: magpylib gives one
#: magnet of the design -0.044 mT there (0.4 % of a checker, 0.8 % of the firmware's threshold)
#: and a stack of 15 -0.135 mT, falling below 0.01 mT past about 135 mm.
REACH_MM = 80.0
STEP_MM = 0.5

MISSING = missing_extra("magpylib", "bgboard hardware field")


def require() -> Any:
    """The magpylib module, or :class:`~bgboard.errors.MissingExtraError` (exit 69) saying how
    to install it."""
    try:
        import magpylib
    except ImportError:
        raise MissingExtraError(MISSING) from None
    return magpylib


def _magnet(magpy: Any, design: Design, x_mm: float, level: int, sign: int = 1, tilt_deg: float = 0.0) -> Any:
    z = design.gap_mm + design.magnet_thickness_mm / 2 + level * design.checker_thickness_mm
    m = magpy.magnet.Cylinder(
        polarization=(0, 0, sign * design.polarization_t),
        dimension=(design.magnet_diameter_mm / 1000, design.magnet_thickness_mm / 1000),
        position=(x_mm / 1000, 0, z / 1000),
    )
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
) -> list[float]:
    """Bz (mT) at sensors at ``sensor_x_mm`` (on the x axis) of a stack of ``stack``
    checkers whose lowest sits at ``offset_mm``; each further checker ``lean_mm`` further
    along x and all turned by ``tilt_deg`` (a leaning stack)."""
    magpy = require()
    mags = [_magnet(magpy, design, offset_mm + k * lean_mm, k, sign, tilt_deg) for k in range(stack)]
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
    source = f"hardware/make_field.py: magpylib {magpy.__version__} Cylinder, axial, from hardware/sensing.toml"
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


__all__ = ["MISSING", "REACH_MM", "STEP_MM", "bz_mt", "compute_table", "neighbour_force_mn", "pin_forces_mn", "require",
           "stack_force_mn"]
