"""The dice rules over any variant's single steps: every legal play of a roll.

Backgammon has its own fast generator (:mod:`bgboard.rules.legal`), which may try the
steps of a double highest point first because in backgammon points only open as a roll is
played.  In the variants that is not so (a Plakoto pin closes a point, Fevga's first
checker unlocks the others, the starting quarter may not fill), so this search tries the
steps in every order, de-duplicating boards level by level.  The dice rules are
backgammon's: as many dice as possible, the larger die when only one of two can be played;
a step that ends the game (Plakoto's mother checker, the last checker borne off) ends the
play at once and counts as a complete play (the game can end in the middle of a turn).
"""

from __future__ import annotations

from typing import Callable, Protocol

from bgboard.rules.board import Board
from bgboard.rules.play import Play
from bgboard.rules.step import Step

StepsFrom = Callable[[Board, int], list[tuple[Step, Board]]]
Ended = Callable[[Board], bool]


class StepRules(Protocol):
    """What the refusals (:mod:`bgboard.rules.refusal`) need of a game: its single steps,
    the sentence for a step it does not offer, its end and its dice-rule filter.
    :class:`bgboard.rules.game.Game` is one; the protocol lives here, below both, so
    that neither imports the other."""

    @property
    def hits(self) -> bool: ...
    @property
    def ends_mid_turn(self) -> bool: ...
    @property
    def prime_rule(self) -> str | None: ...
    @property
    def backgammon_moves(self) -> bool: ...
    @property
    def steps_from(self) -> StepsFrom: ...
    @property
    def why_not(self) -> Callable[[Board, int, int], str | None]: ...
    @property
    def outcome(self) -> Callable[[Board], tuple[str | None, str, int] | None]: ...
    @property
    def filter_plays(self) -> Callable[[list[Play[Board]]], list[Play[Board]]] | None: ...


def search(board: Board, dice: tuple[int, int], steps_from: StepsFrom, ended: Ended) -> list[Play[Board]]:
    """Every legal play of ``dice`` (checked by the caller) from ``board``: one
    :class:`~bgboard.rules.play.Play` per distinct resulting board, in the order first met."""
    d1, d2 = dice
    done: dict[Board, tuple[Step, ...]] = {}
    if d1 == d2:
        level: dict[Board, tuple[Step, ...]] = {board: ()}
        depth = 0
        for _ in range(4):
            deeper: dict[Board, tuple[Step, ...]] = {}
            for b, steps in level.items():
                for step, after in steps_from(b, d1):
                    if after in deeper or after in done:
                        continue
                    if ended(after):
                        done[after] = steps + (step,)
                    else:
                        deeper[after] = steps + (step,)
            if not deeper:
                break
            level = deeper
            depth += 1
        found = [Play(s, b, True) for b, s in done.items()]
        # The deepest boards that did not end the game are plays when they use every die, or
        # when no play ends the game (then they are the most dice that can be played); a board
        # one step short of a play that ends the game is not (it counts as complete).
        if depth and (depth == 4 or not done):
            found += [Play(s, b) for b, s in level.items()]
        return found
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    full: dict[Board, tuple[Step, ...]] = {}
    singles: dict[Board, tuple[Step, ...]] = {}
    for a, b in ((hi, lo), (lo, hi)):
        for step, after in steps_from(board, a):
            if ended(after):
                full.setdefault(after, (step,))
                continue
            more = steps_from(after, b)
            for step2, after2 in more:
                full.setdefault(after2, (step, step2))
            if not more:
                singles.setdefault(after, (step,))
    if full:
        return [Play(s, b, ended(b)) for b, s in full.items()]
    if any(s[0].die == hi for s in singles.values()):  # only one die: the larger if it can
        singles = {b: s for b, s in singles.items() if s[0].die == hi}
    return [Play(s, b) for b, s in singles.items()]
