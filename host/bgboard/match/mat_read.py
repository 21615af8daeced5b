"""Reading ``.mat`` match records as the world writes them: as tolerant as gnubg's
``import mat`` (gnubg/import.c, ``ImportMatVariation`` / ``ImportGame`` / ``ParseMatMove``),
as precise as our rules engine.

:func:`import_mat` reads any text gnubg imports and gives an :class:`ImportedMatch`: the
header tags (every ``; [Key "value"]`` line, unknown keys kept), the players (ratings
after a comma split off as gnubg does), the length (0 = a money session), every game with
the score its header gives, its plays and its result, and the **problems** found, each
with its line number.  What gnubg does is what we do, and we say so:

* the header's score starts each game (gnubg trusts it); when it differs from the games
  before, that is a problem, and the file's score is used;
* the Crawford game is the first game whose header has exactly one player 1-away;
* a roll written without a play is a pass when there is no legal play, the only play when
  there is one, dice rolled before a resignation when the opponent's ``Wins`` follows, and
  otherwise a problem (the turn passes, as gnubg reads it);
* ``Wins N points`` while the game is on is a resignation by the other player, whoever is
  on roll; gnubg's levels: N up to the cube a single, up to twice the cube a gammon, more
  a backgammon; when the points the game then gives differ from N, that is a problem;
* a play the rules forbid is a problem and is kept as written (the board it leaves); a
  play that cannot be made on the board at all (no checker there, a blocked point) is a
  problem and is left out, as gnubg leaves it out; ``--strict`` refuses both;
* ``Doubles``, ``Takes``, ``Drops``, ``Beavers`` in either column, on any row; a double the
  cube rules forbid, or out of turn, is a problem and is read as doubled;
* XG's ``???`` and ``Cannot Move`` after a roll, its extra spaces before ``Illegal play``,
  Snowie's ``Illegal play (...)`` positions, a BOM, CRLF or CR line ends, blank lines,
  anything before the ``N point match`` line, games after the match was won (ignored).

The items of a row are split into the two players' columns as gnubg splits them (see
:func:`columns`), so a file reads the same in both programs.  ``strict=True`` raises
:class:`MatchRecordError` ("line N: ...") at the first problem instead.

``ImportedMatch.actions`` is the match as an action log for :func:`bgboard.match.replay`
when the file can be replayed under our rules from its first game to its last without a
problem; otherwise ``None`` (the games, plays and states are still there).  A resignation
by the player not on roll is no problem, but our state machine lets only the player on
roll resign, so such a file has no action log either.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from typing import Any

from bgboard import rules
from bgboard.match.actions import (
    AcceptResign,
    Action,
    Beaver,
    Condone,
    Double,
    Drop,
    Move,
    NextGame,
    OpeningRoll,
    Pass,
    Resign,
    Roll,
    StartMatch,
    Take,
)
from bgboard.match.errors import MatchRecordError, MatchRuleError
from bgboard.match.mat_write import VARIATIONS
from bgboard.match.state import (
    DOUBLED,
    GAME_OVER,
    MATCH_OVER,
    OPENING,
    PLAY,
    TURN,
    MatchState,
    _after_play,
    _fresh_game,
    apply,
    game_variant,
)
from bgboard.rules import BAR, OFF, Position
from bgboard.rules.notation import IllegalPlayError as NotationIllegal
from bgboard.rules.notation import NotationError, parse_moves, play_out

__all__ = [
    "MAX_LENGTH", "ImportedMatch", "MatGame", "MatPlay", "MatProblem", "columns", "decode_mat",
    "import_mat", "parse_steps", "read_mat",
]

#: gnubg's MAXSCORE: the longest match its ``import mat`` accepts.
MAX_LENGTH = 64
#: Names, tags and quoted file text are cut to this many characters.
MAX_TEXT = 80

_LENGTH_RE = re.compile(r"^\s*(\d{1,10})\s*points?\s*match\b", re.IGNORECASE)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)", re.IGNORECASE)
_TAG_RE = re.compile(r'^\[\s*([A-Za-z][\w ]*?)\s*"(.*)"\s*\]?\s*$')
_ROLL_RE = re.compile(r"^([1-6])([1-6]):(.*)$")
_WINS_RE = re.compile(r"^wins?\s+(\d+)", re.IGNORECASE)
_ILLEGAL_RE = re.compile(r"^Illegal play\s*\(([^)]*)\)?", re.IGNORECASE)
_LEVELS = ("single", "gammon", "backgammon")


# ----------------------------------------------------------------------------- values
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


# ----------------------------------------------------------------------------- text
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


def _bounded(text: str) -> str:
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


def _names(line: str) -> tuple[str, int, str, int] | None:
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


def _rating(name: str) -> tuple[str, str | None]:
    """A name and the rating written after its last comma (GridGammon's ``Ann,1650``)."""
    m = re.match(r"^(.*?),\s*(\d+(?:\.\d+)?)\s*$", name)
    if m and float(m.group(2)) > 0:
        return m.group(1).strip(), m.group(2)
    return name, None


def _variant(value: str) -> str | None:
    """Our variant for a ``[Variation "..."]`` value (gnubg's spellings, by prefix)."""
    low = value.strip().lower()
    for variant, name in sorted(VARIATIONS.items(), key=lambda item: -len(item[1])):
        if low.startswith(name.lower()):
            return variant
    if low.startswith(("backgammon", "standard")):
        return "standard"
    return None


# ----------------------------------------------------------------------------- reading
def import_mat(data: str | bytes, *, strict: bool = False) -> ImportedMatch:
    """Read a ``.mat`` record (text or the file's bytes) as gnubg's ``import mat`` reads it
    (see the module docstring).  Raises :class:`MatchRecordError` (one sentence) only for
    a file that is not a match record at all, or, with ``strict``, at the first problem."""
    text = decode_mat(data)
    lines = text.splitlines()
    tags: list[tuple[str, str]] = []
    comments: list[str] = []
    length: int | None = None
    start = 0
    for number, line in enumerate(lines, start=1):
        line = line.removeprefix("\ufeff")
        stripped = line.strip()
        if stripped.startswith((";", "#")):
            body = stripped[1:].strip()
            tag = _TAG_RE.match(body)
            if tag:
                tags.append((_bounded(tag.group(1)), _bounded(tag.group(2))))
            elif body:
                comments.append(_bounded(body))
            continue
        m = _LENGTH_RE.match(line)
        if m:
            length = int(m.group(1))
            start = number
            break
    if length is None:
        raise MatchRecordError("no 'N point match' line: this is not a .mat match record")
    if length > MAX_LENGTH:
        raise MatchRecordError(
            f"line {start}: a {length} point match is longer than any program plays "
            f"(at most {MAX_LENGTH}, as gnubg): this is not a match record it can read"
        )
    condone = any("illegal play" in line.lower() for line in lines[start:])
    importer = _Importer(length, tags, strict, condone)
    importer.read(lines, start)
    return importer.result(tags, comments)


def read_mat(text: str | bytes, rules_name: str | None = None) -> list[Action]:
    """The action log of a ``.mat`` record that has no problem at all (the strict reading
    of :func:`import_mat`); raises :class:`MatchRecordError` naming the line otherwise.
    ``rules_name`` plays the log under another rule set than the file's (``standard``, or
    ``money`` for a 0 point match)."""
    imported = import_mat(text, strict=True)
    if imported.actions is None:  # pragma: no cover - strict mode raises first
        raise MatchRecordError("the file cannot be replayed as one match")
    actions = list(imported.actions)
    if rules_name is not None and isinstance(actions[0], StartMatch):
        actions[0] = replace(actions[0], rules=rules_name)
    return actions


@dataclass
class _Pending:
    """Dice rolled and written without a play: settled by what comes next."""

    player: int
    line: int
    text: str
    before: MatchState
    plays: int  # legal plays of the roll
    forced: tuple[tuple[int, int], ...] | None  # the only play, when there is one
    quiet: bool = False  # already reported (an unreadable or impossible play)


class _Importer:
    """Turns the lines of a ``.mat`` file into games, replaying every item on our state
    machine and, where the file says something the rules do not allow, doing what gnubg
    does and noting the problem."""

    def __init__(self, length: int, tags: list[tuple[str, str]], strict: bool, condone: bool) -> None:
        self.length = length
        self.strict = strict
        self.problems: list[MatProblem] = []
        self.variant = "standard"
        for key, value in tags:
            if key.lower() == "variation":
                variant = _variant(value)
                if variant is None:
                    self.problem(0, f"unknown variation {value!r}: read as standard backgammon (as gnubg does)")
                else:
                    self.variant = variant
        self.jacoby: bool | None = None
        self.beavers: bool | None = None
        if length == 0:
            jacoby = next((v for k, v in tags if k.lower() == "jacoby"), None)
            # gnubg reads a session with its own Jacoby setting, on by default.
            self.jacoby = not (jacoby or "on").strip().lower().startswith(("off", "no", "0", "false"))
        self.state: MatchState | None = None
        self.actions: list[Action] = []
        self.replayable = True
        self.games: list[MatGame] = []
        self.game: dict[str, Any] | None = None
        self.plays: list[MatPlay] = []
        self.pending: _Pending | None = None
        self.post_crawford = False
        self.players: tuple[str, str] = ("", "")
        self.ratings: tuple[str | None, str | None] = (None, None)
        self.condone = condone
        self.line_no = 0

    # ------------------------------------------------------------- bookkeeping
    def problem(self, line: int, message: str, game: int | None = None) -> None:
        if game is None and self.game:
            game = self.game["number"]
        found = MatProblem(line, game, message)
        if self.strict:
            raise MatchRecordError(str(found))
        self.problems.append(found)

    @property
    def st(self) -> MatchState:
        assert self.state is not None
        return self.state

    def do(self, action: Action) -> None:
        self.state = apply(self.state, action)
        self.actions.append(action)

    def force(self, **changes: Any) -> None:
        """Change the state as gnubg's reading does where our rules would refuse."""
        self.state = replace(self.st, **changes)
        self.replayable = False

    def name(self, player: int) -> str:
        return self.players[player] or ("the left player", "the right player")[player]

    def record(self, line: int, player: int, kind: str, before: MatchState, text: str = "",
               dice: tuple[int, int] | None = None, steps: tuple[tuple[int, int], ...] = (),
               level: int = 0) -> None:
        assert self.game is not None
        self.plays.append(
            MatPlay(line, self.game["number"], player, kind, dice, _bounded(text),
                    _position_id(before, player), steps, level, before, self.st)
        )

    # ------------------------------------------------------------- lines
    def read(self, lines: list[str], start: int) -> None:
        expect_names: int | None = None  # the game number whose names line comes next
        skipping = True  # before the first game, or after a game header we could not read
        for number, raw in enumerate(lines[start:], start=start + 1):
            self.line_no = number
            line = raw.removeprefix("\ufeff").rstrip("\r\n")
            stripped = line.strip()
            if not stripped:
                continue
            if expect_names is not None:
                game_no = expect_names
                expect_names = None
                names = _names(line)
                if names is None:
                    self.problem(number, f"expected the players' names and scores (like 'Ann : 0   Bob : 0'), "
                                         f"not {_bounded(line)!r}: game {game_no} is left out")
                    skipping = True
                    continue
                if not self.start_game(number, game_no, names):
                    return
                skipping = False
                continue
            game = _GAME_RE.match(line)
            if game:
                expect_names = int(game.group(1))
                continue
            if not skipping and stripped.lower().startswith("; set pos="):
                self.problem(number, "XG's set position (; Set Pos=) is not read: the game goes on from the "
                                     "board the plays before it give")
                continue
            if skipping or stripped.startswith((";", "#")):
                continue
            left, right = columns(line)
            for player, item in ((0, left), (1, right)):
                if item is not None and item.strip():
                    self.item(number, player, item.strip())
        if expect_names is not None:
            self.problem(self.line_no, f"game {expect_names} has no names line")
        self.end_game(eof=True)

    def start_game(self, line: int, number: int, names: tuple[str, int, str, int]) -> bool:
        """Begin a game; ``False`` when the header says the match was already won."""
        name0, score0, name1, score1 = names
        if self.length and (score0 >= self.length or score1 >= self.length):
            self.end_game(eof=False)
            self.problem(line, f"game {number} starts at {score0}-{score1}, after the match was won: "
                               "it and the rest of the file are ignored (as gnubg does)")
            return False
        first = self.state is None
        if not first:
            self.end_game(eof=False)
        (player0, rating0), (player1, rating1) = _rating(name0), _rating(name1)
        players = (_bounded(player0)[:MAX_TEXT], _bounded(player1)[:MAX_TEXT])
        if first:
            self.players = players
            self.ratings = (rating0, rating1)
            self.do(StartMatch(self.length, "money" if self.length == 0 else "standard", players,
                               jacoby=self.jacoby, beavers=self.beavers or None,
                               variant=None if self.variant == "standard" else self.variant,
                               illegal_plays="condone" if self._condone_needed else None))
        elif players != self.players:
            self.problem(line, f"game {number} is between {players[0]} and {players[1]}, "
                               f"not {self.players[0]} and {self.players[1]}: the first names are kept", number)
        header = (score0, score1)
        crawford = bool(self.length) and not self.post_crawford and (
            (score0 == self.length - 1) != (score1 == self.length - 1)
        )
        if crawford:
            self.post_crawford = True
        st = self.st
        if not first and st.phase == GAME_OVER and st.score == header:
            self.do(NextGame())
        elif not first:
            if st.phase in (GAME_OVER, MATCH_OVER) and st.score != header:
                self.problem(line, f"game {number}: the file gives the score {score0}-{score1}, "
                                   f"the games before give {st.score[0]}-{st.score[1]}: "
                                   "the file's score is used (as gnubg does)", number)
            self._fresh(st.game + 1, header)
        elif header != (0, 0):
            self.problem(line, f"the file gives the score {score0}-{score1} before its first game: "
                               "the file's score is used (as gnubg does)", number)
            self._fresh(st.game, header)
        if self.st.crawford != crawford:
            self.force(crawford=crawford, post_crawford=self.post_crawford and not crawford)
        self.game = {"number": number, "line": line, "score": header, "crawford": crawford,
                     "players": players}
        self.plays = []
        return True

    @property
    def _condone_needed(self) -> bool:
        return self.condone

    def _fresh(self, game: int, score: tuple[int, int]) -> None:
        self.force(game=game, score=score, **_fresh_game(game_variant(self.st.rules.variant, game)))

    def end_game(self, eof: bool) -> None:
        if self.game is None:
            return
        self.settle(eof=eof)
        st = self.st
        over = st.phase in (GAME_OVER, MATCH_OVER) and st.games and st.games[-1].number == st.game
        if not over and not eof:
            self.problem(self.line_no, f"game {self.game['number']} has no result")
        last = st.games[-1] if over else None
        self.games.append(
            MatGame(self.game["number"], self.game["line"], self.game["players"], self.game["score"],
                    self.game["crawford"], tuple(self.plays),
                    last.winner if last else None, last.points if last else 0,
                    last.result if last else None)
        )
        self.game = None

    # ------------------------------------------------------------- items
    def item(self, line: int, player: int, text: str) -> None:
        low = text.lower()
        roll = _ROLL_RE.match(text)
        wins = _WINS_RE.match(text)
        if self.st.phase in (GAME_OVER, MATCH_OVER) and not wins:
            if low.startswith("resign"):
                return
            self.problem(line, f"{_bounded(text)!r} comes after the game ended: left out")
            return
        if roll:
            self.settle()
            self.roll(line, player, (int(roll.group(1)), int(roll.group(2))), roll.group(3).strip())
        elif low.startswith(("double", "redouble")):
            self.settle()
            self.double(line, player, text)
        elif low.startswith(("take", "accept")):
            self.settle()
            self.answer(line, player, "take", text)
        elif low.startswith(("beaver", "raccoon")):
            self.settle()
            self.answer(line, player, "beaver", text)
        elif low.startswith(("drop", "pass", "reject")):
            self.settle()
            self.answer(line, player, "drop", text)
        elif wins:
            self.wins(line, player, int(wins.group(1)), text)
        elif low.startswith("resign"):
            return  # ".gam" style "Resigns": the Wins line tells the rest (gnubg ignores it)
        else:
            self.problem(line, f"cannot read {_bounded(text)!r}: left out (gnubg leaves it out too)")

    def to_play(self, line: int, player: int, dice: tuple[int, int]) -> None:
        """Bring the state to ``player`` playing ``dice``."""
        st = self.st
        if st.phase == OPENING:
            if dice[0] == dice[1]:
                self.problem(line, f"an opening roll cannot be a double ({dice[0]}{dice[1]}): "
                                   "read as the file gives it")
                self.force(phase=PLAY, turn=player, dice=dice)
                return
            high, low = max(dice), min(dice)
            self.do(OpeningRoll((high, low) if player == 0 else (low, high)))
            return
        if st.phase == DOUBLED:
            self.problem(line, f"{self.name(1 - st.turn if st.turn is not None else 0)} did not answer the double: "  # noqa: E501
                               "read as taken (as gnubg does)")
            assert st.turn is not None
            self.force(phase=TURN, cube=st.cube * 2, cube_owner=1 - st.turn)
            st = self.st
        if st.phase == TURN and st.turn == player:
            self.do(Roll(dice))
            return
        self.problem(line, f"{self.name(player)} rolls {dice[0]}{dice[1]} out of turn: read as the file gives it")
        self.force(phase=PLAY, turn=player, dice=dice)

    def roll(self, line: int, player: int, dice: tuple[int, int], text: str) -> None:
        self.to_play(line, player, dice)
        st = self.st
        if st.turn != player:  # pragma: no cover - to_play hands the roll over
            return
        if text.startswith("?"):  # XG: dice rolled before resigning
            text = text.lstrip("?").strip()
        if text.lower().startswith("cannot move"):
            text = ""
        illegal = _ILLEGAL_RE.match(text)
        if illegal:
            self.snowie(line, player, dice, text, illegal.group(1))
            return
        game = st.game_rules
        position = st.position
        if not text:
            plays = game.plays(st.board_view, dice) if game is not None else rules.legal_plays(position, dice)
            forced = plays[0].steps if len(plays) == 1 else None
            self.pending = _Pending(player, line, text, st, len(plays),
                                    tuple((s.frm, s.to) for s in forced) if forced is not None else None)
            return
        try:
            steps = parse_steps(text)
        except MatchRecordError as exc:
            self.problem(line, f"{self.name(player)}'s {dice[0]}{dice[1]}: {exc}: left out (gnubg leaves it out too)")
            self.pending = _Pending(player, line, text, st, 0, None, quiet=True)
            return
        try:
            self.do(Move(steps))
            self.record(line, player, "move", st, text, dice, steps)
            return
        except MatchRuleError as exc:
            if game is not None:  # a seed variant (bgboard's extension): its own rules only
                self.problem(line, f"illegal play by {self.name(player)}: {dice[0]}{dice[1]}: {_bounded(text)} "
                                   f"({exc}): left out")
                self.pending = _Pending(player, line, text, st, 0, None, quiet=True)
                return
        try:
            result = play_out(text, position)
        except (NotationError, NotationIllegal) as exc:
            self.problem(line, f"{self.name(player)}'s {dice[0]}{dice[1]}: {_bounded(text)} cannot be played "
                               f"on this board ({exc}): left out (as gnubg does)")
            self.pending = _Pending(player, line, text, st, 0, None, quiet=True)
            return
        for play in rules.legal_plays(position, dice):
            if play.position == result:  # written another way (11/4 for 61: 11/5 5/4)
                legal = tuple((s.frm, s.to) for s in play.steps)
                self.do(Move(legal))
                self.record(line, player, "move", st, text, dice, legal)
                return
        reason = rules.explain(position, dice, result) or f"not a play of {dice[0]}{dice[1]}"
        self.problem(line, f"illegal play by {self.name(player)}: {dice[0]}{dice[1]}: {_bounded(text)} ({reason}): "
                           "kept as written")
        self.state = _after_play(st, player, result)
        self.replayable = False
        self.record(line, player, "illegal", st, text, dice, steps)

    def snowie(self, line: int, player: int, dice: tuple[int, int], text: str, fields: str) -> None:
        """Snowie's ``Illegal play (...)``: the board after the play (gnubg's SETBOARD)."""
        st = self.st
        try:
            action = _condoned(fields, player, st.checkers)
        except MatchRecordError as exc:
            self.problem(line, f"{exc}: left out")
            self.pending = _Pending(player, line, text, st, 0, None, quiet=True)
            return
        try:
            self.do(action)
        except MatchRuleError as exc:
            self.problem(line, f"illegal play by {self.name(player)}: {exc}: kept as written")
            self.state = _after_play(st, player, Position(action.mine, action.theirs))
            self.replayable = False
        self.record(line, player, "condone", st, text, dice)

    def settle(self, resigner: int | None = None, eof: bool = False) -> None:
        """A roll written without a play, decided by what follows it."""
        pending, self.pending = self.pending, None
        if pending is None:
            return
        st = self.st
        dice = pending.before.dice
        kind = "roll" if pending.plays else "pass"
        if pending.quiet:  # a play left out: gnubg keeps no record of it either
            if resigner is None and not eof and st.phase == PLAY and st.turn == pending.player:
                self.force(phase=TURN, turn=1 - pending.player, dice=None)
            return
        if resigner == pending.player:
            self.record(pending.line, pending.player, kind, pending.before, pending.text, dice)
            return
        if not pending.plays and not pending.quiet:
            self.do(Pass())
            self.record(pending.line, pending.player, "pass", pending.before, pending.text, dice)
            return
        if pending.forced is not None:
            self.do(Move(pending.forced))
            self.record(pending.line, pending.player, "move", pending.before, pending.text, dice, pending.forced)
            return
        self.record(pending.line, pending.player, "roll", pending.before, pending.text, dice)
        if eof:
            return  # the record ends on a roll not yet played: a match in progress
        assert dice is not None
        self.problem(pending.line, f"{self.name(pending.player)} rolled {dice[0]}{dice[1]} and did not play, "
                                       "though a play was legal: the turn passes (as gnubg reads it)")
        if st.phase == PLAY and st.turn == pending.player:
            self.force(phase=TURN, turn=1 - pending.player, dice=None)

    def double(self, line: int, player: int, text: str) -> None:
        st = self.st
        if st.phase == TURN and st.turn == player:
            try:
                self.do(Double(player=player))
            except MatchRuleError as exc:
                self.problem(line, f"{self.name(player)} doubles: {exc}: read as doubled (as gnubg does)")
                self.force(phase=DOUBLED)
        else:
            self.problem(line, f"{self.name(player)} doubles out of turn: read as doubled (as gnubg does)")
            self.force(phase=DOUBLED, turn=player, dice=None)
        self.record(line, player, "double", st, text)

    def answer(self, line: int, player: int, kind: str, text: str) -> None:
        st = self.st
        if st.phase != DOUBLED or st.decider != player:
            self.problem(line, f"{_bounded(text)!r} answers no double: left out (as gnubg does)")
            return
        if kind == "beaver" and not (st.rules.money and st.rules.beavers):
            if not st.rules.money:
                self.problem(line, "a beaver in a match: read as a take")
                kind = "take"
            else:
                self.force(rules=replace(st.rules, beavers=True))
        action = {"take": Take, "drop": Drop, "beaver": Beaver}[kind](player=player)
        self.do(action)
        self.record(line, player, kind, st, text)

    def wins(self, line: int, player: int, points: int, text: str) -> None:
        st = self.st
        if st.phase in (GAME_OVER, MATCH_OVER):
            self.settle()
            last = st.games[-1]
            if (last.winner, last.points) != (player, points):
                given = "a draw" if last.winner is None else f"{self.name(last.winner)} {last.points}"
                self.problem(line, f"the file says {self.name(player)} wins {points}, the moves give {given}")
            return
        loser = 1 - player
        pending = self.pending
        if pending is not None and pending.player == player:
            # The winner's unplayed roll: the loser resigned while the winner was to play.
            self.pending = None
            if not pending.quiet:
                kind = "roll" if pending.plays else "pass"
                self.record(pending.line, pending.player, kind, pending.before, pending.text, pending.before.dice)
            st = self.st
        else:
            self.settle(resigner=loser)
            st = self.st
        level = 1 if points <= st.cube else 2 if points <= 2 * st.cube else 3
        before = st
        if st.phase not in (TURN, PLAY) or st.turn != loser:
            # A resignation by the player not on roll (or before the first roll): gnubg
            # records it whoever is on roll.
            self.force(phase=TURN, turn=loser, dice=None)
        self.do(Resign(level))
        self.do(AcceptResign())
        got = self.st.games[-1].points
        self.record(line, loser, "resign", before, text, level=level)
        if got != points:
            self.problem(line, f"the file says {self.name(player)} wins {points}: resigning "
                               f"{('a single', 'a gammon', 'a backgammon')[level - 1]} with the cube at "
                               f"{st.cube} gives {got} (as gnubg counts it)")

    # ------------------------------------------------------------- result
    def result(self, tags: list[tuple[str, str]], comments: list[str]) -> ImportedMatch:
        if self.state is None:
            if self.strict:
                raise MatchRecordError("the file holds no game")
            self.problem(0, "the file holds no game")
            self.do(StartMatch(self.length, "money" if self.length == 0 else "standard", ("", ""),
                               jacoby=self.jacoby, variant=self.variant))
            self.replayable = False
        return ImportedMatch(
            length=self.length,
            players=self.players,
            ratings=self.ratings,
            variant=self.variant,
            tags=tuple(tags),
            comments=tuple(comments),
            games=tuple(self.games),
            problems=tuple(self.problems),
            state=self.st,
            actions=tuple(self.actions) if self.replayable and not self.problems else None,
        )


def _position_id(state: MatchState, player: int) -> str:
    """gnubg's Position ID of the board from ``player``'s view ("" for a board it cannot
    encode, as in the seed variants' reserve)."""
    try:
        return rules.position_id(Position(state.board[player], state.board[1 - player]))
    except (ValueError, OverflowError):
        return ""


def _condoned(text: str, player: int, checkers: int) -> Condone:
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
