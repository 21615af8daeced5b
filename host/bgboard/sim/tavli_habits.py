"""How a simulated person plays the seed games of the tavli family (pure): Plakoto, Fevga,
Anti Backgammon and Backgammon Race, played on a :class:`~bgboard.rules.board.Board` with
pins and a reserve, whose rolls the host reads board by board (with pins).

* The play: self-play's heuristic for the seed games
  (:func:`bgboard.match.selfplay.variant_score`: the registry's properties of the game) with
  the seeded tie-break of the random source it is given.
* The wrong play a learner tries first: one checker moved by a die's distance plus or minus
  one onto an empty point or its own, whose board the sensors tell from every legal play,
  every board on the way to one and the board before the roll; the host's reason for it is
  "the board shows no legal play".

:class:`TavliHabits` meets :class:`bgboard.sim.players.Habits`; the registry entry of the
game being played chooses it (:func:`bgboard.sim.players.habits_of`).
"""

from __future__ import annotations

import random
from itertools import product

from bgboard.rules.board import Board
from bgboard.rules.game import Game
from bgboard.rules.play import Play
from bgboard.sense.places import Slots
from bgboard.sense.tavli import Physical
from bgboard.sim.checker_moves import Attempt, Move, place_name

__all__ = ["TavliHabits"]


class TavliHabits:
    """A person at the board playing a seed game (the module docstring)."""

    def choose(self, game: Game, board: Board, dice: tuple[int, int], rng: random.Random) -> Play[Board] | None:
        """The play self-play's heuristic prefers among the game's own (None: a pass)."""
        from bgboard.match.selfplay import variant_score

        plays = game.plays(board, dice)
        if not plays:
            return None
        return max(plays, key=lambda p: variant_score(game, p.position, game.outcome(p.position)) + rng.random())

    def wrong_play(self, game: Game, board: Board, dice: tuple[int, int], colour: int, rng: random.Random,
                   capacity: int) -> Attempt | None:
        """A wrong play the host reads as no legal play of the roll (the module docstring):
        the host's reason for it (:meth:`bgboard.sense.tavli.VariantTurn.recognise`) is the
        ``reason``.  None when there is no such move."""
        from bgboard.sense.tavli import VariantTurn, physical
        from bgboard.sense.tavli import place_of as host_place

        legal = VariantTurn(game, board, colour, dice)
        if not legal.plays:
            return None
        slots = Slots(point=capacity)
        shapes = [physical(game.name, board, colour)] + [physical(game.name, p.position, colour) for p in legal.plays]
        shapes += [place for _, place in legal.partials().values()]
        candidates = _one_off(game, board, dice, capacity)
        rng.shuffle(candidates)
        for frm, to in candidates:
            after = list(board.mine)
            after[frm] -= 1
            after[to] += 1
            result = Board(tuple(after), board.theirs, board.pins, board.reserve)
            table = physical(game.name, result, colour)
            if any(_could_read_as(table, shape, slots) for shape in shapes):
                continue  # the host could take it for a legal board (or one with a checker in the hand)
            src, dst = (place_name(host_place(game.name, p, colour)) for p in (frm, to))
            d1, d2 = dice
            return Attempt((Move(src, dst),), result.plain(),
                           f"the board shows no legal play of {d1}-{d2} in {game.title}")
        return None


def _one_off(game: Game, board: Board, dice: tuple[int, int], capacity: int) -> list[tuple[int, int]]:
    """Each ``(from, to)`` of a free checker moved a die's distance plus or minus one onto an
    empty point or its own (still readable: below ``capacity``), before the shuffle."""
    mine, theirs = board.mine, board.theirs
    candidates: list[tuple[int, int]] = []
    for frm in range(24, 0, -1):
        if not mine[frm] or board.pins[0] >> frm & 1 or (mine[frm] == 1 and board.pins[1] >> game.opposite(frm) & 1):
            continue  # no checker, a pinned one (under the opponent's) or a lone pinner
        for die in sorted(set(dice)):
            for to in (frm - die - 1, frm - die + 1):
                if 1 <= to < frm and not theirs[game.opposite(to)] and mine[to] < capacity - 1:
                    candidates.append((frm, to))
    return candidates


def _could_read_as(table: Physical, shape: Physical, slots: Slots) -> bool:
    """True if the host could read the table ``table`` as the board ``shape`` (a legal one,
    or one with a checker in the hand).  A pin's spot reads dark in the field model, or now
    and then, under noise, one checker of the pinned colour (bgboard.sense.tavli): the host
    leaves that out on a point ``shape`` says is pinned, but where ``shape`` has no pin, a
    1-on-1 pin so read is the pinned checker alone — every such choice is tried."""
    from bgboard.sense.places import Observation
    from bgboard.sense.tavli import one_lifted

    seen = table.expected(slots)  # the pins' spots dark: the pinners but the first
    free = [(p, sign) for p, sign in table.pins if abs(table.counts[p - 1]) == 1 and p not in shape.pinned]
    for choice in product((False, True), repeat=len(free)):
        codes = list(seen.codes)
        for (p, sign), lit in zip(free, choice):
            if lit:
                codes[p - 1] = -sign
        reading = Observation(tuple(codes))
        if shape.fits(reading, slots) or one_lifted(shape.settled(reading, slots), shape.expected(slots)):
            return True
    return False
