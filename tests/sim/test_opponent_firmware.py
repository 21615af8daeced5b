"""``bgboard sim --opponent`` on the real firmware (MicroPython on a pty) and the real app:
the engine decides on its own HintWorker process, rolls its own dice on the module, and the
simulated person carries its plays out (and some wrongly first)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgboard.match.mat_read import import_mat
from bgboard.sim.modelled_board import Options
from bgboard.sim.match_run import run_firmware_match
from bgboard.store.journal import Journal

pytestmark = pytest.mark.slow  # a whole match on the firmware: the full run, not -m "not slow"


@pytest.mark.parametrize("dice", ["module", "person"])
def test_a_match_against_the_engine_on_the_real_firmware(tmp_path: Path, dice: str) -> None:
    summary = run_firmware_match(Options(1, seed=2, illegal_rate=0.3, opponent="gnubg-nn:advanced",
                                         opponent_dice=dice), tmp_path)
    assert summary["opponent"] == {"player": 1, "engine": "gnubg-nn", "level": "advanced"}
    with Journal(tmp_path / "journal.sqlite") as journal:
        bodies = [e.body for e in journal.entries() if e.kind == "action"]
    # one game ends the 1-point match: a single win, a gammon or a backgammon, times the cube
    # (a double taken is legal in a 1-point match without the dead-cube rule: 4-0 was seen) —
    # which one depends on the simulated sensor readings (the sensing physics) and, with the
    # module's dice (the firmware's own, not the seed's), on the run
    cube = 1
    for body in bodies:
        cube *= {"take": 2, "beaver": 4}.get(body.get("type"), 1)
    assert min(summary["score"]) == 0 and max(summary["score"]) in {cube * level for level in (1, 2, 3)}
    assert summary["legal_rejected"] == 0 and summary["engine_rejected"] == 0
    assert summary["engine_plays"] > 10 and summary["wrong_executions"] > 0 and summary["wrong_caught"] > 0
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    match = import_mat((tmp_path / "match.mat").read_text())
    assert match.players == ("White", "gnubg-nn (advanced)")
    rolls = [body for body in bodies if body.get("type") == "roll"]
    assert len(rolls) >= summary["engine_plays"]  # the engine's rolls are in the journal like any other
