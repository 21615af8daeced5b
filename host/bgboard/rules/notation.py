"""The words of standard (gnubg) notation: moves ``"13/7 8/7"``, ``"bar/22*"``,
``"6/off"``, ``"24/18(2)"``, ``"8/5*/1"`` (``25``/``bar`` and ``0``/``off`` both work; FIBS'
``13-7`` and XG's ``Bar/22`` are normalised first), point numbers turned into the other
player's numbering, and dice.

Writing a play is :func:`bgboard.rules.format_play` (it needs no board).  Reading a play
needs the position and the dice: :func:`bgboard.rules.read_play`, the one reader of plays.
"""

from __future__ import annotations

import re

from bgboard.language import Joined, Phrase
from bgboard.errors import InputError, RuleError
from bgboard.rules.legal import InvalidDiceError
from bgboard.rules.position import BAR, OFF, Position


class NotationError(InputError):
    """Text that is not a play in standard notation."""


class IllegalPlayError(RuleError):
    """A play the rules do not allow (the message says why): the one error for it, raised by
    the rules engine and by the match (where it is a ``MatchRuleError`` of rule
    ``illegal-play``)."""

    def __init__(self, message: str) -> None:
        super().__init__("illegal-play", message)


_MOVE = re.compile(r"^((?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$")
PASS_WORDS = {"", "pass", "no legal play", "no play", "dance", "cannot move"}
# the other ways players write points and moves: FIBS' "13-7", "b" and "o", XG's "Bar" and
# "Off" (case is ignored), gnubg's spaces after commas
_FIBS = (re.compile(r"(?<=[\dbrfo*])-(?=[\dbo])"), re.compile(r"\bb(?=[/*]|$)"), re.compile(r"(?<=/)o\b"))


def _number(token: str, text: str) -> int:
    if token == "bar":
        return BAR
    if token == "off":
        return OFF
    value = int(token)
    if not 0 <= value <= BAR:
        raise NotationError(Phrase("%(text)s: points are numbered 1 to 24 (25 = bar, 0 = off), not %(value)d",
                                   text=repr(text), value=value))
    return value


def normalise(text: str) -> str:
    """``text`` in the one form :func:`parse_moves` reads: lower case, ``/`` between points,
    ``bar`` and ``off`` spelled out (``"Bar-22 13-7 6-o"`` → ``"bar/22 13/7 6/off"``)."""
    text = text.lower().replace(",", " ").replace(" and ", " ")
    dash, bar, off = _FIBS
    text = dash.sub("/", text)
    return off.sub("off", bar.sub("bar", text))


def parse_moves(text: str, flipped: bool = False) -> list[tuple[list[int], set[int]]]:
    """The moves of ``text``: for each checker moved, the points it visits and the points
    marked ``*``, in the mover's own numbering.  With ``flipped`` the text numbers the points
    as the other player does (point ``p`` is the mover's ``25 − p``; ``bar`` and ``off`` stay).
    Raises :class:`NotationError` for text that is not notation, quoting the text as written."""
    moves: list[tuple[list[int], set[int]]] = []
    for token in text.lower().replace(",", " ").split():
        found = _MOVE.match(token)
        if not found:
            raise NotationError(Phrase("%(text)s is not a move like '13/7', 'bar/22*', '6/off' or '24/18(2)'",
                                       text=repr(token)))
        count = int(found.group(2) or 1)
        if not 1 <= count <= 4:
            raise NotationError(Phrase("%(text)s: a move is repeated 1 to 4 times, not %(count)d", text=repr(token),
                                       count=count))
        points: list[int] = []
        stars: set[int] = set()
        for part in found.group(1).split("/"):
            point = _number(part.rstrip("*"), token)
            if flipped and 1 <= point <= 24:
                point = BAR - point
            points.append(point)
            if part.endswith("*"):
                stars.add(point)
        if points[0] == OFF:
            raise NotationError(Phrase("%(text)s: a move cannot start from off", text=repr(token)))
        if BAR in points[1:]:
            raise NotationError(Phrase("%(text)s: a move cannot end on the bar", text=repr(token)))
        for a, b in zip(points, points[1:]):
            if b >= a:
                if flipped:
                    raise NotationError(Phrase("%(text)s: checkers move from a lower point to a higher one",
                                               text=repr(token)))
                raise NotationError(Phrase("%(text)s: checkers move from a higher point to a lower one",
                                           text=repr(token)))
            if a != points[0] and a == OFF:
                raise NotationError(Phrase("%(text)s: nothing moves on after bearing off", text=repr(token)))
        moves += [(points, stars)] * count
    return moves


def play_out(text: str, position: Position, flipped: bool = False) -> Position:
    """The position after the moves written in ``text`` (hits happen where a move ends on
    a blot or where ``*`` marks a point on the way).  Raises :class:`NotationError` or
    :class:`IllegalPlayError` when the text cannot be played on this board at all."""
    me = list(position.mine)
    th = list(position.theirs)
    for points, stars in parse_moves(text, flipped):
        if me[points[0]] <= 0:
            if points[0] == BAR:
                raise IllegalPlayError(Phrase("there is no checker of yours on the bar to move"))
            raise IllegalPlayError(Phrase("there is no checker of yours on point %(point)d to move", point=points[0]))
        last = len(points) - 1
        for i in range(1, len(points)):
            a, b = points[i - 1], points[i]
            me[a] -= 1
            me[b] += 1
            if b != OFF:
                n = th[BAR - b]
                if n >= 2:
                    raise IllegalPlayError(Phrase("point %(point)d is blocked", point=b))
                if n == 1 and (i == last or b in stars):
                    th[BAR - b] = 0
                    th[BAR] += 1
    return Position(tuple(me), tuple(th))


# the forms point numbers take in bgboard's sentences: "point 8", "the 5-point",
# and notation such as "13/8", "bar/22", "6/off", "24/18*/13", "13/8(2)"
_POINT = re.compile(r"\b(point )(\d{1,2})\b")
_NAMED = re.compile(r"\b(\d{1,2})(-point)\b")
_NOTATION = re.compile(r"(?<![\w/])(?:bar|\d{1,2})(?:\*?/(?:\d{1,2}|off))+\*?")
_DIGITS = re.compile(r"\d{1,2}")


def _flip(n: str) -> str:
    value = int(n)
    return str(25 - value) if 1 <= value <= 24 else n


def flip_points(text: str) -> str:
    """``text`` with every point number ``p`` (1–24) turned into ``25 − p``: one player's
    numbering into the other's and back (the map is its own inverse).  Dice ("3-1"),
    counts ("2 white") and pip counts are left alone.  A :class:`~bgboard.language.Phrase`
    stays one (so it can still be said in the players' language): its point parameters
    (``point``, ``frm``, ``to``) and the notation in its texts are flipped."""
    if isinstance(text, Joined):
        return Joined(text.sep, (flip_points(part) for part in text.parts))
    if isinstance(text, Phrase):
        params = {k: (_flip_number(v) if k in _POINT_PARAMS else flip_points(v) if isinstance(v, str) else v)
                  for k, v in text.params.items()}
        flipped = text.with_params(params)
        if str(flipped) == _flip_text(str(text)):
            return flipped
    return _flip_text(text)


_POINT_PARAMS = frozenset({"point", "frm", "to"})


def _flip_number(value: object) -> object:
    return 25 - value if isinstance(value, int) and 1 <= value <= 24 else value


def _flip_text(text: str) -> str:
    text = _POINT.sub(lambda m: m.group(1) + _flip(m.group(2)), text)
    text = _NAMED.sub(lambda m: _flip(m.group(1)) + m.group(2), text)
    return _NOTATION.sub(lambda m: _DIGITS.sub(lambda n: _flip(n.group(0)), m.group(0)), text)


_DICE = re.compile(r"^\s*([1-6])\s*[-,/ ]?\s*([1-6])\s*$")


def parse_dice(text: str) -> tuple[int, int]:
    """``"31"``, ``"3-1"``, ``"3,1"``, ``"3/1"`` or ``"3 1"`` → ``(3, 1)``; raises
    :class:`~bgboard.rules.legal.InvalidDiceError` (one sentence) for anything else."""
    found = _DICE.match(text)
    if not found:
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6 such as 31 or 3-1, not {text!r}")
    return int(found.group(1)), int(found.group(2))
