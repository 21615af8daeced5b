"""The text of a ``.mat`` record, line by line (pure): the file's bytes as text, a game
line's two columns as gnubg splits them, the names line, a name's rating, a
``[Variation "..."]`` value, a move's steps, and Snowie's ``Illegal play (...)`` position.
:mod:`bgboard.match.mat_read` reads a whole record with them."""

from __future__ import annotations

import functools
import re

from bgboard import rules
from bgboard.match.actions import Condone
from bgboard.match.rule_errors import MatchRecordError
from bgboard.match.state import MatchState
from bgboard.rules import BAR, OFF, Position
from bgboard.rules.games import VARIANTS
from bgboard.rules.notation import NotationError, parse_moves

__all__ = ["MAX_LENGTH", "MAX_TEXT", "decode_mat", "bounded", "parse_steps", "columns", "names_line", "split_rating",
           "variant_of", "position_id", "condoned"]

#: gnubg's MAXSCORE: the longest match its ``import mat`` accepts.
MAX_LENGTH = 64
#: Names, tags and quoted file text are cut to this many characters.
MAX_TEXT = 80


def decode_mat(data: bytes | str) -> str:
    """The text of a file's bytes: UTF-8 (a BOM dropped), else Windows-1252, else Latin-1
    (every byte reads: programs write names in all of them)."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def bounded(text: str) -> str:
    """File text fit to quote in a message: printable and at most :data:`MAX_TEXT` long."""
    text = "".join(c if c.isprintable() else " " for c in text.strip())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


@functools.lru_cache(maxsize=4096)  # a match repeats its moves' texts (a replay reads ~50 a game)
def parse_steps(text: str) -> tuple[tuple[int, int], ...]:
    """``13/8 8/3* 24/18(2) bar/20 6/off`` → ``((13, 8), (8, 3), ...)`` (read by
    :func:`bgboard.rules.notation.parse_moves`; the board decides the hits)."""
    try:
        moves = parse_moves(text)
    except NotationError as exc:
        raise MatchRecordError(f"cannot read the move: {exc}") from None
    return tuple((a, b) for points, _stars in moves for a, b in zip(points, points[1:]))


def columns(line: str) -> tuple[str, str | None]:
    """The left (player 0) and right (player 1) text of a game line, split as gnubg's
    ``ImportGame`` splits it: with two ``NN:`` rolls the right column starts at the second
    roll's dice; otherwise at the first double space from column 15 on; the left text
    starts after the row number's ``)``."""
    left, right = line, None
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if second > 3:
        left, right = line[: second - 3], line[second - 2 :]
    elif len(line) > 15:
        gap = line.find("  ", 15)
        if gap >= 0:
            left, right = line[:gap], line[gap + 1 :]
    paren = left.find(")")
    if paren >= 0:
        left = left[paren + 1 :]
    return left, right


def names_line(line: str) -> tuple[str, int, str, int] | None:
    """gnubg's reading of a game's names line ``Ann : 0     Bob : 2``: the first name up to
    the first colon, its score, then the second name up to the next colon and its score."""
    colon = line.find(":")
    if colon < 0:
        return None
    name0 = line[:colon].strip()
    rest = line[colon + 1 :].lstrip()
    m0 = re.match(r"[+-]?\d+", rest)
    if m0 is None:
        return None
    # gnubg skips the whole word after the colon; a name written right after the score
    # (gnubg pads 'name : score' to 31 columns and a long name leaves no gap) keeps its start.
    rest = rest[m0.end() :].lstrip()
    colon = rest.find(":")
    if colon < 0:
        return None
    name1 = rest[:colon].strip()
    m1 = re.match(r"\s*([+-]?\d+)", rest[colon + 1 :])
    if m1 is None:
        return None
    return name0, int(m0.group()), name1, int(m1.group(1))


def split_rating(name: str) -> tuple[str, str | None]:
    """A name and the rating written after its last comma (GridGammon's ``Ann,1650``)."""
    m = re.match(r"^(.*?),\s*(\d+(?:\.\d+)?)\s*$", name)
    if m and float(m.group(2)) > 0:
        return m.group(1).strip(), m.group(2)
    return name, None


def variant_of(value: str) -> str | None:
    """Our variant for a ``[Variation "..."]`` value (gnubg's spellings, by prefix)."""
    low = value.strip().lower()
    variations = {name: v.mat_name for name, v in VARIANTS.items() if v.mat_name is not None}  # as registered now
    for variant, name in sorted(variations.items(), key=lambda item: -len(item[1])):
        if low.startswith(name.lower()):
            return variant
    if low.startswith(("backgammon", "standard")):
        return "standard"
    return None


def position_id(state: MatchState, player: int) -> str:
    """gnubg's Position ID of the board from ``player``'s view ("" for a board it cannot
    encode, as in the seed variants' reserve)."""
    try:
        return rules.position_id(Position(state.board[player], state.board[1 - player]))
    except (ValueError, OverflowError):
        return ""


def condoned(text: str, player: int, checkers: int) -> Condone:
    """The :class:`Condone` of an ``Illegal play (...)`` Snowie position (see
    :func:`bgboard.match.mat_write.snowie_text`): the board from the mover's (``player``'s)
    view; the checkers not on the board are borne off."""
    fields = [f.strip() for f in text.split(";")]
    try:
        turn = int(fields[4])
        places = [int(f) for f in fields[12:38]]
    except (IndexError, ValueError):
        raise MatchRecordError("cannot read the position of an illegal play") from None
    if len(places) != 26 or turn != 1 - player:
        raise MatchRecordError("cannot read the position of an illegal play")
    mine = [0] * (BAR + 1)
    theirs = [0] * (BAR + 1)
    theirs[BAR] = -places[0]
    mine[BAR] = places[25]
    for point in range(1, BAR):
        n = places[point]
        if n > 0:
            mine[point] = n
        elif n < 0:
            theirs[BAR - point] = -n
    mine[OFF] = checkers - sum(mine)
    theirs[OFF] = checkers - sum(theirs)
    if min(mine + theirs) < 0:
        raise MatchRecordError("cannot read the position of an illegal play: too many checkers")
    return Condone(tuple(mine), tuple(theirs))
