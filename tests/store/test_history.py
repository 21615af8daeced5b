"""The learner's history beside the journal (real SQLite): each finished match's PR with
its interval, kept once per match, oldest first; the worst positions, worst first, each once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.store.history import LearnerHistory


def test_matches_are_kept_once_oldest_first_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "practice.sqlite"
    history = LearnerHistory(path)
    history.record("Ann", "m2", "2026-11-08", {"pr": 9.5, "pr_low": 6.0, "pr_high": 13.0, "decisions": 70},
                   [("4HPwATDgc/ABMA", "31", 0.2), ("4HPwATDgc/ABMA", "65", 0.05)])
    history.record("Ann", "m1", "2026-11-01", {"pr": 14.0, "pr_low": None, "pr_high": None, "decisions": 5})
    history.record("Bob", "m1", "2026-11-01", {"pr": 3.0, "pr_low": 1.0, "pr_high": 5.0, "decisions": 40},
                   [("4HPwATDgc/ABMA", "31", 0.5)])
    history.record("Ann", "m2", "2026-11-08", {"pr": 9.0, "pr_low": 6.0, "pr_high": 12.0, "decisions": 70},
                   [("4HPwATDgc/ABMA", "65", 0.05)])  # the same match again replaces it
    history.close()
    history.close()  # idempotent
    again = LearnerHistory(path)
    assert again.matches("Ann") == [
        {"played": "2026-11-01", "pr": 14.0, "pr_low": None, "pr_high": None, "decisions": 5},
        {"played": "2026-11-08", "pr": 9.0, "pr_low": 6.0, "pr_high": 12.0, "decisions": 70}]
    assert again.worst(["Ann"]) == [("4HPwATDgc/ABMA", "65", 0.05)]
    assert again.worst() == [("4HPwATDgc/ABMA", "31", 0.5), ("4HPwATDgc/ABMA", "65", 0.05)]
    assert again.matches("Cleo") == [] and again.worst(["Cleo"]) == []
    again.close()


def test_a_match_without_pr_is_refused_and_a_file_that_is_no_database_is_one_sentence(tmp_path: Path) -> None:
    history = LearnerHistory(tmp_path / "h.sqlite")
    with pytest.raises(ValueError, match="need a PR and a number of decisions"):
        history.record("Ann", "m", "2026-11-01", {"pr": None, "decisions": 3})
    assert history.matches("Ann") == []
    history.close()
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database at all" * 100)
    from bgboard.errors import InputError

    with pytest.raises(InputError, match="cannot hold the learner's history"):
        LearnerHistory(bad)
