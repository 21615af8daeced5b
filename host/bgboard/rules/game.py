"""A game bgboard plays, as one value: :class:`Game` (pure code).

Every game — backgammon with each of its starts and the tavli family's seed games — is a
:class:`Game` in the registry :mod:`bgboard.rules.games`; a game plays on a
:class:`~bgboard.rules.board.Board` (a :class:`~bgboard.rules.position.Position` with pins
and a reserve) and gives :class:`~bgboard.rules.play.Play` values.  Backgammon's games take
their plays from the fast generator (:mod:`bgboard.rules.legal`, ``fast_plays``), so its
inner loop never branches on a game; the seed games search over their single steps
(:func:`bgboard.rules.search.search`).  Why-not sentences: :mod:`bgboard.rules.refusal`,
which takes any :class:`~bgboard.rules.search.StepRules` (a protocol this class meets).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from bgboard.language import Phrase
from bgboard.rules.board import Board, board_text, parse_board, raise_problems
from bgboard.rules.legal import check_dice
from bgboard.rules.notation import IllegalPlayError, parse_moves
from bgboard.rules.play import Play
from bgboard.rules.position import BAR, CHECKERS, OFF
from bgboard.rules.refusal import hand_move, refuse_move, refuse_play
from bgboard.rules.search import search
from bgboard.rules.step import Step

#: How a game ended: ``(winner "mine"/"theirs" or None for a draw, kind, points)``.
Outcome = tuple[str | None, str, int]


@dataclass(frozen=True)
class Game:
    """One game of the registry (:mod:`bgboard.rules.games`): its start, single steps,
    plays, end and scoring, and what callers need to know instead of comparing names.

    ``cube``: whether the doubling cube is used (VARIANTS.md: not in Plakoto and Fevga).
    ``checkers``: each side's checkers; ``pins``: whether a checker can be pinned (Plakoto);
    ``seed``: a seed game of the tavli family, played on a :class:`Board` with its own
    generator (not backgammon's :class:`~bgboard.rules.position.Position` path);
    ``same_way``: both sides go the same way round (Fevga); ``bearing_off_wins``: False
    where whoever bears off first loses (Anti); ``mat_name``/``sgf_name``: its
    name in a .mat ``Variation`` and an SGF ``GM``/``RU`` record (None: backgammon's default);
    ``setup``: how the board is set up for it, in one line.
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
    checkers: int = CHECKERS
    pins: bool = False
    seed: bool = True
    same_way: bool = False
    bearing_off_wins: bool = True
    mat_name: str | None = None
    sgf_name: str | None = None
    setup: str = "Set up as for backgammon."
    hits: bool = False
    prime_rule: str | None = None
    ends_mid_turn: bool = True
    fast_plays: Callable[[Board, tuple[int, int]], list[Play[Board]]] | None = None
    filter_plays: Callable[[list[Play[Board]]], list[Play[Board]]] | None = None
    hints: bool = False
    engine_play: bool = False
    analysis: bool = False
    remote_play: bool = False

    # ----------------------------------------------------------------- plays
    def plays(self, board: Board, dice: Sequence[int]) -> tuple[Play[Board], ...]:
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
            found = [Play(p.steps, p.position, self.outcome(p.position) is not None) for p in found]
        if self.filter_plays is not None:
            found = self.filter_plays(found)
        return tuple(found)

    @property
    def backgammon_moves(self) -> bool:
        """Its plays are backgammon's own (backgammon's starts, Anti): refusals are
        backgammon's (:func:`bgboard.rules.explain.explain`)."""
        return self.fast_plays is not None

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
                raise IllegalPlayError(Phrase("%(move)s: %(reason)s", move=f"{_where(frm)}/{_where(to)}",
                                              reason=self._why(board, frm, to, left)))
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

    def parse_play(self, text: str, board: Board, dice: Sequence[int]) -> Play[Board]:
        """The legal play written ``text`` (gnubg notation; ``*`` marks a pin in Plakoto, a
        hit in Race and Anti) or ``pass``; raises :class:`IllegalPlayError` with a reason."""
        d = check_dice(dice)
        plays = self.plays(board, d)
        if text.strip().lower() in ("", "pass", "no legal play"):
            if not plays:
                return Play((), board)
            raise IllegalPlayError(Phrase("%(roll)s can be played: you cannot pass", roll=f"{d[0]}-{d[1]}"))
        pairs = [(a, b) for points, _ in parse_moves(text) for a, b in zip(points, points[1:])]
        result = self.play_steps(board, pairs, d)
        for play in plays:
            if play.position == result:
                return play
        raise IllegalPlayError(Phrase("%(play)s is not legal in %(game)s: %(reason)s", play=text.strip(),
                                      game=self.title, reason=self.explain(board, d, result)))

    def explain(self, board: Board, dice: Sequence[int], result: Board) -> str:
        """One sentence on why ``result`` is not a legal play of ``dice`` from ``board``."""
        d = check_dice(dice)
        plays = self.plays(board, d)
        if any(p.position == result for p in plays):
            return "it is legal"
        if not plays:
            return f"there is no legal play of {d[0]}-{d[1]}: the checkers must stay where they are"
        return refuse_play(self, board, d, result, plays)



def _never(board: Board) -> bool:
    return False


def _where(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


__all__ = ["Game", "Outcome"]
