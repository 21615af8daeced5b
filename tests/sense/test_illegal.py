"""Illegal attempts: every one gets the rules engine's explanation and what to put back."""

from __future__ import annotations

from bgboard import rules
from bgboard.rules import Position
from bgboard.sense.board import Observation, Slots, board_of
from bgboard.sense.recognise import Illegal, Turn
from tests.sense.test_recognise import _games


def _wrong_moves(position: Position, dice: tuple[int, int]):
    """Single-checker moves by a distance no dice combination gives (always illegal)."""
    sums = {dice[0], dice[1], dice[0] + dice[1]} if dice[0] != dice[1] else {dice[0] * k for k in range(1, 5)}
    for frm in range(1, 25):
        if not position.mine[frm] or position.mine[25]:
            continue
        for distance in range(1, 7):
            to = frm - distance
            if distance in sums or to < 1 or position.theirs[25 - to] >= 1:
                continue
            mine = list(position.mine)
            mine[frm] -= 1
            mine[to] += 1
            yield Position(tuple(mine), position.theirs)


def test_every_illegal_attempt_gets_the_engines_explanation_and_the_fix() -> None:
    slots = Slots(point=15, bar=15, tray=15)  # exact counts: the guessed board is the board
    checked = 0
    for position, mover, dice, play, history, rng in _games(seed=3, games=3):
        turn = Turn(position, dice, mover, slots=slots)
        for result in _wrong_moves(position, dice):
            board = board_of(result, mover)
            if board in {board_of(p, c) for p, c in history}:
                continue
            verdict = turn.recognise(Observation.of_board(board, slots))
            assert isinstance(verdict, Illegal), (verdict, dice)
            assert verdict.reason == rules.explain(position, dice, result)
            # putting back what the fixes say restores the position before the roll
            fixed = list(board)
            for fix in verdict.fixes:
                fixed[fix.place - 1] = fix.want
            assert tuple(fixed) == board_of(position, mover)
            assert len(verdict.fixes) == 2
            checked += 1
    assert checked > 100
