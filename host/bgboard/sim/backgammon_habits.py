"""How a simulated person plays backgammon's starts (pure): the games played on backgammon's
:class:`~bgboard.rules.position.Position` with its fast generator, whose rolls the host reads
by the position look-up and whose wrong plays backgammon's ``explain`` names.

* The play: a small heuristic (hits, made points, safe checkers, checkers home) over the
  legal plays, with the seeded tie-break of the random source it is given.
* The wrong play a learner tries first: a die played by the wrong distance, one die left
  unplayed where that die cannot start the play, a checker moved while one waits on the
  bar - always one that :func:`bgboard.rules.explain` rejects with a reason, never a legal
  first step (that is a play still in progress, not an illegal one).

:class:`BackgammonHabits` meets :class:`bgboard.sim.players.Habits`; the registry entry of
the game being played chooses it (:func:`bgboard.sim.players.habits_of`).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Sequence

from bgboard.rules import BAR, OFF, Position
from bgboard.rules.board import Board
from bgboard.rules.game import Game
from bgboard.rules.play import Play
from bgboard.sim.checker_moves import Attempt, Move, moves_of
from bgboard.sim.layout import Layout, place_of

__all__ = ["BackgammonHabits"]


class BackgammonHabits:
    """A person at the board playing one of backgammon's starts (the module docstring)."""

    def choose(self, game: Game, board: Board, dice: tuple[int, int], rng: random.Random) -> Play[Position] | None:
        """The play the heuristic prefers among the fast generator's (None: a pass)."""
        from bgboard.rules import legal_plays

        position = board.plain()
        found = legal_plays(position, dice)
        return max(found, key=lambda play: _score(position, play.position, rng)) if found else None

    def wrong_play(self, game: Game, board: Board, dice: tuple[int, int], colour: int, rng: random.Random,
                   capacity: int) -> Attempt | None:
        """A plausible wrong play that the rules engine rejects (None when there is none).

        None while the mover has a stack taller than a point's ``capacity`` (sensor slots),
        and never a checker put on a stack as tall as ``capacity``: the sensors cannot count
        such a stack exactly, so the board could also be a play in progress with a checker
        in the hand - the host rightly says "finish your play first" there, not why the
        play is illegal."""
        position = board.plain()
        if max(position.mine[1:25]) > capacity:
            return None
        from bgboard.rules import explain

        partial = _partial_results(position, dice)
        candidates = _wrong_moves(position, dice, colour)
        rng.shuffle(candidates)
        seen: set[Position] = set()
        start = Layout.from_position(position, colour)
        for moves in candidates:
            result = _apply_moves(position, moves, colour)
            if result is None or result in seen or result.problems():
                continue
            if any(start.at(m.dst)[1] >= capacity for m in moves):
                continue  # lands unseen on a tall stack
            if result in partial:
                continue  # part of a legal play: the player is still moving, not playing illegally
            seen.add(result)
            reason = explain(position, dice, result)
            if reason:
                return Attempt(moves, result, reason)
        return None


def _score(before: Position, after: Position, rng: random.Random) -> float:
    """Heuristic value of a play's result (before the sides swap) for the mover."""
    mine, theirs = after.mine, after.theirs
    hits = theirs[BAR] - before.theirs[BAR]
    made = sum(1 for p in range(1, 25) if mine[p] >= 2)
    blots = sum(1 for p in range(1, 25) if mine[p] == 1)
    home = sum(mine[p] for p in range(1, 7)) + 2 * mine[OFF]
    return 3.0 * hits + 1.0 * made - 1.2 * blots + 0.4 * home + rng.random()


def _wrong_moves(position: Position, dice: tuple[int, int], colour: int) -> list[tuple[Move, ...]]:
    """The wrong plays to try, before the shuffle: from the first legal plays, one die left
    unplayed and each die played one point short or long; with a checker on the bar, another
    checker moved by the first die."""
    from bgboard.rules import legal_plays

    candidates: list[tuple[Move, ...]] = []
    for play in legal_plays(position, dice)[:8]:
        steps = list(play.steps)
        # one die left unplayed
        if len(steps) >= 2:
            candidates.append(moves_of(steps[:1], colour))
        # a die played by the wrong distance
        for s in steps:
            for delta in (1, -1):
                to = s.to + delta if s.to != OFF else s.frm - s.die + delta
                if 1 <= to <= 24 and to != s.frm and to < s.frm:
                    candidates.append((Move(place_of(s.frm, colour), place_of(to, colour)),))
    if position.mine[BAR]:
        # move another checker while one waits on the bar
        for p in range(24, 0, -1):
            if position.mine[p]:
                to = p - dice[0]
                if 1 <= to and position.theirs[25 - to] == 0:
                    candidates.append((Move(place_of(p, colour), place_of(to, colour)),))
                    break
    return candidates


def _apply_moves(position: Position, moves: Sequence[Move], colour: int) -> Position | None:
    layout = Layout.from_position(position, colour)
    try:
        for m in moves:
            layout, c = layout.lift(m.src)
            layout = layout.put(m.dst, c)
    except ValueError:
        return None
    return layout.to_position(colour)


def _partial_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """Every position reached by some but not all steps of a legal play, the steps taken in
    any order (a player may enter from the bar last), and every position on the way by single
    legal steps, either die first: a board still being moved."""
    from bgboard.rules import legal_plays

    found: set[Position] = set()
    for play in legal_plays(position, dice):
        steps = play.steps
        for k in range(1, len(steps)):
            for chosen in combinations(steps, k):
                mine, theirs = list(position.mine), list(position.theirs)
                for st in chosen:
                    mine[st.frm] -= 1
                    mine[st.to] += 1
                    if st.to != OFF and theirs[25 - st.to] == 1:
                        theirs[25 - st.to] = 0
                        theirs[BAR] += 1
                if min(mine) >= 0:
                    found.add(Position(tuple(mine), tuple(theirs)))
    return found | _on_the_way(position, dice)


def _on_the_way(position: Position, dice: tuple[int, int]) -> set[Position]:
    """Every position on the way to a legal play by single legal steps, either die first."""
    from bgboard.rules import apply_step, legal_steps

    found: set[Position] = set()
    stack: list[tuple[Position, tuple[object, ...]]] = [(position, ())]
    while stack:
        here, done = stack.pop()
        for step in legal_steps(position, dice, done):  # type: ignore[arg-type]
            after = apply_step(here, step)
            nxt = (*done, step)
            if after not in found and legal_steps(position, dice, nxt):  # type: ignore[arg-type]
                found.add(after)
                stack.append((after, nxt))
    return found
