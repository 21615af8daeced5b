"""``bgboard export --journal F --out DIR``: the records rebuilt from any journal equal the
records written during play; bad input is one line and exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.sim.modelled_board import Options
from bgboard.sim.match_run import run_match


@pytest.mark.slow
def test_a_simulated_matchs_journal_gives_back_its_records(tmp_path: Path) -> None:
    run_match(Options(match_length=1, seed=5, illegal_rate=0.2), tmp_path / "sim")  # takebacks of illegal tries included
    assert main(["export", "--journal", str(tmp_path / "sim" / "journal.sqlite"), "--out", str(tmp_path / "x")]) == 0
    for name in ("match.mat", "match.sgf"):
        assert (tmp_path / "x" / name).read_text() == (tmp_path / "sim" / name).read_text()


@pytest.mark.parametrize("make, words", [("missing", "there is no journal"), ("text", "cannot be read as a journal")])
def test_bad_journals_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str, words: str) -> None:
    path = tmp_path / "j.db"
    if make == "text":
        path.write_text("not a database\n" * 50)
    assert main(["export", "--journal", str(path), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
