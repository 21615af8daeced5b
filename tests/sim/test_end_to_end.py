"""End to end with gnubg as the judge of the match records (skipped only where the gnubg
wheel cannot be installed: it exists for x86-64 Linux and Windows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.match.actions import action_from_dict
from bgboard.match.state import replay
from bgboard.sim.modelled_board import Options
from bgboard.sim.match_run import run_match
from bgboard.store.journal import Journal

from simrecords import gnubg_games, journal_actions

pytestmark = pytest.mark.slow  # whole matches / engines / firmware runs: the full run, not -m "not slow"


gnubg = pytest.importorskip("gnubg", reason="gnubg wheels exist only for x86-64 Linux/Windows")


@pytest.mark.parametrize("seed", [7])
def test_end_to_end_noise_and_illegal_attempts(tmp_path: Path, seed: int) -> None:
    """A 3-point match with sensor noise and learners' illegal attempts: every attempt is
    refused with the rules engine's reason, no legal play is refused, the journal replays
    to the final score and gnubg imports the .mat with the same games and score."""
    summary = run_match(Options(3, seed=seed, noise=450.0, illegal_rate=0.3), tmp_path)
    assert summary["illegal_attempts"] >= 10
    assert summary["illegal_flagged"] == summary["illegal_attempts"]
    assert summary["legal_rejected"] == 0
    with Journal(tmp_path / "journal.sqlite") as j:
        notes = [e.body for e in j.entries() if e.kind == "sim"]
    attempts = [n for n in notes if n["what"] == "attempt"]
    assert all(n["refused"] and n["reason"] == n["expected"] for n in attempts)
    assert all(n["notice"].startswith(n["expected"]) for n in attempts)
    final = replay([action_from_dict(e) for e in journal_actions(tmp_path)])
    assert list(final.score) == summary["score"] and max(final.score) >= 3
    games = gnubg_games(tmp_path / "match.mat")
    assert games == [(g["winner"], g["points"]) for g in summary["games"]]
    assert [sum(p for w, p in games if w == i) for i in (0, 1)] == summary["score"]


@pytest.mark.parametrize("seed", [5])
def test_gnubg_imports_longer_matches_with_the_same_games(tmp_path: Path, seed: int) -> None:
    summary = run_match(Options(5, seed=seed, noise=180.0), tmp_path)
    games = gnubg_games(tmp_path / "match.mat")
    assert games == [(g["winner"], g["points"]) for g in summary["games"]]


