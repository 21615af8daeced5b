"""Simulated players (pure): what a person at the board does on each turn, in every game.

Every decision is a deterministic function of ``(seed, game, turn, purpose)`` - never of
how the run got there - so a match interrupted and resumed from the journal ends exactly as
an uninterrupted one.  A player

* picks a legal play (:func:`choose_play`) and lays it out as physical moves, one checker at
  a time (:mod:`bgboard.sim.checker_moves`); a hit first moves the opponent's blot to the bar;
* doubles, takes and drops by a simple pip-count rule with a seeded coin;
* at ``illegal_rate`` first tries a wrong play (:func:`wrong_play`) that the host refuses
  with a reason, and then corrects it.

How a person plays a game - the play heuristic and the wrong plays a learner tries - is the
game's :class:`Habits`, found from its registry entry by :func:`habits_of` as the host's one
reading of a roll is (:class:`bgboard.sense.roll.RollReading`): backgammon's starts
(:class:`~bgboard.sim.backgammon_habits.BackgammonHabits`) and the seed games
(:class:`~bgboard.sim.tavli_habits.TavliHabits`).  No caller picks between them.
"""

from __future__ import annotations

import random
from typing import Protocol

from bgboard.rules import Position
from bgboard.rules.board import Board
from bgboard.rules.game import Game
from bgboard.rules.play import Play
from bgboard.sim.backgammon_habits import BackgammonHabits
from bgboard.sim.checker_moves import Attempt, Move, moves_of, variant_moves
from bgboard.sim.tavli_habits import TavliHabits

__all__ = ["Attempt", "Habits", "Move", "choose_play", "dice_for", "habits_of", "moves_of", "rng_for", "takes",
           "variant_moves", "wants_double", "wrong_play"]


def rng_for(seed: int, game: int, turn: int, purpose: str) -> random.Random:
    """The random source of one decision (string seeds hash with SHA-512: stable)."""
    return random.Random(f"bgboard-sim:{seed}:{game}:{turn}:{purpose}")


def dice_for(seed: int, game: int, turn: int) -> tuple[int, int]:
    """The dice of one turn (turn 0 of a game is the opening roll: never a double)."""
    rng = rng_for(seed, game, turn, "dice")
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if turn > 0 or d1 != d2:
            return d1, d2


class Habits(Protocol):
    """How a simulated person plays one kind of game: the play it prefers and the wrong play
    a learner tries first (each with the decision's random source)."""

    def choose(self, game: Game, board: Board, dice: tuple[int, int],
               rng: random.Random) -> Play[Position] | Play[Board] | None: ...

    def wrong_play(self, game: Game, board: Board, dice: tuple[int, int], colour: int, rng: random.Random,
                   capacity: int) -> Attempt | None: ...


_BACKGAMMON, _TAVLI = BackgammonHabits(), TavliHabits()


def habits_of(game: Game) -> Habits:
    """The habits of a person playing ``game``, from its registry entry: the one place the
    simulator tells backgammon's starts (played and refused on backgammon's Position, their
    rolls read by the position look-up) from the seed games (played on a Board with pins and
    a reserve, read board by board) - the same fact :class:`bgboard.sense.roll.RollReading`
    reads its roll by."""
    return _TAVLI if game.seed else _BACKGAMMON


def choose_play(game: Game, board: Board, dice: tuple[int, int], seed: int, number: int,
                turn: int) -> Play[Position] | Play[Board] | None:
    """The legal play this player makes in game ``number`` (a ``game`` of the registry) from
    ``board`` (the player on roll moves), or ``None`` when there is none (a pass): the game's
    habits (:func:`habits_of`) with a seeded tie-break."""
    return habits_of(game).choose(game, board, dice, rng_for(seed, number, turn, "play"))


def wrong_play(game: Game, board: Board, dice: tuple[int, int], colour: int, seed: int, number: int, turn: int,
               rate: float, capacity: int = 5) -> Attempt | None:
    """At ``rate``, a wrong play of ``game`` a learner tries first from ``board`` (the mover
    of ``colour`` on roll), one the host refuses with the ``reason``; ``capacity`` the
    checkers a point's sensor slots count.  None at the rate's coin or when the game's habits
    (:func:`habits_of`) find no such play."""
    rng = rng_for(seed, number, turn, "illegal")
    if rate <= 0 or rng.random() >= rate:
        return None
    return habits_of(game).wrong_play(game, board, dice, colour, rng, capacity)


def wants_double(position: Position, seed: int, game: int, turn: int) -> bool:
    """Offer the cube when clearly ahead in the race (and a seeded coin agrees)."""
    mine, theirs = position.pips()
    rng = rng_for(seed, game, turn, "double")
    return mine + 8 < theirs * 0.92 and rng.random() < 0.6


def takes(position: Position, seed: int, game: int, turn: int) -> bool:
    """Answer a double (``position`` seen by the taker): take unless far behind."""
    mine, theirs = position.pips()
    rng = rng_for(seed, game, turn, "take")
    return mine <= theirs * 1.18 or rng.random() < 0.15
