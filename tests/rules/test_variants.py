"""The seed variants' rules: the rule tables (tests/data/rules/<variant>.json, each row
written from VARIANTS.md with its source), properties over random games, and Race checked
against gnubg-nn where it is plain backgammon."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.rules import fevga
from bgboard.rules.board import Board, board_text, parse_board
from bgboard.rules.games import GAMES, SEED_GAMES
from bgboard.rules.notation import IllegalPlayError
from bgboard.rules.position import BAR, CHECKERS, OFF

from .oracle import gnubg_ids, require_gnubg_nn
from .variant_boards import board_of, random_game

DATA = Path(__file__).resolve().parents[1] / "data" / "rules"
ROWS = [(name, row) for name in SEED_GAMES for row in json.loads((DATA / f"{name}.json").read_text())]


@pytest.mark.parametrize(("name", "row"), ROWS, ids=lambda r: r if isinstance(r, str) else r["rule"][:50])
def test_rule_table_row(name, row):
    game = GAMES[name]
    board = game.validate(board_of(row))
    assert parse_board(board_text(board)) == board
    dice = tuple(row["dice"])
    plays = game.plays(board, dice)
    expected = {game.play_steps(board, _pairs(text), dice): text for text in row["plays"]}
    assert len(expected) == len(row["plays"]), "two rows of the table give the same board"
    assert {p.position for p in plays} == set(expected), (
        f"engine: {sorted(p.notation for p in plays)}; table: {sorted(row['plays'])}"
    )
    outcomes = row.get("outcomes", {})
    for play in plays:
        text = expected[play.position]
        want = tuple(outcomes[text]) if text in outcomes else None
        assert game.outcome(play.position) == want, text
        assert play.ended == (want is not None)
        assert game.parse_play(text, board, dice).position == play.position


def _pairs(text: str) -> list[tuple[int, int]]:
    from bgboard.rules.notation import parse_moves

    return [(a, b) for points, _ in parse_moves(text) for a, b in zip(points, points[1:])]


def test_every_variant_has_a_table():
    assert {name for name, _ in ROWS} == set(SEED_GAMES)


# ----------------------------------------------------------------- single rules
def test_fevga_prime_must_be_opened_when_all_their_checkers_wait_behind_it():
    """VARIANTS.md Fevga (H): if the opponent has all his remaining checkers on the point
    behind your prime, you must open it.  My prime 13-18, their 15 on my 19 (their 7)."""
    row = {"mine": {str(p): 1 for p in range(13, 19)} | {"3": 9}, "theirs": {"7": 15}}
    board = GAMES["fevga"].validate(board_of(row))
    assert fevga.trapping_primes(board) == [18]
    plays = GAMES["fevga"].plays(board, (2, 1))
    keeping = board_of({"mine": {str(p): 1 for p in range(13, 19)} | {"3": 7, "2": 1, "1": 1}, "theirs": {"7": 15}})
    assert keeping not in {p.position for p in plays}
    assert plays and all(not fevga.trapping_primes(p.position) for p in plays)
    # one of their checkers elsewhere: the prime may stand
    loose = board_of({"mine": {str(p): 1 for p in range(13, 19)} | {"3": 9}, "theirs": {"7": 14, "9": 1}})
    kept = Board(keeping.mine, loose.theirs)
    assert kept in {p.position for p in GAMES["fevga"].plays(loose, (2, 1))}
    with pytest.raises(IllegalPlayError, match="six points in a row must be opened"):
        GAMES["fevga"].parse_play("3/1 3/2", board, (2, 1))


def test_fevga_prime_counts_only_ahead_of_them_on_their_way_round():
    """VARIANTS.md Fevga (H): the point *behind* the prime is behind it on the opponent's way.
    Found by the differential test (docs/rules.md): my 13-8 with their last checkers on
    their 2-point (my 14) is not a trap (they bear off from there; my 13 is their 1-point
    and my 12 their start), while my 11-6 in front of their 15 on their start is."""
    passed = board_of({"mine": {str(p): 1 for p in range(8, 14)} | {"3": 9}, "theirs": {"2": 5}})
    assert fevga.trapping_primes(GAMES["fevga"].validate(passed)) == []
    trapped = board_of({"mine": {str(p): 1 for p in range(6, 12)} | {"3": 9}, "theirs": {"24": 15}})
    assert fevga.trapping_primes(GAMES["fevga"].validate(trapped)) == [11]
    plays = GAMES["fevga"].plays(passed, (2, 1))
    assert any(all(p.position.mine[q] for q in range(8, 14)) for p in plays)  # the prime may stand


def test_plakoto_pinned_checker_explained():
    row = {"mine": {"13": 1, "10": 1}, "theirs": {"15": 1}, "pinned": [[10], []]}
    board = board_of(row)
    with pytest.raises(IllegalPlayError, match="your checker on point 10 is pinned"):
        GAMES["plakoto"].parse_play("10/7 13/12", board, (3, 1))


def test_invalid_variant_boards_are_named():
    assert "without a pin" in " ".join(GAMES["plakoto"].problems(board_of({"mine": {"5": 1}, "theirs": {"20": 1}})))
    assert "both colours" in " ".join(GAMES["fevga"].problems(board_of({"mine": {"5": 1}, "theirs": {"17": 1}})))
    assert GAMES["fevga"].problems(board_of({"mine": {"5": 1}, "theirs": {"20": 1}})) == []
    assert "15 checkers expected" in " ".join(GAMES["race"].problems(Board((0,) * 26, (0,) * 26, (0, 0), (15, 14))))


# ----------------------------------------------------------------- properties
@pytest.mark.slow
@pytest.mark.parametrize("name", list(SEED_GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules_and_end(name, seed):
    """Checker conservation, only boards the variant allows (pins only where allowed, no
    checker on a point the opponent holds), no step onto a held point, and the game ends."""
    game = GAMES[name]
    rng = random.Random(seed)
    turns = 0
    last = None
    for board, dice, plays, chosen in random_game(game, rng):
        turns += 1
        assert game.problems(board) == []
        assert board.checkers() == (CHECKERS, CHECKERS)
        for play in plays:
            assert game.problems(play.position) == [], play.notation
            _no_step_onto_a_held_point(name, board, play)
            if name != "plakoto":
                assert play.position.pins == (0, 0)
        last = chosen.position if chosen else board
    assert last is not None and game.outcome(last) is not None, f"no end after {turns} turns"


def _no_step_onto_a_held_point(name: str, board: Board, play) -> None:
    game = GAMES[name]
    for step in play.steps:
        if step.to == OFF:
            continue
        q = game.opposite(step.to)
        if name == "fevga":
            assert board.theirs[q] == 0
        elif name == "plakoto":
            assert board.theirs[q] < 2 and not board.pins[0] >> step.to & 1
        else:
            assert board.theirs[q] < 2
        mine = list(board.mine)
        board = next(after for s, after in game.steps_from(board, step.die) if s == step)


def test_race_agrees_with_gnubg_once_every_checker_has_entered():
    """Race with no checker waiting is backgammon: its own generator must give gnubg-nn's
    plays (a differential test of race.race_steps_from and the dice search)."""
    require_gnubg_nn()
    from bgboard.rules import position_id

    rng = random.Random(7)
    compared = 0
    while compared < 600:
        for board, dice, plays, chosen in random_game(GAMES["race"], rng, limit=400):
            if board.reserve == (0, 0) and compared < 600:
                mine = {position_id(p.position.plain()) for p in plays}
                assert mine == gnubg_ids(board.plain(), dice), board_text(board)
                compared += 1


@pytest.mark.slow
def test_race_agrees_with_gnubg_once_the_mover_has_entered_while_the_opponent_has_not():
    """The opponent's checkers still waiting to enter are off the board like borne-off
    ones, and nothing the mover may do depends on which they are (VARIANTS.md Race: they
    enter as from the bar; hitting, blocking and bearing off as usual; only the mover's own
    waiting checkers make entering optional).  So once the mover has entered all his
    checkers, Race is backgammon with the opponent's waiting checkers counted as borne off,
    and gnubg-nn must give the same plays; random games reach such boards early in the game,
    where the other test's boards (nobody waiting) never are."""
    require_gnubg_nn()
    from bgboard.rules import position_id
    from bgboard.rules.position import Position

    rng = random.Random(16)
    compared = 0
    while compared < 200:
        for board, dice, plays, _chosen in random_game(GAMES["race"], rng, limit=60):
            if board.reserve[0] == 0 and board.reserve[1] > 0 and compared < 200:
                theirs = list(board.theirs)
                theirs[OFF] += board.reserve[1]
                position = Position(board.mine, tuple(theirs))
                mine = {position_id(p.position.plain()) for p in plays}
                assert mine == gnubg_ids(position, dice), board_text(board)
                compared += 1


# ----------------------------------------------------------------- bgboard legal --variant
def test_legal_cli_for_each_variant(capsys):
    from bgboard.cli import main

    assert main(["legal", "--variant", "plakoto", "start", "31"]) == 0
    assert capsys.readouterr().out.splitlines() == ["24/23 24/21", "24/20"]
    assert main(["legal", "--variant", "fevga", "start", "65", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["play"] for p in out["plays"]] == ["24/13"] and out["plays"][0]["ended"] is False
    after = parse_board(out["plays"][0]["board"])
    assert after.mine[13] == 1 and after.mine[24] == 14
    assert main(["legal", "--variant", "race", "AAAAAAAAAAAAAA:reserve=15/15", "21"]) == 0
    assert capsys.readouterr().out.splitlines() == ["bar/24 bar/23", "bar/22"]
    pinned = board_text(board_of({"mine": {"13": 1, "10": 1}, "theirs": {"15": 1}, "pinned": [[10], []]}))
    assert ":pinned=10/-" in pinned
    assert main(["legal", "--variant", "plakoto", pinned, "31"]) == 0
    assert capsys.readouterr().out == "13/9\n"
    assert main(["legal", "--variant", "anti", "4HPwATDgc/ABMA", "31"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 16


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--variant", "plakoto", "AAAAAAAAAAAAAA:pinned=x/-", "31"], "pinned points are numbers"),
        (["--variant", "plakoto", "4HPwATDgc/ABMA:colour=red", "31"], "':pinned=M/T' or ':reserve=M/T'"),
        (["--variant", "fevga", "AACA/z8AAID/Pw:pinned=24/-", "31"], "Fevga has no pins"),
        (["--variant", "plakoto", "start", "71"], "dice must be two numbers"),
        (["--variant", "plakoto", board_text(board_of({"mine": {"5": 1}, "theirs": {"20": 1}})), "31"], "without a pin"),
    ],
)
def test_legal_cli_bad_input_is_one_line_and_exit_2(args, says):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "bgboard", "legal", *args], capture_output=True, text=True)
    assert proc.returncode == 2
    assert says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
