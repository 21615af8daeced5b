"""Backends agree with each other and with their engines' own move choice."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.hints import play_hints
from bgboard.hints.samples import random_positions
from bgboard.rules import Position, legal_plays, start_position

DATA = Path(__file__).resolve().parents[1] / "data" / "hints"


def _openings() -> list[tuple[tuple[int, int], str]]:
    rows = []
    with open(DATA / "openings.csv") as f:
        for row in csv.reader(line for line in f if not line.startswith("#")):
            rows.append(((int(row[0][0]), int(row[0][1])), row[1]))
    return rows


def _engines(request) -> list:
    return [request.getfixturevalue(name) for name in ("bgsage_engine", "gnubg_engine", "pubeval_engine")]


def test_backends_agree_on_forced_plays(request) -> None:
    engines = _engines(request)
    forced = 0
    for position, dice in random_positions(1500, seed=3):
        plays = legal_plays(position, dice)
        if len(plays) > 1:
            continue
        forced += 1
        answers = {play_hints(e, position, dice).best for e in engines}
        if not plays:
            assert answers == {None}
        else:
            assert {a.position for a in answers} == {plays[0].position}
            assert {a.notation for a in answers} == {plays[0].notation}
    assert forced >= 20  # the sample really contains forced plays and dances


@pytest.mark.parametrize("roll,best", _openings())
def test_calibrated_backends_find_the_book_opening(request, roll, best) -> None:
    for name in ("bgsage_engine", "gnubg_engine"):
        engine = request.getfixturevalue(name)
        assert play_hints(engine, start_position(), roll, 1).best.notation == best, name


def test_gnubg_backend_picks_gnubg_nn_best_move(gnubg_engine) -> None:
    """The side convention: our top 0-ply play is the one gnubg-nn's own best_move makes."""
    import gnubg_nn

    gnubg_nn.set.score(0, 0, 0)  # best_move follows gnubg-nn's global score: money play
    agree = total = 0
    for position, dice in random_positions(300, seed=9):
        plays = legal_plays(position, dice)
        if len(plays) < 2:
            continue
        total += 1
        board = [list(side) for side in position.to_gnubg()]
        steps = gnubg_nn.best_move(board, dice[0], dice[1])
        mine, theirs = list(position.mine), list(position.theirs)
        for frm, to in steps:
            mine[frm] -= 1
            mine[to] += 1
            if to and theirs[25 - to] == 1:
                theirs[25 - to] = 0
                theirs[25] += 1
        hint = play_hints(gnubg_engine, position, dice)
        theirs_pick = Position(tuple(mine), tuple(theirs))
        pick = next(p for p in hint.plays if p.position == theirs_pick)
        # the same play, or one of exactly equal equity (a tie, e.g. a lost race)
        assert pick.equity == pytest.approx(hint.plays[0].equity, abs=1e-6)
        agree += pick.position == hint.plays[0].position
    assert total > 100
    assert agree >= total * 0.95


def test_bgsage_backend_sees_every_legal_play_and_keeps_its_order(bgsage_engine) -> None:
    import bgsage

    analyzer = bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=False, parallel_threads=1)
    for position, dice in random_positions(200, seed=4):
        plays = legal_plays(position, dice)
        if len(plays) < 2:
            continue
        analysis = analyzer.checker_play(position.to_bgsage(), dice[0], dice[1])
        assert {tuple(m.board) for m in analysis.moves} == {tuple(p.position.to_bgsage()) for p in plays}
        hint = play_hints(bgsage_engine, position, dice)
        assert hint.plays[0].equity == pytest.approx(analysis.moves[0].equity)
        assert [p.loss for p in hint.plays] == sorted(p.loss for p in hint.plays)
        assert hint.plays[0].loss == 0.0


@pytest.mark.parametrize(
    "theirs_points,theirs_off,points",
    [
        ({1: 15}, 0, 2),  # all 15 still in their home board: a gammon
        ({1: 14}, 1, 1),  # one of theirs is off: a single game
        ({1: 14, 22: 1}, 0, 3),  # one in my home board (their 22-point): a backgammon
    ],
)
def test_the_last_checker_off_wins_what_the_rules_say(gnubg_engine, bgsage_engine, theirs_points, theirs_off, points) -> None:
    from bgboard.rules import game_result

    mine = [14] + [0] * 25
    mine[1] = 1
    theirs = [theirs_off] + [0] * 25
    for point, n in theirs_points.items():
        theirs[point] = n
    position = Position(tuple(mine), tuple(theirs)).validate()
    for engine in (gnubg_engine, bgsage_engine):
        best = play_hints(engine, position, (6, 5)).best
        assert best.notation == "1/off"
        assert best.equity == points == game_result(best.position).points


def test_hints_limit_and_losses(gnubg_engine) -> None:
    hint = play_hints(gnubg_engine, start_position(), (4, 3), limit=3)
    assert len(hint.plays) == 3
    assert hint.plays[0].loss == 0.0
    assert all(a.equity >= b.equity for a, b in zip(hint.plays, hint.plays[1:]))
    assert all(p.loss == pytest.approx(hint.plays[0].equity - p.equity) for p in hint.plays)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turn=st.integers(0, 60))
def test_every_backend_ranks_exactly_the_legal_plays(request, seed, turn) -> None:
    position, dice = random_positions(turn + 1, seed=seed)[turn]
    legal = {p.position: p.notation for p in legal_plays(position, dice)}
    for engine in _engines(request):
        hint = play_hints(engine, position, dice)
        assert {p.position: p.notation for p in hint.plays} == legal
        assert len(hint.plays) == len(legal)
        equities = [p.equity for p in hint.plays]
        assert equities == sorted(equities, reverse=True)
        assert all(p.loss >= 0 and p.loss == pytest.approx(equities[0] - p.equity) for p in hint.plays)


def test_bgsage_play_hints_follow_the_match_score(bgsage_engine) -> None:
    import bgsage

    from bgboard.hints import CubeState

    analyzer = bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=True, parallel_threads=1)
    dmp = CubeState(my_away=1, their_away=1)  # double match point: gammons count nothing
    money = play_hints(bgsage_engine, start_position(), (6, 4))
    at_dmp = play_hints(bgsage_engine, start_position(), (6, 4), state=dmp)
    oracle = analyzer.checker_play(start_position().to_bgsage(), 6, 4, away1=1, away2=1)
    assert [tuple(p.position.to_bgsage()) for p in at_dmp.plays] == [tuple(m.board) for m in oracle.moves]
    assert at_dmp.best.position != money.best.position


def test_cli_passes_the_match_score_to_play_hints(capsys, bgsage_engine) -> None:
    from bgboard.cli import main
    from bgboard.hints import CubeState
    from bgboard.rules.ids import MatchId, encode_match_id

    dmp = encode_match_id(MatchId(match_length=5, score=(4, 4), on_roll=0))
    assert main(["hint", "4HPwATDgc/ABMA", "64", "--match-id", dmp, "--json", "--engine", "bgsage"]) == 0
    import json

    answer = json.loads(capsys.readouterr().out)
    expected = play_hints(bgsage_engine, start_position(), (6, 4), state=CubeState(my_away=1, their_away=1))
    assert [p["play"] for p in answer["plays"]] == [p.notation for p in expected.plays]
