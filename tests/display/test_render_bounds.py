"""Text given to the renderer is bounded: a name, message or hint of any length is cut to
the renderer's limits first, so drawing it costs what drawing the limit costs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgboard.display.demos import DEMOS
from bgboard.display.panels import panel_spec
from bgboard.display.canvas import Canvas
from bgboard.display.renderer import MAX_NAME, MAX_TEXT, MAX_VARIANTS, bounded, render

HUGE = "word " * 100_000  # 500,000 characters


@pytest.mark.parametrize("panel", ["waveshare-2in13", "waveshare-4in2"])
def test_huge_texts_are_cut_before_layout(panel: str) -> None:
    spec = panel_spec(panel)
    state = replace(DEMOS["illegal-move"], names=("N" * 1_000_000, "Ana"), message=(HUGE,) * 50, hint=(HUGE,))
    cut = bounded(state)
    assert len(cut.names[0]) == MAX_NAME and cut.names[0].endswith("…")
    assert len(cut.message) == MAX_VARIANTS and all(len(m) == MAX_TEXT for m in cut.message)
    assert render(state, spec).tobytes() == render(cut, spec).tobytes()


def test_a_state_within_the_limits_is_drawn_as_it_is() -> None:
    for state in DEMOS.values():
        assert bounded(state) is state


def test_cutting_an_unbreakable_word_keeps_the_longest_prefix_that_fits() -> None:
    canvas = Canvas(panel_spec("waveshare-2in9"), accent=False)
    word = "W" * MAX_TEXT
    text, size = canvas.fit((word,), 120, canvas.min_px)
    from bgboard.display.fonts import font

    assert text.endswith("…") and canvas.width(text, font(size)) <= 120
    assert canvas.width(word[: len(text)] + "…", font(size)) > 120  # one more letter would not fit
