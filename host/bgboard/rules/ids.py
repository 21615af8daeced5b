"""Identifiers: gnubg's Position ID and Match ID, and eXtreme Gammon's XGID.

Position ID (gnubg manual, "A technical description of the Position ID and Match ID"):
for each side, from its 1-point to its 24-point then its bar, one ``1`` bit per checker
followed by a ``0``; 80 bits little-endian in 10 bytes; Base64 without padding, 14
characters.  The side encoded first is gnubg's ``board[0]`` — the player **not** on roll —
exactly as ``gnubg_nn.position_id`` and ``gnubg_nn.board_from_position_id`` do, so
``position_from_id(pid) == Position.from_gnubg(gnubg_nn.board_from_position_id(pid))``.
Checkers not on the board or the bar are borne off.
"""

from __future__ import annotations

import base64
import binascii

from bgboard.errors import InputError
from bgboard.rules.position import BAR, CHECKERS, OFF, InvalidPositionError, Position


class InvalidIdError(InputError):
    """A Position ID, Match ID or XGID that cannot be read (the message says why)."""


_B64 = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def _b64_bytes(text: str, chars: int, what: str) -> bytes:
    if len(text) != chars:
        raise InvalidIdError(f"a {what} has {chars} characters, {text!r} has {len(text)}")
    bad = sorted(set(text) - _B64)
    if bad:
        raise InvalidIdError(f"a {what} uses only letters, digits, '+' and '/', not {bad[0]!r}")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - alphabet checked above
        raise InvalidIdError(f"{text!r} is not a valid {what}") from exc


def position_id(position: Position) -> str:
    """gnubg Position ID of ``position`` (player on roll = gnubg's ``board[1]``)."""
    bits = 0
    n = 0
    for side in (position.theirs, position.mine):
        for index in range(1, BAR + 1):
            count = side[index]
            bits |= ((1 << count) - 1) << n
            n += count + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii").rstrip("=")


def position_from_id(text: str, checkers: int = CHECKERS) -> Position:
    """The position of a gnubg Position ID; ``checkers`` per side (15, fewer in Hypergammon).

    Raises :class:`InvalidIdError` naming what is wrong (length, characters, too many
    checkers, a point held by both sides).
    """
    text = text.strip()
    raw = _b64_bytes(text, 14, "Position ID")
    bits = int.from_bytes(raw, "little")
    sides: list[list[int]] = [[0] * 26, [0] * 26]
    side = index = 0
    count = 0
    for i in range(80):
        if bits >> i & 1:
            count += 1
            continue
        sides[side][index + 1] = count
        count = 0
        index += 1
        if index == 25:
            side += 1
            index = 0
            if side == 2:
                if bits >> (i + 1):
                    raise InvalidIdError(f"Position ID {text!r} has checkers beyond both sides' bars")
                break
    else:
        raise InvalidIdError(f"Position ID {text!r} holds more than 80 bits of checkers")
    theirs, mine = sides
    for who, counts in (("the player on roll", mine), ("the opponent", theirs)):
        total = sum(counts)
        if total > checkers:
            raise InvalidIdError(f"Position ID {text!r} gives {who} {total} checkers, more than {checkers}")
        counts[OFF] = checkers - total
    position = Position(tuple(mine), tuple(theirs))
    try:
        position.validate(checkers)
    except InvalidPositionError as exc:
        raise InvalidIdError(f"Position ID {text!r}: {exc}") from None
    return position
