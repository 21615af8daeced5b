"""What the ``.mat`` reader gives (pure, frozen): an :class:`ImportedMatch` — its games
(:class:`MatGame`), each game's items (:class:`MatPlay`) with the match states around them,
and the :class:`MatProblem` s found, each with its line.  :func:`bgboard.match.mat_read.import_mat`
makes them; the analysis walks them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bgboard.match.actions import Action
from bgboard.match.state import MatchState
from bgboard.rules import Position

__all__ = ["ImportedMatch", "MatGame", "MatPlay", "MatProblem"]


@dataclass(frozen=True, slots=True)
class MatProblem:
    """Something in the file that is not as the rules or the file itself say; ``line`` is
    1-based (0: the file as a whole), ``game`` the file's game number (``None`` before the
    first game)."""

    line: int
    game: int | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "the file"
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class MatPlay:
    """One item of a game: ``kind`` is ``move``, ``pass``, ``roll`` (dice rolled and not
    played: before a resignation, or a problem), ``illegal`` (a play the rules forbid, kept
    as written), ``condone`` (Snowie's ``Illegal play (...)``), ``double``, ``take``,
    ``drop``, ``beaver`` or ``resign`` (``player`` resigns; ``level`` 1 a single, 2 a
    gammon, 3 a backgammon).
    ``position_id`` is the gnubg Position ID before the item from ``player``'s view;
    ``before``/``after`` are the match states around it (``after.board`` is the board the
    play left)."""

    line: int
    game: int
    player: int
    kind: str
    dice: tuple[int, int] | None
    text: str
    position_id: str
    steps: tuple[tuple[int, int], ...]
    level: int
    before: MatchState = field(repr=False, compare=False)
    after: MatchState = field(repr=False, compare=False)

    @property
    def result(self) -> Position:
        """The board the item left, from ``player``'s view (the mover still ``mine``)."""
        board = self.after.board
        return Position(board[self.player], board[1 - self.player])


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game as the file gives it: ``score`` is the header's score before it,
    ``winner``/``points``/``result`` ``None``/0/``None`` while it has no result."""

    number: int
    line: int
    players: tuple[str, str]
    score: tuple[int, int]
    crawford: bool
    plays: tuple[MatPlay, ...]
    winner: int | None
    points: int
    result: str | None


@dataclass(frozen=True, slots=True)
class ImportedMatch:
    """A ``.mat`` file as read by :func:`import_mat` (see the module docstring)."""

    length: int
    players: tuple[str, str]
    ratings: tuple[str | None, str | None]
    variant: str
    tags: tuple[tuple[str, str], ...]
    comments: tuple[str, ...]
    games: tuple[MatGame, ...]
    problems: tuple[MatProblem, ...]
    state: MatchState = field(repr=False, compare=False)
    actions: tuple[Action, ...] | None = field(repr=False, compare=False)

    @property
    def score(self) -> tuple[int, int]:
        """The score after the last game (its header's score plus its result)."""
        return self.state.score

    @property
    def finished(self) -> bool:
        """The match is decided (never for a money session)."""
        return bool(self.length) and max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        """The match's winner once it is decided."""
        if not self.finished:
            return None
        return 0 if self.score[0] >= self.length else 1

    def tag(self, key: str) -> str | None:
        """The value of header tag ``key`` (case-insensitive), or ``None``."""
        for k, value in self.tags:
            if k.lower() == key.lower():
                return value
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (no boards)."""
        return {
            "players": list(self.players),
            "ratings": list(self.ratings),
            "length": self.length,
            "variant": self.variant,
            "tags": {k: v for k, v in self.tags},
            "score": list(self.score),
            "finished": self.finished,
            "winner": self.winner,
            "games": [
                {
                    "number": g.number,
                    "line": g.line,
                    "score": list(g.score),
                    "crawford": g.crawford,
                    "winner": g.winner,
                    "points": g.points,
                    "result": g.result,
                    "plays": len(g.plays),
                }
                for g in self.games
            ],
            "problems": [{"line": p.line, "game": p.game, "message": p.message} for p in self.problems],
        }
