"""Magnets that keep their field, checked by a second method, and the forces between them
(issue 32): the magnet's working point against its grade's coercivity over the storage
temperatures, magpylib's rigid field against magpylib-material-response's recoil solution,
and the forces that must neither slide a checker nor hold a stack together.  Real magpylib
and magpylib-material-response: without them these fail (the test extra installs them)."""

from __future__ import annotations

import pytest

from bgboard.hardware import magnets
from bgboard.hardware.magnet_grades import GRADE_TABLE, MIN_MARGIN, STORAGE_C, margin, worst_margin
from bgboard.hardware.physics import load_design, load_table, response

DESIGN = load_design()
GRADE = GRADE_TABLE[DESIGN.grade]
#: The disc before issue 32: 28 x 0.5 mm anisotropic sintered ferrite.
BEFORE = DESIGN.with_options(magnet=(28.0, 0.5), grade="Y30")


def test_the_extension_is_installed() -> None:
    import magpylib_material_response

    assert magpylib_material_response.__name__


# ---------------------------------------------------------------------- the working point
@pytest.mark.parametrize("case", list(magnets.NEIGHBOURS))
def test_the_magnet_keeps_its_field_from_minus_20_to_60_c(case: str) -> None:
    h = magnets.inner_field_ka_m(DESIGN, case)
    assert -200 < h < -120  # close to -J/mu0 (a thin disc), a little under it on the recoil line
    for tenth in range(int(STORAGE_C[0]), int(STORAGE_C[1]) + 1, 5):
        assert margin(GRADE, h, tenth) >= MIN_MARGIN, (case, tenth)
    temp, worst = worst_margin(GRADE, h)
    assert temp == STORAGE_C[0] and worst >= MIN_MARGIN  # a ferrite is weakest in the cold


def test_the_disc_before_lost_its_field() -> None:
    # issue 32: inside the 28 x 0.5 mm Y30 disc magpylib's rigid H is about -305 kA/m at its
    # centre, beyond Y30's HcJ (199 / 220 kA/m) at any temperature; on its recoil line too
    rigid = magnets.inner_field_ka_m(BEFORE, "alone", recoil=False)
    assert rigid == pytest.approx(-305, abs=5)
    grade = GRADE_TABLE["Y30"]
    assert worst_margin(grade, rigid)[1] < -0.4
    assert worst_margin(grade, magnets.inner_field_ka_m(BEFORE, "pinned under one pinner"))[1] < -0.4
    assert margin(grade, rigid, 20.0) < 0  # even at room temperature


def test_recoil_is_the_relief_the_rigid_model_leaves_out() -> None:
    # the rigid model (every magnet at its remanence) is the plainest, most pessimistic figure:
    # the magnet on its recoil line sees a weaker field of its own
    for case in ("alone", "pinned under two pinners"):
        assert magnets.inner_field_ka_m(DESIGN, case) > magnets.inner_field_ka_m(DESIGN, case, recoil=False)


def test_temperature_turns_the_grades_the_right_way() -> None:
    ferrite, ndfeb = GRADE_TABLE["Y10T"], GRADE_TABLE["N35"]
    assert ferrite.hcj_at(-20) < ferrite.hcj_at(20) < ferrite.hcj_at(60)
    assert ndfeb.hcj_at(-20) > ndfeb.hcj_at(20) > ndfeb.hcj_at(60)
    assert worst_margin(ferrite, -150)[0] == -20.0 and worst_margin(ndfeb, -500)[0] == 60.0
    # the guaranteed minimum is below the typical figure the design is checked with
    assert ferrite.hcj_at(20, typical=False) == 210 and ferrite.hcj_at(20) == 250


# ---------------------------------------------------------------------- the second method
@pytest.mark.parametrize("stack", [1, 5])
def test_the_rigid_table_agrees_with_the_recoil_solution_at_the_sensor(stack: int) -> None:
    table = load_table(DESIGN)
    modelled = response(DESIGN, table).stack_units[stack - 1] * table.at(0, 0.0)
    solved = magnets.recoil_bz_mt(DESIGN, stack)
    assert modelled == pytest.approx(solved, rel=0.05)
    assert abs(modelled / solved - 1) < 0.015  # measured: 0.9 % for one checker, 0.1 % for five


def test_a_rigid_magnet_at_its_remanence_would_not_agree() -> None:
    # why the table is at the working point: rigid at Br the sensor would read 17 % more
    rigid = magnets.bz_mt(DESIGN, [0.0], polarization_t=GRADE.br_t)[0]
    assert rigid / magnets.recoil_bz_mt(DESIGN, 1) - 1 > 0.05


def test_the_working_point_follows_the_recoil_permeability() -> None:
    low, high = (magnets.working_polarization_t(DESIGN, mu) for mu in GRADE.mu_rec)
    nominal = magnets.working_polarization_t(DESIGN)
    assert GRADE.br_t > low > nominal > high > 0.7 * GRADE.br_t


# ---------------------------------------------------------------------- forces
def test_the_forces_obey_newtons_third_law() -> None:
    # magpylib's getFT (magpylib-force, taken into magpylib 5.2) meshes the target only: the
    # pull computed on the upper magnet and on the lower one are two different computations
    import magpylib as magpy

    j = magnets.working_polarization_t(DESIGN)
    d, t = DESIGN.magnet_diameter_mm / 1000, DESIGN.magnet_thickness_mm / 1000
    lower = magpy.magnet.Cylinder(polarization=(0, 0, j), dimension=(d, t), position=(0, 0, 0))
    upper = magpy.magnet.Cylinder(polarization=(0, 0, j), dimension=(d, t), position=(0.002, 0, 0.007))
    on_upper = magpy.getFT(lower, upper, meshing=300)[0]
    on_lower = magpy.getFT(upper, lower, meshing=300)[0]
    assert on_upper == pytest.approx(-on_lower, rel=0.02, abs=1e-5)
    assert on_upper[2] * 1000 == pytest.approx(magnets.pin_forces_mn(DESIGN, 2.0)[1] * -1, rel=1e-6)


@pytest.mark.parametrize("dx,dy,opposite", [(38.0, 0.0, False), (39.0, 0.0, False), (0.0, 40.0, False), (0.0, 40.0, True),
                                            (38.0, 0.0, True)])
def test_no_neighbour_slides_a_checker(dx: float, dy: float, opposite: bool) -> None:
    # touching along a row (38-39 mm) or across to the next point (40 mm), either colour:
    # far below what friction holds (0.3 x 118 mN, sensing.toml's [checker] friction)
    force = magnets.sideways_force_mn(DESIGN, dx, dy, opposite)
    assert (force < 0) == opposite  # like colours repel, unlike attract
    assert abs(force) < 0.1 * DESIGN.friction * DESIGN.weight_mn


@pytest.mark.parametrize("stack", [2, 3, 5])
def test_a_stack_lets_its_top_checker_go_alone(stack: int) -> None:
    # lifting the top checker: the one under it stays (its weight and the pull from below hold it)
    assert magnets.lift_one_force_mn(DESIGN, stack) < -0.5 * DESIGN.weight_mn


def test_stacked_checkers_pull_together_and_a_pin_does_not_float() -> None:
    pull = magnets.stack_force_mn(DESIGN, opposite=False)
    assert -DESIGN.weight_mn < pull < -0.25 * DESIGN.weight_mn  # holds together, lifts off one at a time
    up = magnets.stack_force_mn(DESIGN, opposite=True)
    assert 0 < up < DESIGN.weight_mn / 2
