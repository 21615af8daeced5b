"""The seed variants bgboard plays beyond backgammon's family: Plakoto, Fevga, Anti
Backgammon and Backgammon Race, each as a :class:`Game` (pure code).

Backgammon, Nackgammon and Hypergammon keep their :class:`~bgboard.rules.Position` and the
fast generator of :mod:`bgboard.rules.legal`; these games play on a
:class:`~bgboard.rules.board.Board` and each has its own single-step generator (one module
per family: :mod:`~bgboard.rules.plakoto`, :mod:`~bgboard.rules.fevga`,
:mod:`~bgboard.rules.race`), so backgammon's inner loop never branches on a variant.  The
dice rules over those steps are :func:`bgboard.rules.search.search`; Anti takes its plays
from backgammon's generator unchanged.

Usage::

    game = GAMES["plakoto"]
    plays = game.plays(game.start(), (3, 1))        # VariantPlay values
    game.outcome(plays[0].board)                     # None, or (winner, kind, points)
    game.parse_play("24/21 24/23", board, (3, 1))    # one VariantPlay, or IllegalPlayError
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from bgboard.errors import InputError
from bgboard.rules import fevga, plakoto, race
from bgboard.rules.board import Board, VariantPlay, board_text, parse_board, raise_problems
from bgboard.rules.legal import check_dice
from bgboard.rules.notation import IllegalPlayError, parse_moves
from bgboard.rules.refusal import hand_move, refuse_move, refuse_play
from bgboard.rules.position import BAR, CHECKERS, OFF
from bgboard.rules.search import search
from bgboard.rules.step import Step

Outcome = tuple[str | None, str, int]


@dataclass(frozen=True)
class Game:
    """One variant: its start, single steps, plays, end and scoring.

    ``cube``: whether the doubling cube is used (VARIANTS.md: not in Plakoto and Fevga).
    ``opposite(p)``: the opponent's index (in their own numbering) of my point ``p``.
    ``kinds``: the results a game can end with, lowest first.
    ``why_not(board, frm, die)``: the sentence naming the rule that forbids a single step
    ``steps_from`` does not offer (:mod:`bgboard.rules.refusal`); ``hits``: whether landing
    on a lone opposing checker sends it to the bar; ``prime_rule``: the sentence of the
    rule ``filter_plays`` applies.
    """

    name: str
    title: str
    cube: bool
    kinds: tuple[str, ...]
    start: Callable[[], Board]
    steps_from: Callable[[Board, int], list[tuple[Step, Board]]]
    outcome: Callable[[Board], Outcome | None]
    problems: Callable[[Board], list[str]]
    opposite: Callable[[int], int]
    why_not: Callable[[Board, int, int], str | None]
    hits: bool = False
    prime_rule: str | None = None
    ends_mid_turn: bool = True
    fast_plays: Callable[[Board, tuple[int, int]], list[VariantPlay]] | None = None
    filter_plays: Callable[[list[VariantPlay]], list[VariantPlay]] | None = None

    # ----------------------------------------------------------------- plays
    def plays(self, board: Board, dice: Sequence[int]) -> tuple[VariantPlay, ...]:
        """Every legal play of ``dice`` from ``board`` (the player on roll moves), one per
        distinct resulting board; empty when the player must pass or the game is over."""
        d = check_dice(dice)
        if self.outcome(board) is not None:
            return ()
        if self.fast_plays is not None:
            return tuple(self.fast_plays(board, d))
        ended = self._ended if self.ends_mid_turn else _never
        found = search(board, d, self.steps_from, ended)
        if not self.ends_mid_turn:
            found = [VariantPlay(p.steps, p.board, self.outcome(p.board) is not None) for p in found]
        if self.filter_plays is not None:
            found = self.filter_plays(found)
        return tuple(found)

    def _ended(self, board: Board) -> bool:
        return self.outcome(board) is not None

    def validate(self, board: Board) -> Board:
        """``board`` if it can occur in this game, else :class:`InvalidPositionError`."""
        raise_problems(self.problems(board))
        return board

    def parse_board(self, text: str) -> Board:
        """A board in the documented text form (``start`` for the start), validated."""
        if text.strip().lower() == "start":
            return self.start()
        return self.validate(parse_board(text))

    def board_text(self, board: Board) -> str:
        return board_text(board)

    # ----------------------------------------------------------------- playing out
    def play_steps(self, board: Board, pairs: Sequence[tuple[int, int]], dice: Sequence[int]) -> Board:
        """The board after moving checkers ``(from, to)`` (mover = ``mine``), each move made
        of one or more single steps of the dice left, as the rules allow each step; raises
        :class:`IllegalPlayError` saying which move cannot be made."""
        d = check_dice(dice)
        left = [d[0]] * 4 if d[0] == d[1] else [d[0], d[1]]
        done = self._moves(board, list(pairs), left)
        if done is not None:
            return done
        for frm, to in pairs:
            if self._walk(board, frm, to, left) is None:
                raise IllegalPlayError(f"{_where(frm)}/{_where(to)}: {self._why(board, frm, to, left)}")
        hand = board  # each move can be made alone, not all together: judge where they lead
        for frm, to in pairs:
            hand = hand_move(self, hand, frm, to)
        raise IllegalPlayError(self.explain(board, d, hand))

    def _moves(self, board: Board, pairs: list[tuple[int, int]], left: list[int]) -> Board | None:
        """The moves in some order in which every one can be made (as on a real board, the
        order written is not binding)."""
        if not pairs:
            return board
        for i, (frm, to) in enumerate(pairs):
            if (frm, to) in pairs[:i]:
                continue
            walked = self._walk(board, frm, to, left)
            if walked is not None:
                done = self._moves(walked[0], pairs[:i] + pairs[i + 1 :], walked[1])
                if done is not None:
                    return done
        return None

    def _walk(self, board: Board, frm: int, to: int, left: list[int]) -> tuple[Board, list[int]] | None:
        """One checker from ``frm`` to ``to`` by single steps of the dice ``left``."""
        for die in sorted(set(left), reverse=True):
            for step, after in self.steps_from(board, die):
                if step.frm != frm:
                    continue
                rest = left.copy()
                rest.remove(die)
                if step.to == to:
                    return after, rest
                if step.to != OFF and step.to > to and rest:
                    deeper = self._walk(after, step.to, to, rest)
                    if deeper is not None:
                        return deeper
        return None

    def steps_of(self, board: Board, pairs: Sequence[tuple[int, int]], dice: Sequence[int]) -> list[Step]:
        """The single steps of a recorded move (``(from, to)`` one die each, in the order
        played), with their pin/hit flags as the board decides; a pair that is not a step
        of the dice left stops the list there."""
        d = check_dice(dice)
        left = [d[0]] * 4 if d[0] == d[1] else [d[0], d[1]]
        out: list[Step] = []
        for frm, to in pairs:
            found = [
                (step, after)
                for die in sorted(set(left))
                for step, after in self.steps_from(board, die)
                if (step.frm, step.to) == (frm, to)
            ]
            if not found:
                break
            step, board = found[0]
            left.remove(step.die)
            out.append(step)
        return out

    def _why(self, board: Board, frm: int, to: int, left: list[int]) -> str:
        return refuse_move(self, board, frm, to, left)

    def parse_play(self, text: str, board: Board, dice: Sequence[int]) -> VariantPlay:
        """The legal play written ``text`` (gnubg notation; ``*`` marks a pin in Plakoto, a
        hit in Race and Anti) or ``pass``; raises :class:`IllegalPlayError` with a reason."""
        d = check_dice(dice)
        plays = self.plays(board, d)
        if text.strip().lower() in ("", "pass", "no legal play"):
            if not plays:
                return VariantPlay((), board)
            raise IllegalPlayError(f"{d[0]}-{d[1]} can be played: you cannot pass")
        pairs = [(a, b) for points, _ in parse_moves(text) for a, b in zip(points, points[1:])]
        result = self.play_steps(board, pairs, d)
        for play in plays:
            if play.board == result:
                return play
        raise IllegalPlayError(f"{text.strip()} is not legal in {self.title}: {self.explain(board, d, result)}")

    def explain(self, board: Board, dice: Sequence[int], result: Board) -> str:
        """One sentence on why ``result`` is not a legal play of ``dice`` from ``board``."""
        d = check_dice(dice)
        plays = self.plays(board, d)
        if any(p.board == result for p in plays):
            return "it is legal"
        if not plays:
            return f"there is no legal play of {d[0]}-{d[1]}: the checkers must stay where they are"
        return refuse_play(self, board, d, result, plays)


def _never(board: Board) -> bool:
    return False


def _where(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


GAMES: dict[str, Game] = {
    "plakoto": Game(
        name="plakoto",
        title="Plakoto",
        cube=False,
        kinds=("single", "gammon", "mother", "draw"),
        start=plakoto.start,
        steps_from=plakoto.steps_from,
        outcome=plakoto.outcome,
        problems=plakoto.problems,
        opposite=lambda p: BAR - p,
        why_not=plakoto.why_not,
    ),
    "fevga": Game(
        name="fevga",
        title="Fevga",
        cube=False,
        kinds=("single", "gammon"),
        start=fevga.start,
        steps_from=fevga.steps_from,
        outcome=fevga.outcome,
        problems=fevga.problems,
        opposite=fevga.theirs_at,
        filter_plays=fevga.open_primes,
        why_not=fevga.why_not,
        prime_rule=fevga.PRIME_RULE,
    ),
    "anti": Game(
        name="anti",
        title="Anti Backgammon",
        cube=True,
        kinds=("single",),
        start=race.anti_start,
        steps_from=race.anti_steps_from,
        outcome=race.anti_outcome,
        problems=race.anti_problems,
        opposite=lambda p: BAR - p,
        why_not=race.why_not,
        hits=True,
        ends_mid_turn=False,
        fast_plays=race.anti_plays,
    ),
    "race": Game(
        name="race",
        title="Backgammon Race",
        cube=True,
        kinds=("single", "gammon", "backgammon"),
        start=race.race_start,
        steps_from=race.race_steps_from,
        outcome=race.race_outcome,
        problems=race.race_problems,
        opposite=lambda p: BAR - p,
        why_not=race.why_not,
        hits=True,
        ends_mid_turn=False,
    ),
}

def _backgammon_outcome(board: Board) -> Outcome | None:
    from bgboard.rules.result import game_result

    r = game_result(board.position())
    return None if r is None else (r.winner, r.kind, r.points)


#: Backgammon itself as a :class:`Game` (tavli's Portes), for code that handles every game
#: of a tavli match alike (the variant simulator); not one of :data:`GAMES`, since the
#: match and the CLI play backgammon on its own Position.
BACKGAMMON = Game(
    name="standard",
    title="Portes",
    cube=True,
    kinds=("single", "gammon", "backgammon"),
    start=race.anti_start,
    steps_from=race.anti_steps_from,
    outcome=_backgammon_outcome,
    problems=race.anti_problems,
    opposite=lambda p: BAR - p,
    why_not=race.why_not,
    hits=True,
    ends_mid_turn=False,
    fast_plays=race.anti_plays,
)

#: The variant names of :data:`GAMES`.
GAME_NAMES: tuple[str, ...] = tuple(GAMES)


class UnknownGameError(InputError):
    """A variant name that is not one of :data:`GAMES`."""


def game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGameError(f"unknown variant {name!r}: choose one of {', '.join(GAMES)}") from None


__all__ = ["CHECKERS", "GAMES", "GAME_NAMES", "Game", "UnknownGameError", "game"]
