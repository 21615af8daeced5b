"""An engine's name and level on the display: shortened as a word ("gnubg-nn (int.)", then
"gnubg-nn"), never cut inside ("gnubg-nn (a…")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgboard.display.demos import DEMOS
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render_report
from bgboard.display.scoreboard import name_forms


def test_name_forms() -> None:
    assert name_forms("gnubg-nn (intermediate)") == ("gnubg-nn (intermediate)", "gnubg-nn (int.)", "gnubg-nn")
    assert name_forms("Ann") == ("Ann",)
    assert name_forms("Bob (UK)") == ("Bob (UK)",)  # (a short bracket is part of the name)


# (the 250 px panels have room for about seven letters of a name: "gnubg-nn" itself is cut there)
@pytest.mark.parametrize("panel", [name for name, spec in PANELS.items() if spec.width > 250])
@pytest.mark.parametrize("engine", ["gnubg-nn (intermediate)", "gnubg-nn (advanced)", "bgsage (beginner)"])
def test_an_engines_name_is_placed_whole_on_every_panel(panel: str, engine: str) -> None:
    demo = next(d for d in DEMOS.values() if d.phase not in ("match-over", "game-over", "setup"))
    state = replace(demo, names=("White", engine))
    assert "names" in render_report(state, PANELS[panel]).placed
