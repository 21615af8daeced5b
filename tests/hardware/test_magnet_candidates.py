"""No magnet off the shelf meets every constraint on a checker's magnet (issue 32): the stock
candidates nearest to working, computed by benchmarks/magnet_candidates.py with real magpylib
and magpylib-material-response (the test extra installs both; without them this fails), and
the pressed disc the design used before its array of stock discs, whose margin at its grade's
guaranteed minimum HcJ is short."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bgboard.hardware.magnet_grades import GRADE_TABLE, MIN_MARGIN
from bgboard.hardware.physics import load_design

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import magnet_candidates  # noqa: E402

DESIGN = load_design()


def test_the_rejected_disc_breaks_nothing_but_stock_and_needs_the_typical_coercivity() -> None:
    v = magnet_candidates.evaluate(DESIGN, 28.0, 1.0, "Y10T", False)
    assert v.fails == ("keeps field only at typical HcJ", "not stock")
    assert v.margin_typ >= MIN_MARGIN
    # at the guaranteed minimum HcJ (210 kA/m) the disc is short at -20 °C: the BOM orders 250
    assert GRADE_TABLE["Y10T"].hcj_min == 210
    assert v.margin_min == pytest.approx(-0.064, abs=0.005)
    assert v.pin_lift_mn < DESIGN.weight_mn / 2 and v.stack_pull_mn < DESIGN.weight_mn
    assert min(v.lone_mm, v.crowded_mm) >= magnet_candidates.QUARTER_PITCH_MM
    assert v.sensor == "DRV5055A1"


@pytest.mark.parametrize("diameter,thickness,grade,breaks", [
    # the one NdFeB disc weak enough for a pinner: its field reaches 2.5 mm, and thin it loses field at 60 °C
    (5.0, 1.0, "N38", {"loses field", "short reach"}),
    # the widest stock thin NdFeB disc: ten times the pull, still short of a quarter pitch
    (20.0, 1.0, "N38", {"loses field", "pinner lifted", "stack holds together", "short reach"}),
    # the stock ferrite disc that reaches far enough: it cannot keep its field and throws a pinner off
    (25.0, 3.0, "Y30", {"loses field", "pinner lifted", "stack holds together"}),
])
def test_a_stock_disc_breaks_a_constraint(diameter: float, thickness: float, grade: str, breaks: set[str]) -> None:
    v = magnet_candidates.evaluate(DESIGN, diameter, thickness, grade, True)
    assert set(v.fails) == breaks
