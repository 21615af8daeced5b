"""Identifiers: gnubg's Position ID and Match ID, and eXtreme Gammon's XGID.

Position ID (gnubg manual, "A technical description of the Position ID and Match ID"):
for each side, from its 1-point to its 24-point then its bar, one ``1`` bit per checker
followed by a ``0``; 80 bits little-endian in 10 bytes; Base64 without padding, 14
characters.  The side encoded first is gnubg's ``board[0]`` — the player **not** on roll —
exactly as ``gnubg_nn.position_id`` and ``gnubg_nn.board_from_position_id`` do, so
``position_from_id(pid) == Position.from_gnubg(gnubg_nn.board_from_position_id(pid))``.
Checkers not on the board or the bar are borne off.

Match ID: 9 bytes little-endian, Base64, 12 characters (bit layout in :class:`MatchId`).
XGID: ``XGID=position:cube:cubePos:turn:dice:scoreBottom:scoreTop:rules:length:maxCube``.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from bgboard.errors import InputError
from bgboard.rules.position import BAR, CHECKERS, OFF, InvalidPositionError, Position


class InvalidIdError(InputError):
    """A Position ID, Match ID or XGID that cannot be read (the message says why)."""


_B64 = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def b64_bytes(text: str, chars: int, what: str) -> bytes:
    if len(text) != chars:
        raise InvalidIdError(f"a {what} has {chars} characters, {text!r} has {len(text)}")
    bad = sorted(set(text) - _B64)
    if bad:
        raise InvalidIdError(f"a {what} uses only letters, digits, '+' and '/', not {bad[0]!r}")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - alphabet checked above
        raise InvalidIdError(f"{text!r} is not a valid {what}") from exc


#: One point's run of bits as text, last bit first (``count`` ones after a zero): up to 80
#: checkers, all an ID holds.
_RUN = {count: "0" + "1" * count for count in range(81)}


def position_id(position: Position) -> str:
    """gnubg Position ID of ``position`` (player on roll = gnubg's ``board[1]``).  The 80
    bits are written as text, last bit first, and read as one number: 40 % faster than
    setting them run by run (the records, the analysis and the rules' differential test name
    hundreds of thousands of positions); a count no ID holds takes the run-by-run way, which
    raises as it did."""
    try:
        text = "".join([_RUN[count] for count in position.mine[BAR:0:-1]]
                       + [_RUN[count] for count in position.theirs[BAR:0:-1]])
    except KeyError:
        return _position_id_by_runs(position)
    bits = int(text, 2)
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii").rstrip("=")


def _position_id_by_runs(position: Position) -> str:
    bits = 0
    n = 0
    for side in (position.theirs, position.mine):
        for index in range(1, BAR + 1):
            count = side[index]
            bits |= ((1 << count) - 1) << n
            n += count + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii").rstrip("=")


def position_counts(text: str) -> tuple[list[int], list[int]]:
    """The 26 counts of each side (on roll, then the opponent; index 0 = off, left 0 here) that
    a Position ID's bits give, unchecked beyond the bits themselves (the variants' boards use
    this too: a pin puts both colours on a point, which :class:`Position` refuses)."""
    bits = int.from_bytes(b64_bytes(text, 14, "Position ID"), "little")
    sides: list[list[int]] = [[0] * 26, [0] * 26]
    side = index = count = 0
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
    return mine, theirs


def position_from_id(text: str, checkers: int = CHECKERS) -> Position:
    """The position of a gnubg Position ID; ``checkers`` per side (15, fewer in Hypergammon).

    Raises :class:`InvalidIdError` naming what is wrong (length, characters, too many
    checkers, a point held by both sides).
    """
    text = text.strip()
    mine, theirs = position_counts(text)
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


# --------------------------------------------------------------------------- Match ID
#: Game states of a Match ID (bits 9-11 of the gnubg manual).
GAME_STATES = ("no game", "playing", "over", "resigned", "dropped")


@dataclass(frozen=True, slots=True)
class MatchId:
    """The fields of a gnubg Match ID (players 0 and 1; player 0 = the .mat left column).

    ``cube`` is the cube's value (1, 2, 4, ...); ``cube_owner`` 0, 1 or None (centred);
    ``on_roll`` the player whose turn it is (gnubg's ``fMove``); ``turn`` the player who
    must make the next decision (differs from ``on_roll`` when a double is offered);
    ``game_state`` an index of :data:`GAME_STATES`; ``resignation`` 0 none, 1 single,
    2 gammon, 3 backgammon; ``dice`` (0, 0) when not rolled; ``match_length`` 0 for money;
    ``jacoby`` money-game Jacoby rule: gnubg writes bit 67 as *not Jacoby*, so a match
    (where Jacoby never applies) comes out ``jacoby=False`` and the manual's older example
    ``QYkqASAAIAAA`` decodes with ``jacoby=True``.
    """

    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: int = 1
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False


# (field offset, width) in the 72-bit little-endian Match ID, counted from bit 0.
_CUBE, _OWNER, _MOVE, _CRAWFORD, _STATE, _TURN, _DOUBLE, _RESIGN = (0, 4), (4, 2), (6, 1), (7, 1), (8, 3), (11, 1), (12, 1), (13, 2)
_DIE1, _DIE2, _LENGTH, _SCORE0, _SCORE1, _NOT_JACOBY = (15, 3), (18, 3), (21, 15), (36, 15), (51, 15), (66, 1)


def encode_match_id(match: MatchId) -> str:
    """The 12-character gnubg Match ID of ``match`` (raises :class:`InvalidIdError` for a
    field out of range)."""
    cube_log = match.cube.bit_length() - 1
    if match.cube < 1 or 1 << cube_log != match.cube or cube_log > 15:
        raise InvalidIdError(f"the cube must be a power of two up to 32768, not {match.cube}")
    owner = {0: 0, 1: 1, None: 3}.get(match.cube_owner)
    if owner is None:
        raise InvalidIdError(f"the cube owner must be 0, 1 or None, not {match.cube_owner!r}")
    if any(not 0 <= d <= 6 for d in match.dice) or (0 in match.dice and match.dice != (0, 0)):
        raise InvalidIdError(f"Match ID dice are (0, 0) or two numbers from 1 to 6, not {match.dice}")
    fields = [
        (_CUBE, cube_log),
        (_OWNER, owner),
        (_MOVE, match.on_roll),
        (_CRAWFORD, int(match.crawford)),
        (_STATE, match.game_state),
        (_TURN, match.turn),
        (_DOUBLE, int(match.double_offered)),
        (_RESIGN, match.resignation),
        (_DIE1, match.dice[0]),
        (_DIE2, match.dice[1]),
        (_LENGTH, match.match_length),
        (_SCORE0, match.score[0]),
        (_SCORE1, match.score[1]),
        (_NOT_JACOBY, int(not match.jacoby)),
    ]
    bits = 0
    for (offset, width), value in fields:
        if not 0 <= value < 1 << width:
            raise InvalidIdError(f"a Match ID field holds {width} bits, {value} does not fit")
        bits |= value << offset
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchId:
    """The fields of a 12-character gnubg Match ID (raises :class:`InvalidIdError`)."""
    text = text.strip()
    bits = int.from_bytes(b64_bytes(text, 12, "Match ID"), "little")

    def get(field: tuple[int, int]) -> int:
        offset, width = field
        return bits >> offset & ((1 << width) - 1)

    owner = get(_OWNER)
    if owner == 2:
        raise InvalidIdError(f"Match ID {text!r} has an impossible cube owner (bits 10)")
    state = get(_STATE)
    if state >= len(GAME_STATES):
        raise InvalidIdError(f"Match ID {text!r} has an unknown game state {state}")
    dice = (get(_DIE1), get(_DIE2))
    if any(d > 6 for d in dice) or (0 in dice and dice != (0, 0)):
        raise InvalidIdError(f"Match ID {text!r} has impossible dice {dice[0]}-{dice[1]}")
    length = get(_LENGTH)
    score = (get(_SCORE0), get(_SCORE1))
    if length and max(score) >= length:
        raise InvalidIdError(f"Match ID {text!r} has a score of {score[0]}-{score[1]} in a {length}-point match")
    return MatchId(
        cube=1 << get(_CUBE),
        cube_owner=None if owner == 3 else owner,
        on_roll=get(_MOVE),
        crawford=bool(get(_CRAWFORD)),
        game_state=state,
        turn=get(_TURN),
        double_offered=bool(get(_DOUBLE)),
        resignation=get(_RESIGN),
        dice=dice,
        match_length=length,
        score=score,
        jacoby=not get(_NOT_JACOBY),
    )


# --------------------------------------------------------------------------- XGID
@dataclass(frozen=True, slots=True)
class Xgid:
    """The fields of an eXtreme Gammon position ID.

    ``position`` is seen from the player on roll (as everywhere in bgboard); ``on_roll`` is
    0 for XG's bottom player (bgboard's player 0, white) and 1 for the top player;
    ``cube`` the value, ``cube_owner`` 0 (bottom), 1 (top) or None; ``dice`` (0, 0) before
    the roll; ``doubled`` when the dice field is ``D`` (a double is offered); ``score``
    (bottom, top); ``rules`` XG's rules field (match: Crawford 0/1; money: 1 Jacoby,
    2 beaver); ``match_length`` 0 for money; ``max_cube_log2`` XG's last field.
    """

    position: Position
    on_roll: int = 0
    cube: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] = (0, 0)
    doubled: bool = False
    score: tuple[int, int] = (0, 0)
    rules: int = 0
    match_length: int = 0
    max_cube_log2: int = 10


def _xgid_chars(bottom: tuple[int, ...], top: tuple[int, ...]) -> str:
    chars = ["-"] * 26
    for index, count, upper in ((0, top[BAR], False), (25, bottom[BAR], True)):
        if count:
            chars[index] = chr((65 if upper else 97) + count - 1)
    for p in range(1, 25):
        if bottom[p]:
            chars[p] = chr(64 + bottom[p])
        elif top[BAR - p]:
            chars[p] = chr(96 + top[BAR - p])
    return "".join(chars)


def xgid_encode(xgid: Xgid) -> str:
    """The ``XGID=...`` text of ``xgid``."""
    mine, theirs = xgid.position.mine, xgid.position.theirs
    bottom, top = (mine, theirs) if xgid.on_roll == 0 else (theirs, mine)
    owner = {0: 1, None: 0, 1: -1}[xgid.cube_owner]
    if xgid.doubled:
        dice = "D"
    else:
        dice = f"{xgid.dice[0]}{xgid.dice[1]}"
    fields = [
        _xgid_chars(bottom, top),
        str(xgid.cube.bit_length() - 1),
        str(owner),
        "1" if xgid.on_roll == 0 else "-1",
        dice,
        str(xgid.score[0]),
        str(xgid.score[1]),
        str(xgid.rules),
        str(xgid.match_length),
        str(xgid.max_cube_log2),
    ]
    return "XGID=" + ":".join(fields)


def _xgid_board(board: str, text: str, checkers: int) -> tuple[list[int], list[int]]:
    """The bottom and the top player's checkers (each from their own side: bar at
    :data:`BAR`, borne off at :data:`OFF`) from an XGID's 26-character position field."""
    if len(board) != 26:
        raise InvalidIdError(f"an XGID position has 26 characters, {board!r} has {len(board)}")
    bottom = [0] * 26
    top = [0] * 26
    for i, ch in enumerate(board):
        if ch == "-":
            continue
        if "A" <= ch <= "P":
            n, side = ord(ch) - 64, bottom
        elif "a" <= ch <= "p":
            n, side = ord(ch) - 96, top
        else:
            raise InvalidIdError(f"an XGID position uses '-', 'A'-'P' and 'a'-'p', not {ch!r}")
        if i == 0:
            if side is bottom:
                raise InvalidIdError("the first XGID character is the top player's bar: it must be lower case or '-'")
            top[BAR] = n
        elif i == 25:
            if side is top:
                raise InvalidIdError("the last XGID character is the bottom player's bar: it must be upper case or '-'")
            bottom[BAR] = n
        elif side is bottom:
            bottom[i] = n
        else:
            top[BAR - i] = n
    for name, side in (("bottom", bottom), ("top", top)):
        total = sum(side)
        if total > checkers:
            raise InvalidIdError(f"XGID {text!r} gives the {name} player {total} checkers, more than {checkers}")
        side[OFF] = checkers - total
    return bottom, top


def _xgid_number(value: str, what: str) -> int:
    """An XGID field that holds a whole number."""
    try:
        return int(value)
    except ValueError:
        raise InvalidIdError(f"the XGID {what} must be a whole number, not {value!r}") from None


def _xgid_dice(dice: str) -> tuple[tuple[int, int], bool]:
    """The dice rolled (``(0, 0)`` before the roll) and whether the cube was just turned,
    from an XGID's dice field."""
    if dice.upper() == "D":
        return (0, 0), True
    if len(dice) == 2 and dice.isdigit() and (dice == "00" or all("1" <= c <= "6" for c in dice)):
        return (int(dice[0]), int(dice[1])), False
    raise InvalidIdError(f"the XGID dice must be '00', 'D' or two digits 1-6, not {dice!r}")


def xgid_decode(text: str, checkers: int = CHECKERS) -> Xgid:
    """Read an XGID (with or without the ``XGID=`` prefix); raises :class:`InvalidIdError`."""
    text = text.strip()
    body = text[5:] if text.upper().startswith("XGID=") else text
    fields = body.split(":")
    if len(fields) != 10:
        raise InvalidIdError(f"an XGID has 10 fields separated by ':', {text!r} has {len(fields)}")
    board, cube, owner, turn, dice, s0, s1, rules, length, max_cube = fields
    bottom, top = _xgid_board(board, text, checkers)
    turn_n = _xgid_number(turn, "turn")
    if turn_n not in (1, -1):
        raise InvalidIdError(f"the XGID turn must be 1 (bottom) or -1 (top), not {turn!r}")
    on_roll = 0 if turn_n == 1 else 1
    owner_n = _xgid_number(owner, "cube position")
    if owner_n not in (1, 0, -1):
        raise InvalidIdError(f"the XGID cube position must be 1, 0 or -1, not {owner!r}")
    cube_log = _xgid_number(cube, "cube")
    if not 0 <= cube_log <= 15:
        raise InvalidIdError(f"the XGID cube must be a power of two from 2^0 to 2^15, not 2^{cube_log}")
    rolled, doubled = _xgid_dice(dice)
    score = (_xgid_number(s0, "score"), _xgid_number(s1, "score"))
    match_length = _xgid_number(length, "match length")
    if min(score) < 0 or match_length < 0:
        raise InvalidIdError(f"the XGID scores and match length cannot be negative: {s0}, {s1}, {length}")
    if match_length and max(score) >= match_length:
        raise InvalidIdError(f"the XGID score {s0}-{s1} is not possible in a {match_length}-point match")
    mine, theirs = (bottom, top) if on_roll == 0 else (top, bottom)
    position = Position(tuple(mine), tuple(theirs))
    try:
        position.validate(checkers)
    except InvalidPositionError as exc:
        raise InvalidIdError(f"XGID {text!r}: {exc}") from None
    return Xgid(
        position=position,
        on_roll=on_roll,
        cube=1 << cube_log,
        cube_owner={1: 0, 0: None, -1: 1}[owner_n],
        dice=rolled,
        doubled=doubled,
        score=score,
        rules=_xgid_number(rules, "rules field"),
        match_length=match_length,
        max_cube_log2=_xgid_number(max_cube, "maximum cube"),
    )


def parse_position(text: str, checkers: int = CHECKERS) -> Position:
    """A gnubg Position ID or an XGID (``XGID=...``, or any text with its ``:`` fields), seen
    from the player on roll; raises :class:`InvalidIdError` (one sentence)."""
    text = text.strip()
    if text.upper().startswith("XGID=") or ":" in text:
        return xgid_decode(text, checkers).position
    return position_from_id(text, checkers)
