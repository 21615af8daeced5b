"""The one reader of plays (``bgboard.rules.read_play``): every way players write a play,
checked against every legal play of random positions as our notation and gnubg's print it."""

from __future__ import annotations

import gnubg  # the engines' own printers: a test that needs them fails when they are missing
import gnubg_nn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.rules import (
    AmbiguousPlayError,
    IllegalPlayError,
    NotationError,
    Position,
    apply_step,
    flip_points,
    legal_plays,
    parse_position,
    position_id,
    read_play,
    start_position,
)
from bgboard.rules.notation import normalise

from .oracle import gnubg_board
from .test_properties import dice, positions

START = start_position()


def _gnubg_texts(position: Position, roll: tuple[int, int]) -> list[tuple[str, str]]:
    """(gnubg's text, the Position ID it leads to) for every play gnubg-nn lists."""
    board = gnubg_board(position)
    out = []
    for key, steps in gnubg_nn.moves(board, *roll, 1):
        flat = tuple(x for step in steps for x in step)
        after = gnubg_nn.position_id([list(x) for x in gnubg_nn.board_from_position_key(key)])
        out.append((gnubg.move_tuple_to_string(flat, board), after))
    return out


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(positions(), dice)
def test_every_legal_play_printed_by_us_or_by_gnubg_reads_back_as_that_play(position, roll):
    plays = legal_plays(position, roll)
    for play in plays:
        assert read_play(play.notation, position, roll).play == play
        # one checker at a time (the terminal's reading) comes to the same whole play
        assert read_play(play.notation, position, roll, whole=False).play == play
        # as the other side's display names it, in the other player's numbering
        assert read_play(flip_points(play.notation), position, roll, numberings=(True,)).play == play
        # its first checker alone, then the rest: the terminal's one line at a time
        if play.steps:
            first = read_play(str(play.steps[0]), position, roll, whole=False)
            assert first.position == apply_step(position, play.steps[0])
            if len(play.steps) > 1 and first.play is None:
                rest = " ".join(str(s) for s in play.steps[1:])
                assert read_play(rest, position, roll, first.steps, whole=False).position == play.position
    if not plays:
        return
    for text, after in _gnubg_texts(position, roll):
        play = read_play(text, position, roll).play
        assert play is not None and position_id(play.position) == after, text


@pytest.mark.parametrize(("text", "meant"), [
    ("13/10", "13/10"), ("13/11/10", "13/10"), ("13/11 11/10", "13/10"), ("13/12 12/10", "13/10"),
    ("24/21", "24/21"), ("24/23 13/11", "24/23 13/11"), ("13-11 24-23", "24/23 13/11"),
    ("24/22 6/5", "24/22 6/5"), ("13/11, 6/5", "13/11 6/5"), ("13/11 and 6/5", "13/11 6/5"),
])
def test_the_ways_players_write_a_two_one(text, meant):
    assert read_play(text, START, (2, 1)).notation == meant


def test_bar_off_zero_and_twenty_five_and_counted_moves():
    bar = parse_position("4HPwATDgc/ABMA")  # (start: no one on the bar)
    assert read_play("24/18(2) 13/7(2)", bar, (6, 6)).notation == "24/18(2) 13/7(2)"
    assert read_play("24/18 24/18 13/7 13/7", bar, (6, 6)).notation == "24/18(2) 13/7(2)"
    home = Position((0, 0, 0, 0, 0, 1, 1) + (0,) * 18 + (0,), (13,) + (0,) * 24 + (2,))
    for text in ("6/off 5/off", "6/0 5/0", "6/o 5/o", "6-off 5-off", "6/Off 5/Off"):
        assert read_play(text, home, (6, 5)).notation == "6/off 5/off"
    entering = Position((13,) + (0,) * 23 + (1, 1), (13, 0, 0, 1) + (0,) * 21 + (1,))
    plays = {p.notation for p in legal_plays(entering, (3, 1))}
    assert "bar/22* 24/23" in plays
    for text in ("bar/22* 24/23", "bar/22 24/23", "25/22 24/23", "b/22* 24/23", "Bar/22* 24/23", "bar-22 24-23"):
        assert read_play(text, entering, (3, 1)).notation == "bar/22* 24/23", text


def _black(points: dict[int, int]) -> tuple[int, ...]:
    counts = [points.get(i, 0) for i in range(26)]
    counts[0] = 15 - sum(counts)
    return tuple(counts)


def test_a_hit_on_the_way_is_read_as_written_and_an_unwritten_one_asked_about():
    # black blots on white's 11- and 12-points: 13/10 with 2-1 passes one of them
    both = Position(START.mine, _black({6: 5, 8: 3, 13: 1, 14: 1, 24: 2}))
    assert read_play("13/11*/10", both, (2, 1)).notation == "13/11*/10"
    assert read_play("13/12*/10", both, (2, 1)).notation == "13/12*/10"
    with pytest.raises(AmbiguousPlayError) as asked:
        read_play("13/10", both, (2, 1))
    assert asked.value.plays == ("13/11*/10", "13/12*/10")
    assert "'13/10' could be 13/11*/10 or 13/12*/10" in str(asked.value)
    # one blot: the unmarked text is the way round it, the hit is written with its star
    one = Position(START.mine, _black({6: 5, 8: 3, 14: 1, 24: 2}))
    assert read_play("13/10", one, (2, 1)).notation == "13/10"
    assert read_play("13/11*/10", one, (2, 1)).notation == "13/11*/10"


def test_either_numbering_and_errors_in_the_text_as_typed():
    # the other side's display names white's 13/10 "12/15"
    assert read_play("12/15", START, (2, 1), numberings=(True, False)).notation == "13/10"
    assert read_play("24/23 13/11", START, (2, 1), numberings=(True, False)).notation == "24/23 13/11"
    with pytest.raises(IllegalPlayError) as wrong:
        read_play("12/18", START, (2, 1), numberings=(True, False))
    assert "12/18" in str(wrong.value) and "13/7" not in str(wrong.value)
    with pytest.raises(NotationError, match="'10/13': checkers move from a higher point to a lower one"):
        read_play("10/13", START, (2, 1))


def test_a_part_of_a_play_is_read_one_checker_at_a_time():
    first = read_play("13/11", START, (2, 1), whole=False)
    assert first.play is None and first.notation == "13/11"
    second = read_play("11/10", START, (2, 1), first.steps, whole=False)
    assert second.play is not None and second.play.notation == "13/10"
    with pytest.raises(IllegalPlayError, match="not legal"):
        read_play("13/11", START, (2, 1))  # a whole play is asked for: one die is not one
    with pytest.raises(IllegalPlayError, match="13/7 is not legal"):
        read_play("13/7", START, (5, 4), whole=False)


def test_normalise():
    assert normalise("Bar-22 13-7 6-o B/20") == "bar/22 13/7 6/off bar/20"
