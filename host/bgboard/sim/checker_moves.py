"""Checkers carried by the simulated players' hands (pure): a play's steps laid out as
physical moves, one checker at a time, in every game.

* :func:`moves_of`: backgammon's steps (``Step(frm, to, die, hit)``) for the mover of a
  colour; a hit first carries the opponent's blot to its bar.
* :func:`variant_moves`: any game's steps from its board, through the game's registry entry
  (Fevga's black on its own side of the table, Race's checkers entering from the tray, a
  Plakoto pin set on the single checker).
* :class:`Move` (one checker from a place to a place) and :class:`Attempt` (a wrong play a
  learner tries first, with the reason the host should give).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from bgboard.rules import BAR, Position
from bgboard.rules.board import Board
from bgboard.rules.game import Game
from bgboard.rules.step import Step
from bgboard.sim.layout import BAR_PLACES, OFF_PLACES, place_of

__all__ = ["Attempt", "Move", "moves_of", "place_name", "variant_moves"]


@dataclass(frozen=True, slots=True)
class Move:
    """One checker carried from ``src`` to ``dst`` (physical place names)."""

    src: str
    dst: str
    pin: bool = False  # a Plakoto pinner set on a single checker of the other colour


@dataclass(frozen=True, slots=True)
class Attempt:
    """A wrong play a learner tries first: its physical moves, the layout they leave and the
    reason the rules engine gives."""

    moves: tuple[Move, ...]
    result: Position
    reason: str


#: Place names of the host's place numbers 25..28.
_PLACE_NAMES = {25: BAR_PLACES[0], 26: BAR_PLACES[1], 27: OFF_PLACES[0], 28: OFF_PLACES[1]}


def place_name(place: int) -> str:
    """The physical place name of one of the host's place numbers (1..24, 25..28)."""
    return _PLACE_NAMES.get(place, str(place))


def moves_of(steps: Sequence[object], colour: int) -> tuple[Move, ...]:
    """Physical moves of a play's steps (``Step(frm, to, die, hit)``) for the mover of
    ``colour``; a hit first carries the opponent's blot to its bar."""
    out: list[Move] = []
    for step in steps:
        frm, to, hit = step.frm, step.to, step.hit  # type: ignore[attr-defined]
        if hit:
            out.append(Move(place_of(to, colour), BAR_PLACES[1 - colour]))
        out.append(Move(place_of(frm, colour), place_of(to, colour)))
    return tuple(out)


def variant_moves(game: Game, board: Board, steps: Sequence[Step], colour: int) -> tuple[Move, ...]:
    """Physical moves of a game's steps from ``board`` (the mover of ``colour`` on roll):
    Fevga's black on its own side of the table, Race's checkers entering from the tray, a
    hit (backgammon, Race, Anti) first carries the blot to its bar, a Plakoto pin sets the
    pinner on the single checker."""
    from bgboard.sense.tavli import place_of as host_place

    out: list[Move] = []
    for step in steps:
        after = next((a for st, a in game.steps_from(board, step.die) if st == step), None)
        if after is None:
            raise ValueError(f"{step} is not a step of {game.title} here")
        src = place_name(host_place(game.name, step.frm, colour, reserve=step.frm == BAR and not board.mine[BAR]))
        dst = place_name(host_place(game.name, step.to, colour))
        pinning = step.hit and game.pins
        if step.hit and not pinning:
            out.append(Move(dst, BAR_PLACES[1 - colour]))
        out.append(Move(src, dst, pin=pinning))
        board = after
    return tuple(out)
