"""Which magnet a maker can buy off the shelf (issue 32): stock discs in catalogue sizes and
grades against every constraint the board puts on a checker's magnet, computed with the
project's own physics (magpylib at each magnet's working point, magpylib-material-response
for the field inside it, magpylib's getFT for the forces), side by side with the disc the
design used before it took an array of stock discs (benchmarks/magnet_arrays.py): one disc,
on its own, cannot meet them all.

The constraints, each from hardware/README.md:

* it keeps its field: the strongest opposing field inside it (the worst of the seven cases of
  :data:`bgboard.hardware.magnets.NEIGHBOURS`, pinned under two pinners for all of these) at
  least 10 % under its grade's *guaranteed minimum* HcJ over -20...60 °C (and under the typical);
* a Plakoto pinner sits: the pinned magnet lifts a pinner centred on it by less than half
  its weight;
* a stack lifts off one checker at a time: two stacked checkers pull together with less
  than a checker's weight;
* a lone checker reads as one a quarter pitch (9.75 mm) off a sensor, alone and on a
  crowded board: what two sensors per slot need;
* the tallest stack (15) stays inside the most sensitive DRV5055 variant that holds it.

Sizes and grades: NdFeB discs 5...20 mm x 1 mm in N38 (the stock thin discs of the magnet
shops, e.g. dhit.pl's N38 table: Br 1.22-1.26 T, HcJ >= 955 kA/m), anisotropic ferrite discs
in the stock sizes 25 x 3, 20 x 2 and 15 x 3 mm in Y30 (SJ285-77: Br 380/385 mT, HcJ
199/220 kA/m), and the rejected 28 x 1 mm isotropic Y10T disc (SJ285-77: 200/218 mT,
210/250 kA/m), which is pressed to size in a catalogue grade, not stock.  Each disc lies on
its own on the checker's axis, 0.5 mm up in it: a 4 mm gap (:data:`DISC_GAP_MM`).

Usage: python benchmarks/magnet_candidates.py [--json]
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass

from bgboard.hardware import magnet_forces, magnets
from bgboard.hardware.magnet_grades import GRADE_TABLE, MIN_MARGIN, worst_margin
from bgboard.hardware.physics import (
    SENSORS,
    Design,
    FieldTable,
    crowded_tolerance_mm,
    load_design,
    single_tolerance_mm,
)

#: A lone checker must read as one this far off a sensor: a quarter of the 39 mm slot pitch
#: (two sensors per slot, hardware/README.md "A lone checker anywhere").
QUARTER_PITCH_MM = 9.75

#: The gap of a single disc 0.5 mm up in its checker: the board's 3.5 mm (skin, felt, the
#: element's depth) and the 0.5 mm the Y10T disc sat up in its pocket.
DISC_GAP_MM = 4.0

#: (diameter mm, thickness mm, grade, stock?): the candidates, the rejected pressed disc first.
CANDIDATES: tuple[tuple[float, float, str, bool], ...] = (
    (28.0, 1.0, "Y10T", False),
    (5.0, 1.0, "N38", True), (6.0, 1.0, "N38", True), (10.0, 1.0, "N38", True),
    (12.0, 1.0, "N38", True), (15.0, 1.0, "N38", True), (20.0, 1.0, "N38", True),
    (15.0, 3.0, "Y30", True), (20.0, 2.0, "Y30", True), (25.0, 3.0, "Y30", True),
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One candidate's figures and which constraints it breaks."""

    magnet: str
    stock: bool
    working_j_t: float
    b0_mt: float
    stack15_mt: float
    sensor: str
    lone_mm: float
    crowded_mm: float
    inner_ka_m: float
    margin_min: float
    margin_typ: float
    pin_lift_mn: float
    stack_pull_mn: float
    fails: tuple[str, ...]


def evaluate(base: Design, diameter: float, thickness: float, grade: str, stock: bool) -> Verdict:
    """The figures of one candidate on the design's board (gap, pitch, checker)."""
    d = base.with_options(magnet=(diameter, thickness), grade=grade, gap_mm=DISC_GAP_MM, rings=0, spacing_mm=0.0)
    table: FieldTable = magnets.compute_table(d)
    b0 = table.at(0, 0.0)
    stack15 = magnets.bz_mt(d, [0.0], stack=15)[0]
    fitting = [s for s in SENSORS.values() if s.range_mt > 1.1 * stack15]
    sensor = max(fitting, key=lambda s: s.mv_per_mt).name if fitting else "none"
    inner = min(magnets.inner_field_ka_m(d, case) for case in magnets.NEIGHBOURS)
    g = GRADE_TABLE[grade]
    margin_min = worst_margin(g, inner, typical=False)[1]
    margin_typ = worst_margin(g, inner)[1]
    lift = magnet_forces.pin_forces_mn(d, 0.0)[1]
    pull = -magnet_forces.stack_force_mn(d, opposite=False)
    lone, crowded = single_tolerance_mm(d, table), crowded_tolerance_mm(d, table)
    fails = []
    if margin_min < MIN_MARGIN:
        fails.append("loses field" if margin_typ < MIN_MARGIN else "keeps field only at typical HcJ")
    if lift >= d.weight_mn / 2:
        fails.append("pinner lifted")
    if pull >= d.weight_mn:
        fails.append("stack holds together")
    if min(lone, crowded) < QUARTER_PITCH_MM:
        fails.append("short reach")
    if sensor == "none":
        fails.append("past every sensor's range")
    if not stock:
        fails.append("not stock")
    return Verdict(f"{diameter:g} x {thickness:g} mm {grade}", stock, round(magnets.working_polarization_t(d), 4),
                   round(b0, 2), round(stack15, 1), sensor, lone, crowded, round(inner, 1), round(margin_min, 3),
                   round(margin_typ, 3), round(lift, 1), round(pull, 1), tuple(fails))


def main(argv: list[str]) -> int:
    base = load_design()
    start = time.perf_counter()
    verdicts = [evaluate(base, *c) for c in CANDIDATES]
    if "--json" in argv:
        print(json.dumps([asdict(v) for v in verdicts], indent=1))
        return 0
    print(f"candidates on the design's board (one disc, gap {DISC_GAP_MM:g} mm, a {base.checker_mass_g:g} g checker: "
          f"weight {base.weight_mn:.1f} mN), {time.perf_counter() - start:.1f} s")
    print("| magnet | stock | J work T | B0 mT | 15 stacked mT | sensor | lone / crowded reach mm | H inside kA/m "
          "| margin at HcJ min / typ | pinner lifted mN | stack pull mN | breaks |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for v in verdicts:
        print(f"| {v.magnet} | {'yes' if v.stock else 'no'} | {v.working_j_t:.3f} | {v.b0_mt:.2f} | {v.stack15_mt:.1f} "
              f"| {v.sensor} | {v.lone_mm:g} / {v.crowded_mm:g} | {v.inner_ka_m:.0f} "
              f"| {v.margin_min:+.1%} / {v.margin_typ:+.1%} | {v.pin_lift_mn:.0f} | {v.stack_pull_mn:.0f} "
              f"| {', '.join(v.fails) or '-'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
