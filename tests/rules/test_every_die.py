"""The legality fast path of one given play (``every_die_play``) against the full generator
(``legal_plays``): whatever it accepts is a legal play with the same resulting position; it
accepts every legal play of every die given in the generator's order; it decides nothing
about plays of fewer dice (the most-dice and larger-die rules need every play).  And the
match state machine gives the same verdict (and the same board) on random plays, legal
and illegal, as the full check: every step moves one checker by one die, and the resulting
position is one of every legal play's."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.match import IllegalPlayError, Move, StartMatch, apply
from bgboard.match.state import PLAY
from bgboard.rules import BAR, OFF, Position, apply_step, legal_plays
from bgboard.rules.legal import every_die_play
from bgboard.rules.step import Step
from tests.rules.test_properties import dice, positions


def physical(position: Position, steps: list[tuple[int, int]]) -> Position | None:
    """The position after moving the checkers as given (None when a step is not even a
    forward move of one of my checkers onto an open point)."""
    for frm, to in steps:
        if not (1 <= frm <= BAR and 0 <= to < frm) or not position.mine[frm]:
            return None
        if to != OFF and position.theirs[BAR - to] > 1:
            return None
        position = apply_step(position, Step(frm, to, frm - to))
    return position


@st.composite
def plays_to_try(draw, position: Position, roll: tuple[int, int]) -> list[tuple[int, int]]:
    """A play to judge: a legal one, one in another order, one with a step changed, or steps
    made up by moving random checkers by the roll's dice (legal or not: blocked points,
    bearing off too early or from the wrong point, checkers left on the bar)."""
    plays = legal_plays(position, roll)
    kind = draw(st.sampled_from(["legal", "shuffled", "changed", "made up", "made up"] if plays else ["made up"]))
    if kind == "made up":  # a walk: each die of the roll (in a random order) moves a random checker
        every = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
        order = draw(st.permutations(every))[: draw(st.integers(1, len(every)))]
        steps = []
        current = position
        for die in order:
            occupied = [p for p in range(1, BAR + 1) if current.mine[p]]
            if not occupied:
                break
            frm = draw(st.sampled_from(occupied))
            to = max(0, frm - die) if draw(st.integers(0, 5)) else draw(st.integers(0, frm - 1))
            steps.append((frm, to))
            if to == OFF or current.theirs[BAR - to] < 2:
                current = apply_step(current, Step(frm, to, frm - to))
        return steps
    play = draw(st.sampled_from(plays))
    steps = [(s.frm, s.to) for s in play.steps]
    if kind == "shuffled":
        steps = draw(st.permutations(steps))
    elif kind == "changed":
        i = draw(st.integers(0, len(steps) - 1))
        frm, to = steps[i]
        steps[i] = draw(st.sampled_from([(frm, max(0, to - 1)), (frm, min(frm - 1, to + 1)), (frm - 1, to), (to, max(0, to - 1))]))
        if draw(st.booleans()):
            steps = steps[:-1]
    return list(steps)


@settings(max_examples=400, deadline=None)
@given(positions(), dice, st.data())
def test_what_the_fast_path_accepts_is_legal_with_the_same_result(position, roll, data):
    steps = data.draw(plays_to_try(position, roll))
    fast = every_die_play(position, roll, steps)
    if fast is None:
        return
    assert len(steps) == (4 if roll[0] == roll[1] else 2)  # it decides only plays of every die
    assert fast == physical(position, steps)
    assert fast in {p.position for p in legal_plays(position, roll)}


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_every_legal_play_of_every_die_is_accepted_by_the_fast_path(position, roll):
    every = 4 if roll[0] == roll[1] else 2
    for play in legal_plays(position, roll):
        steps = [(s.frm, s.to) for s in play.steps]
        got = every_die_play(position, roll, steps)
        if len(steps) == every:
            assert got == play.position
        else:
            assert got is None  # fewer dice: only the generator knows whether that is all


def test_a_play_of_one_die_is_left_to_the_generator() -> None:
    # 6-5 with one checker left, on the 24-point; the 13- and 19-points blocked: only the 6
    # can be played (24/18, and 18/13 is blocked); the fast path leaves that to the generator
    mine = [0] * 26
    mine[24], mine[OFF] = 1, 14
    theirs = [0] * 26
    theirs[BAR - 13], theirs[BAR - 19], theirs[OFF] = 2, 2, 11  # my 13 and 19 blocked
    position = Position(tuple(mine), tuple(theirs))
    plays = legal_plays(position, (6, 5))
    assert [[(s.frm, s.to) for s in p.steps] for p in plays] == [[(24, 18)]]  # the 6 only
    assert every_die_play(position, (6, 5), [(24, 18)]) is None
    assert every_die_play(position, (6, 5), [(24, 18), (18, 13)]) is None  # 13 is blocked


def _state_at(position: Position, roll: tuple[int, int]):
    """A match state with player 0 on roll holding ``roll`` in ``position``."""
    s = apply(None, StartMatch(length=1, players=("Ann", "Bob")))
    return replace(s, phase=PLAY, turn=0, dice=roll, board=(position.mine, position.theirs), checkers=sum(position.mine))


@settings(max_examples=400, deadline=None)
@given(positions(), dice, st.data())
def test_the_match_accepts_a_move_iff_its_result_is_a_legal_play(position, roll, data):
    steps = data.draw(plays_to_try(position, roll))
    legal = {p.position for p in legal_plays(position, roll)}
    # the full check: each step moves one checker by one die, and the result is a legal play's
    by_dice = all(frm - to in roll or (to == OFF and 0 < frm - to <= max(roll)) for frm, to in steps)
    after = physical(position, steps) if by_dice else None
    try:
        state = apply(_state_at(position, roll), Move(tuple(steps)))
    except IllegalPlayError:
        assert after is None or after not in legal
        return
    assert after is not None and after in legal
    assert state.board[0] == after.mine and state.board[1] == after.theirs


@pytest.mark.parametrize("steps", [[(24, 18), (13, 8)], [(13, 8), (24, 18)]])
def test_the_opening_six_five_is_legal_in_either_order(steps) -> None:
    from bgboard.rules import start_position

    position = start_position("standard")
    got = every_die_play(position, (6, 5), steps)
    assert got is not None and got == physical(position, steps)
    assert got in {p.position for p in legal_plays(position, (6, 5))}
    assert every_die_play(position, (6, 5), [(24, 18), (18, 13)]) is not None  # one checker runs
    assert every_die_play(position, (6, 5), [(24, 19), (24, 18)]) is None  # their 6-point blocks my 19
    assert every_die_play(position, (6, 5), [(24, 18), (18, 12)]) is None  # two sixes of a 6-5
    assert every_die_play(position, (6, 5), [(13, 7), (13, 7)]) is None

