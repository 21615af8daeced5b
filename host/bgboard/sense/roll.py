"""The reading of one roll on the board, for every game of the registry (pure code).

:class:`RollReading` is the one thing a caller builds to read a roll: it takes the game's
entry from :data:`bgboard.rules.games.GAMES` (its rules, pins, direction, start) and the
board before the roll, and answers every settled reading with the one set of verdicts of
:mod:`bgboard.sense.recognise`.  How the readings are compared is the game's business, not
the caller's: backgammon's starts are read by the position look-up of
:class:`bgboard.sense.recognise.Turn` (their fast generator, takebacks, condoning), the
seed games by the board reading with pins of :class:`bgboard.sense.tavli.VariantTurn`.
No caller picks between them (python-chess: one ``Board`` API whichever variant).

Usage::

    turn = RollReading(GAMES["plakoto"], board, WHITE, (3, 1), slot_map=grid)
    turn.recognise(read_board(grid, states))     # Unchanged / Played / Moving / Illegal ...
"""

from __future__ import annotations

from typing import Sequence

from bgboard.rules.board import Board
from bgboard.rules.game import Game
from bgboard.rules.position import Position
from bgboard.sense.places import Observation, Slots
from bgboard.sense.recognise import RollReader, Turn, Verdict
from bgboard.sense.slots import SlotMap
from bgboard.sense.tavli import VariantTurn


class RollReading:
    """One roll of ``game`` being played on the board: ``board`` before the roll seen by
    ``on_roll`` (0 white, 1 black), the ``dice``; ``checkers`` each side's (the game's by
    default); ``slots``/``slot_map`` the board's grid; ``history`` the positions at the
    start of earlier turns with the colour on roll then (takebacks, where the game has
    them).  Meets :class:`bgboard.sense.recognise.RollReader`."""

    def __init__(
        self,
        game: Game,
        board: Board,
        on_roll: int,
        dice: tuple[int, int],
        *,
        checkers: int | None = None,
        slots: Slots = Slots(),
        slot_map: SlotMap | None = None,
        history: Sequence[tuple[Position, int]] = (),
    ) -> None:
        self.game = game
        self.dice = dice
        # the one place that knows how a game's board is compared (the module docstring)
        self._by: RollReader = (
            VariantTurn(game, board, on_roll, dice, slots=slots, slot_map=slot_map)
            if game.seed
            else Turn(board.plain(), dice, on_roll, checkers=game.checkers if checkers is None else checkers,
                      slots=slots, history=history)
        )

    @staticmethod
    def takes_back(game: Game) -> bool:
        """Whether a reading in ``game`` may show a takeback (the board back at an earlier
        turn's start) and an illegal play may be condoned (a whole board guessed): the
        position look-up of backgammon's starts reads both, the seed games' board reading
        neither.  The controller asks this instead of the game's ``seed``."""
        return not game.seed

    @property
    def mover(self) -> int:
        """The colour on roll (0 white, 1 black)."""
        return self._by.mover

    def recognise(self, observation: Observation) -> Verdict:
        """The verdict on a settled reading (:data:`bgboard.sense.recognise.Verdict`)."""
        return self._by.recognise(observation)

    def guess(self, observation: Observation, checkers: int) -> tuple[int, ...] | None:
        """The whole board the reading most likely shows, for condoning (None where the
        game does not condone: only backgammon's starts guess)."""
        return self._by.guess(observation, checkers)


__all__ = ["RollReading"]
