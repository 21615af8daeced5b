"""Scenario tests: one per rule of the seed texts (docs/rules.md names each seed)."""

from __future__ import annotations

import pytest

from bgboard.rules import (
    IllegalPlayError,
    IllegalStepError,
    InvalidDiceError,
    NotationError,
    Position,
    Step,
    explain,
    legal_plays,
    legal_steps,
    parse_play,
    start_position,
)

from .board import board


def notations(position, dice):
    return sorted(p.notation for p in legal_plays(position, dice))


def test_moves_by_die_value():
    # 6-3 with a lone back checker: 9 pips with it, or 6 with it and 3 with a home checker
    assert notations(board("20:1 6:14"), (6, 3)) == ["20/11", "20/14 6/3"]


def test_doubles_give_four_moves():
    plays = legal_plays(board("24:1 6:14"), (2, 2))
    assert "24/16" in [p.notation for p in plays]
    assert all(len(p.steps) == 4 for p in plays)


def test_hitting_a_blot_sends_it_to_the_bar():
    position = board("13:1", "10:1")
    by_text = {p.notation: p for p in legal_plays(position, (3, 1))}
    assert set(by_text) == {"13/10*/9", "13/9"}
    hit = by_text["13/10*/9"].position
    assert hit.theirs[25] == 1 and hit.theirs[15] == 0
    assert by_text["13/9"].position.theirs[15] == 1  # via 12: no hit


def test_blocked_points_cannot_be_landed_on_or_touched_down():
    assert legal_plays(board("13:1", "10:2 12:2"), (3, 1)) == ()
    plays = legal_plays(board("13:1", "12:2"), (2, 1))
    assert [p.notation for p in plays] == ["13/10"]
    assert plays[0].steps == (Step(13, 11, 2), Step(11, 10, 1))


def test_bar_checker_must_enter_before_anything_else():
    position = board("bar:1 13:2", "20:2")
    # the 5 would enter on 20 (blocked); the 3 enters on 22, then the 5 is free
    assert notations(position, (5, 3)) == ["bar/17", "bar/22 13/8"]
    moved_other = board("bar:1 13:1 5:1", "20:2")
    assert explain(position, (5, 3), moved_other) == "a checker is on the bar: enter it first"


def test_two_on_the_bar_enter_first():
    position = board("bar:2 13:1", "20:2")
    assert notations(position, (6, 3)) == ["bar/22 bar/19"]
    assert notations(position, (5, 3)) == ["bar/22"]  # the 5 is blocked and the other waits


def test_closed_board_means_no_play():
    closed = " ".join(f"{p}:2" for p in range(19, 25))
    position = board("bar:1 6:14", closed)
    for dice in [(a, b) for a in range(1, 7) for b in range(1, 7)]:
        assert legal_plays(position, dice) == ()
    assert explain(position, (6, 6), position) is None
    assert parse_play("pass", position, (6, 6)).steps == ()


def test_bear_off_only_with_all_checkers_home():
    position = board("7:1 5:2")
    assert notations(position, (5, 2)) == ["7/2 5/3", "7/off"]
    early = board("7:1 5:1")  # 5/off with the 5, 7/5 with the 2: bore off first
    assert explain(position, (5, 2), early) == "you cannot bear off while a checker is outside your home board"


def test_bear_off_exact_or_larger_die_from_highest_point():
    position = board("4:1 2:1")
    assert notations(position, (6, 5)) == ["4/off 2/off"]
    assert notations(position, (6, 1)) == ["4/off", "4/off 2/1"]
    # a 6 cannot bear off the 2 while a checker is on 5
    assert explain(board("5:1 2:1"), (6, 4), board("5:1")) == "bear off from the highest point first"


def test_both_dice_must_be_played():
    position = board("13:1", "7:2 11:2")  # 13/7 is blocked; 13/12/6 plays both
    assert notations(position, (6, 1)) == ["13/6"]
    assert explain(board("13:1 6:1"), (6, 1), board("7:1 6:1")) == "both dice can be played, this play uses only one"


def test_only_the_larger_die_when_either_but_not_both():
    assert notations(board("13:1", "7:2 5:2 4:2"), (6, 2)) == ["13/11"]  # only the 2 can be played
    larger = board("13:1", "5:2 2:2")
    # 5-3: 13/8 then 8/5 blocked; 13/10 then 10/5 blocked: either alone, so the 5
    assert notations(larger, (5, 3)) == ["13/8"]
    assert explain(larger, (5, 3), board("10:1", "5:2 2:2")) == "the 5 must be played"


def test_doubles_as_many_as_possible():
    position = board("13:1", "5:2")
    plays = legal_plays(position, (4, 4))
    assert [p.notation for p in plays] == ["13/9"]
    assert len(plays[0].steps) == 1
    many = board("13:1 6:1", "5:2")
    assert [p.notation for p in legal_plays(many, (4, 4))] == ["13/9 6/2"]
    assert explain(many, (4, 4), board("9:1 6:1", "5:2")) == "2 of the four 4s can be played, this play uses only 1"


def test_no_play_is_a_pass_and_a_play_cannot_be_skipped():
    start = start_position()
    assert explain(start, (3, 1), start) == "3-1 can be played: you cannot pass"


def test_explain_counts_and_both_colours():
    start = start_position()
    played = parse_play("8/5 6/5", start, (3, 1)).position
    mine = list(played.mine)
    mine[5] -= 1  # a checker lifted and not put down
    fewer = Position(tuple(mine), played.theirs)
    assert explain(start, (3, 1), fewer) == "15 checkers expected for the player on roll, 14 seen"
    assert explain(start, (3, 1), fewer, colours=("white", "black")) == "15 white checkers expected, 14 seen"
    on_block = board("24:2 13:4 8:3 6:5 12:1", "1:2 12:5 17:3 19:5", check=False)
    assert explain(start, (3, 1), on_block) == "point 12 is blocked"
    moved = board("24:2 13:5 8:3 6:5", "2:2 12:5 17:3 19:5")
    assert explain(start, (3, 1), moved) == "the opponent's checkers must not move"
    for play in legal_plays(start, (3, 1)):
        assert explain(start, (3, 1), play.position) is None


def test_start_position_plays():
    start = start_position()
    assert len(legal_plays(start, (3, 1))) == 16
    assert "8/5 6/5" in notations(start, (3, 1))
    assert "24/18(2) 13/7(2)" in notations(start, (6, 6))
    assert len(legal_plays(start, (6, 6))) == 11


def test_notation_parses_any_correct_spelling():
    start = start_position()
    double = parse_play("24/18(2) 13/7(2)", start, (6, 6))
    assert parse_play("24/18 24/18 13/7 13/7", start, (6, 6)) == double
    assert parse_play("13/7 24/18 13/7 24/18", start, (6, 6)) == double
    assert parse_play("24/23/20", start, (3, 1)).notation == "24/20"
    assert parse_play("25/22 6/5", board("bar:1 6:14"), (3, 1)).notation == "bar/22 6/5"
    assert parse_play("6/0 5/off", board("6:1 5:1"), (6, 5)).notation == "6/off 5/off"


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("13:7", NotationError, "'13:7' is not a move like '13/7', 'bar/22*', '6/off' or '24/18(2)'"),
        ("8/10", NotationError, "'8/10': checkers move from a higher point to a lower one"),
        ("30/24", NotationError, "'30/24': points are numbered 1 to 24 (25 = bar, 0 = off), not 30"),
        ("9/5", IllegalPlayError, "9/5 is not legal: there is no checker of yours on point 9 to move"),
        ("13/10", IllegalPlayError, "13/10 is not legal: both dice can be played, this play uses only one"),
        ("24/20 13/9", IllegalPlayError, "24/20 13/9 is not legal: that is not a play of 3-1"),
        ("13/10 13/12", IllegalPlayError, "13/10 13/12 is not legal: point 12 is blocked"),
        ("pass", IllegalPlayError, "3-1 can be played: you cannot pass"),
    ],
)
def test_notation_errors_say_what_is_wrong(text, error, message):
    with pytest.raises(error) as info:
        parse_play(text, start_position(), (3, 1))
    assert str(info.value) == message


def test_bad_dice():
    with pytest.raises(InvalidDiceError, match="dice must be two numbers from 1 to 6"):
        legal_plays(start_position(), (7, 1))


def test_steps_follow_the_roll():
    start = start_position()
    assert {str(s) for s in legal_steps(start, (3, 1))} == {"24/21", "13/10", "8/5", "6/3", "24/23", "8/7", "6/5"}
    after = legal_steps(start, (3, 1), [Step(8, 5, 3)])
    assert {str(s) for s in after} == {"24/23", "8/7", "6/5", "5/4"}
    assert legal_steps(start, (3, 1), [Step(8, 5, 3), Step(6, 5, 1)]) == ()


def test_steps_never_strand_a_die():
    position = board("13:1", "7:2 11:2")  # only 13/12 then 12/6
    assert legal_steps(position, (6, 1)) == (Step(13, 12, 1),)
    assert legal_steps(position, (6, 1), [Step(13, 12, 1)]) == (Step(12, 6, 6),)


def test_steps_so_far_must_be_legal():
    start = start_position()
    with pytest.raises(IllegalStepError, match="the roll 3-1 has no 5 left for 13/8"):
        legal_steps(start, (3, 1), [Step(13, 8, 5)])
    with pytest.raises(IllegalStepError, match="the roll 3-1 has no 3 left for 13/10"):
        legal_steps(start, (3, 1), [Step(8, 5, 3), Step(13, 10, 3)])
    with pytest.raises(IllegalStepError, match="13/12 is not a legal step with a 1"):  # blocked
        legal_steps(start, (3, 1), [Step(8, 5, 3), Step(13, 12, 1)])
    with pytest.raises(IllegalStepError, match="9/6 is not a legal step with a 3"):
        legal_steps(start, (3, 1), [Step(9, 6, 3)])


def test_steps_so_far_hit_flag_is_decided_by_the_board():
    position = board("13:1 6:1", "10:1")
    with_flag = legal_steps(position, (3, 1), [Step(13, 10, 3, True)])
    assert legal_steps(position, (3, 1), [Step(13, 10, 3, False)]) == with_flag
    assert Step(10, 9, 1) in with_flag


def test_steps_that_strand_a_die_are_not_a_legal_beginning():
    # 5-2 against blocks on 6 and 9: only 13/8 3/1; 13/11 leaves the 5 unplayable
    position = board("13:1 3:1", "6:2 9:2")
    assert [p.notation for p in legal_plays(position, (5, 2))] == ["13/8 3/1"]
    assert legal_steps(position, (5, 2), [Step(3, 1, 2)]) == (Step(13, 8, 5),)
    with pytest.raises(IllegalStepError, match="13/11 cannot be completed to a legal play of 5-2"):
        legal_steps(position, (5, 2), [Step(13, 11, 2)])


def test_explain_wrong_distance_and_backwards():
    start = start_position()
    too_far = board("24:2 13:4 8:3 6:5 4:1", "1:2 12:5 17:3 19:5")
    assert explain(start, (3, 1), too_far) == "13/4 moves 9 pips: the roll 3-1 cannot play that"
    backwards = board("24:2 13:5 8:3 6:4 9:1", "1:2 12:5 17:3 19:5")
    assert explain(start, (3, 1), backwards) == "checkers move only towards home: one went backwards"
