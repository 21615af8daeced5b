"""The stack-up as a model (issue 32): hardware/stackup.py's build123d solids.

The gap the physics uses (sensing.toml, bgboard.hardware.physics) is the gap measured on the
model; the checker's printed insert holds the design's discs where the physics puts them, on
floors the physics' depth above the checker's face; the STEP, the section drawing, the checker's
and the insert's STL and the insert's drawing are written and read back; every place's LED has
its window (a hole over it, nothing between it and the air above the felt).
build123d is the hardware extra's: without it these tests fail at import, not skip.
"""

from __future__ import annotations

import csv
import dataclasses
import subprocess
import sys
import tomllib
from pathlib import Path

import build123d
import pytest

from bgboard.hardware.physics import load_design, magnet_centres

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import stackup  # noqa: E402


@pytest.fixture(scope="module")
def params() -> stackup.Params:
    return stackup.load()


@pytest.fixture(scope="module")
def point(params: stackup.Params) -> stackup.Place:
    return stackup.build_place(params)


def test_the_gap_measured_on_the_model_is_the_physics_gap(point: stackup.Place) -> None:
    measured = stackup.measured_gap_mm(point)
    assert measured == pytest.approx(load_design().gap_mm, abs=0.01)


def test_the_gap_is_measured_not_typed(params: stackup.Params) -> None:
    """A thicker skin or felt moves the magnet away by as much on the solids."""
    stack = dict(params.stack, surface=dict(params["surface"], skin_mm=2.5, felt_mm=1.2))
    thicker = stackup.build_place(dataclasses.replace(params, stack=stack))
    assert stackup.measured_gap_mm(thicker) == pytest.approx(load_design().gap_mm + 0.8, abs=0.01)


def test_the_sensing_face_carries_only_parts_no_taller_than_the_sensors(params: stackup.Params,
                                                                       point: stackup.Place) -> None:
    face = point.parts["strip"].bounding_box().max.Z
    back = point.parts["strip"].bounding_box().min.Z
    sensor_top = point.parts["sensor1"].bounding_box().max.Z
    up = {n for n, s in point.parts.items() if s.bounding_box().min.Z >= face - 1e-6
          and s.bounding_box().max.Z < point.parts["felt"].bounding_box().min.Z}
    assert {n.rstrip("0123456789") for n in up} == {"sensor", "element", "c100n", "led"}
    assert all(point.parts[n].bounding_box().max.Z <= sensor_top + 1e-6 for n in up if not n.startswith("led"))
    for name in ("mux", "regulator", "c1u_in", "c1u_out", "header", "socket"):
        assert point.parts[name].bounding_box().max.Z <= back + 1e-6, name
    # nothing on the strip runs into the surface: the sensors touch the skin, no more
    for name in up:
        assert (point.parts[name] & point.parts["surface"]).volume < 1e-6, name


def test_the_insert_holds_every_disc_where_the_physics_puts_it(params: stackup.Params) -> None:
    """19 discs, each on its own hole's floor the physics' depth above the checker's face, at
    the centres bgboard.hardware.physics gives; the insert flush with the checker's face."""
    design = load_design()
    parts = stackup.checker_parts(params, 0, 0, 0)
    discs = stackup.magnets(parts)
    assert len(discs) == len(magnet_centres(design)) == design.magnet_count == 19
    for disc, (cx, cy) in zip(discs, magnet_centres(design)):
        box = disc.bounding_box()
        assert ((box.min.X + box.max.X) / 2, (box.min.Y + box.max.Y) / 2) == pytest.approx((cx, cy), abs=1e-6)
        assert box.min.Z == pytest.approx(design.magnet_depth_mm, abs=1e-6)  # its bottom face: 3.0 mm up
        assert box.max.X - box.min.X == pytest.approx(design.magnet_diameter_mm)
        assert (disc & parts["insert"]).volume < 1e-6 and (disc & parts["checker"]).volume < 1e-6
        # probed on the insert: the floor under the disc, from below the checker
        assert stackup.first_hit_up(parts["insert"], cx, cy, 0.01) == pytest.approx(design.magnet_depth_mm)
    insert = parts["insert"].bounding_box()
    assert insert.min.Z == pytest.approx(0.0)  # flush with the checker's face
    assert insert.max.Z == pytest.approx(stackup.insert_thickness(params))
    assert max(d.bounding_box().max.Z for d in discs) <= insert.max.Z  # a disc does not stand proud
    assert (parts["insert"] & parts["checker"]).volume < 1e-6


def test_the_holes_take_the_widest_disc_the_catalogue_allows(params: stackup.Params) -> None:
    """2.1 mm holes 1.1 mm deep for 2 x 1 mm discs of +-0.1 mm: a disc of the largest size fits
    without forcing (the hole measured on the solid: its wall 1.05 mm from its centre)."""
    parts = stackup.checker_parts(params, 0, 0, 0)
    insert = parts["insert"]
    from build123d import Axis

    level = stackup.insert_thickness(params) - 0.5  # across the hole, half a millimetre down
    hits = [v.X for v, _ in insert.find_intersection_points(Axis((-1.5, 0, level), (1, 0, 0)))]
    walls = sorted(x for x in hits if -1.5 < x < 1.5)
    assert walls == pytest.approx([-1.05, 1.05], abs=1e-6)
    hole_floor = stackup.first_hit_up(insert, 0, 0, 0.01)
    assert stackup.insert_thickness(params) - hole_floor == pytest.approx(1.1)


def test_the_readmes_hole_table_is_the_physics_centres() -> None:
    """hardware/README.md lists the insert's 19 holes for a maker: the same centres the
    physics puts the discs at (bgboard.hardware.physics.magnet_centres), to 0.01 mm."""
    text = (ROOT / "hardware" / "README.md").read_text()
    table = text[text.index("The holes' centres (mm from the insert's axis"):]
    table = table[:table.index("\n\n", table.index("| hole |"))]
    listed: dict[int, tuple[float, float]] = {}
    for line in [row for row in table.splitlines() if row.startswith("|")][2:]:  # past the header
        cells = [c.strip().replace("\u2212", "-") for c in line.strip("|").split("|")]
        for k in range(0, len(cells) - 2, 3):
            if cells[k]:
                listed[int(cells[k])] = (float(cells[k + 1]), float(cells[k + 2]))
    centres = magnet_centres(load_design())
    assert sorted(listed) == list(range(1, len(centres) + 1))
    for n, (x, y) in listed.items():
        assert (x, y) == pytest.approx(centres[n - 1], abs=0.006), n


def test_the_boms_filament_prints_the_thirty_inserts(params: stackup.Params) -> None:
    """The PLA line of bom.csv: at least 30 inserts' worth of filament, as the model weighs one
    (solid, at PLA's density)."""
    mass = stackup.insert_mass_g(params)
    assert 3.5 < mass < 4.5  # a 32 x 4.1 mm PLA disc less its holes: about 4 g
    rows = {r["part_number"]: r for r in csv.DictReader((ROOT / "hardware" / "bom.csv").open())}
    assert 30 * mass <= int(rows["PLA filament 1.75 mm"]["quantity"]) <= 30 * mass * 1.2


def test_every_place_has_a_window_over_its_led(params: stackup.Params) -> None:
    grid = tomllib.loads((ROOT / "hardware" / "grid.toml").read_text())
    slots: dict[str, int] = {}
    for slot in grid["slot"]:
        slots[slot["place"]] = max(slots.get(slot["place"], 0), slot["index"] + 1)
    assert len(slots) == 28
    built = {n: stackup.build_place(params, n, checker_slot=None) for n in set(slots.values())}
    checker_r = params.sensing["checker"]["diameter_mm"] / 2
    for place, n in slots.items():
        model = built[n]
        assert stackup.window_clear(model), place
        last_checker_edge = params.base + (n - 1) * params.pitch + checker_r
        window_edge = model.led_xy[0] - params["window"]["diameter_mm"] / 2
        assert window_edge > last_checker_edge, place  # its own checkers never cover it


def test_a_window_narrower_than_the_led_is_refused(params: stackup.Params) -> None:
    stack = dict(params.stack, window=dict(params["window"], diameter_mm=4.0))
    assert not stackup.window_clear(stackup.build_place(dataclasses.replace(params, stack=stack), checker_slot=None))


def test_the_light_through_the_window_from_the_datasheet(params: stackup.Params) -> None:
    lit = stackup.light(params)
    assert lit["transmission"][0] == pytest.approx(0.924, abs=0.001)
    assert lit["green"] == pytest.approx((660 * 0.924, 720 * 0.924), abs=1)


def test_stackup_writes_step_png_and_stl(tmp_path: Path, point: stackup.Place) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "hardware" / "stackup.py"), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"gap measured {load_design().gap_mm:.3f} mm" in run.stderr
    step, png, stl = tmp_path / "stackup-point.step", tmp_path / "stackup-section.png", tmp_path / "checker.stl"
    insert_stl, drawing = tmp_path / "insert.stl", tmp_path / "insert-drawing.png"
    for path in (step, png, stl, insert_stl, drawing):
        assert path.stat().st_size > 1000, path
    for picture in (png, drawing):
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = build123d.import_step(str(step))
    assert len(again.solids()) == len(point.parts)
    assert [child.label for child in again.children] == list(point.parts)  # one named solid per part
    assert again.volume == pytest.approx(sum(s.volume for s in point.parts.values()), rel=1e-3)
    parts = stackup.checker_parts(stackup.load(), 0, 0, 0)
    for path, name in ((stl, "checker"), (insert_stl, "insert")):
        printed = build123d.Mesher().read(str(path))  # the mesh read back as a closed solid
        assert len(printed) == 1, name
        assert printed[0].volume == pytest.approx(parts[name].volume, rel=0.01), name


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    script = str(ROOT / "hardware" / "stackup.py")
    run = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert run.returncode == 2
    text = (ROOT / "hardware" / "stackup.toml").read_text()
    for broken, says in ((text.replace("skin_mm = 2.0", "skin_mm = 5.0"), "no ledge under the skin"),
                         (text.replace("diameter_mm = 8.0", "diameter_mm = 6.0"), "narrower than the LED"),
                         (text.replace("diameter_mm = 32.0", "diameter_mm = 31.0"), "outside the outer holes"),
                         (text.replace("diameter_mm = 32.0", "diameter_mm = 36.5"), "1 mm of the checker round"),
                         (text.replace("[surface]", "[surfaces]"), "lacks or mistypes 'surface'"),
                         (text.replace("felt_mm = 0.9", 'felt_mm = "thick"'), "felt_mm must be a length"),
                         ("[surface\n", "cannot build the stack-up")):
        bad = tmp_path / "stackup.toml"
        bad.write_text(broken)
        run = subprocess.run([sys.executable, script, "--out", str(tmp_path / "out"), "--stackup", str(bad)],
                             capture_output=True, text=True)
        assert run.returncode == 2, broken
        assert says in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert not (tmp_path / "out").exists()


def test_a_sensing_gap_the_model_does_not_have_fails_the_build(tmp_path: Path) -> None:
    design = load_design()
    text = (ROOT / "hardware" / "sensing.toml").read_text()
    sensing = text.replace(f"surface_mm = {design.surface_mm:g}", f"surface_mm = {design.surface_mm - 0.5:g}")
    assert sensing != text
    (tmp_path / "sensing.toml").write_text(sensing)
    run = subprocess.run([sys.executable, str(ROOT / "hardware" / "stackup.py"), "--out", str(tmp_path / "out"),
                          "--sensing", str(tmp_path / "sensing.toml")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert (f"the model's gap is {design.gap_mm:.3f} mm but sensing.toml's is {design.gap_mm - 0.5:.3f} mm"
            in run.stderr)


def test_no_two_parts_overlap(point: stackup.Place) -> None:
    """The model is buildable: parts touch (the sensors the skin, the strip the ledge, the
    checker the felt, the screws' heads the strip) but no solid runs into another."""
    names = [n for n in point.parts if not n.startswith("element")]  # the elements are inside their sensors
    boxes = {n: point.parts[n].bounding_box() for n in names}
    clashes = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if _boxes_meet(boxes[a], boxes[b]) and (point.parts[a] & point.parts[b]).volume > 1e-4:
                clashes.append((a, b))
    assert clashes == []


def _boxes_meet(a: build123d.BoundBox, b: build123d.BoundBox) -> bool:
    return all(lo_a <= hi_b and lo_b <= hi_a for lo_a, hi_a, lo_b, hi_b in
               ((a.min.X, a.max.X, b.min.X, b.max.X), (a.min.Y, a.max.Y, b.min.Y, b.max.Y),
                (a.min.Z, a.max.Z, b.min.Z, b.max.Z)))


def test_a_part_moved_into_the_surface_is_a_clash(point: stackup.Place) -> None:
    raised = build123d.Pos(0, 0, 0.3) * point.parts["sensor1"]
    assert _boxes_meet(raised.bounding_box(), point.parts["surface"].bounding_box())
    assert (raised & point.parts["surface"]).volume > 0.1
