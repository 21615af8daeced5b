"""The doubling cube, Crawford, dead cube, scoring and resignations."""

from __future__ import annotations

import pytest

from bgboard.match import (
    DOUBLED,
    GAME_OVER,
    MATCH_OVER,
    OPENING,
    PLAY,
    TURN,
    AcceptResign,
    Beaver,
    Double,
    Drop,
    MatchRuleError,
    NextGame,
    OpeningRoll,
    RejectResign,
    Resign,
    Roll,
    StartMatch,
    Take,
    UnknownRuleSetError,
    apply,
    replay,
)
from bgboard.match.cube import win_level

from .helpers import at_turn, started


def rule_of(state, action) -> str:
    with pytest.raises(MatchRuleError) as info:
        apply(state, action)
    return str(info.value)


def test_no_double_before_the_opening_roll_nor_after_rolling() -> None:
    fresh = apply(None, StartMatch(5))
    assert rule_of(fresh, Double()) == "a double offer is not an option at the first turn of the game"
    opened = started()
    assert opened.phase == PLAY
    assert rule_of(opened, Double()) == "the cube is offered only before rolling"


def test_opening_roll_tie_is_rolled_again_and_higher_die_moves_first() -> None:
    fresh = apply(None, StartMatch(5))
    assert apply(fresh, OpeningRoll((4, 4))) == fresh
    state = apply(fresh, OpeningRoll((2, 6)))
    assert (state.phase, state.turn, state.dice) == (PLAY, 1, (6, 2))


def test_take_gives_the_cube_to_the_taker_and_only_the_owner_redoubles() -> None:
    state = at_turn(started(), 0)
    state = apply(state, Double(player=0))
    assert state.phase == DOUBLED and state.decider == 1
    assert rule_of(state, Take(player=0)) == "it is not your decision to take"
    assert rule_of(state, Roll((3, 2))) == "answer the double first: take or drop"
    state = apply(state, Take(player=1))
    assert (state.cube, state.cube_owner, state.phase, state.turn) == (2, 1, TURN, 0)
    assert rule_of(state, Double()) == "you do not own the cube"
    state = apply(at_turn(state, 1), Double())
    state = apply(state, Take())
    assert (state.cube, state.cube_owner) == (4, 0)


def test_drop_loses_the_cube_value_before_the_double() -> None:
    state = at_turn(started(length=7), 1, cube=2, cube_owner=1)
    state = apply(state, Double())
    state = apply(state, Drop())
    assert state.phase == GAME_OVER
    assert state.score == (0, 2)
    game = state.games[-1]
    assert (game.winner, game.points, game.cube, game.result) == (1, 2, 2, "drop")


def test_roll_or_double_first() -> None:
    from bgboard.match import Move, Pass

    state = at_turn(started(), 0)
    assert rule_of(state, Move(((13, 10),))) == "roll or double first"
    assert rule_of(state, Pass()) == "roll or double first"
    assert rule_of(state, Take()) == "there is no double to answer"
    rolled = apply(state, Roll((3, 2)))
    assert rule_of(rolled, Roll((3, 2))) == "you have already rolled: play your checkers"



def test_crawford_game_and_post_crawford_doubling() -> None:
    state = replay([StartMatch(3), OpeningRoll((3, 1))])
    state = at_turn(state, 0)
    state = apply(apply(state, Double()), Take())  # cube 2 owned by player 1
    state = apply(state, Resign(1))
    state = apply(state, AcceptResign(player=1))
    assert state.score == (0, 2) and state.games[-1].points == 2
    assert state.games[-1].result == "resign" and not state.games[-1].crawford
    state = apply(state, NextGame())
    assert state.crawford and not state.post_crawford and state.phase == OPENING
    assert (state.cube, state.cube_owner) == (1, None)
    crawford = at_turn(apply(state, OpeningRoll((6, 5))), 0)
    assert rule_of(crawford, Double()) == "no doubling in the Crawford game"
    assert rule_of(at_turn(crawford, 1), Double()) == "no doubling in the Crawford game"
    assert not crawford.may_double
    # Bob resigns the Crawford game: 1-2, then post-Crawford games.
    state = apply(apply(at_turn(crawford, 1), Resign(1)), AcceptResign())
    assert state.score == (1, 2) and state.games[-1].crawford
    state = apply(state, NextGame())
    assert (state.crawford, state.post_crawford) == (False, True)
    post = at_turn(apply(state, OpeningRoll((6, 5))), 0)
    assert post.may_double
    doubled = apply(post, Double())
    assert doubled.phase == DOUBLED
    # The leader 1-away may double in standard (legal, pointless) ...
    assert at_turn(post, 1).may_double
    # ... but not under rules that refuse offers that cannot matter (BrainKing).
    bk = at_turn(post, 1, rules=post.rules.__class__(**{**post.rules.to_dict(), "match_lengths": None, "dead_cube": True}))  # type: ignore[arg-type]
    assert rule_of(bk, Double()) == "you need only one point to win the match: a double cannot matter"


def test_crawford_needs_the_first_time_a_player_reaches_one_away() -> None:
    # A 5-point match where Ann jumps from 0 to 4 with a gammon on a 2-cube.
    state = at_turn(started(length=5), 1)
    state = apply(apply(state, Double()), Take())
    state = apply(apply(at_turn(state, 1), Resign(2)), AcceptResign())
    assert state.score == (4, 0)
    state = apply(state, NextGame())
    assert state.crawford
    state = apply(apply(at_turn(apply(state, OpeningRoll((1, 2))), 0), Resign(1)), AcceptResign())
    assert state.score == (4, 1)
    state = apply(state, NextGame())
    assert not state.crawford and state.post_crawford
    # Bob reaches 4 later: no second Crawford game.
    state = apply(apply(at_turn(apply(state, OpeningRoll((1, 2))), 0), Resign(3)), AcceptResign())
    assert state.score == (4, 4)
    state = apply(state, NextGame())
    assert not state.crawford


def test_dead_cube_under_brainking() -> None:
    state = at_turn(started(length=5, rules="brainking"), 1, score=(0, 2), cube=4, cube_owner=1)
    assert rule_of(state, Double()) == (
        "the cube at 4 already wins you the match: doubling cannot matter (dead cube)"
    )
    # The trailer with the cube (5 away, cube 4) may redouble.
    trailer = at_turn(state, 0, cube_owner=0)
    assert apply(trailer, Double()).phase == DOUBLED


def test_brainking_limits() -> None:
    for bad in (1, 2, 4, 23, 0):
        with pytest.raises(UnknownRuleSetError):
            apply(None, StartMatch(bad, rules="brainking"))
    for good in range(3, 22, 2):
        assert apply(None, StartMatch(good, rules="brainking")).length == good
    state = at_turn(started(length=5, rules="brainking"), 0, cube=64, cube_owner=0)
    assert rule_of(state, Double()) == "the cube cannot go above 64"
    with pytest.raises(UnknownRuleSetError, match="unknown rule set"):
        apply(None, StartMatch(5, rules="fibs"))


def test_a_match_that_ends_on_a_drop() -> None:
    # Standard rules allow a double that cannot matter; the opponent may drop it.
    state = at_turn(started(length=3), 0, score=(1, 0), cube=2, cube_owner=0)
    state = apply(apply(state, Double()), Drop())
    assert state.phase == MATCH_OVER and state.winner == 0 and state.score == (3, 0)
    assert rule_of(state, NextGame()) == "the match is over"


@pytest.mark.parametrize(("level", "cube", "points"), [(1, 1, 1), (2, 2, 4), (3, 4, 12), (2, 8, 16)])
def test_resignations_score_level_times_cube(level: int, cube: int, points: int) -> None:
    state = at_turn(started(length=25), 1, cube=cube, cube_owner=0 if cube > 1 else None)
    offered = apply(state, Resign(level))
    assert offered.decider == 0 and offered.phase == "resigned"
    assert rule_of(offered, AcceptResign(player=1)) == "it is not your decision to accept the resignation"
    rejected = apply(offered, RejectResign())
    assert rejected.phase == TURN and rejected.resign_level == 0
    done = apply(offered, AcceptResign())
    assert done.score == (points, 0)
    assert (done.games[-1].result, done.games[-1].level) == ("resign", level)


def test_resign_level_must_be_single_gammon_or_backgammon() -> None:
    assert rule_of(started(), Resign(4)) == "resign a single (1), a gammon (2) or a backgammon (3)"


def test_win_level_single_gammon_backgammon() -> None:
    winner = (15,) + (0,) * 25
    single = (1, 14) + (0,) * 24
    gammon = (0, 15) + (0,) * 24
    back_home = (0, 14) + (0,) * 18 + (1,) + (0,) * 5  # a checker on its 20-point
    back_bar = (0, 14) + (0,) * 23 + (1,)
    assert [win_level(winner, s) for s in (single, gammon, back_home, back_bar)] == [1, 2, 3, 3]


def test_money_play_jacoby_and_beavers() -> None:
    plain = at_turn(started(length=0, rules="money"), 0)
    assert rule_of(apply(plain, Double()), Beaver()) == "beavers are allowed only in money play with beavers on"
    money = at_turn(started(length=0, rules="money", jacoby=True, beavers=True), 0)
    beavered = apply(apply(money, Double()), Beaver(player=1))
    assert (beavered.cube, beavered.cube_owner, beavered.phase, beavered.turn) == (4, 1, TURN, 0)
    # Jacoby: a gammon with the cube centred counts single ...
    centred = apply(apply(money, Resign(2)), AcceptResign())
    assert centred.score == (0, 1)
    # ... but counts double once the cube is turned; the cube is unlimited.
    turned = at_turn(money, 0, cube=128, cube_owner=0)
    assert apply(turned, Double()).phase == DOUBLED
    counted = apply(apply(at_turn(money, 0, cube=2, cube_owner=0), Resign(2)), AcceptResign())
    assert counted.score == (0, 4)
    assert counted.phase == GAME_OVER  # money play never ends by score
    assert apply(counted, NextGame()).phase == OPENING
    with pytest.raises(UnknownRuleSetError):
        apply(None, StartMatch(5, jacoby=True))


def test_a_move_is_per_die_steps_to_a_legal_result() -> None:
    from bgboard.match import IllegalPlayError, Move

    state = started()  # player 0 to play 3-1 from the start
    with pytest.raises(IllegalPlayError, match="each step moves one checker by one die: 8/4 is not a 3 or a 1"):
        apply(state, Move(((8, 4),)))
    with pytest.raises(IllegalPlayError, match="you have no checker on point 7"):
        apply(state, Move(((7, 4), (6, 5))))
    with pytest.raises(IllegalPlayError):
        apply(state, Move(((8, 5),)))  # the 1 must be played too
    done = apply(state, Move(((8, 5), (6, 5))))
    assert done.phase == TURN and done.turn == 1
    assert done.board[0][5] == 2 and done.board[0][8] == 2 and done.board[0][6] == 4
