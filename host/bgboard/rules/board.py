"""The board of every game of the registry (:mod:`bgboard.rules.games`): a backgammon
:class:`Position` with what the seed games add — Plakoto's pins and Race's unentered
checkers (Fevga's shared direction is the game's, not the board's) — so that code takes a
``Position`` everywhere and a ``Board`` where pins or a reserve matter.

A :class:`Board` is seen from the **player on roll** like a ``Position``: ``mine`` and
``theirs`` are 26-tuples from their owner's own view (index 0 off, 1..24 points, 25 bar).
Where the opponent's point ``q`` lies on my side of the board depends on the game: opposite
directions (Plakoto, Anti, Race) put it on my point ``25 - q``; in Fevga both sides go the
same way round and their point ``q`` is my point ``q - 12`` (``q + 12`` for ``q <= 12``).

``pins`` are bitmasks over the owner's point numbers: bit ``p`` of ``pins[0]`` set means my
single checker on my point ``p`` is pinned under the opponent's; ``pins[1]`` the same for
their checkers on their points.  A pin is a fact of the history (who landed last), so it is
kept, not inferred from the counts.  ``reserve`` counts Race checkers not yet entered; they
are not on the board, the bar or off.

The codec is a documented extension of gnubg's Position ID (docs/rules.md, "Writing a
variant position"): the ID of both sides' counts in their own numbering, then ``:pinned=``
or ``:reserve=`` fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from bgboard.rules.ids import InvalidIdError, position_counts, position_id
from bgboard.rules.position import BAR, CHECKERS, OFF, InvalidPositionError, Position


@dataclass(frozen=True, slots=True)
class Board(Position):
    """A :class:`Position` (checkers of the player on roll, ``mine``, and of the opponent,
    ``theirs``) with pins and unentered checkers; see the module docstring.  What must keep
    them is overridden (:meth:`swap`, :meth:`checkers`, :meth:`problems`)."""

    pins: tuple[int, int] = (0, 0)
    reserve: tuple[int, int] = (0, 0)

    def swap(self) -> "Board":
        """The same board seen by the other player."""
        return Board(self.theirs, self.mine, (self.pins[1], self.pins[0]), (self.reserve[1], self.reserve[0]))

    def checkers(self) -> tuple[int, int]:
        """Total checkers (board, bar, off and reserve) of ``(mine, theirs)``."""
        return sum(self.mine) + self.reserve[0], sum(self.theirs) + self.reserve[1]

    def problems(self, checkers: int | None = CHECKERS) -> list[str]:
        """The count problems every tavli game shares (the reserve counted; a point may hold
        both colours under a pin); each game's own rules add theirs."""
        return side_problems(self, CHECKERS if checkers is None else checkers)

    def pinned(self, side: int) -> tuple[int, ...]:
        """The points (in the owner's numbering) where ``side`` (0 mine, 1 theirs) has a
        pinned checker."""
        mask = self.pins[side]
        return tuple(p for p in range(1, 25) if mask >> p & 1)

    def plain(self) -> Position:
        """The backgammon :class:`Position` of the same counts (the reserve and pins are
        dropped): for Anti, and for Race once every checker has entered."""
        return Position(self.mine, self.theirs)

    @classmethod
    def of(cls, position: Position) -> "Board":
        return cls(position.mine, position.theirs)


# ------------------------------------------------------------------- the text form
def board_text(board: Board) -> str:
    """The documented text form: a gnubg Position ID of both sides' counts (each in its own
    numbering, the player on roll second as in gnubg), then ``:pinned=M/T`` (pinned
    checkers' points, each side in its own numbering, ``-`` for none) when there are pins
    and ``:reserve=M/T`` when checkers wait to enter."""
    text = position_id(board.plain())
    if board.pins != (0, 0):
        mine, theirs = (",".join(str(p) for p in board.pinned(s)) or "-" for s in (0, 1))
        text += f":pinned={mine}/{theirs}"
    if board.reserve != (0, 0):
        text += f":reserve={board.reserve[0]}/{board.reserve[1]}"
    return text


def _points(field: str, text: str) -> int:
    if field == "-":
        return 0
    mask = 0
    for part in field.split(","):
        if not part.isdigit() or not 1 <= int(part) <= 24:
            raise InvalidIdError(f"{text!r}: pinned points are numbers 1 to 24 separated by commas, or '-'")
        mask |= 1 << int(part)
    return mask


def parse_board(text: str, checkers: int = CHECKERS) -> Board:
    """The board written by :func:`board_text` (not yet checked against a game's rules:
    :meth:`bgboard.rules.games.Game.validate` does that).  Raises :class:`InvalidIdError`."""
    text = text.strip()
    head, *fields = text.split(":")
    mine, theirs = position_counts(head)
    pins = (0, 0)
    reserve = (0, 0)
    for field in fields:
        key, _, value = field.partition("=")
        pair = value.split("/")
        if key == "pinned" and len(pair) == 2:
            pins = (_points(pair[0], text), _points(pair[1], text))
        elif key == "reserve" and len(pair) == 2 and all(v.isdigit() for v in pair):
            reserve = (int(pair[0]), int(pair[1]))
        else:
            raise InvalidIdError(
                f"{text!r}: after the Position ID come ':pinned=M/T' or ':reserve=M/T' fields, not {field!r}"
            )
    for who, side, held in (("the player on roll", mine, reserve[0]), ("the opponent", theirs, reserve[1])):
        total = sum(side) + held
        if total > checkers:
            raise InvalidIdError(f"{text!r} gives {who} {total} checkers, more than {checkers}")
        side[OFF] = checkers - total
    return Board(tuple(mine), tuple(theirs), pins, reserve)


def borne_off_outcome(board: Board) -> tuple[str, str, int] | None:
    """The tavli games' ending by bearing off (Plakoto, Fevga): whoever has borne off all
    checkers wins 1, or 2 (a gammon) when the loser has borne off none; None while neither has."""
    for winner, side, loser in (("mine", board.mine, board.theirs), ("theirs", board.theirs, board.mine)):
        if side[OFF] == CHECKERS:
            return (winner, "single", 1) if loser[OFF] else (winner, "gammon", 2)
    return None


def side_problems(board: Board, checkers: int) -> list[str]:
    """Count problems common to every variant: whole non-negative numbers, ``checkers`` a side."""
    found: list[str] = []
    for who, side, held in (("the player on roll", board.mine, board.reserve[0]), ("the opponent", board.theirs, board.reserve[1])):
        if len(side) != 26:
            return [f"each side needs 26 counts (off, 24 points, bar); {who} has {len(side)}"]
        if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in (*side, held)):  # pyright: ignore[reportUnnecessaryIsInstance] - input from outside is checked at run time
            found.append(f"{who} has a count that is not a whole number of checkers")
        elif sum(side) + held != checkers:
            found.append(f"{checkers} checkers expected for {who}, {sum(side) + held} seen")
    return found


def raise_problems(found: Sequence[str]) -> None:
    if found:
        raise InvalidPositionError(found)


__all__ = ["BAR", "Board", "board_text", "parse_board"]
