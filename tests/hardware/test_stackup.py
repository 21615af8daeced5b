"""The stack-up as a model (issue 32): hardware/stackup.py's build123d solids.

The gap the physics uses (sensing.toml, bgboard.hardware.physics) is the gap measured on the
model; the STEP, the section drawing and the checker's STL are written and read back; every
place's LED has its window (a hole over it, nothing between it and the air above the felt).
build123d is the hardware extra's: without it these tests fail at import, not skip.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import tomllib
from pathlib import Path

import build123d
import pytest

from bgboard.hardware.physics import load_design

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


def test_the_checker_pocket_holds_a_1_mm_magnet_under_its_face(params: stackup.Params) -> None:
    parts = stackup.checker_parts(params, 0, 0, 0)
    magnet = params.sensing["magnet"]
    floor = stackup.first_hit_up(parts["checker"], 0, 0, -1)
    assert floor == pytest.approx(magnet["depth_mm"] + magnet["thickness_mm"])  # 1.5 mm deep
    assert parts["magnet"].bounding_box().min.Z == pytest.approx(magnet["depth_mm"])
    assert (parts["magnet"] & parts["checker"]).volume < 1e-6
    assert (parts["pad"] & parts["checker"]).volume < 1e-6


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
    assert "gap measured 4.000 mm" in run.stderr
    step, png, stl = tmp_path / "stackup-point.step", tmp_path / "stackup-section.png", tmp_path / "checker.stl"
    for path in (step, png, stl):
        assert path.stat().st_size > 1000, path
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = build123d.import_step(str(step))
    assert len(again.solids()) == len(point.parts)
    assert [child.label for child in again.children] == list(point.parts)  # one named solid per part
    assert again.volume == pytest.approx(sum(s.volume for s in point.parts.values()), rel=1e-3)
    printed = build123d.Mesher().read(str(stl))  # the mesh read back as a closed solid
    body = stackup.checker_parts(stackup.load(), 0, 0, 0)["checker"]
    assert len(printed) == 1
    assert printed[0].volume == pytest.approx(body.volume, rel=0.01)


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    script = str(ROOT / "hardware" / "stackup.py")
    run = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert run.returncode == 2
    text = (ROOT / "hardware" / "stackup.toml").read_text()
    for broken, says in ((text.replace("skin_mm = 2.0", "skin_mm = 5.0"), "no ledge under the skin"),
                         (text.replace("diameter_mm = 8.0", "diameter_mm = 6.0"), "narrower than the LED"),
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
    sensing = (ROOT / "hardware" / "sensing.toml").read_text().replace("surface_mm = 3.5", "surface_mm = 3.0")
    (tmp_path / "sensing.toml").write_text(sensing)
    run = subprocess.run([sys.executable, str(ROOT / "hardware" / "stackup.py"), "--out", str(tmp_path / "out"),
                          "--sensing", str(tmp_path / "sensing.toml")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert "the model's gap is 4.000 mm but sensing.toml's is 3.500 mm" in run.stderr


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
