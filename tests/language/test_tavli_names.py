"""Greek names the tavli games (Portes, Plakoto, Fevga) where the rotation is shown; the
other languages keep the names as the world writes them, and say the rest of the line."""

from __future__ import annotations

from bgboard.control.presenter import View, display_state
from bgboard.control.seed_notes import variant_notes
from bgboard.display.panels import panel_spec
from bgboard.display.renderer import render_report, translated
from bgboard.language.catalogues import words_for
from bgboard.match import StartMatch, apply


def test_the_tavli_rotation_on_the_display_in_greek_and_in_german():
    state = apply(None, StartMatch(5, rules="tavli"))
    shown = display_state(View(state=state, now_ms=0, variant=variant_notes(state)))
    assert any("tavli game 1: Portes (next Plakoto)" in line for line in shown.lesson)
    greek = translated(shown, words_for("el")).lesson
    assert any("tavli game 1: Πόρτες (next Πλακωτό)" in line for line in greek)
    german = translated(shown, words_for("de")).lesson
    assert any("tavli Spiel 1: Portes (danach Plakoto)" in line for line in german)
    report = render_report(shown, panel_spec("waveshare-7in5"), words_for("el"))
    assert any("Πόρτες" in item.text and item.fits for item in report.items)
