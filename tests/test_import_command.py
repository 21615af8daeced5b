"""``bgboard import``: per file the players, length, games, score and problems; exit 2 only
for files that cannot be read at all (or, with --strict, that have a problem)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bgboard.cli import main

WORLD = Path(__file__).parent / "data" / "match" / "world"


def test_a_folder_is_read_file_by_file_with_problems_and_their_lines(capsys) -> None:
    assert main(["import", str(WORLD)]) == 0
    out = capsys.readouterr().out
    count = len(list(WORLD.glob("*.mat")))
    assert out.count(".mat: ") == count
    assert "hand_problems.mat: Ann 2 - 5 Bob, 3 point match, 3 games, won by Bob, 6 problems" in out
    assert "  line 9: illegal play by Bob: 41: 24/21 6/5" in out
    assert "gnubg_session_6_3.mat: gnubg 9 - 10 root, money session, 7 games" in out


def test_json_gives_every_game(capsys) -> None:
    assert main(["import", "--json", str(WORLD / "hand_cube_columns.mat")]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["files"]
    match = entry["match"]
    assert entry["ok"] and match["players"] == ["Ann", "Bob"] and match["length"] == 7
    assert [(g["winner"], g["points"], g["result"]) for g in match["games"]] == [
        (0, 4, "drop"), (1, 1, "drop"), (1, 2, "resign")
    ]
    assert match["score"] == [4, 3] and match["problems"] == []


def test_unreadable_files_exit_2_and_the_others_are_still_read(tmp_path: Path, capsys) -> None:
    (tmp_path / "notes.mat").write_text("my shopping list\n")
    shutil.copy(WORLD / "hand_notation.mat", tmp_path / "good.mat")
    assert main(["import", str(tmp_path), str(tmp_path / "missing.mat")]) == 2
    captured = capsys.readouterr()
    assert "good.mat: Ann 0 - 1 Bob, 3 point match, 1 game, not finished" in captured.out
    err = captured.err.splitlines()
    assert len(err) == 2 and "Traceback" not in captured.err
    assert "missing.mat: no such file" in err[0] or "missing.mat: no such file" in err[1]
    assert any("notes.mat: no 'N point match' line" in line for line in err)


def test_strict_refuses_a_file_with_a_problem(capsys) -> None:
    assert main(["import", "--strict", str(WORLD / "hand_problems.mat")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 9: illegal play by Bob" in err


def test_a_folder_without_match_files_is_one_sentence(tmp_path: Path, capsys) -> None:
    assert main(["import", str(tmp_path)]) == 2
    assert "holds no .mat file" in capsys.readouterr().err
