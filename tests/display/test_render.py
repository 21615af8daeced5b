"""The renderer: golden images for every demo on every panel, and properties of any state.

Regenerate the golden images after an intended change with
``tests/data/display/regenerate.sh`` (it runs ``bgboard render`` for each pair).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

import bgboard.display.canvas
import bgboard.display.diagram
import bgboard.display.ending
import bgboard.display.footer
import bgboard.display.scoreboard
from bgboard.display.demos import DEMOS
from bgboard.display.panels import PANELS
from bgboard.display.layouts import layout_for
from bgboard.display.renderer import ITEMS, render, render_report, required_items

from strategies import display_states

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "display"
PAIRS = [(d, p) for p in PANELS for d in DEMOS]


def test_every_demo_on_every_panel_has_a_golden_image():
    on_disk = {f.name for f in GOLDEN.glob("*.png")}
    assert on_disk == {f"{d}--{p}.png" for d, p in PAIRS}
    script = (GOLDEN / "regenerate.sh").read_text()
    assert all(d in script for d in DEMOS) and all(p in script for p in PANELS)


@pytest.mark.parametrize("demo,panel", PAIRS)
def test_golden_image(demo, panel, tmp_path):
    spec = PANELS[panel]
    image = render(DEMOS[demo], spec)
    with Image.open(GOLDEN / f"{demo}--{panel}.png") as golden:
        golden.load()
        assert image.mode == golden.mode and image.size == golden.size
        if image.mode == "P":
            assert image.getpalette()[:9] == golden.getpalette()[:9]
        diff = ImageChops.difference(image.convert("L"), golden.convert("L"))
        changed = sum(diff.histogram()[1:])
    if changed:
        image.save(tmp_path / f"{demo}--{panel}.png")
    assert changed == 0, (
        f"{changed} pixels differ from the golden image; the new one is in {tmp_path} "
        "(regenerate with tests/data/display/regenerate.sh if the change is intended)"
    )


@pytest.mark.parametrize("panel", list(PANELS))
def test_image_modes_and_inks(panel):
    spec = PANELS[panel]
    image = render(DEMOS["illegal-move"], spec)
    assert image.size == (spec.width, spec.height)
    if spec.colours == "bw":
        assert image.mode == "1"
        assert {v for _, v in image.convert("L").getcolors()} == {0, 255}
    else:
        assert image.mode == "P"
        assert {v for _, v in image.getcolors()} == {0, 1, 2}  # white, black and the accent (red box)
        assert image.getpalette()[:9] == [255, 255, 255, 0, 0, 0, 255, 0, 0]


def test_render_is_deterministic_and_state_dependent():
    spec = PANELS["waveshare-2in9"]
    a = render(DEMOS["hint"], spec)
    assert a.tobytes() == render(DEMOS["hint"], spec).tobytes()
    assert a.tobytes() != render(DEMOS["opening"], spec).tobytes()


@pytest.mark.parametrize("panel", list(PANELS))
def test_layout_sizes_are_readable(panel):
    spec = PANELS[panel]
    lay = layout_for(spec)
    assert min(lay.name_px, lay.info_px, lay.foot_px) >= spec.min_text_px
    # the score is readable across a table (~1.2 m): capitals at least 5 mm high
    assert lay.score_px * 0.73 * spec.pitch_mm >= 5.0


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=display_states(), panel=st.sampled_from(list(PANELS)))
def test_any_state_renders_with_readable_text(state, panel, monkeypatch_font_sizes):
    spec = PANELS[panel]
    monkeypatch_font_sizes.clear()
    image = render(state, spec)
    assert image.size == (spec.width, spec.height)
    assert image.mode == ("1" if spec.colours == "bw" else "P")
    assert monkeypatch_font_sizes, "some text was drawn"
    assert min(monkeypatch_font_sizes) >= spec.min_text_px


@pytest.fixture(scope="module")
def monkeypatch_font_sizes():
    """Record every font size the renderer asks for (wrapping the real font loader in each of
    the renderer's modules that loads fonts)."""
    sizes: list[int] = []
    modules = [m for m in (bgboard.display.canvas, bgboard.display.diagram, bgboard.display.ending,
                           bgboard.display.footer, bgboard.display.scoreboard) if hasattr(m, "font")]
    assert bgboard.display.canvas in modules   # every text is drawn through the canvas
    real = bgboard.display.canvas.font

    def recording(size: int, bold: bool = True):
        sizes.append(size)
        return real(size, bold)

    for m in modules:
        m.font = recording
    yield sizes
    for m in modules:
        m.font = real


@pytest.mark.parametrize("panel", ["waveshare-2in13", "waveshare-7in5"])
def test_overlong_text_stays_inside_the_panel(panel):
    """A name and a message far too long for the panel are cut, not drawn off the edge."""
    from dataclasses import replace

    spec = PANELS[panel]
    word = "W" * 120
    state = replace(DEMOS["illegal-move"], names=(word, word),
                    message=(f"a {word} b {word} c",), severity="info")
    image = render(state, spec).convert("L")
    # the footer (plain text, no box) never touches the right edge: its lines were cut
    footer_edge = image.crop((spec.width - 2, int(spec.height * 0.65), spec.width,
                              spec.height))
    assert footer_edge.getextrema() == (255, 255)


@pytest.mark.parametrize("demo,panel", PAIRS)
def test_every_demo_on_every_panel_places_every_required_item(demo, panel):
    state = DEMOS[demo]
    rendered = render_report(state, PANELS[panel])
    assert rendered.placed <= set(ITEMS)
    missing = required_items(state) - rendered.placed
    assert not missing, f"{demo} on {panel} lost {sorted(missing)}"


def test_required_items_follow_the_state():
    from dataclasses import replace

    assert {"score", "match", "cube", "dice", "pips", "instruction", "put-back"} <= required_items(
        DEMOS["illegal-move"])
    assert {"clock", "crawford", "cube"} <= required_items(DEMOS["clock-low"])
    assert "cube" not in required_items(DEMOS["opening"])  # a centred 1 is not drawn
    assert {"ending", "points", "sent", "score"} <= required_items(DEMOS["match-over"])
    assert required_items(DEMOS["setup"]) == {"diagram", "instruction"}
    # an info message is not the instruction: the prompt is
    quiet = replace(DEMOS["illegal-move"], severity="info", put_back=())
    assert "put-back" not in required_items(quiet)


@pytest.mark.parametrize("panel", list(PANELS))
def test_small_and_large_panels_keep_prompt_message_and_put_back_together(panel):
    """The complaint of issue 14: the prompt vanished whenever a message showed and the
    put-back list was cut.  With an error, a put-back list and the prompt, all three stay."""
    rendered = render_report(DEMOS["illegal-move"], PANELS[panel])
    assert {"message", "put-back", "prompt", "pips", "cube", "dice"} <= rendered.placed


@pytest.mark.parametrize("panel", ["waveshare-2in13", "inky-phat"])
def test_a_put_back_list_too_long_for_the_panel_is_not_reported_as_placed(panel):
    from dataclasses import replace

    listed = ", ".join(f"{p}→{p + 1}" for p in range(1, 24))
    state = replace(DEMOS["illegal-move"], put_back=(f"put back: {listed}", listed))
    rendered = render_report(state, PANELS[panel])
    assert "put-back" not in rendered.placed
    assert "put-back" in required_items(state)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=display_states(), panel=st.sampled_from(list(PANELS)))
def test_render_is_the_reports_image_and_reports_known_items(state, panel):
    spec = PANELS[panel]
    rendered = render_report(state, spec)
    assert rendered.placed <= set(ITEMS)
    assert rendered.image.tobytes() == render(state, spec).tobytes()
