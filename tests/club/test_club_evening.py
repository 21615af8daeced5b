"""A whole club evening through the ``bgboard club`` command: 16 players, double
elimination with consolation, every result fed from a ``bgboard selfplay`` match and its
``.mat`` file; a ``.mat`` that disagrees with the reported score is refused."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bgboard.cli import main

PLAYERS = [("Anna", 1720), ("Bram", 1650), ("Cleo", 1610), ("Dirk", 1580), ("Eva", 1560),
           ("Femke", 1540), ("Gijs", 1530), ("Hanna", 1520), ("Ivo", 1500), ("Joke", 1500),
           ("Kees", 1490), ("Lies", 1470), ("Maarten", 1450), ("Nina", 1430), ("Otto", 1400),
           ("Pim", 1380)]


def club(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["club", *args])
    out, err = capsys.readouterr()
    return code, out, err


def selfplay(capsys, tmp: Path, length: int, seed: int, players: list[str]) -> tuple[Path, list[int]]:
    """A self-played record of the match between ``players`` (selfplay names them White and
    Black; a board's record names the players of its assignment, as the director checks)."""
    path = tmp / f"m{seed}.mat"
    assert main(["selfplay", "--match-length", str(length), "--seed", str(seed),
                 "--out", str(path), "--json"]) == 0
    text = path.read_text().replace("White : ", f"{players[0]} : ").replace("Black : ", f"{players[1]} : ")
    path.write_text(text)
    return path, json.loads(capsys.readouterr().out)["score"]


@pytest.mark.slow
def test_a_club_evening(tmp_path, capsys, monkeypatch, club_location):
    monkeypatch.setenv("BGBOARD_CLUB_DB", str(club_location))
    assert club(capsys, "init", "--name", "De Dobbelsteen")[0] == 0
    for name, rating in PLAYERS:
        assert club(capsys, "player", "add", name, "--rating", str(rating), "--experience", "400")[0] == 0
    assert club(capsys, "event", "new", "Friday", "--format", "double-elimination",
                "--length", "5", "--consolation-length", "3")[0] == 0
    assert club(capsys, "event", "enter", "Friday", *[n for n, _ in PLAYERS])[0] == 0

    seed = 0
    mats: dict[int, str] = {}
    refused = False
    rounds = 0
    while True:
        code, out, err = club(capsys, "round", "Friday", "--json")
        if code == 2:
            assert "finished" in err and err.count("\n") == 1
            break
        rounds += 1
        paired = json.loads(out)
        assert set(paired) == {"event", "round", "matches", "byes"}
        assert paired["byes"] == []                     # 16 players: a full bracket
        boards = [m["board"] for m in paired["matches"]]
        assert sorted(boards) == list(range(1, len(boards) + 1))
        for m in paired["matches"]:
            assert set(m) == {"id", "board", "players", "length", "flight"}
            assert m["length"] == (5 if m["flight"] == "main" else 3)
            seed += 1
            path, (a, b) = selfplay(capsys, tmp_path, m["length"], seed, m["players"])
            if not refused:
                # the board reports the wrong way round: the .mat disagrees and is refused
                code, out, err = club(capsys, "result", "Friday", str(m["id"]),
                                      "--score", f"{b}-{a}", "--mat", str(path))
                assert code == 2 and err.count("\n") == 1 and "not stored" in err
                assert f"ends {a}-{b}" in err
                refused = True
            code, out, err = club(capsys, "result", "Friday", str(m["id"]), "--score", f"{a}-{b}",
                                  "--mat", str(path))
            assert code == 0, err
            assert ".mat checked" in out
            mats[m["id"]] = path.read_text()
    # W1 | W2 L1 | W3 D2 | W4 R2 | D3 | R3 | D4: the consolation final waits for the main final
    assert refused and len(mats) == 2 * 16 - 3 and rounds == 7

    code, out, _ = club(capsys, "standings", "Friday", "--json")
    table = json.loads(out)
    assert [r["rank"] for r in table] == list(range(1, 17))
    assert all(set(r) == {"rank", "name", "wins", "losses", "points_for", "points_against",
                          "tiebreaks", "status"} for r in table)
    statuses = [r["status"] for r in table]
    assert statuses[:2] == ["champion", "consolation-winner"]
    assert statuses[2:] == ["eliminated"] * 14
    assert table[0]["losses"] == 0 and table[1]["losses"] == 1
    assert all(r["losses"] == 2 for r in table[2:])
    assert sum(r["wins"] for r in table) == sum(r["losses"] for r in table) == 29

    code, out, _ = club(capsys, "ratings", "--json")
    ratings = json.loads(out)
    assert sorted(r["name"] for r in ratings) == sorted(n for n, _ in PLAYERS)
    start = dict(PLAYERS)
    assert all(r["experience"] > 400 for r in ratings)
    # zero-sum with K = 1 for everyone (experience >= 400): the total is unchanged
    assert sum(r["rating"] for r in ratings) == pytest.approx(sum(start.values()))
    code, out, _ = club(capsys, "ratings")
    assert out.count("\n") == 16 and all(len(line.split(": ")[1].split()[0].split(".")[1]) == 2
                                          for line in out.splitlines())

    out_dir = tmp_path / "export"
    assert club(capsys, "export", "Friday", "--out", str(out_dir))[0] == 0
    for mid, text in mats.items():
        assert (out_dir / "mat" / f"{mid}.mat").read_text() == text
    with open(out_dir / "standings.csv") as f:
        assert [row["name"] for row in csv.DictReader(f)] == [r["name"] for r in table]
    with open(out_dir / "results.csv") as f:
        assert sum(1 for row in csv.DictReader(f) if row["status"] == "finished") == 29
    page = (out_dir / "draw.html").read_text()
    assert "Consolation flight" in page and table[0]["name"] in page


def test_bad_input_is_one_sentence_and_exit_2(tmp_path, capsys, monkeypatch, club_location):
    monkeypatch.setenv("BGBOARD_CLUB_DB", str(club_location))
    code, _, err = club(capsys, "player", "list")
    assert code == 2 and "club init" in err and err.count("\n") == 1
    club(capsys, "init", "--name", "C")
    for args, words in [
        (("init", "--name", "again"), "already exists"),
        (("player", "add", " "), "cannot be empty"),
        (("event", "new", "E", "--format", "swiss", "--length", "0"), "1 to 99"),
        (("event", "enter", "Nope", "Ann"), "no event"),
        (("round", "Nope"), "no event"),
        (("result", "Nope", "1", "--score", "5-1"), "no event"),
        (("standings", "Nope"), "no event"),
    ]:
        code, out, err = club(capsys, *args)
        assert code == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err, args
    club(capsys, "player", "add", "<script>alert(1)</script>")
    club(capsys, "player", "add", "Bob")
    club(capsys, "event", "new", "E", "--format", "single-elimination", "--length", "3")
    code, _, err = club(capsys, "round", "E")
    assert code == 2 and "at least 2 players" in err
    club(capsys, "event", "enter", "E", "<script>alert(1)</script>", "Bob")
    code, out, _ = club(capsys, "round", "E", "--json")
    mid = json.loads(out)["matches"][0]["id"]
    (tmp_path / "bad.mat").write_bytes(b"\xff\xfe not a match")
    for args, words in [
        (("result", "E", str(mid), "--score", "3:1"), "A-B"),
        (("result", "E", "x", "--score", "3-1"), "whole number"),
        (("result", "E", str(mid), "--score", "3-1", "--mat", str(tmp_path / "none.mat")), "cannot be read"),
        (("result", "E", str(mid), "--score", "3-1", "--mat", str(tmp_path / "bad.mat")), "is not UTF-8 text"),
        (("forfeit", "E", str(mid), "--winner", "Zed", "--reason", "late"), "no player"),
    ]:
        code, out, err = club(capsys, *args)
        assert code == 2 and words in err and err.count("\n") == 1, (args, err)
    club(capsys, "result", "E", str(mid), "--score", "3-1")
    club(capsys, "export", "E", "--out", str(tmp_path / "x"))
    page = (tmp_path / "x" / "draw.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page
