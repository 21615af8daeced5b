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

What it gives is :mod:`bgboard.match.mat_types`'; the text of one line (columns, names,
moves, Snowie positions) is :mod:`bgboard.match.mat_lines`'; the items of a turn are read by
:mod:`bgboard.match.mat_turns` onto the :mod:`bgboard.match.mat_scoresheet`; this module
reads the header, the lines and the games.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bgboard.match.actions import Action, NextGame, StartMatch
from bgboard.match.mat_lines import MAX_LENGTH, MAX_TEXT, bounded, columns, decode_mat, names_line, split_rating
from bgboard.match.mat_scoresheet import GameHeader, Scoresheet
from bgboard.match.mat_turns import read_item, settle
from bgboard.match.mat_types import ImportedMatch, MatGame
from bgboard.match.rule_errors import MatchRecordError
from bgboard.match.state import GAME_OVER, MATCH_OVER, fresh_game, game_variant
from bgboard.rules.games import recorded

__all__ = ["import_mat", "read_mat"]

_LENGTH_RE = re.compile(r"^\s*(\d{1,10})\s*points?\s*match\b", re.IGNORECASE)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)", re.IGNORECASE)
_TAG_RE = re.compile(r'^\[\s*([A-Za-z][\w ]*?)\s*"(.*)"\s*\]?\s*$')


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
                tags.append((bounded(tag.group(1)), bounded(tag.group(2))))
            elif body:
                comments.append(bounded(body))
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
    sheet = Scoresheet(length, tags, strict, condone)
    _read_lines(sheet, lines, start)
    return sheet.result(tags, comments)


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


def _read_lines(sheet: Scoresheet, lines: list[str], start: int) -> None:
    """Read the lines after the match length: each game's header and names line, then its
    items column by column."""
    expect_names: int | None = None  # the game number whose names line comes next
    skipping = True  # before the first game, or after a game header we could not read
    for number, raw in enumerate(lines[start:], start=start + 1):
        sheet.line_no = number
        line = raw.removeprefix("\ufeff").rstrip("\r\n")
        stripped = line.strip()
        if not stripped:
            continue
        if expect_names is not None:
            game_no = expect_names
            expect_names = None
            names = names_line(line)
            if names is None:
                sheet.problem(number, f"expected the players' names and scores (like 'Ann : 0   Bob : 0'), "
                                      f"not {bounded(line)!r}: game {game_no} is left out")
                skipping = True
                continue
            if not _start_game(sheet, number, game_no, names):
                return
            skipping = False
            continue
        game = _GAME_RE.match(line)
        if game:
            expect_names = int(game.group(1))
            continue
        if not skipping and stripped.lower().startswith("; set pos="):
            sheet.problem(number, "XG's set position (; Set Pos=) is not read: the game goes on from the "
                                  "board the plays before it give")
            continue
        if skipping or stripped.startswith((";", "#")):
            continue
        left, right = columns(line)
        for player, item in ((0, left), (1, right)):
            if item is not None and item.strip():
                read_item(sheet, number, player, item.strip())
    if expect_names is not None:
        sheet.problem(sheet.line_no, f"game {expect_names} has no names line")
    _end_game(sheet, eof=True)


def _start_game(sheet: Scoresheet, line: int, number: int, names: tuple[str, int, str, int]) -> bool:
    """Begin a game; ``False`` when the header says the match was already won."""
    name0, score0, name1, score1 = names
    if sheet.length and (score0 >= sheet.length or score1 >= sheet.length):
        _end_game(sheet, eof=False)
        sheet.problem(line, f"game {number} starts at {score0}-{score1}, after the match was won: "
                            "it and the rest of the file are ignored (as gnubg does)")
        return False
    first = sheet.state is None
    if not first:
        _end_game(sheet, eof=False)
    (player0, rating0), (player1, rating1) = split_rating(name0), split_rating(name1)
    players = (bounded(player0)[:MAX_TEXT], bounded(player1)[:MAX_TEXT])
    if first:
        sheet.players = players
        sheet.ratings = (rating0, rating1)
        sheet.do(StartMatch(sheet.length, "money" if sheet.length == 0 else "standard", players,
                            jacoby=sheet.jacoby, beavers=sheet.beavers or None,
                            variant=recorded(sheet.variant),
                            illegal_plays="condone" if sheet.condone else None))
    elif players != sheet.players:
        sheet.problem(line, f"game {number} is between {players[0]} and {players[1]}, "
                            f"not {sheet.players[0]} and {sheet.players[1]}: the first names are kept", number)
    header = (score0, score1)
    crawford = bool(sheet.length) and not sheet.post_crawford and (
        (score0 == sheet.length - 1) != (score1 == sheet.length - 1)
    )
    if crawford:
        sheet.post_crawford = True
    st = sheet.st
    if not first and st.phase == GAME_OVER and st.score == header:
        sheet.do(NextGame())
    elif not first:
        if st.phase in (GAME_OVER, MATCH_OVER) and st.score != header:
            sheet.problem(line, f"game {number}: the file gives the score {score0}-{score1}, "
                                f"the games before give {st.score[0]}-{st.score[1]}: "
                                "the file's score is used (as gnubg does)", number)
        _fresh(sheet, st.game + 1, header)
    elif header != (0, 0):
        sheet.problem(line, f"the file gives the score {score0}-{score1} before its first game: "
                            "the file's score is used (as gnubg does)", number)
        _fresh(sheet, st.game, header)
    if sheet.st.crawford != crawford:
        sheet.force(crawford=crawford, post_crawford=sheet.post_crawford and not crawford)
    sheet.game = GameHeader(number, line, header, crawford, players)
    sheet.plays = []
    return True


def _fresh(sheet: Scoresheet, game: int, score: tuple[int, int]) -> None:
    """Start game ``game`` at the file's ``score`` where our state machine would not."""
    sheet.force(game=game, score=score, **fresh_game(game_variant(sheet.st.rules.variant, game)))


def _end_game(sheet: Scoresheet, eof: bool) -> None:
    """File the current game with its items and result (a problem when it has none before
    the next game)."""
    if sheet.game is None:
        return
    settle(sheet, eof=eof)
    st = sheet.st
    over = st.phase in (GAME_OVER, MATCH_OVER) and st.games and st.games[-1].number == st.game
    if not over and not eof:
        sheet.problem(sheet.line_no, f"game {sheet.game.number} has no result")
    last = st.games[-1] if over else None
    game = sheet.game
    sheet.games.append(
        MatGame(game.number, game.line, game.players, game.score, game.crawford, tuple(sheet.plays),
                last.winner if last else None, last.points if last else 0,
                last.result if last else None)
    )
    sheet.game = None
