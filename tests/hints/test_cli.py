"""``bgboard hint``: text, JSON, batch and cube forms; bad input exits 2 with one line."""

from __future__ import annotations

import io
import json

import pytest

from bgboard.cli import main
from bgboard.commands.hint import cube_state_of
from bgboard.rules import parse_dice
from bgboard.hints import CubeState
from bgboard.rules import legal_plays, position_from_id, position_id, start_position
from bgboard.rules.ids import MatchId, encode_match_id

START = "4HPwATDgc/ABMA"


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv("BGBOARD_HINT_ENGINE", raising=False)


def test_text_hint_lists_the_top_plays(capsys, bgsage_engine) -> None:
    assert main(["hint", START, "31"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "bgsage 31 (equity)"
    assert out[1].split()[:2] == ["1.", "8/5"] and len(out) == 6


def test_json_hint_gives_every_play_with_ids_of_the_resulting_positions(capsys, gnubg_engine) -> None:
    assert main(["hint", START, "6-5", "--engine", "gnubg-nn", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    plays = legal_plays(start_position(), (6, 5))
    assert len(answer["plays"]) == len(plays)
    assert {p["position_id"] for p in answer["plays"]} == {position_id(p.position) for p in plays}
    assert answer["plays"][0] == {"play": "24/13", "position_id": answer["plays"][0]["position_id"],
                                  "equity": answer["plays"][0]["equity"], "loss": 0.0}


def test_batch_reads_lines_and_prints_one_object_each(capsys, monkeypatch, bgsage_engine) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{START} 31\n\n{START} 11\n"))
    assert main(["hint", "--batch"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2
    assert set(rows[0]) == {"plays"} and set(rows[0]["plays"][0]) == {"play", "position_id", "equity"}
    assert rows[1]["plays"][0]["play"] == "8/7(2) 6/5(2)"
    first = rows[0]["plays"][0]
    assert position_from_id(first["position_id"]) == next(
        p.position for p in legal_plays(start_position(), (3, 1)) if p.notation == "8/5 6/5"
    )
    equities = [p["equity"] for p in rows[1]["plays"]]
    assert equities == sorted(equities, reverse=True)


def test_a_dance_is_an_empty_list(capsys, monkeypatch) -> None:
    # One of mine on the bar, the opponent's home board closed: 66 cannot be played.
    closed = "27YBBwD/PwAAQA"
    assert not legal_plays(position_from_id(closed), (6, 6))
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{closed} 66\n"))
    assert main(["hint", "--batch", "--engine", "pubeval"]) == 0
    assert json.loads(capsys.readouterr().out) == {"plays": []}
    assert main(["hint", closed, "66", "--engine", "pubeval"]) == 0
    assert "no legal play" in capsys.readouterr().out


def test_cube_hint_reads_score_and_crawford_from_the_match_id(capsys, bgsage_engine) -> None:
    crawford = encode_match_id(MatchId(match_length=5, score=(2, 4), on_roll=0, crawford=True))
    assert main(["hint", "--cube", START, "--match-id", crawford, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["action"] == "no double" and "Crawford" in answer["reason"]
    after = encode_match_id(MatchId(match_length=5, score=(2, 4), on_roll=0))
    assert main(["hint", "--cube", START, "--match-id", after]) == 0
    assert capsys.readouterr().out.startswith("bgsage: double, take")


def test_cube_state_is_seen_by_the_player_on_roll() -> None:
    match = MatchId(match_length=7, score=(1, 4), on_roll=1, cube=2, cube_owner=1)
    assert cube_state_of(match) == CubeState(value=2, owner="mine", my_away=3, their_away=6)
    assert cube_state_of(MatchId(on_roll=0, cube=4, cube_owner=1)) == CubeState(value=4, owner="theirs")


@pytest.mark.parametrize(
    "argv,words",
    [
        (["hint", START, "71"], "dice must be two numbers"),
        (["hint", "nonsense", "31"], "Position ID"),
        (["hint", START], "give POSITION and DICE"),
        (["hint", START, "31", "--engine", "deepblue"], "unknown engine"),
        (["hint", "--cube", START], "needs --match-id"),
        (["hint", "--cube", START, "--match-id", "xyz"], "Match ID"),
        (["hint", START, "31", "--top", "0"], "--top"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, words) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_a_bad_batch_line_is_named_and_the_batch_goes_on(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{START} 31\n{START}\n{START} 77\n{START} 42\n"))
    assert main(["hint", "--batch", "--engine", "pubeval"]) == 2
    captured = capsys.readouterr()
    out = [json.loads(line) for line in captured.out.splitlines()]
    assert "plays" in out[0] and "plays" in out[3]
    assert out[1]["line"] == 2 and out[2]["line"] == 3 and "77" in out[2]["error"]
    assert captured.err.startswith("bgboard: line 2:") and "bgboard: line 3:" in captured.err
    assert captured.err.endswith("bgboard: 2 of 4 lines could not be answered (see above)\n")


@pytest.mark.parametrize("text,dice", [("31", (3, 1)), ("3-1", (3, 1)), ("6,6", (6, 6)), (" 5 2 ", (5, 2))])
def test_dice_forms(text, dice) -> None:
    assert parse_dice(text) == dice


def test_grade_a_play_as_gnubg_does(capsys, bgsage_engine) -> None:
    assert main(["hint", START, "31", "--grade", "24/20", "--engine", "bgsage"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("24/20: very bad, ") and line.endswith(" worse than 8/5 6/5.")
    assert main(["hint", START, "31", "--grade", "6/5 8/5", "--json", "--engine", "bgsage"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "engine": "bgsage", "play": "8/5 6/5", "best": "8/5 6/5", "loss": 0.0, "grade": "good"}


@pytest.mark.parametrize(
    "play,words",
    [("24/21 13/12", "point 12 is blocked"), ("24/21", "only one"), ("pass", "cannot pass")],
)
def test_grading_an_illegal_play_gives_the_rules_engines_reason(capsys, play, words) -> None:
    assert main(["hint", START, "31", "--grade", play, "--engine", "pubeval"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_grading_a_dance(capsys) -> None:
    assert main(["hint", "27YBBwD/PwAAQA", "66", "--grade", "pass", "--engine", "pubeval"]) == 0
    assert "passing is the only choice" in capsys.readouterr().out


def test_hint_reads_an_xgid_as_legal_does(capsys) -> None:
    from bgboard.rules import Xgid, xgid_encode

    xgid = xgid_encode(Xgid(start_position(), dice=(3, 1)))
    assert main(["hint", START, "31", "--json", "--engine", "pubeval"]) == 0
    by_id = json.loads(capsys.readouterr().out)
    assert main(["hint", xgid, "31", "--json", "--engine", "pubeval"]) == 0
    assert json.loads(capsys.readouterr().out) == by_id
    assert main(["legal", xgid, "31", "--json"]) == 0 and capsys.readouterr().out


def test_grade_reads_a_play_as_players_write_it(capsys) -> None:
    # FIBS' dashes and one checker over both dice: the rules engine's one reader of plays
    assert main(["hint", START, "21", "--grade", "13-11-10", "--json", "--engine", "pubeval"]) == 0
    assert json.loads(capsys.readouterr().out)["play"] == "13/10"
