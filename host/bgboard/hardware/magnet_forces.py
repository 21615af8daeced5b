"""The forces between checkers' magnets (magpylib's ``getFT``, through the adapter
:mod:`bgboard.hardware.magnets`): what holds a stack together, what a Plakoto pinner feels, what
pushes neighbours apart, what a hand lifting a checker off a stack meets.

Every force here is a checker's magnets on another checker's: each target disc is cut into
points (:data:`MESHING`) and the forces on them summed; the checkers' discs are rigid at their
working point (:func:`bgboard.hardware.magnets.working_polarization_t`).  In mN; +z up.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from bgboard.hardware.magnets import Jitter, checker, require
from bgboard.hardware.physics import Design, pin_sits

#: Points each target disc is cut into for ``getFT``: a lone disc 300; a small disc of an
#: array 40 (its forces move by under 1 % from 40 to 300: tests/hardware/test_magnet_forces.py).
MESHING = 300
ARRAY_MESHING = 40
#: How the checker above is turned against the one below (°), for the forces that depend on it.
TURNS_DEG = (0.0, 10.0, 20.0, 30.0)
#: A Plakoto pinner's offsets from its victim's centre (mm).
PIN_OFFSETS_MM = (0.0, 2.0, 5.0, 10.0, 15.0)
#: Neighbours on a crowded board: ``(dx, dy, sign)`` of the other checker (its own row touching
#: at 38-39 mm, the next point's row 40 mm across, either colour).
NEIGHBOURS_MM = ((38.0, 0.0, 1), (39.0, 0.0, 1), (0.0, 40.0, 1), (0.0, 40.0, -1), (38.0, 0.0, -1))


def forces_on(design: Design, source: Any, targets: Sequence[Any]) -> list[tuple[float, float, float]]:
    """The force (mN) of ``source``'s magnets on each of ``targets`` (checkers: magpylib
    Collections), by one ``getFT`` over all their discs."""
    magpy = require()
    discs = [disc for target in targets for disc in target.children]
    meshing = MESHING if design.magnet_count == 1 else ARRAY_MESHING
    f = magpy.getFT(source, discs, meshing=meshing)[0].reshape(-1, 3)  # (force, torque): the forces
    out = []
    start = 0
    for target in targets:
        n = len(target.children)
        total = f[start:start + n].sum(axis=0)
        start += n
        out.append((float(total[0]) * 1000, float(total[1]) * 1000, float(total[2]) * 1000))
    return out


def stack_force_mn(design: Design, opposite: bool, turn_deg: float = 0.0) -> float:
    """The vertical force (mN, + pushes the upper checker up) between a checker's magnets and
    those of a checker lying on it turned by ``turn_deg``: the same colour (attract) or
    ``opposite`` (a Plakoto pin)."""
    magpy = require()
    upper = checker(magpy, design, level=1, sign=-1 if opposite else 1, turn_deg=turn_deg)
    return forces_on(design, checker(magpy, design), [upper])[0][2]


def pin_forces_mn(design: Design, offset_mm: float, turn_deg: float = 0.0) -> tuple[float, float]:
    """The force (mN) of a pinned checker's magnets on the opposite-colour checker lying on it
    ``offset_mm`` off its centre, turned by ``turn_deg`` (a Plakoto pin): ``(sideways, up)`` —
    sideways pushes the pinner further off (+), up lifts it (+)."""
    magpy = require()
    upper = checker(magpy, design, offset_mm, 0.0, 1, -1, turn_deg=turn_deg)
    fx, _, fz = forces_on(design, checker(magpy, design), [upper])[0]
    return fx, fz


def sideways_force_mn(design: Design, dx_mm: float, dy_mm: float = 0.0, opposite: bool = False) -> float:
    """The force (mN) along the line between two checkers on the board whose centres are
    ``(dx, dy)`` mm apart (+: they repel; ``opposite`` colours attract)."""
    magpy = require()
    other = checker(magpy, design, dx_mm, dy_mm, 0, -1 if opposite else 1)
    fx, fy, _ = forces_on(design, checker(magpy, design), [other])[0]
    return (fx * dx_mm + fy * dy_mm) / math.hypot(dx_mm, dy_mm)


def lift_one_force_mn(design: Design, stack: int) -> float:
    """Lifting the top checker off a stack of ``stack``: the net upward force (mN) on the
    checker under it — the lifted checker's pull less that checker's weight and the pull of
    the checkers below it.  Negative: the stack lets the top checker go alone."""
    magpy = require()
    target = checker(magpy, design, level=stack - 2)
    up = forces_on(design, checker(magpy, design, level=stack - 1), [target])[0][2]
    down = (forces_on(design, magpy.Collection(*[checker(magpy, design, level=k) for k in range(stack - 2)]), [target])[0][2]
            if stack > 2 else 0.0)
    return up + down - design.weight_mn


def forces(design: Design, jitter: tuple[Jitter, Jitter] | None = None) -> dict[str, float]:
    """The forces the board's mechanics limit (mN): ``stack_pull`` (two stacked same-colour
    checkers, the strongest over :data:`TURNS_DEG`), ``pin_lift`` and ``pin_side`` (a pinner
    :data:`PIN_OFFSETS_MM` off, any turn: the strongest lift and sideways push), ``pin_sits``
    (1.0 if :func:`bgboard.hardware.physics.pin_sits` holds everywhere), ``neighbour`` (the
    strongest push or pull between checkers of :data:`NEIGHBOURS_MM`).  ``jitter``: the lower
    and the upper checker's discs glued off their places."""
    magpy = require()
    lo_j, hi_j = jitter if jitter is not None else (None, None)
    lower = checker(magpy, design, jitter=lo_j)
    stacked = [checker(magpy, design, level=1, turn_deg=t, jitter=hi_j) for t in TURNS_DEG]
    pinners = [checker(magpy, design, off, 0.0, 1, -1, turn_deg=t, jitter=hi_j) for off in PIN_OFFSETS_MM for t in TURNS_DEG]
    beside = [checker(magpy, design, dx, dy, 0, sign) for dx, dy, sign in NEIGHBOURS_MM]
    found = forces_on(design, lower, stacked + pinners + beside)
    pull = max(-f[2] for f in found[:len(stacked)])
    lift, side, sits = 0.0, 0.0, True
    for fx, _, fz in found[len(stacked):len(stacked) + len(pinners)]:
        lift = max(lift, fz)
        side = max(side, abs(fx))
        sits = sits and pin_sits(design, fx, fz)
    neighbour = max(math.hypot(fx, fy) for fx, fy, _ in found[len(stacked) + len(pinners):])
    return {"stack_pull": round(pull, 1), "pin_lift": round(lift, 1), "pin_side": round(side, 1),
            "pin_sits": 1.0 if sits else 0.0, "neighbour": round(neighbour, 2)}


def pin_table(design: Design) -> list[tuple[float, float, float, float]]:
    """A pinner ``offset`` mm off its victim (the worst of :data:`TURNS_DEG`): ``(offset, up,
    sideways, friction holds)`` in mN (the last: friction x (weight - up), what holds it)."""
    out = []
    for off in PIN_OFFSETS_MM:
        rows = [pin_forces_mn(design, off, t) for t in TURNS_DEG]
        up = max(r[1] for r in rows)
        side = max(abs(r[0]) for r in rows)
        out.append((off, round(up, 1), round(side, 1), round(design.friction * (design.weight_mn - up), 1)))
    return out


__all__ = ["ARRAY_MESHING", "MESHING", "NEIGHBOURS_MM", "PIN_OFFSETS_MM", "TURNS_DEG", "forces", "forces_on",
           "lift_one_force_mn", "pin_forces_mn", "pin_table", "sideways_force_mn", "stack_force_mn"]
