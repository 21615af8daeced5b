"""``bgboard legal``: text, --json (in gnubg-nn's position_id convention), --batch, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from bgboard.cli import main
from bgboard.rules import Xgid, position_id, start_position, xgid_encode

from .oracle import require_gnubg_nn
from .selfplay import ROLLS, selfplay_positions

START = "4HPwATDgc/ABMA"


def test_text_output(capsys):
    assert main(["legal", START, "31"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16 and "8/5 6/5" in lines and "24/20" in lines


def test_no_legal_play(capsys):
    # one checker on the bar against a closed board
    closed = "XGID=------A------------bbbbbbA:0:0:1:00:0:0:0:0:10"
    assert main(["legal", closed, "61"]) == 0
    assert capsys.readouterr().out == "no legal play\n"
    assert main(["legal", closed, "61", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"position": closed, "dice": [6, 1], "plays": []}


@pytest.mark.slow
def test_json_position_ids_are_gnubg_nn_keys(capsys):
    g = require_gnubg_nn()
    for _, position in selfplay_positions(seed=5, count=30):
        pid = position_id(position)
        for d1, d2 in ROLLS[::4]:
            assert main(["legal", pid, f"{d1}{d2}", "--json"]) == 0
            out = json.loads(capsys.readouterr().out)
            board = g.board_from_position_id(pid)
            expected = {g.position_id([list(x) for x in g.board_from_position_key(k)]) for k in g.moves([list(x) for x in board], d1, d2)}
            assert out["position"] == pid and out["dice"] == [d1, d2]
            assert {p["position_id"] for p in out["plays"]} == expected
            assert len(out["plays"]) == len(expected)


def test_xgid_input_is_the_same_position(capsys):
    xgid = xgid_encode(Xgid(start_position(), dice=(3, 1)))
    assert main(["legal", xgid, "31", "--json"]) == 0
    by_xgid = json.loads(capsys.readouterr().out)["plays"]
    assert main(["legal", START, "3-1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plays"] == by_xgid


def test_batch(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{START} 31\n\n{START} 66\n"))
    assert main(["legal", "--batch"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["dice"] for line in lines] == [[3, 1], [6, 6]]
    assert len(lines[1]["plays"]) == 11


@pytest.mark.parametrize(
    "argv, message",
    [
        (["legal", START, "71"], "bgboard: dice must be two numbers from 1 to 6 such as 31 or 3-1, not '71'\n"),
        (["legal", "4HPwATDgc/AB", "31"], "bgboard: a Position ID has 14 characters, '4HPwATDgc/AB' has 12\n"),
        (["legal", "XGID=-b----E-C:0:0:1:00:0:0:0:0:10", "31"], "bgboard: an XGID position has 26 characters, '-b----E-C' has 9\n"),
        (["legal", START], "bgboard: give a POSITION (Position ID or XGID) and DICE like 31, or --batch\n"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err == message


def test_a_bad_batch_line_is_named_and_the_batch_goes_on(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{START} 31\n{START} 3\n\n{START} 42\n"))
    assert main(["legal", "--batch"]) == 2  # at the end, because a line was bad
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line.get("dice") for line in lines] == [[3, 1], None, [4, 2]]
    message = "dice must be two numbers from 1 to 6 such as 31 or 3-1, not '3'"
    assert lines[1] == {"line": 2, "error": message}
    assert captured.err == (f"bgboard: line 2: {message}\n"
                            "bgboard: 1 of 3 lines could not be answered (see above)\n")


def test_real_process_exit_code():
    done = subprocess.run(
        [sys.executable, "-m", "bgboard", "legal", "nonsense!", "31"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    ok = subprocess.run([sys.executable, "-m", "bgboard", "legal", START, "52"], capture_output=True, text=True, check=True)
    assert ok.stdout.splitlines()[0] == "24/22 13/8"


def test_xgid_carries_the_roll(capsys):
    assert main(["legal", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "24/22 13/8"
    assert main(["legal", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10"]) == 2
    assert "give a POSITION" in capsys.readouterr().err


def test_play_as_written_is_read_by_the_one_reader(capsys):
    # the case: `bgboard legal 4HPwATDgc/ABMA 21` lists 13/10; every way of writing it is that play
    for text in ("13/10", "13/11/10", "13/12/10", "13-10", "13/11 11/10"):
        assert main(["legal", START, "21", "--play", text]) == 0
        assert capsys.readouterr().out == "13/10\n"
    assert main(["legal", START, "21", "--play", "13/10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["play"] == "13/10"


def test_a_play_that_is_not_legal_is_one_sentence_and_exit_2():
    done = subprocess.run([sys.executable, "-m", "bgboard", "legal", START, "21", "--play", "13/7"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["bgboard: 13/7 is not legal: 13/7 moves 6 pips: the roll 2-1 cannot play that"]
