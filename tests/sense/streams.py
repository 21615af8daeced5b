"""What a real player's hands make the sensors report while playing a roll (test helper).

:func:`hand_stream` turns one play into a timed list of sensor readings: one checker lifted
at a time (sometimes held while thinking), a hand passing over other places (brief
flicker), hits with the blot lifted to the bar before or after the hitting checker lands
(a brief "both colours" reading), stacks taller than the slots.  Randomness comes only from
the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from bgboard.rules import Position
from bgboard.rules.play import Play
from bgboard.rules.step import Step
from bgboard.sense.places import MIXED, WHITE, Observation, Slots, board_of, physical_point


@dataclass(frozen=True)
class Moment:
    """The sensors read ``codes`` for ``ms``; ``board`` is the true table (None while the
    reading is a transient: a hand over a place, both colours on a point); ``in_hand``:
    the place the mover's lifted checker came from, if one is held."""

    codes: tuple[int, ...]
    ms: int
    board: tuple[int, ...] | None
    in_hand: int | None = None


def _with(board: Sequence[int], place: int, delta: int) -> tuple[int, ...]:
    out = list(board)
    out[place - 1] += delta
    return tuple(out)


def hand_stream(
    start: Position, play: Play, mover: int, rng: random.Random, slots: Slots, settle_ms: int = 300
) -> list[Moment]:
    """Readings from the board before ``play`` to the board after it (see the module doc)."""
    sign = 1 if mover == WHITE else -1
    board = board_of(start, mover)
    out: list[Moment] = []

    def rest(b: tuple[int, ...], in_hand: int | None = None) -> None:
        ms = rng.choice((40, 120, settle_ms + 50, 900)) if in_hand is None else rng.choice((60, settle_ms + 200))
        out.append(Moment(Observation.of_board(b, slots).codes, ms, b, in_hand))

    def flicker(b: tuple[int, ...]) -> None:
        for _ in range(rng.randrange(3)):
            place = rng.randrange(1, 29)
            codes = list(Observation.of_board(b, slots).codes)
            codes[place - 1] = MIXED if codes[place - 1] and codes[place - 1] * sign < 0 else (
                codes[place - 1] + sign if abs(codes[place - 1]) < slots.capacity(place) else codes[place - 1]
            )
            out.append(Moment(tuple(codes), rng.randrange(10, settle_ms // 3), None))

    rest(board)
    steps = list(play.steps)
    if len(steps) == 2 and steps[1].frm == steps[0].to and steps[0].die != steps[1].die and rng.random() < 0.5:
        via = steps[0].frm - steps[1].die  # the same checker, stopping on the other point
        if via > 0 and start.theirs[25 - via] == 0 and not steps[0].hit:
            steps = [Step(steps[0].frm, via, steps[1].die), Step(via, steps[1].to, steps[0].die, steps[1].hit)]
    for step in steps:
        frm = physical_point(step.frm, mover)
        to = physical_point(step.to, mover)
        blot = step.to != 0 and board[to - 1] == -sign
        opp_bar = physical_point(25, 1 - mover)
        if blot and rng.random() < 0.5:  # lift the blot to the bar first
            board = _with(board, to, sign)
            rest(board)
            board = _with(board, opp_bar, -sign)
            rest(board)
            blot = False
        board = _with(board, frm, -sign)
        rest(board, in_hand=frm)
        flicker(board)
        if blot:  # put the checker on the blot, then lift the blot to the bar
            codes = list(Observation.of_board(board, slots).codes)
            codes[to - 1] = MIXED
            out.append(Moment(tuple(codes), rng.randrange(20, 200), None))
            board = _with(board, to, sign + sign)
            rest(board)  # the hit blot in the hand
            board = _with(board, opp_bar, -sign)
            rest(board)
        else:
            board = _with(board, to, sign)
            rest(board)
    out.append(Moment(Observation.of_board(board, slots).codes, 1000, board))
    assert board == board_of(play.position, mover), "the stream must end on the play's board"
    return out
