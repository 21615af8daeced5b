"""The checker's magnets as sensing.toml gives them: an array of stock discs (issue 32), parsed,
checked (it fits the checker with a 1 mm wall, its discs do not overlap) and placed."""

from __future__ import annotations

import math

import pytest

from bgboard.hardware.physics import (
    DesignError,
    hex_centres,
    load_design,
    magnet_centres,
    parse_design,
)

DESIGN = load_design()


def _toml(magnet: str) -> str:
    return f"""
[checker]
diameter_mm = 38.0
thickness_mm = 7.0
mass_g = 12.0
friction = 0.3
[magnet]
diameter_mm = 2.0
thickness_mm = 1.0
grade = "N38"
depth_mm = 3.0
{magnet}
[board]
surface_mm = 3.5
slot_pitch_mm = 39.0
base_mm = 21.0
point_pitch_mm = 40.0
tip_gap_mm = 78.0
[sensor]
name = "DRV5055A1"
supply_v = 3.3
[adc]
full_scale = 65536
"""


def test_the_design_is_19_stock_discs_7_mm_apart_3_mm_up() -> None:
    d = DESIGN
    assert (d.magnet_diameter_mm, d.magnet_thickness_mm, d.grade) == (2.0, 1.0, "N38")
    assert (d.magnet_rings, d.magnet_spacing_mm, d.magnet_count) == (2, 7.0, 19)
    assert d.magnet_width_mm == 30.0 and d.gap_mm == pytest.approx(6.5)
    assert d.key()["magnet_rings"] == 2 and d.key()["magnet_spacing_mm"] == 7.0


def test_without_rings_a_design_is_one_disc_on_the_axis() -> None:
    d = parse_design(_toml(""))
    assert (d.magnet_rings, d.magnet_spacing_mm, d.magnet_count) == (0, 0.0, 1)
    assert magnet_centres(d) == ((0.0, 0.0),)
    assert d.key() != DESIGN.key()


def test_the_centres_are_hexagonal_the_first_on_the_axis() -> None:
    centres = magnet_centres(DESIGN)
    assert len(centres) == 19 and centres[0] == (0.0, 0.0)
    # ring 1: six discs one spacing out; ring 2: twelve, its corners two spacings out
    radii = sorted(round(math.hypot(x, y), 6) for x, y in centres)
    assert radii[1:7] == [7.0] * 6 and radii[-6:] == [14.0] * 6
    assert sorted(radii[7:13]) == [round(7.0 * math.sqrt(3), 6)] * 6
    # no two closer than the spacing: the discs never overlap
    gaps = [math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:]]
    assert min(gaps) == pytest.approx(7.0)
    # mirrored about the x axis (a hexagon is)
    assert sorted((round(x, 6), round(abs(y), 6)) for x, y in centres) == sorted(
        (round(x, 6), round(abs(-y), 6)) for x, y in centres)
    assert len(hex_centres(1, 5.0)) == 7 and len(hex_centres(3, 3.0)) == 37


@pytest.mark.parametrize("magnet,message", [
    ("rings = 2\nspacing_mm = 1.5", "overlap"),
    ("rings = 2\nspacing_mm = 9.0", "does not fit a 38 mm checker"),
    ("rings = 3\nspacing_mm = 6.0", "37 discs 38 mm across does not fit"),
    ("rings = 2", "magnet.spacing_mm"),
    ("rings = 1.5\nspacing_mm = 7.0", "magnet.rings"),
    ("rings = -1\nspacing_mm = 7.0", "magnet.rings"),
    ("rings = true\nspacing_mm = 7.0", "magnet.rings"),
])
def test_an_array_that_cannot_be_built_is_refused_in_one_sentence(magnet: str, message: str) -> None:
    with pytest.raises(DesignError, match=message) as caught:
        parse_design(_toml(magnet))
    assert "\n" not in str(caught.value)


def test_an_array_just_fitting_its_wall_is_accepted() -> None:
    # 2 x 2 x 8.5 + 2 = 36 mm: a 1 mm wall on each side of a 38 mm checker
    d = parse_design(_toml("rings = 2\nspacing_mm = 8.5"))
    assert d.magnet_width_mm == 36.0


def test_with_options_moves_the_discs() -> None:
    one = DESIGN.with_options(magnet=(28.0, 1.0), rings=0)
    assert one.magnet_count == 1 and magnet_centres(one) == ((0.0, 0.0),)
    with pytest.raises(DesignError, match="overlap"):
        DESIGN.with_options(magnet=(28.0, 1.0))
    with pytest.raises(DesignError, match="does not fit"):
        DESIGN.with_options(spacing_mm=9.0)
