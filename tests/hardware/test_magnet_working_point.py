"""Magnets that keep their field, checked by a second method, and the forces between them
(issue 32): the design's array of stock discs — each disc's working point against its grade's
guaranteed coercivity over the storage temperatures, magpylib's rigid field against
magpylib-material-response's recoil solution, and the forces that must neither slide a checker
nor hold a stack together — and the discs before it, each for the reason it was left.  Real
magpylib and magpylib-material-response: without them these fail (the test extra installs them)."""

from __future__ import annotations

import pytest

from bgboard.hardware import magnet_forces, magnets
from bgboard.hardware.magnet_grades import GRADE_TABLE, MIN_MARGIN, STORAGE_C, margin, worst_margin
from bgboard.hardware.physics import load_design, load_table, pin_sits, response

DESIGN = load_design()
GRADE = GRADE_TABLE[DESIGN.grade]
#: The disc before issue 32: 28 x 0.5 mm anisotropic sintered ferrite, 0.5 mm up in its checker.
BEFORE = DESIGN.with_options(magnet=(28.0, 0.5), grade="Y30", gap_mm=4.0, rings=0)
#: The pressed disc issue 32 tried first: 28 x 1 mm isotropic ferrite, not stock.
REJECTED = DESIGN.with_options(magnet=(28.0, 1.0), grade="Y10T", gap_mm=4.0, rings=0)


def test_the_extension_is_installed() -> None:
    import magpylib_material_response

    assert magpylib_material_response.__name__


# ---------------------------------------------------------------------- the working point
@pytest.mark.parametrize("case", list(magnets.NEIGHBOURS))
def test_every_disc_keeps_its_field_from_minus_20_to_60_c_at_the_guaranteed_coercivity(case: str) -> None:
    h = magnets.inner_field_ka_m(DESIGN, case)
    assert -640 < h < -590  # half as thick as wide: about half of -J/mu0 (-987 kA/m)
    for temp in range(int(STORAGE_C[0]), int(STORAGE_C[1]) + 1, 5):
        assert margin(GRADE, h, temp, typical=False) >= MIN_MARGIN, (case, temp)
    temp, worst = worst_margin(GRADE, h, typical=False)
    assert temp == STORAGE_C[1] and worst >= MIN_MARGIN  # NdFeB is weakest in the heat


def test_the_worst_case_is_a_double_pin_with_a_fifth_to_spare() -> None:
    case, h = magnets.worst_inner_field(DESIGN)
    assert case == "pinned under two pinners"
    assert worst_margin(GRADE, h, typical=False)[1] == pytest.approx(0.240, abs=0.01)  # measured: +24.0 %
    # even rigid at its remanence (no recoil at all) it keeps a fifth
    case, rigid = magnets.worst_inner_field(DESIGN, recoil=False)
    assert worst_margin(GRADE, rigid, typical=False)[1] > 0.2


def test_every_disc_of_the_array_is_checked_not_only_the_middle_one() -> None:
    # the outer discs see the return field of the inner ones: with the array, the worst field
    # inside is stronger than a lone disc's
    lone = DESIGN.with_options(rings=0)
    assert magnets.inner_field_ka_m(DESIGN, "alone", recoil=False) < magnets.inner_field_ka_m(lone, "alone", recoil=False)


def test_the_disc_before_lost_its_field() -> None:
    # issue 32: inside the 28 x 0.5 mm Y30 disc magpylib's rigid H is about -305 kA/m at its
    # centre, beyond Y30's HcJ (199 / 220 kA/m) at any temperature; on its recoil line too
    rigid = magnets.inner_field_ka_m(BEFORE, "alone", recoil=False)
    assert rigid == pytest.approx(-305, abs=5)
    grade = GRADE_TABLE["Y30"]
    assert worst_margin(grade, rigid)[1] < -0.4
    assert worst_margin(grade, magnets.inner_field_ka_m(BEFORE, "pinned under one pinner"))[1] < -0.4
    assert margin(grade, rigid, 20.0) < 0  # even at room temperature


def test_the_rejected_disc_kept_its_field_only_at_its_grades_typical_coercivity() -> None:
    case, h = magnets.worst_inner_field(REJECTED)
    grade = GRADE_TABLE["Y10T"]
    assert case == "pinned under two pinners" and h == pytest.approx(-166.2, abs=1.0)
    assert worst_margin(grade, h) == (STORAGE_C[0], pytest.approx(0.114, abs=0.005))  # a ferrite: weakest in the cold
    assert worst_margin(grade, h, typical=False)[1] == pytest.approx(-0.064, abs=0.005)


def test_recoil_is_the_relief_the_rigid_model_leaves_out() -> None:
    # the rigid model (every magnet at its remanence) is the plainest, most pessimistic figure:
    # the magnet on its recoil line sees a weaker field of its own
    for design in (DESIGN, REJECTED):
        for case in ("alone", "pinned under two pinners"):
            assert magnets.inner_field_ka_m(design, case) > magnets.inner_field_ka_m(design, case, recoil=False)


def test_temperature_turns_the_grades_the_right_way() -> None:
    ferrite, ndfeb = GRADE_TABLE["Y10T"], GRADE_TABLE["N35"]
    assert ferrite.hcj_at(-20) < ferrite.hcj_at(20) < ferrite.hcj_at(60)
    assert ndfeb.hcj_at(-20) > ndfeb.hcj_at(20) > ndfeb.hcj_at(60)
    assert worst_margin(ferrite, -150)[0] == -20.0 and worst_margin(ndfeb, -500)[0] == 60.0
    # the guaranteed minimum is below the typical figure of a ferrite; NdFeB's is one figure
    assert ferrite.hcj_at(20, typical=False) == 210 and ferrite.hcj_at(20) == 250
    assert GRADE_TABLE["N38"].hcj_at(20, typical=False) == GRADE_TABLE["N38"].hcj_at(20) == 955


# ---------------------------------------------------------------------- the second method
@pytest.mark.parametrize("stack", [1, 5])
def test_the_rigid_table_agrees_with_the_recoil_solution_at_the_sensor(stack: int) -> None:
    table = load_table(DESIGN)
    modelled = response(DESIGN, table).stack_units[stack - 1] * table.at(0, 0.0)
    solved = magnets.recoil_bz_mt(DESIGN, stack)
    assert modelled == pytest.approx(solved, rel=0.05)
    assert abs(modelled / solved - 1) < 0.005  # measured: +0.08 % for one checker, +0.21 % for five


def test_a_rigid_ferrite_at_its_remanence_would_not_agree() -> None:
    # why the table is at the working point: rigid at Br the rejected ferrite disc's sensor would
    # read 17 % more; NdFeB's recoil line is steep (mu_rec 1.05), its working point 2 % under Br
    rigid = magnets.bz_mt(REJECTED, [0.0], polarization_t=GRADE_TABLE["Y10T"].br_t)[0]
    assert rigid / magnets.recoil_bz_mt(REJECTED, 1) - 1 > 0.05
    assert 0.97 * GRADE.br_t < magnets.working_polarization_t(DESIGN) < 0.99 * GRADE.br_t


def test_the_working_point_follows_the_recoil_permeability() -> None:
    grade = GRADE_TABLE["Y10T"]
    low, high = (magnets.working_polarization_t(REJECTED, mu) for mu in grade.mu_rec)
    nominal = magnets.working_polarization_t(REJECTED)
    assert grade.br_t > low > nominal > high > 0.7 * grade.br_t


# ---------------------------------------------------------------------- forces
def test_the_forces_obey_newtons_third_law() -> None:
    # magpylib's getFT (magpylib-force, taken into magpylib 5.2) meshes the target only: the
    # force computed on the upper checker's discs and on the lower one's are two different computations
    import magpylib as magpy

    lower = magnets.checker(magpy, DESIGN)
    upper = magnets.checker(magpy, DESIGN, 2.0, 0.0, 1, -1)
    on_upper = magnet_forces.forces_on(DESIGN, lower, [upper])[0]
    on_lower = magnet_forces.forces_on(DESIGN, upper, [lower])[0]
    assert on_upper == pytest.approx(tuple(-f for f in on_lower), rel=0.03, abs=0.3)
    assert on_upper[2] == pytest.approx(magnet_forces.pin_forces_mn(DESIGN, 2.0)[1], rel=1e-6)


def test_the_arrays_forces_do_not_hang_on_how_finely_its_discs_are_cut() -> None:
    import magpylib as magpy

    lower = magnets.checker(magpy, DESIGN)
    upper = magnets.checker(magpy, DESIGN, 2.0, 0.0, 1, -1)
    coarse = magpy.getFT(lower, list(upper.children), meshing=magnet_forces.ARRAY_MESHING)[0].reshape(-1, 3).sum(axis=0)
    fine = magpy.getFT(lower, list(upper.children), meshing=300)[0].reshape(-1, 3).sum(axis=0)
    assert coarse[2] == pytest.approx(fine[2], rel=0.01) and coarse[0] == pytest.approx(fine[0], rel=0.01, abs=2e-5)


@pytest.mark.parametrize("dx,dy,opposite", [(38.0, 0.0, False), (39.0, 0.0, False), (0.0, 40.0, False), (0.0, 40.0, True),
                                            (38.0, 0.0, True)])
def test_no_neighbour_slides_a_checker(dx: float, dy: float, opposite: bool) -> None:
    # touching along a row (38-39 mm) or across to the next point (40 mm), either colour:
    # far below what friction holds (0.3 x 118 mN, sensing.toml's [checker] friction)
    force = magnet_forces.sideways_force_mn(DESIGN, dx, dy, opposite)
    assert (force < 0) == opposite  # like colours repel, unlike attract
    assert abs(force) < 0.1 * DESIGN.friction * DESIGN.weight_mn  # measured: at most 1.4 mN against 35.3


@pytest.mark.parametrize("stack", [2, 3, 5])
def test_a_stack_lets_its_top_checker_go_alone(stack: int) -> None:
    # lifting the top checker: the one under it stays (its weight and the pull from below hold it)
    assert magnet_forces.lift_one_force_mn(DESIGN, stack) < -0.5 * DESIGN.weight_mn


def test_stacked_checkers_pull_together_and_a_pin_does_not_float() -> None:
    for turn in magnet_forces.TURNS_DEG:
        pull = magnet_forces.stack_force_mn(DESIGN, opposite=False, turn_deg=turn)
        assert -0.25 * DESIGN.weight_mn < pull < 0  # they attract; a stack lifts off one checker at a time
        up = magnet_forces.stack_force_mn(DESIGN, opposite=True, turn_deg=turn)
        assert 0 < up < DESIGN.weight_mn / 2


def test_a_plakoto_pinner_sits_anywhere_on_its_victim_turned_any_way() -> None:
    f = magnet_forces.forces(DESIGN)
    assert f["pin_sits"] == 1.0 and f["pin_lift"] < DESIGN.weight_mn / 4  # measured: 25.4 mN
    for offset, up, side, holds in magnet_forces.pin_table(DESIGN):
        assert pin_sits(DESIGN, side, up) and side < holds, offset
    assert f["neighbour"] < 0.05 * DESIGN.friction * DESIGN.weight_mn and f["stack_pull"] < DESIGN.weight_mn / 4
