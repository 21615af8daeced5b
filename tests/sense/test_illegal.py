"""Illegal attempts: every one gets the rules engine's explanation and what to put back."""

from __future__ import annotations

import pytest

from bgboard import rules
from bgboard.rules import Position
from bgboard.sense.places import Observation, Slots, board_of
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


@pytest.mark.slow
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


def _apply_put_back(board: tuple[int, ...], listed: str, player: int | None) -> list[int]:
    """Carry out a short put-back list ("8→13, clear 4") on a physical board."""
    from bgboard.sense.places import BLACK_BAR, BLACK_OFF, WHITE_BAR, WHITE_OFF

    def place(name: str, colour: int) -> int:
        if name == "bar":
            return WHITE_BAR if colour == 0 else BLACK_BAR
        if name == "off":
            return WHITE_OFF if colour == 0 else BLACK_OFF
        n = int(name)
        return 25 - n if player == 1 else n

    out = list(board)
    for part in listed.split(", "):
        assert "→" in part, f"{part!r}: an illegal single-checker move is undone by moves alone"
        move, _, times = part.partition(" ×")
        frm, to = move.split("→")
        n = int(times or 1)
        sign = 1 if frm in ("bar", "off") or out[place(frm, 0) - 1] > 0 else -1
        colour = 0 if sign > 0 else 1
        out[place(frm, colour) - 1] -= sign * n
        out[place(to, colour) - 1] += sign * n
    return out


@pytest.mark.slow
def test_the_short_put_back_list_undoes_every_illegal_attempt_in_both_numberings() -> None:
    from bgboard.sense.places import put_back

    slots = Slots(point=15, bar=15, tray=15)
    checked = 0
    for position, mover, dice, play, history, rng in _games(seed=3, games=2):
        turn = Turn(position, dice, mover, slots=slots)
        for result in _wrong_moves(position, dice):
            board = board_of(result, mover)
            if board in {board_of(p, c) for p, c in history}:
                continue
            verdict = turn.recognise(Observation.of_board(board, slots))
            assert isinstance(verdict, Illegal)
            for numbering in (None, mover):
                long, short = put_back(verdict.fixes, numbering)
                assert long == f"put back: {short}"
                assert _apply_put_back(board, short, numbering) == list(board_of(position, mover))
            checked += 1
    assert checked > 50


def test_put_back_names_clears_and_leftovers() -> None:
    from bgboard.sense.places import BLACK_BAR, Fix, Reading, put_back

    # a white checker hit a black blot on 4 from 8: both go back
    fixes = [Fix(4, -1, Reading(0, 1, 1)), Fix(8, 3, Reading(0, 2, 2)), Fix(BLACK_BAR, 0, Reading(1, 1, 1))]
    assert put_back(fixes) == ("put back: 4→8, bar→4", "4→8, bar→4")
    # black's own numbering: physical 4 is black's 21
    assert put_back(fixes, 1)[1] == "21→17, bar→21"
    # a stray checker nobody misses, a missing one, a stack the sensors cannot count
    assert put_back([Fix(4, 0, Reading(0, 1, 1))])[1] == "clear 4"
    assert put_back([Fix(6, 5, Reading(0, 4, 4))])[1] == "6 +1"
    assert put_back([Fix(6, 5, Reading(0, 6, 15))])[1] == "check 6"
    assert put_back([]) == ()
