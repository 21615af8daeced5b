"""The sensing physics (issue 22): magpylib checked against the closed form and the issue's
table, the committed field table reproduced, and the chosen design read right for the
placements players make.  These run the real magpylib: without it they fail (the test
extra installs it)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.hardware import magnet_forces, magnets
from bgboard.hardware.physics import (
    GRADES,
    HYSTERESIS,
    LEVEL_HYSTERESIS,
    MAX_LEVEL,
    PRESENT,
    SENSORS,
    Design,
    DesignError,
    FieldTable,
    Magnet,
    crowd,
    crowded_tolerance_mm,
    disc_on_axis_mt,
    field_mt,
    load_design,
    load_table,
    parse_design,
    pin_sits,
    reads_as,
    response,
    single_tolerance_mm,
)

DESIGN = load_design()
TABLE = load_table(DESIGN)
RESP = response(DESIGN, TABLE)


def issue(gap: float) -> Design:
    """Issue 22's case: a 6 x 2 mm N35 disc (J = 1.19 T), checkers 7 mm thick."""
    return DESIGN.with_options(magnet=(6.0, 2.0), grade="N35", gap_mm=gap, rings=0)


def rigid(design: Design, xs: list[float], stack: int = 1) -> list[float]:
    """Issue 22's table was for rigid magnets at the grade's remanence."""
    return magnets.bz_mt(design, xs, stack=stack, polarization_t=GRADES[design.grade])


def test_magpylib_is_installed() -> None:
    # the physics tests fail, not skip, without it
    assert magnets.require().__version__


@pytest.mark.parametrize("diameter,thickness,grade", [(6, 2, "N35"), (30, 1, "Y30"), (25, 1.5, "N42")])
@pytest.mark.parametrize("distance", [0.5, 3.0, 4.0, 7.5, 20.0])
def test_magpylib_matches_the_closed_form_on_axis(diameter: float, thickness: float, grade: str, distance: float) -> None:
    design = DESIGN.with_options(magnet=(diameter, thickness), grade=grade, gap_mm=distance, rings=0)
    exact = disc_on_axis_mt(GRADES[grade], diameter, thickness, distance)
    # magpylib's rigid magnet at the grade's remanence (the physics then uses its working point)
    assert magnets.bz_mt(design, [0.0], polarization_t=GRADES[grade])[0] == pytest.approx(exact, rel=1e-6)


def test_the_closed_form_is_the_textbook_one() -> None:
    # far away a disc is a dipole: Bz = mu0 m / (2 pi z^3) with m = J V / mu0
    j, d, t, z = 1.19, 6.0, 2.0, 200.0
    dipole = 1.19 * math.pi * (d / 2) ** 2 * t / (2 * math.pi * (z + t / 2) ** 3) * 1000
    assert disc_on_axis_mt(j, d, t, z) == pytest.approx(dipole, rel=1e-3)


@pytest.mark.parametrize("gap,centre,off5", [(3.0, 89.5, 8.5), (3.5, 70.6, 9.8), (4.0, 56.2, 10.2), (5.0, 36.7, 9.8)])
def test_the_issues_table_on_and_off_axis(gap: float, centre: float, off5: float) -> None:
    b = rigid(issue(gap), [0.0, 5.0])
    assert b[0] == pytest.approx(centre, abs=0.05)
    assert b[1] == pytest.approx(off5, abs=0.05)


def test_the_issues_table_at_gap_4() -> None:
    b = rigid(issue(4.0), [3.0, 6.0])
    assert b == pytest.approx([31.4, 4.4], abs=0.05)


@pytest.mark.parametrize("gap,second,fifteen", [(3.0, 8, 12), (3.5, 9, 13), (4.0, 10, 15), (5.0, 12, 19)])
def test_the_issues_table_for_stacks(gap: float, second: int, fifteen: int) -> None:
    one, two, all15 = (rigid(issue(gap), [0.0], stack=k)[0] for k in (1, 2, 15))
    # the issue gives whole percent (13.5 % at 3.5 mm is its "+13 %")
    assert 100 * (two / one - 1) == pytest.approx(second, abs=0.6)
    assert 100 * (all15 / one - 1) == pytest.approx(fifteen, abs=0.6)


def test_the_committed_table_is_magpylibs_for_the_design() -> None:
    fresh = magnets.compute_table(DESIGN)
    assert fresh.design_key == TABLE.design_key and fresh.step_mm == TABLE.step_mm
    for got, want in zip(TABLE.bz, fresh.bz, strict=True):
        assert got == pytest.approx(want, abs=2e-4)


@given(st.integers(0, 4), st.floats(0, 60))
@settings(max_examples=40, deadline=None)
def test_the_table_interpolates_magpylib(level: int, offset: float) -> None:
    exact = magnets.bz_mt(DESIGN, [offset], stack=1, offset_mm=0.0)[0] if level == 0 else (
        magnets.bz_mt(DESIGN, [offset], stack=level + 1)[0] - magnets.bz_mt(DESIGN, [offset], stack=level)[0])
    assert TABLE.at(level, offset) == pytest.approx(exact, abs=0.05)  # 0.4 % of a checker at the rim


# ---------------------------------------------------------------------- the design
def test_one_centred_checker_reads_well_inside_the_range() -> None:
    assert RESP.threshold_mt > 10 * DESIGN.sensor.noise_mt  # the threshold far above the sensor's noise (11.7 x)
    assert RESP.b0_mt < DESIGN.sensor.range_mt / 3
    assert 2500 < RESP.swing < 9000  # ADC counts from half scale: far above noise and rails (2,782)
    assert reads_as(1.0, RESP) == "white" and reads_as(-1.0, RESP) == "black"


def test_fifteen_stacked_stay_inside_the_sensors_linear_range() -> None:
    top = magnets.bz_mt(DESIGN, [0.0], stack=15)[0]
    assert top == pytest.approx(RESP.stack_units[-1] * RESP.b0_mt, rel=1e-3)
    assert top < DESIGN.sensor.range_mt * 0.75
    assert reads_as(RESP.stack_units[-1], RESP) == "white stack"


def test_one_checker_reads_as_one_up_to_the_tolerance_in_every_direction() -> None:
    tol = single_tolerance_mm(DESIGN, TABLE)
    assert tol >= 13.0  # two thirds of half the slot pitch: see hardware/README.md for the rest
    for tenth in range(0, int(tol * 10) + 1):
        x = tenth / 10
        # the table is the field averaged round the checker: along and across the point alike
        # (turned any way: benchmarks/magnet_arrays.py's worst direction)
        assert reads_as(TABLE.at(0, x) / RESP.b0_mt, RESP) == "white"
        assert reads_as(TABLE.at(0, DESIGN.slot_pitch_mm - x) / RESP.b0_mt, RESP) == "empty"


def test_between_two_sensors_a_checker_reads_on_neither_never_on_both() -> None:
    # the physics cannot tell: from the tolerance to the middle the checker is unseen
    tol = single_tolerance_mm(DESIGN, TABLE)
    for tenth in range(int(tol * 10) + 1, int(DESIGN.slot_pitch_mm * 5) + 1):
        x = tenth / 10
        near = reads_as(TABLE.at(0, x) / RESP.b0_mt, RESP)
        far = reads_as(TABLE.at(0, DESIGN.slot_pitch_mm - x) / RESP.b0_mt, RESP)
        assert (near, far).count("white") <= 1
        assert "black" not in (near, far)  # the return field never reads as the other colour


def test_a_stack_reads_as_a_stack_near_its_sensor() -> None:
    for k in range(2, 6):
        for x in (0.0, 4.0, 8.0, 11.0):
            units = magnets.bz_mt(DESIGN, [0.0], stack=k, offset_mm=x)[0] / RESP.b0_mt
            assert reads_as(units, RESP) == "white stack", (k, x)


def test_a_tilted_stack_still_reads_as_a_stack() -> None:
    # five checkers leaning 2 mm each (8 mm at the top), each turned by 8 degrees
    units = magnets.bz_mt(DESIGN, [0.0], stack=5, offset_mm=3.0, lean_mm=2.0, tilt_deg=8.0)[0] / RESP.b0_mt
    assert reads_as(units, RESP) == "white stack"
    units = magnets.bz_mt(DESIGN, [0.0], stack=2, offset_mm=-4.0, lean_mm=3.0, tilt_deg=10.0)[0] / RESP.b0_mt
    assert reads_as(units, RESP) == "white stack"


def test_one_checker_never_reads_as_a_stack() -> None:
    peak = max(TABLE.bz[0]) / RESP.b0_mt  # a large thin disc peaks near its rim
    assert peak < RESP.stack_threshold() - LEVEL_HYSTERESIS


@pytest.mark.parametrize("sign", [1, -1])
def test_an_empty_slot_amid_a_full_board_stays_empty(sign: int) -> None:
    d, w = DESIGN.checker_diameter_mm, DESIGN.point_pitch_mm
    around = [Magnet(a, b, 0, sign) for a in (-d, 0.0, d) for b in (-w, 0.0, w) if (a, b) != (0.0, 0.0)]
    assert reads_as(field_mt(TABLE, 0.0, 0.0, around) / RESP.b0_mt, RESP) == "empty"
    # its own row's neighbours pushed 10 mm towards it
    pushed = [Magnet(10.0 - d, 0.0, 0, sign), Magnet(d - 10.0, 0.0, 0, sign)]
    assert reads_as(field_mt(TABLE, 0.0, 0.0, pushed) / RESP.b0_mt, RESP) == "empty"


@pytest.mark.parametrize("side", [1, -1])
def test_a_crowded_checker_never_reads_as_the_other_colour(side: int) -> None:
    # out to half the pitch, where the sensor lies between two touching checkers of a row and
    # their rims' return fields add (why the magnet is 28 mm, not 30: hardware/README.md)
    for tenth in range(0, int(DESIGN.slot_pitch_mm * 5) + 1):
        x = tenth / 10
        ms = [Magnet(x, 0.0, 0, 1)] + crowd(DESIGN, x, 1, side)
        assert reads_as(field_mt(TABLE, 0.0, 0.0, ms) / RESP.b0_mt, RESP) in ("white", "empty"), x


@pytest.mark.parametrize("side", [1, -1])
def test_neighbours_of_either_colour_leave_one_checker_one_checker(side: int) -> None:
    tol = crowded_tolerance_mm(DESIGN, TABLE)
    # well beyond the quarter pitch (9.75 mm) two sensors per slot need: 11.5 mm on the array
    assert DESIGN.slot_pitch_mm / 4 + 1.5 <= tol <= single_tolerance_mm(DESIGN, TABLE)
    for tenth in range(0, int(tol * 10) + 1):
        x = tenth / 10
        for colour in (1, -1):
            ms = [Magnet(x, 0.0, 0, colour)] + crowd(DESIGN, x, colour, side)
            got = reads_as(field_mt(TABLE, 0.0, 0.0, ms) / RESP.b0_mt, RESP)
            assert got == ("white" if colour > 0 else "black"), (x, colour)


def test_the_opposite_points_checkers_are_too_far_to_matter() -> None:
    # a full stack on the facing point's last slot, pushed 10 mm toward the tip
    ms = [Magnet(DESIGN.tip_gap_mm - 10.0, 0.0, k, -1) for k in range(11)]
    assert abs(field_mt(TABLE, 0.0, 0.0, ms)) / RESP.b0_mt < 0.1


def test_same_colour_neighbours_push_each_other_less_than_felt_holds_them() -> None:
    # a 12 g checker on felt (friction ~0.3) is held by about 35 mN
    assert 0 < magnet_forces.sideways_force_mn(DESIGN, DESIGN.checker_diameter_mm) < 20.0


def test_a_stack_is_pulled_together_and_lifts_off_one_checker_at_a_time() -> None:
    # pulled onto its own colour, by less than a quarter of a checker's weight
    assert -0.25 * DESIGN.weight_mn < magnet_forces.stack_force_mn(DESIGN, opposite=False) < 0


@pytest.mark.parametrize("offset", [0.0, 2.0, 5.0, 10.0, 15.0])
def test_a_plakoto_pinner_sits_on_its_victim(offset: float) -> None:
    # the opposite magnets repel: the pinner is lifted by less than half its weight and pushed
    # sideways by less than friction holds (hardware/README.md, "Plakoto pins")
    sideways, up = magnet_forces.pin_forces_mn(DESIGN, offset)
    assert 0 < up < DESIGN.weight_mn / 2
    assert abs(sideways) < DESIGN.friction * (DESIGN.weight_mn - up)
    assert pin_sits(DESIGN, sideways, up)


def test_the_former_thicker_magnet_pushed_a_pinner_off() -> None:
    # 30 x 1 mm Y30 (the design before issue 22's last): at its working point 158 mN up, more
    # than a 12 g checker's weight
    old = DESIGN.with_options(magnet=(30.0, 1.0), grade="Y30", sensor="DRV5055A2", rings=0, gap_mm=4.0)
    sideways, up = magnet_forces.pin_forces_mn(old, 0.0)
    assert up > DESIGN.weight_mn
    assert not pin_sits(old, sideways, up)
    assert magnet_forces.stack_force_mn(old, opposite=True) == pytest.approx(up, rel=1e-6)


def test_pin_sits_weighs_lift_and_friction() -> None:
    w = DESIGN.weight_mn
    assert pin_sits(DESIGN, 0.0, 0.49 * w) and not pin_sits(DESIGN, 0.0, 0.51 * w)
    assert pin_sits(DESIGN, 0.29 * w, 0.0) and not pin_sits(DESIGN, 0.31 * w, 0.0)
    assert not pin_sits(DESIGN, -0.31 * w, 0.0)  # either direction


def test_the_sensor_variants_and_grades() -> None:
    assert [SENSORS[n].mv_per_mt for n in ("DRV5055A1", "DRV5055A2", "DRV5055A3", "DRV5055A4")] == [60, 30, 15, 7.5]
    assert GRADES["N35"] == 1.19


@pytest.mark.parametrize("text,message", [
    ("", "magnet.grade"),
    ('[magnet]\ngrade="N35"\n[sensor]\nname="DRV5055A9"', "sensor.name"),
    ('[magnet]\ngrade="N35"\n[sensor]\nname="DRV5055A2"', "checker.diameter_mm"),
    ("[[", "not valid TOML"),
])
def test_bad_designs_say_which_value(text: str, message: str) -> None:
    with pytest.raises(DesignError, match=message):
        parse_design(text)


def test_a_magnet_wider_than_its_checker_is_refused() -> None:
    with pytest.raises(DesignError, match="does not fit"):
        DESIGN.with_options(magnet=(40.0, 1.0))


def test_a_stale_table_is_refused(tmp_path) -> None:
    other = DESIGN.with_options(gap_mm=5.0)
    with pytest.raises(DesignError, match="make_field.py"):
        load_table(other)
    bad = tmp_path / "t.json"
    bad.write_text("{}")
    with pytest.raises(DesignError, match="not a field table"):
        FieldTable.from_json(bad.read_text())


def test_present_threshold_is_the_firmwares() -> None:
    import sys

    from bgboard.hardware import firmware_dir

    sys.path.insert(0, str(firmware_dir()))
    try:
        import classify
    finally:
        sys.path.remove(str(firmware_dir()))
    assert (classify.PRESENT, classify.PRESENT_HYSTERESIS, classify.LEVEL_HYSTERESIS) == (PRESENT, HYSTERESIS, LEVEL_HYSTERESIS)
    assert classify.MAX_LEVEL == MAX_LEVEL  # the length of the generated STACK_SHAPE_MILLI
    from bgboard.sim.table import RAIL  # the modelled board's fault band is the firmware's

    assert classify.RAIL == RAIL


# ---------------------------------------------------------------- a lone checker anywhere
# (benchmarks/lone_checker.py, hardware/README.md "A lone checker anywhere": the options computed)
import sys as _sys  # noqa: E402
from pathlib import Path as _Path  # noqa: E402

_sys.path.insert(0, str(_Path(__file__).resolve().parents[2] / "benchmarks"))
import lone_checker  # noqa: E402


def test_half_a_pitch_off_both_sensors_a_lone_checker_gives_them_the_return_field() -> None:
    # the mid-point lies outside the disc's rim: each sensor sees the reversed field, so no
    # threshold and no sum of the two neighbours can see the checker there
    mid = TABLE.at(0, DESIGN.slot_pitch_mm / 2) / RESP.b0_mt
    assert mid < 0
    assert 2 * mid < PRESENT


def test_no_magnet_or_gap_or_threshold_option_reads_a_lone_checker_half_a_pitch_off() -> None:
    results = {name: lone_checker.evaluate(design, ring, lowest="threshold" in name)
               for name, design, ring in lone_checker.options(DESIGN)}
    assert results["as built"]["read_to_mm"] == single_tolerance_mm(DESIGN, TABLE, step=0.25)
    for name, r in results.items():
        assert r["read_to_mm"] < DESIGN.slot_pitch_mm / 2 - 1.5, name
        assert not r["pair_rule_works"], name  # each sensor's weak reading is within the crowd's crosstalk
    # the largest disc a checker holds reads furthest, still 2 mm short of the mid-point
    assert max(results, key=lambda n: results[n]["read_to_mm"]).startswith("36 mm disc")


def test_two_sensors_per_slot_would_read_a_lone_checker_anywhere() -> None:
    # a quarter of the pitch is the furthest a checker can lie from the nearest of two sensors per slot
    quarter = DESIGN.slot_pitch_mm / 4
    assert all(TABLE.at(0, i / 10) / RESP.b0_mt >= PRESENT + HYSTERESIS for i in range(int(quarter * 10) + 1))
    two = lone_checker.two_per_slot(DESIGN, rows=400, seed=3)
    assert two["right"] == two["rows"] and two["lone_right"] == two["lone"] > 40
    assert two["worst_offset"] > quarter - 1.5  # lone checkers were put down up to the worst place
