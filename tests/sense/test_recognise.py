"""Recognising plays over whole games, from the readings a real player's hands produce."""

from __future__ import annotations

import random

import pytest

from bgboard.rules import Position
from bgboard.rules.legal import legal_plays
from bgboard.rules.result import game_result
from bgboard.rules.starts import start_position
from bgboard.sense.places import BLACK, MIXED, WHITE, Observation, Slots, board_of, position_of, setup_guidance
from bgboard.sense.recognise import (
    Ambiguous,
    Miscount,
    Moving,
    Played,
    Takeback,
    Turn,
    Unchanged,
    setup_fixes,
    setup_message,
)
from bgboard.sense.settle import Settler
from tests.sense.streams import hand_stream


def _games(seed: int, games: int):
    """Yield (turn start position, mover colour, dice, chosen play, history) over games."""
    rng = random.Random(seed)
    for _ in range(games):
        position = start_position()
        mover = WHITE
        history: list[tuple[Position, int]] = []
        for _ in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            play = rng.choice(plays) if plays else None
            yield position, mover, dice, play, tuple(history), rng
            history.append((position, mover))
            after = play.position if play else position
            if game_result(after) is not None:
                break
            position, mover = after.swap(), 1 - mover


@pytest.mark.slow
@pytest.mark.parametrize("slots", [Slots(point=5, bar=3, tray=15), Slots(point=6, bar=4, tray=8)])
def test_every_legal_play_is_recognised_with_no_false_accept(slots: Slots) -> None:
    played = ambiguous = settled_seen = lift_ambiguous = hidden = 0
    for position, mover, dice, play, history, rng in _games(seed=7, games=9):
        turn = Turn(position, dice, mover, slots=slots, history=history)
        if play is None:
            assert turn.recognise(Observation.of_board(board_of(position, mover), slots)) == Unchanged(no_play=True)
            continue
        settler = Settler(settle_ms=300)
        now = 0
        final = board_of(play.position, mover)
        last_verdict = None
        for moment in hand_stream(position, play, mover, rng, slots):
            settler.feed(Observation(moment.codes), now)
            now += moment.ms
            settled = settler.poll(now)
            if settled is None:
                continue
            settled_seen += 1
            assert moment.board is not None, "a transient reading must never settle"
            verdict = turn.recognise(settled)
            last_verdict = verdict
            if isinstance(verdict, Played):  # zero false accepts: the table shows that play
                shown = board_of(verdict.play.position, mover)
                if shown != moment.board:
                    # only a checker lifted off a stack taller than its slots can hide: the
                    # sensors read the very same codes (the Done button settles it)
                    assert Observation.of_board(shown, slots) == settled
                    hidden += 1
            elif isinstance(verdict, Ambiguous):
                if moment.board not in {board_of(p.position, mover) for p in verdict.plays}:
                    assert Observation.of_board(board_of(verdict.plays[0].position, mover), slots) == settled
                    hidden += 1
            elif moment.board != final:
                assert isinstance(verdict, (Moving, Unchanged)), (verdict, dice, play.notation)
                if isinstance(verdict, Moving) and moment.in_hand is not None and verdict.lifted != moment.in_hand:
                    if verdict.lifted is None:  # a stack taller than its slots hides one
                        assert any(r.colour == mover and not r.exact for r in settled.readings())
                        hidden += 1
                        continue
                    # the same reading as another checker lifted after a step: both must fit
                    back = list(moment.board)
                    back[verdict.lifted - 1] += 1 if mover == WHITE else -1
                    assert isinstance(turn.recognise(Observation.of_board(back, slots)), (Moving, Unchanged, Played))
                    lift_ambiguous += 1
        if isinstance(last_verdict, Played):
            assert last_verdict.play.position == play.position
            played += 1
        else:
            assert isinstance(last_verdict, Ambiguous), last_verdict
            assert play.position in {p.position for p in last_verdict.plays}
            ambiguous += 1
    assert played > 300 and settled_seen > 1000
    assert ambiguous < played / 10
    assert hidden < settled_seen / 25  # measured: about 2.5 % with 5- or 6-slot points


def test_a_lifted_checker_lights_its_legal_destinations() -> None:
    position = start_position()
    turn = Turn(position, (6, 5), WHITE)
    board = list(board_of(position, WHITE))
    board[24 - 1] -= 1  # white lifts a back checker
    verdict = turn.recognise(Observation.of_board(board))
    assert isinstance(verdict, Moving)
    assert verdict.lifted == 24 and verdict.steps == ()
    assert verdict.destinations == (18,)  # 24/19 is black's 6-point; 24/13 is two steps
    assert {(s.frm, s.to, s.die) for s in verdict.next_steps} == {(24, 18, 6)}


def test_black_moves_are_recognised_in_physical_numbering() -> None:
    position = start_position()  # black on roll: its 24-point is physical point 1
    turn = Turn(position, (3, 1), BLACK)
    board = list(board_of(position, BLACK))
    # black plays 8/5 6/5: physical 17/20 and 19/20
    board[17 - 1] += 1
    board[19 - 1] += 1
    board[20 - 1] -= 2
    verdict = turn.recognise(Observation.of_board(board))
    assert isinstance(verdict, Played) and verdict.play.notation == "8/5 6/5"


def test_an_earlier_position_is_a_takeback() -> None:
    start = start_position()
    first = legal_plays(start, (3, 1))[0]
    after = first.position.swap()  # black on roll
    turn = Turn(after, (6, 6), BLACK, history=[(start, WHITE)])
    verdict = turn.recognise(Observation.of_board(board_of(start, WHITE)))
    assert verdict == Takeback(1)


def test_missing_checkers_and_mixed_points_are_a_miscount() -> None:
    position = start_position()
    turn = Turn(position, (6, 5), WHITE)
    board = list(board_of(position, WHITE))
    board[6 - 1] -= 2  # two white checkers off the table
    verdict = turn.recognise(Observation.of_board(board))
    assert isinstance(verdict, Miscount)
    assert verdict.reason == "2 white checkers missing from the board"
    assert [str(f) for f in verdict.fixes] == ["point 6: 5 white (now 3 white)"]


def test_setup_guidance_lists_every_point_that_differs() -> None:
    start = start_position()
    board = [0] * 28
    board[24 - 1] = 2
    board[27 - 1] = 13  # white all in the tray but two; black in its tray
    board[28 - 1] = -15
    fixes = setup_fixes(Observation.of_board(board), start)
    assert [f.place for f in fixes] == [1, 6, 8, 12, 13, 17, 19, 27, 28]
    message = setup_message(fixes)  # each player's own numbering by default
    assert message.startswith("set up the board — white: put 5 on your 6-point (now empty), put 3 on your 8-point")
    assert "clear your tray (now 6 or more white); black: put 2 on your 24-point (now empty)" in message
    physical = setup_message(fixes, own=False)
    assert "black: put 2 on point 1 (now empty), put 5 on point 12 (now empty)" in physical
    assert physical.endswith("clear the black tray (now 6 or more black)")
    assert setup_message(setup_fixes(Observation.of_board(board_of(start, WHITE)), start)) == (
        "the board is set up: roll to start"
    )


def test_setup_guidance_addresses_the_player_whose_checkers_it_is_about() -> None:
    """Too many, too few, the other colour in the way and both colours at once: every
    instruction goes to the player who must move those checkers, named in that player's
    numbering (own) or the board's (physical)."""
    board = list(board_of(start_position(), WHITE))
    board[8 - 1] = 5  # white: two too many on its 8-point
    board[1 - 1] = -1  # black: one short on its 24-point
    board[2 - 1] = -1  # black: a checker where none belongs (its 23-point)
    board[6 - 1] = -1  # black on white's 6-point, which should hold 5 white
    fixes = setup_fixes(Observation.of_board(board), start_position())
    assert setup_guidance(fixes) == (
        "white: put 5 on your 6-point (now 1 black), leave 3 on your 8-point (now 5 white); "
        "black: put 2 on your 24-point (now 1 black), clear your 23-point (now 1 black), "
        "take yours off your 19-point (now 1 black)")
    assert setup_guidance(fixes, own=False) == (
        "white: put 5 on point 6 (now 1 black), leave 3 on point 8 (now 5 white); "
        "black: put 2 on point 1 (now 1 black), clear point 2 (now 1 black), take yours off point 6 (now 1 black)")
    mixed = Observation(tuple(MIXED if place == 13 else code for place, code in enumerate(Observation.of_board(
        board_of(start_position(), WHITE)).codes, start=1)))
    both = setup_guidance(setup_fixes(mixed, start_position()))
    assert both == "white: put 5 on your 13-point (now both colours); black: take yours off your 12-point (now both colours)"


def test_position_board_round_trip() -> None:
    for position, mover, *_ in _games(seed=11, games=2):
        assert position_of(board_of(position, mover), mover) == position


@pytest.mark.slow
def test_next_steps_by_look_up_agree_with_the_rules_engine() -> None:
    """The LED destinations come from the turn's index; the rules engine's legal_steps is
    the oracle: after every prefix of every chosen play, the same (from, to) steps."""
    from bgboard.rules.legal import legal_steps
    from bgboard.rules.step import apply_step

    checked = 0
    for position, mover, dice, play, history, rng in _games(seed=21, games=6):
        if play is None:
            continue
        turn = Turn(position, dice, mover)
        current = position
        for k in range(len(play.steps)):
            done = play.steps[:k]
            ours = {(s.frm, s.to) for s in turn._next_steps(done, current)}
            theirs = {(s.frm, s.to) for s in legal_steps(position, dice, done)}
            assert ours == theirs, (dice, play.notation, k)
            current = apply_step(current, play.steps[k])
            checked += 1
    assert checked > 500
