"""The canvas keeps each text's rasterised mask across frames (display/canvas.py) and draws it
through Pillow's drawing internals; these tests hold it to Pillow's own ``ImageDraw.text``,
and show the canvas falls back to Pillow's own drawing where those internals differ."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from bgboard.display import canvas as canvas_module
from bgboard.display.canvas import BLACK, WHITE, Canvas, masks_draw_as_pillow
from bgboard.display.fonts import font
from bgboard.display.panels import panel_spec

TEXTS = ["Crawford", "5 - 3", "Ærø Ø Å ß", "Bar 25/22 13/9", "Spiller 2 til 7"]


def _pillows(text: str, size: int, anchor: str, xy: tuple[int, int]) -> bytes:
    spec = panel_spec("waveshare-2in9")
    image = Image.new("L", (spec.width, spec.height), WHITE)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    draw.text(xy, text, font=font(size, True), fill=BLACK, anchor=anchor)
    return image.tobytes()


def test_this_pillow_draws_the_kept_masks_as_its_own_text() -> None:
    assert masks_draw_as_pillow()  # so the tests below exercise the kept masks, not the fallback


@pytest.mark.parametrize("anchor", ["la", "mm", "rs"])
@pytest.mark.parametrize("size", [12, 17, 30])
def test_a_kept_mask_draws_what_pillow_draws(size: int, anchor: str) -> None:
    for n, text in enumerate(TEXTS):
        xy = (60 + 7 * n, 40 + 3 * n)
        for _ in range(2):  # the second time from the kept mask
            c = Canvas(panel_spec("waveshare-2in9"), accent=False)
            c.text(xy, text, size, anchor=anchor)
            assert c.image.tobytes() == _pillows(text, size, anchor, xy), (text, size, anchor)


def test_where_pillows_internals_differ_the_canvas_draws_through_pillows_own_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def changed(*args: object, **kwargs: object) -> None:
        raise TypeError("getmask2() got an unexpected keyword argument")

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", changed)
    canvas_module.masks_draw_as_pillow.cache_clear()
    canvas_module._glyphs.cache_clear()
    try:
        assert not masks_draw_as_pillow()
        monkeypatch.undo()  # Pillow's own text needs getmask2 itself; the answer stays the one asked
        c = Canvas(panel_spec("waveshare-2in9"), accent=False)
        c.text((50, 30), "Crawford", 17)
        assert c.image.tobytes() == _pillows("Crawford", 17, "la", (50, 30))
        assert canvas_module._glyphs.cache_info().currsize == 0  # no mask was kept: Pillow drew it
    finally:
        canvas_module.masks_draw_as_pillow.cache_clear()
