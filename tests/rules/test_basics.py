"""Variants, Position IDs, results and the core values of the rules engine."""

from __future__ import annotations

import pytest

from bgboard.rules import (
    STARTS,
    GameResult,
    InvalidIdError,
    Play,
    Position,
    Step,
    UnknownVariantError,
    apply_step,
    checkers_of,
    format_play,
    game_result,
    is_race,
    legal_plays,
    position_from_id,
    position_id,
    start_position,
)

from .oracle import require_gnubg, require_gnubg_nn
from .selfplay import selfplay_positions


def test_variants_and_their_checkers():
    assert STARTS == ("standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3")
    assert [checkers_of(v) for v in STARTS] == [15, 15, 1, 2, 3]
    for v in STARTS:
        start = start_position(v)
        start.validate(checkers_of(v))
        assert start.swap() == start
    assert position_id(start_position()) == "4HPwATDgc/ABMA"
    assert start_position("nackgammon").mine[23] == 2
    with pytest.raises(UnknownVariantError, match="unknown variant 'acey'"):
        start_position("acey")


def test_start_position_matches_gnubg():
    g = require_gnubg_nn()
    assert Position.from_gnubg(g.board_from_position_id("4HPwATDgc/ABMA")) == start_position()


def test_position_id_round_trips_and_matches_gnubg_nn():
    g = require_gnubg_nn()
    for variant, position in selfplay_positions(seed=7, count=400, variants=STARTS):
        pid = position_id(position)
        opp, me = position.to_gnubg()
        assert pid == g.position_id([list(opp), list(me)])
        n = checkers_of(variant)
        assert position_from_id(pid, n) == position
        assert position_from_id(pid, n) == Position.from_gnubg(g.board_from_position_id(pid), n)


def test_position_id_with_checkers_on_both_bars():
    g = require_gnubg_nn()
    mine = [0] * 26
    theirs = [0] * 26
    mine[25], mine[6], mine[0] = 2, 3, 10
    theirs[25], theirs[1], theirs[0] = 1, 4, 10
    position = Position(tuple(mine), tuple(theirs))
    pid = position_id(position)
    assert position_from_id(pid) == position
    assert Position.from_gnubg(g.board_from_position_id(pid)) == position


@pytest.mark.parametrize(
    "text, message",
    [
        ("4HPwATDgc/AB", "a Position ID has 14 characters, '4HPwATDgc/AB' has 12"),
        ("4HPwATDgc/AB!A", "a Position ID uses only letters, digits, '+' and '/', not '!'"),
        ("//////////////", "Position ID '//////////////' holds more than 80 bits of checkers"),
        ("//8AAADA/wAAAA", "Position ID '//8AAADA/wAAAA' gives the opponent 16 checkers, more than 15"),
        ("AwAAAAAADAAAAA", "Position ID 'AwAAAAAADAAAAA': point 24 holds checkers of both colours"),
    ],
)
def test_bad_position_ids_say_what_is_wrong(text, message):
    with pytest.raises(InvalidIdError) as info:
        position_from_id(text)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def _side(points: dict[int, int], total: int = 15) -> tuple[int, ...]:
    side = [0] * 26
    for p, n in points.items():
        side[p] = n
    side[0] = total - sum(side)
    return tuple(side)


@pytest.mark.parametrize(
    "loser, kind, points",
    [
        ({3: 2}, "single", 1),  # the loser has borne off: single game
        ({3: 15}, "gammon", 2),  # nothing borne off
        ({3: 14, 19: 1}, "backgammon", 3),  # a checker in the winner's home board
        ({3: 14, 25: 1}, "backgammon", 3),  # a checker on the bar
        ({3: 13, 25: 1}, "single", 1),  # borne one off: single even with one on the bar
        ({18: 15}, "gammon", 2),  # just outside the winner's home board
    ],
)
def test_game_results_as_the_seeds_define_them(loser, kind, points):
    winner = _side({})
    position = Position(winner, _side(loser))
    assert game_result(position) == GameResult("mine", kind, points)
    assert game_result(position.swap()) == GameResult("theirs", kind, points)


def test_no_result_while_both_sides_have_checkers():
    assert game_result(start_position()) is None
    assert game_result(Position(_side({1: 1}), _side({1: 1}))) is None


def test_race_and_contact():
    assert not is_race(start_position())
    assert is_race(Position(_side({6: 15}), _side({6: 15})))
    # my checker on 20 faces theirs on their 6 = my 19: contact
    assert not is_race(Position(_side({20: 1, 6: 14}), _side({6: 15})))
    assert is_race(Position(_side({19: 1, 6: 14}), _side({6: 15})))


def test_apply_step_hits_a_blot_and_bears_off():
    position = Position(_side({8: 1, 3: 1}), _side({20: 1}))  # their 20 = my 5
    after = apply_step(position, Step(8, 5, 3, True))
    assert after.mine[5] == 1 and after.theirs[20] == 0 and after.theirs[25] == 1
    off = apply_step(after, Step(3, 0, 3))
    assert off.mine[0] == 14 and off.mine[3] == 0


def test_worst_case_has_2220_plays():
    plays = legal_plays(position_from_id("AACAkCRJqqoAAA"), (1, 1))
    assert len(plays) == 2220
    assert len({p.position for p in plays}) == 2220
    assert all(len(p.steps) == 4 for p in plays)


def test_play_value_and_notation():
    plays = legal_plays(start_position(), (3, 1))
    assert len(plays) == 16
    play = next(p for p in plays if p.position.mine[5] == 2)
    assert play.notation == "8/5 6/5" == str(play)
    assert isinstance(play, Play) and hash(play) == hash(Play(play.steps, play.position))
    assert format_play([Step(24, 18, 6), Step(24, 18, 6), Step(13, 7, 6), Step(13, 7, 6)]) == "24/18(2) 13/7(2)"
    assert format_play([Step(8, 5, 3, True), Step(5, 1, 4)]) == "8/5*/1"
    assert format_play([Step(13, 10, 3), Step(10, 7, 3)]) == "13/7"
    assert format_play([Step(25, 22, 3, True), Step(6, 0, 6)]) == "bar/22* 6/off"
    assert format_play([]) == ""


def test_position_id_matches_gnubg_embedded():
    gnubg = require_gnubg()
    for _, position in selfplay_positions(seed=4, count=300):
        opp, me = position.to_gnubg()
        pid = position_id(position)
        assert gnubg.positionid([list(opp), list(me)]) == pid
        assert Position.from_gnubg(gnubg.positionfromid(pid)) == position
