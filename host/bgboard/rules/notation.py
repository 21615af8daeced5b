"""Reading plays written in standard (gnubg) notation: ``"13/7 8/7"``, ``"bar/22*"``,
``"6/off"``, ``"24/18(2)"``, ``"8/5*/1"``; ``25``/``bar`` and ``0``/``off`` both work.

Writing is :func:`bgboard.rules.format_play` (it needs no board).  Reading needs the
position and the dice: the text is played out on the board and the resulting position is
looked up among the legal plays, so any correct way of writing a play (``13/7 13/7`` or
``13/7(2)``, ``24/23/20`` or ``24/20``) gives the same :class:`Play`.
"""

from __future__ import annotations

import re
from typing import Sequence

from bgboard.errors import InputError, RuleError
from bgboard.rules.explain import explain
from bgboard.rules.legal import InvalidDiceError, cached_plays, check_dice
from bgboard.rules.play import Play
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
_PASS = {"", "pass", "no legal play", "no play", "dance", "cannot move"}


def _number(token: str, text: str) -> int:
    if token == "bar":
        return BAR
    if token == "off":
        return OFF
    value = int(token)
    if not 0 <= value <= BAR:
        raise NotationError(f"{text!r}: points are numbered 1 to 24 (25 = bar, 0 = off), not {value}")
    return value


def parse_moves(text: str) -> list[tuple[list[int], set[int]]]:
    """The moves of ``text``: for each checker moved, the points it visits and the points
    marked ``*``.  Raises :class:`NotationError` for text that is not notation."""
    moves: list[tuple[list[int], set[int]]] = []
    for token in text.lower().replace(",", " ").split():
        found = _MOVE.match(token)
        if not found:
            raise NotationError(f"{token!r} is not a move like '13/7', 'bar/22*', '6/off' or '24/18(2)'")
        count = int(found.group(2) or 1)
        if not 1 <= count <= 4:
            raise NotationError(f"{token!r}: a move is repeated 1 to 4 times, not {count}")
        points: list[int] = []
        stars: set[int] = set()
        for part in found.group(1).split("/"):
            point = _number(part.rstrip("*"), token)
            points.append(point)
            if part.endswith("*"):
                stars.add(point)
        if points[0] == OFF:
            raise NotationError(f"{token!r}: a move cannot start from off")
        if BAR in points[1:]:
            raise NotationError(f"{token!r}: a move cannot end on the bar")
        for a, b in zip(points, points[1:]):
            if b >= a:
                raise NotationError(f"{token!r}: checkers move from a higher point to a lower one")
            if a != points[0] and a == OFF:
                raise NotationError(f"{token!r}: nothing moves on after bearing off")
        moves += [(points, stars)] * count
    return moves


def play_out(text: str, position: Position) -> Position:
    """The position after the moves written in ``text`` (hits happen where a move ends on
    a blot or where ``*`` marks a point on the way).  Raises :class:`NotationError` or
    :class:`IllegalPlayError` when the text cannot be played on this board at all."""
    me = list(position.mine)
    th = list(position.theirs)
    for points, stars in parse_moves(text):
        if me[points[0]] <= 0:
            where = "on the bar" if points[0] == BAR else f"on point {points[0]}"
            raise IllegalPlayError(f"there is no checker of yours {where} to move")
        last = len(points) - 1
        for i in range(1, len(points)):
            a, b = points[i - 1], points[i]
            me[a] -= 1
            me[b] += 1
            if b != OFF:
                n = th[BAR - b]
                if n >= 2:
                    raise IllegalPlayError(f"point {b} is blocked")
                if n == 1 and (i == last or b in stars):
                    th[BAR - b] = 0
                    th[BAR] += 1
    return Position(tuple(me), tuple(th))


def parse_play(text: str, position: Position, dice: Sequence[int]) -> Play:
    """The legal :class:`Play` that ``text`` describes.

    ``"pass"`` (or an empty text) is accepted when there is no legal play and gives
    ``Play((), position)``.  Raises :class:`NotationError` for text that is not notation and
    :class:`IllegalPlayError` (with the reason from :func:`explain`) for an illegal play.
    """
    d1, d2 = check_dice(dice)
    plays = cached_plays(position, d1, d2)
    if text.strip().lower() in _PASS:
        if not plays:
            return Play((), position)
        raise IllegalPlayError(f"{d1}-{d2} can be played: you cannot pass")
    result = play_out(text, position)
    for play in plays:
        if play.position == result:
            return play
    reason = explain(position, (d1, d2), result) or f"that is not a play of {d1}-{d2}"
    raise IllegalPlayError(f"{text.strip()} is not legal: {reason}")


_DICE = re.compile(r"^\s*([1-6])\s*[-,/ ]?\s*([1-6])\s*$")


def parse_dice(text: str) -> tuple[int, int]:
    """``"31"``, ``"3-1"``, ``"3,1"``, ``"3/1"`` or ``"3 1"`` → ``(3, 1)``; raises
    :class:`~bgboard.rules.legal.InvalidDiceError` (one sentence) for anything else."""
    found = _DICE.match(text)
    if not found:
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6 such as 31 or 3-1, not {text!r}")
    return int(found.group(1)), int(found.group(2))
