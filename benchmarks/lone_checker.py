"""Where a lone checker can lie and still be read (issue 22: "one checker anywhere along its
point ... at least half the slot pitch off a sensor"): the sensing options computed with
magpylib, side by side, to pick by computation rather than by hope.

For each option: how far off its sensor a lone checker reads as one checker (per-sensor
threshold, the next sensor empty); its field at the mid-point between two sensors (half the
slot pitch off both); the two sensors' sum there (what a host rule "two weak neighbours are
one checker" would see); and the worst crosstalk at an empty slot amid full neighbours of
one colour (its own row's neighbours pushed 10 mm towards it), which each of the two weak
readings of a neighbour rule must stay above, with a margin for the sensors' spread.

Then the one option that covers every offset, two sensors per slot (half the pitch apart:
one under each slot's centre, where a row's checkers and their stacks lie, and one between
slots — the design built, hardware/make_grid.py), with the count rule it needs (a checker lying between two sensors lights both: a run of k
lit sensors holds ceil(k / 2) checkers), tried on random rows of 1..5 checkers put down
anywhere along a point with both neighbouring points full.

Usage: python benchmarks/lone_checker.py [rows=20000] [seed=1]
"""

from __future__ import annotations

import math
import os
import random
import sys
import time

from bgboard.hardware import magnets
from bgboard.hardware.physics import (
    HYSTERESIS,
    PRESENT,
    Design,
    Magnet,
    field_mt,
    load_design,
    load_table,
    response,
)

READ = PRESENT + HYSTERESIS  # a slot reads a checker from empty at this many checker units
SPREAD_MARGIN = 0.1  # the sensors' gain spread and noise a weak-reading rule must leave room for


def profile(design: Design, ring_inner_mm: float = 0.0, step: float = 0.25, reach: float = 60.0) -> list[float]:
    """Bz of one checker (mT) at offsets 0, step ... reach (an array's averaged over the
    directions round it); a ring magnet if ``ring_inner_mm`` (at the disc's working point,
    :func:`bgboard.hardware.magnets.working_polarization_t`: a ring's differs a little, and
    only the field's shape decides here)."""
    n = int(reach / step) + 1
    if not ring_inner_mm:
        return magnets.bz_mt(design, [i * step for i in range(n)])
    magpy = magnets.require()
    j = magnets.working_polarization_t(design)
    z = (design.gap_mm + design.magnet_thickness_mm / 2) / 1000
    r_out = design.magnet_diameter_mm / 2000
    m = magpy.magnet.CylinderSegment(polarization=(0, 0, j),
                                     dimension=(ring_inner_mm / 2000, r_out, design.magnet_thickness_mm / 1000, 0, 360),
                                     position=(0, 0, z))
    b = m.getB([(i * step / 1000, 0.0, 0.0) for i in range(n)])
    return [float(v) * 1000 for v in b.reshape(-1, 3)[:, 2]]


def at(prof: list[float], x: float, step: float = 0.25) -> float:
    i = abs(x) / step
    k = int(i)
    if k + 1 >= len(prof):
        return 0.0
    return prof[k] + (prof[k + 1] - prof[k]) * (i - k)


def evaluate(design: Design, ring_inner_mm: float = 0.0, lowest: bool = False) -> dict:
    """The option's figures; ``lowest``: with the threshold as low as the crosstalk allows
    (crosstalk + the spread margin + the hysteresis) instead of the firmware's."""
    prof = profile(design, ring_inner_mm)
    centre = prof[0]  # a ring's field under its hole is the other colour's: < 0
    units = [v / abs(centre) for v in prof]
    p, d, w = design.slot_pitch_mm, design.checker_diameter_mm, design.point_pitch_mm
    around = [(a, b) for a in (-d, 0.0, d) for b in (-w, 0.0, w) if (a, b) != (0.0, 0.0)]
    pushed = [(10.0 - d, 0.0), (d - 10.0, 0.0)]
    crosstalk = max(abs(sum(at(units, math.hypot(a, b)) for a, b in group)) for group in (around, pushed))
    threshold = crosstalk + SPREAD_MARGIN + HYSTERESIS if lowest else READ
    read_to = 0.0
    x = 0.0
    while x <= p / 2:
        if not (at(units, x) >= threshold and at(units, p - x) < threshold):
            break
        read_to = x
        x += 0.25
    mid = at(units, p / 2)
    # two weak neighbours can be told for one checker only if each reads above what the crowd
    # alone can give a sensor, with room for the sensors' spread
    return {"threshold": threshold, "b0_mt": centre, "read_to_mm": read_to, "mid_units": mid, "mid_sum": 2 * mid, "crosstalk": crosstalk,
            "pair_rule_works": mid >= crosstalk + SPREAD_MARGIN}


def options(base: Design) -> list[tuple[str, Design, float]]:
    out = [("as built", base, 0.0)]
    out.append(("as built, threshold as low as the crosstalk allows", base, 0.0))
    # one wide disc (or ring) 0.5 mm up in the checker, as the design's disc was before its array
    out.append(("36 mm disc (the largest a 38 mm checker holds)", base.with_options(magnet=(36.0, 0.5), rings=0, gap_mm=4.0), 0.0))
    out.append(("36 mm disc, gap 10 mm (flatter)", base.with_options(magnet=(36.0, 0.5), rings=0, gap_mm=10.0), 0.0))
    out.append(("36/24 mm ring", base.with_options(magnet=(36.0, 0.5), rings=0, gap_mm=4.0), 24.0))
    out.append(("gap 5.5 mm (smaller)", base.with_options(gap_mm=5.5), 0.0))
    out.append(("gap 8 mm", base.with_options(gap_mm=8.0), 0.0))
    out.append(("DRV5055A2 (half the sensitivity: the same shape)", base.with_options(sensor="DRV5055A2"), 0.0))
    return out


def two_per_slot(design: Design, rows: int, seed: int) -> dict:
    """Random rows on a point read by sensors half a pitch apart, counted by runs."""
    table = load_table(design)
    b0 = table.at(0, 0.0)
    p, d, w = design.slot_pitch_mm, design.checker_diameter_mm, design.point_pitch_mm
    half = p / 2
    length = design.base_mm + 4 * p + half  # the point's length from its frame
    sensors = [design.base_mm + j * half for j in range(10)]  # each slot's centre and half a pitch further
    rng = random.Random(seed)
    right = lone_right = lone = 0
    worst_offset = 0.0
    for _ in range(rows):
        n = rng.randint(1, 5)
        colour = rng.choice((1, -1))
        room = length - d / 2 - (d / 2 + (n - 1) * d)  # where the first checker's centre may go
        xs = [d / 2 + rng.uniform(0.0, max(0.0, room) * (1.0 if n == 1 else 0.25))]
        for _k in range(n - 1):
            xs.append(xs[-1] + d + abs(rng.gauss(0.0, 1.5)))
        ms = [Magnet(x, 0.0, 0, colour) for x in xs]
        for side in (-w, w):  # both neighbouring points full, of a random colour each
            c = rng.choice((1, -1))
            ms += [Magnet(design.base_mm + k * p + rng.gauss(0.0, 3.0), side, 0, c) for k in range(5)]
        lit = [field_mt(table, s, 0.0, ms) / b0 * colour >= READ for s in sensors]
        count, run = 0, 0
        for on in lit + [False]:
            if on:
                run += 1
            elif run:
                count += (run + 1) // 2
                run = 0
        right += count == n
        if n == 1:
            lone += 1
            lone_right += count == 1
            worst_offset = max(worst_offset, min(abs(xs[0] - s) for s in sensors))
    return {"rows": rows, "right": right, "lone": lone, "lone_right": lone_right, "worst_offset": worst_offset}


def main(rows: int = 20_000, seed: int = 1) -> dict:
    base = load_design()
    t0 = time.perf_counter()
    resp = response(base, load_table(base))
    print(f"lone checker: {base.magnet_diameter_mm:g} x {base.magnet_thickness_mm:g} mm {base.grade}, gap "
          f"{base.gap_mm:g} mm, {base.sensor.name}, sensors {base.slot_pitch_mm:g} mm apart: half the pitch is "
          f"{base.slot_pitch_mm / 2:g} mm; reads from {READ:.2f} of a centred checker (B0 {resp.b0_mt:.2f} mT)")
    print(f"{'option':52} {'B0 mT':>6} {'thresh':>6} {'read to':>8} {'mid-pt':>7} {'2 x mid':>8} {'xtalk':>6}  neighbour rule")
    results = {}
    for name, design, ring in options(base):
        r = evaluate(design, ring, lowest="threshold" in name)
        results[name] = r
        print(f"{name:52} {r['b0_mt']:6.2f} {r['threshold']:6.2f} {r['read_to_mm']:6.2f}mm {r['mid_units']:7.2f} {r['mid_sum']:8.2f} "
              f"{r['crosstalk']:6.2f}  {'works' if r['pair_rule_works'] else 'cannot'}")
    two = two_per_slot(base, rows, seed)
    results["two per slot"] = two
    print(f"two sensors per slot ({base.slot_pitch_mm / 2:g} mm apart, runs of k lit sensors = ceil(k/2) checkers): "
          f"{two['right']}/{two['rows']} rows of 1-5 counted right; lone checkers {two['lone_right']}/{two['lone']} "
          f"(up to {two['worst_offset']:.1f} mm off the nearest sensor)")
    print(f"{time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.1f}, Python {sys.version.split()[0]}")
    return results


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
