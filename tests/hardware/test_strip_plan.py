"""One place for each fact between the strip boards and the stack-up (issue 32): the board a
fab makes (hardware/boards.py) and the solid model the gap and the light path are measured on
(hardware/stackup.py) are both laid out from hardware/strip_plan.py, so the guidance LED on
the generated board sits under the surface's window in the model, and the board's outline is
the model's strip.  The boards come from the one build of tests/hardware/test_kicad.py (KiCad
missing fails it); build123d missing fails the import, not a skip.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import build123d  # noqa: F401  (the hardware extra's; missing is a failure)
import pytest

from tests.hardware.test_kicad import HARDWARE, built  # noqa: F401  (the fixture)

sys.path.insert(0, str(HARDWARE))
import stackup  # noqa: E402
import strip_plan  # noqa: E402


@pytest.fixture(scope="module")
def params() -> stackup.Params:
    return stackup.load()


def cpl_row(out: Path, board: str, ref: str) -> dict[str, str]:
    with (out / board / f"{board}-cpl.csv").open(newline="") as f:
        return next(r for r in csv.DictReader(f) if r["Designator"] == ref)


@pytest.mark.slow
@pytest.mark.parametrize("board", ("strip4", "strip5"))
def test_the_boards_led_is_under_the_models_window(built, params: stackup.Params, board: str) -> None:
    """The LED D1 of the generated strip, read from the fab's pick-and-place (x from the strip's
    base edge, y up from its lower edge, sensing face up), is where the model's window is,
    measured from the model's strip; and the board's outline is the model's strip."""
    out, _ = built
    slots = int(board[5:])
    model = stackup.build_place(params, slots, checker_slot=None)
    strip = model.parts["strip"].bounding_box()
    size = next(r for r in json.loads((out / "drc.json").read_text()) if r["board"] == board)
    assert (size["width_mm"], size["height_mm"]) == pytest.approx((strip.max.X - strip.min.X, strip.max.Y - strip.min.Y),
                                                                  abs=0.01)
    led = cpl_row(out, board, "D1")
    assert led["Layer"] == "T"  # on the sensing face, facing the window
    wx, wy = model.led_xy
    assert float(led["Mid X"]) == pytest.approx(wx - strip.min.X, abs=0.01)
    assert float(led["Mid Y"]) == pytest.approx(wy - strip.min.Y, abs=0.01)
    assert stackup.window_clear(model)  # and the window is open over it, the rod the only thing in it
    # the sensors too: the one the model measures the gap at is the board's U1
    u1 = cpl_row(out, board, "U1")
    ex, ey, _ = model.elements[0]
    assert (float(u1["Mid X"]), float(u1["Mid Y"])) == pytest.approx((ex - strip.min.X, ey - strip.min.Y), abs=0.01)


@pytest.mark.parametrize("slots", (4, 5))
def test_the_model_is_built_from_the_boards_plan(params: stackup.Params, slots: int) -> None:
    """The model's strip, LED and back parts are the plan's: a wider strip in stackup.toml
    widens both; a longer window clearance moves the LED on the board and the window alike."""
    plan = strip_plan.plan(slots, params.sensing, params.stack)
    model = stackup.build_place(params, slots, checker_slot=None)
    box = model.parts["strip"].bounding_box()
    assert (box.max.X - box.min.X, box.max.Y - box.min.Y) == pytest.approx((plan.length, plan.width))
    assert model.led_xy[0] - box.min.X == pytest.approx(plan.led[0])
    mux = model.parts["mux"].bounding_box()
    assert ((mux.min.X + mux.max.X) / 2 - box.min.X, box.max.Y - (mux.min.Y + mux.max.Y) / 2) == pytest.approx(
        plan.place["U20"][:2])
    moved = dict(params.stack, window=dict(params["window"], clearance_mm=params["window"]["clearance_mm"] + 3.0))
    later = strip_plan.plan(slots, params.sensing, moved)
    assert later.led[0] == pytest.approx(plan.led[0] + 3.0) and later.length == pytest.approx(plan.length + 3.0)
    assert later.place["D1"][:2] == pytest.approx(later.led)
