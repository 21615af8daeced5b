"""The display in every language: golden images of every demo on every panel (under
tests/data/display/<lang>/, made by regenerate.sh) with every item placed whole — the same
items as in English, each required one, none cut — checked by the renderer's placed-items
report; and ``bgboard render --lang L --json`` prints that report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bgboard.display.demos import DEMOS, demo_state
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render_report, required_items
from bgboard.language.catalogues import words_for

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "display"
OTHERS = ("nl", "de", "nb", "da")


def test_every_demo_on_every_panel_has_a_golden_image_in_every_language():
    for lang in OTHERS:
        on_disk = {f.name for f in (GOLDEN / lang).glob("*.png")}
        assert on_disk == {f"{d}--{p}.png" for p in PANELS for d in DEMOS}, lang
    assert "for lang in en " + " ".join(OTHERS) in (GOLDEN / "regenerate.sh").read_text()


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("panel", list(PANELS))
def test_golden_images_with_every_item_fitting(lang, panel, tmp_path):
    spec, words = PANELS[panel], words_for(lang)
    for demo in DEMOS:
        state = demo_state(demo, words)
        rendered = render_report(state, spec, words)
        english = render_report(DEMOS[demo], spec)
        assert required_items(state) <= rendered.placed, (demo, rendered.items)
        assert rendered.placed == english.placed, (demo, rendered.items)  # nothing dropped
        assert all(item.fits for item in rendered.items), (demo, rendered.items)  # nothing cut
        assert state.message != DEMOS[demo].message or not state.message  # really translated
        with Image.open(GOLDEN / lang / f"{demo}--{panel}.png") as golden:
            golden.load()
            diff = ImageChops.difference(rendered.image.convert("L"), golden.convert("L"))
            changed = sum(diff.histogram()[1:])
        if changed:
            rendered.image.save(tmp_path / f"{demo}--{panel}.png")
        assert changed == 0, f"{lang}/{demo}--{panel}: {changed} pixels differ (new image in {tmp_path})"


def test_render_json_prints_the_placed_items_in_the_language():
    out = subprocess.run(
        [sys.executable, "-m", "bgboard", "render", "--demo", "illegal-move", "--panel", "waveshare-2in13",
         "--lang", "nl", "--json"], capture_output=True, text=True, check=True).stdout
    items = {item["name"]: item for item in json.loads(out)["items"]}
    assert set(items["message"]) == {"name", "text", "box", "fits"}
    assert items["message"]["text"].startswith("Eerst van de bar") and items["message"]["fits"] is True
    left, top, right, bottom = items["message"]["box"]
    assert 0 <= left < right <= 250 and 0 <= top < bottom <= 122
    assert {"score", "match", "dice", "pips", "put-back", "names"} <= set(items)


def test_render_refuses_an_unknown_language_in_one_sentence():
    run = subprocess.run([sys.executable, "-m", "bgboard", "render", "--demo", "hint", "--json", "--lang", "fr"],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip() == "bgboard: --lang: no language 'fr'; choose one of en, nl, de, nb, da, el"
