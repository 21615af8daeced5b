"""Jellyfish ``.mat`` match records, written exactly as gnubg's ``export match mat`` does,
and read back into the match model.

Writing is incremental: :func:`mat_chunk` gives the text one action adds to the file (a
pure function of the action, the states around it and a small :class:`MatCursor`), so the
host appends action by action and a match in progress is on disk up to its last action.
:func:`export_mat` writes a whole action log.  The layout follows gnubg's ``ExportGameJF``
(gnubg/export.c): rows ``%3d) %-27s `` for player 0 (the left column) then player 1's text
and a newline; ``Doubles => N``, ``Takes``, ``Drops``, ``Wins N point(s)``; moves as
``from/to`` steps (25 = bar, 0 = off, ``*`` = a hit).  A condoned illegal play
(:class:`~bgboard.match.Condone`) is written ``31: Illegal play (<Snowie text position>)``,
the Snowie form gnubg's ``import mat`` reads as "these dice, then this board"
(:func:`snowie_text`); gnubg's own exporter cannot write an edited game in .mat.

:func:`read_mat` parses a ``.mat`` file (gnubg's or Jellyfish-style two-column files)
into an action log that :func:`bgboard.match.replay` turns into the match; every game's
winner and points are checked against the file's ``Wins`` lines.  ``Illegal play (...)``
lines in the form :func:`snowie_text` writes become :class:`~bgboard.match.Condone`
actions (the match is then read with ``illegal_plays="condone"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

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
from bgboard.match.state import GAME_OVER, MATCH_OVER, OPENING, PLAY, TURN, MatchState, apply, states
from bgboard.rules import BAR, OFF, Position
from bgboard.rules.notation import NotationError, parse_moves

_NORMAL, _DOUBLE, _TAKE, _DROP, _RESIGN, _SETDICE = range(6)


@dataclass(frozen=True, slots=True)
class MatCursor:
    """Where the writer is inside the current game: gnubg's half-row counter ``i``, its
    ``diceRolled`` flag and the cube value the file has announced."""

    i: int = 0
    dice_rolled: bool = False
    file_cube: int = 1


@dataclass(frozen=True, slots=True)
class MatInfo:
    """Optional header tags, written as gnubg writes them (``; [Site "..."]``)."""

    site: str | None = None
    event: str | None = None
    round: str | None = None
    event_date: tuple[int, int, int] | None = None  # (year, month, day), passed in
    transcriber: str | None = None


_VARIATIONS = {
    "nackgammon": "NackGammon",
    "hypergammon1": "HyperGammon (1)",
    "hypergammon2": "HyperGammon (2)",
    "hypergammon3": "HyperGammon (3)",
    # bgboard's extension: gnubg has none of these (docs/match.md, "Records of the variants")
    "plakoto": "Plakoto",
    "fevga": "Fevga",
    "anti": "Anti Backgammon",
    "race": "Backgammon Race",
    "tavli": "Tavli",
}


def format_steps(position: Position, steps: Sequence[tuple[int, int]]) -> str:
    """The steps in the order they were played (as gnubg keeps a move entered with its
    ``move`` command; a move it reads from a file it stores in its own generator's order),
    formatted as gnubg's ``FormatMovePlain``: ``13/8 8/3* `` (a space after each of the first three
    steps; ``*`` when the opponent had a checker on the destination before the move and no
    earlier step of the move landed there)."""
    out = []
    for k, (frm, to) in enumerate(steps):
        text = f"{frm}/{to}"
        if to > 0 and position.theirs[BAR - to] and all(steps[j][1] != to for j in range(k)):
            text += "*"
        if k < 3:
            text += " "
        out.append(text)
    return "".join(out)


def snowie_text(before: MatchState, action: Condone) -> str:
    """Snowie's text position of a condoned play's board for gnubg's .mat importer, which
    reads ``NN: Illegal play (...)`` as "these dice, then this board" (gnubg's
    ``MOVE_SETDICE`` + ``MOVE_SETBOARD``).

    The fields are those of gnubg's ``export position snowietxt``: ``length;jacoby;0;0;
    turn;mover;opponent;crawford;mover's score;opponent's score;cube;owner (1 mover, -1
    opponent, 0 centre);`` then 26 places — the opponent's bar (negative), points 1..24
    from the mover's view (the mover's checkers positive, the opponent's negative), the
    mover's bar — then the dice.  ``turn`` is written as gnubg's importer needs it: the
    *opponent's* number (gnubg swaps the sides otherwise; its exporter writes the mover's —
    checked both ways with gnubg's ``import mat`` for either mover).  Names lose ``;:()``."""
    turn = before.turn
    assert turn is not None and before.dice is not None
    mine, theirs = action.mine, action.theirs
    owner = 0 if before.cube_owner is None else (1 if before.cube_owner == turn else -1)
    names = [re.sub(r"[;:()]", " ", before.players[p]) for p in (turn, 1 - turn)]
    fields = [
        before.length,
        int(before.rules.money and before.rules.jacoby),
        0,
        0,
        1 - turn,
        names[0],
        names[1],
        int(before.crawford),
        before.score[turn],
        before.score[1 - turn],
        before.cube,
        owner,
        -theirs[BAR],
        *(mine[p] if mine[p] else -theirs[BAR - p] for p in range(1, BAR)),
        mine[BAR],
        before.dice[0],
        before.dice[1],
    ]
    return "".join(f"{f};" for f in fields)


def _names_line(state: MatchState) -> str:
    left = f"{state.players[0]} : {state.score[0]}"
    return f" {left:<31}{state.players[1]} : {state.score[1]}\n"


def mat_header(state: MatchState, info: MatInfo | None = None) -> str:
    """The file header, the match line and the first game's header."""
    info = info or MatInfo()
    out = []
    if info.site:
        out.append(f'; [Site "{info.site}"]\n')
    if info.event:
        out.append(f'; [Event "{info.event}"]\n')
    if info.round:
        out.append(f'; [Round "{info.round}"]\n')
    if info.event_date:
        y, m, d = info.event_date
        out.append(f'; [EventDate "{y:4d}.{m:02d}.{d:02d}"]\n')
    if state.rules.variant in _VARIATIONS:
        out.append(f'; [Variation "{_VARIATIONS[state.rules.variant]}"]\n')
    if info.transcriber:
        out.append(f'; [Transcriber "{info.transcriber}"]\n')
    out.append("\n")
    out.append(f" {state.length} point match\n\n")
    out.append(f" Game {state.game}\n")
    out.append(_names_line(state))
    return "".join(out)


def _points(n: int) -> str:
    return f"{n} point{'s' if n > 1 else ''}"


def _emit(cursor: MatCursor, text: str, kind: int, player: int, wins: int = 0) -> tuple[str, MatCursor]:
    """gnubg's row layout for one move record (see ExportGameJF)."""
    i = cursor.i
    out = []
    if i == 0 and kind == _NORMAL and player == 1:
        out.append("  1)" + " " * 29)
        i = 1
    if i & 1 or kind == _RESIGN:
        out.append(text)
        if kind != _SETDICE:
            out.append("\n")
    elif kind != _SETDICE:
        out.append(f"{(i >> 1) + 1:3d}) {text:<27} ")
    else:
        out.append(f"{(i >> 1) + 1:3d}) {text:<3}")
    if kind == _DROP:
        out.append("\n")
        if not i & 1:
            out.append("\n")
    if wins:
        out.append(f"{' ' * 34 if i & 1 else chr(10) + ' ' * 6}Wins {_points(wins)}\n\n")
    return "".join(out), replace(cursor, i=i + 1)


def _other_column_end(cursor: MatCursor, text: str, mover: int, winner: int | None, wins: int) -> tuple[str, MatCursor]:
    """A play that ends the game for the *other* player (Anti: whoever bears off all loses)
    or in a draw (Plakoto's two pinned mothers): the ``Wins`` line goes in the winner's
    column, and a draw ends its row with no ``Wins`` line (bgboard's extension)."""
    out, cursor = _emit(cursor, text, _NORMAL, mover)
    if winner is None:
        return out + ("\n" if mover == 0 else "") + "\n", cursor
    if mover == 0:  # the row goes on in the right-hand column
        return out + f"Wins {_points(wins)}\n\n", cursor
    return out + f"      Wins {_points(wins)}\n\n", cursor


def mat_chunk(
    cursor: MatCursor,
    action: Action,
    before: MatchState | None,
    after: MatchState,
    info: MatInfo | None = None,
) -> tuple[str, MatCursor]:
    """The text ``action`` appends to the .mat file and the cursor after it."""
    if isinstance(action, StartMatch):
        return mat_header(after, info), MatCursor()
    assert before is not None
    if isinstance(action, NextGame):
        return f" Game {after.game}\n{_names_line(after)}", MatCursor()
    if isinstance(action, Condone):
        assert before.turn is not None and before.dice is not None
        text = f"{before.dice[0]}{before.dice[1]}: Illegal play ({snowie_text(before, action)})"
        wins = after.games[-1].points if after.phase in (GAME_OVER, MATCH_OVER) else 0
        return _emit(replace(cursor, dice_rolled=False), text, _NORMAL, before.turn, wins)
    if isinstance(action, (Move, Pass)):
        assert before.turn is not None and before.dice is not None
        steps = action.steps if isinstance(action, Move) else ()
        game = before.game_rules
        if game is not None:
            marked = game.steps_of(before.board_view, steps, before.dice)
            text = f"{before.dice[0]}{before.dice[1]}: " + "".join(
                f"{s.frm}/{s.to}{'*' if s.hit else ''}{' ' if k < 3 else ''}" for k, s in enumerate(marked)
            )
        else:
            text = f"{before.dice[0]}{before.dice[1]}: " + format_steps(before.position, steps)
        wins = after.games[-1].points if after.phase in (GAME_OVER, MATCH_OVER) else 0
        cursor = replace(cursor, dice_rolled=False)
        if wins and after.games[-1].winner != before.turn or game is not None and wins == 0 and after.phase in (GAME_OVER, MATCH_OVER):
            return _other_column_end(cursor, text, before.turn, after.games[-1].winner, wins)
        return _emit(cursor, text, _NORMAL, before.turn, wins)
    if isinstance(action, Double):
        assert before.turn is not None
        cube = cursor.file_cube * 2
        return _emit(replace(cursor, file_cube=cube), f" Doubles => {cube}", _DOUBLE, before.turn)
    if isinstance(action, (Take, Beaver)):
        assert before.turn is not None
        # gnubg writes no beaver ("FIXME beavers?"); the beaver's doubled value is kept
        # in the file cube so later "Doubles => N" lines stay right.
        cube = cursor.file_cube * 2 if isinstance(action, Beaver) else cursor.file_cube
        return _emit(replace(cursor, file_cube=cube), " Takes", _TAKE, 1 - before.turn)
    if isinstance(action, Drop):
        assert before.turn is not None
        i = cursor.i
        won = cursor.file_cube // 2
        gap = "\n      " if i & 1 else " " * 23
        text = f" Drops{gap}Wins {won} point{'' if cursor.file_cube == 2 else 's'}"
        return _emit(cursor, text, _DROP, 1 - before.turn)
    if isinstance(action, AcceptResign):
        assert before.turn is not None
        out = ""
        if before.dice is not None:  # rolled, then resigned: gnubg's MOVE_SETDICE
            chunk, cursor = _emit(cursor, f"{before.dice[0]}{before.dice[1]}: ", _SETDICE, before.turn)
            out += chunk
            cursor = replace(cursor, dice_rolled=True)
        resigner = before.turn
        # gnubg writes level × cube; the game's own points differ only under the Jacoby
        # rule (money play, centred cube), where they keep the record readable.
        n = after.games[-1].points
        odd = cursor.i & 1
        flip = bool(odd) ^ cursor.dice_rolled
        if resigner == 1:
            text = f"{chr(10) if flip else ''}      Wins {_points(n)}\n"
        elif odd:
            text = f"{' ' if flip else ' ' * 24}Wins {_points(n)}\n"
        else:
            text = f"{' ' if flip else ' ' * 34}Wins {_points(n)}\n"
        chunk, cursor = _emit(cursor, text, _RESIGN, resigner)
        return out + chunk, cursor
    return "", cursor  # OpeningRoll, Roll, Resign, RejectResign: nothing in the file


def export_mat(actions: Iterable[Action], info: MatInfo | None = None) -> str:
    """The whole .mat text of an action log."""
    out = []
    cursor = MatCursor()
    for action, after, before in states(actions):
        chunk, cursor = mat_chunk(cursor, action, before, after, info)
        out.append(chunk)
    return "".join(out)


# ----------------------------------------------------------------------------- reading
_VARIATION_RE = re.compile(r'^\s*;\s*\[Variation\s+"([^"]*)"\]', re.IGNORECASE)
_VARIANT_OF = {name.lower(): variant for variant, name in _VARIATIONS.items()}
_VARIANT_OF["standard"] = "standard"
_LENGTH_RE = re.compile(r"^\s*(\d+)\s+points?\s+match", re.IGNORECASE)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_NAMES_RE = re.compile(r"^\s*(.+?)\s*:\s*(\d+)\s*(\S.*?)\s*:\s*(\d+)\s*$")
_ROW_RE = re.compile(r"^\s*(\d+)\)(.*)$")
_MOVE_RE = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_DOUBLE_RE = re.compile(r"^Doubles\s*=>\s*(\d+)$", re.IGNORECASE)
_WINS_RE = re.compile(r"^Wins\s+(\d+)\s+points?", re.IGNORECASE)
def parse_steps(text: str) -> tuple[tuple[int, int], ...]:
    """``13/8 8/3* 24/18(2) bar/20 6/off`` → ``((13, 8), (8, 3), ...)`` (read by
    :func:`bgboard.rules.notation.parse_moves`; the board decides the hits)."""
    try:
        moves = parse_moves(text)
    except NotationError as exc:
        raise MatchRecordError(f"cannot read the move: {exc}") from None
    return tuple((a, b) for points, _stars in moves for a, b in zip(points, points[1:]))


_ILLEGAL_RE = re.compile(r"^Illegal play\s*\(([^)]*)\)$", re.IGNORECASE)
_PAREN_RE = re.compile(r"\([^)]*\)")
_ITEM_RE = re.compile(r"(?<!\S)(?:[1-6][1-6]:|Doubles\b|Takes\b|Drops\b|Wins\b)", re.IGNORECASE)

#: An item starting at or beyond this column of a row is player 1's (the right column).
RIGHT_COLUMN = 20


def _columns(line: str) -> list[tuple[int, str]]:
    """The ``(player, text)`` items of one line of a two-column .mat game: an item is
    player 1's when it starts right of :data:`RIGHT_COLUMN` (or follows player 0's)."""
    m = _ROW_RE.match(line)
    start = m.start(2) if m else 0
    body = line[start:]
    quoted = [m.span() for m in _PAREN_RE.finditer(body)]  # an Illegal play's position
    heads = [h.start() for h in _ITEM_RE.finditer(body) if not any(a < h.start() < b for a, b in quoted)]
    if not heads:
        if body.strip():
            raise MatchRecordError(f"cannot read {body.strip()!r}")
        return []
    if body[: heads[0]].strip():
        raise MatchRecordError(f"cannot read {body[: heads[0]].strip()!r}")
    items = []
    for k, head in enumerate(heads):
        end = heads[k + 1] if k + 1 < len(heads) else len(body)
        player = 1 if k > 0 or start + head >= RIGHT_COLUMN else 0
        items.append((player, body[head:end].strip()))
    return items


def read_mat(text: str, rules_name: str | None = None) -> list[Action]:
    """The action log of a ``.mat`` match record (raises :class:`MatchRecordError` naming
    the line for anything it cannot read or that breaks the rules)."""
    lines = text.splitlines()
    length: int | None = None
    for line in lines:
        m = _LENGTH_RE.match(line)
        if m:
            length = int(m.group(1))
            break
    if length is None:
        raise MatchRecordError("no 'N point match' line: this is not a .mat match record")
    variant = None
    for line in lines:
        tag = _VARIATION_RE.match(line)
        if tag:
            variant = _VARIANT_OF.get(tag.group(1).lower())
            if variant is None:
                raise MatchRecordError(f"unknown variation {tag.group(1)!r}")
    reader = _Reader(length, rules_name or ("money" if length == 0 else "standard"), variant)
    reader.illegal_plays = "condone" if any("illegal play" in line.lower() for line in lines) else None
    for number, line in enumerate(lines, start=1):
        try:
            reader.line(line)
        except MatchRuleError as exc:
            raise MatchRecordError(f"line {number}: {exc}") from None
        except MatchRecordError as exc:
            raise MatchRecordError(f"line {number}: {exc}") from None
    reader.finish()
    return reader.actions


def _condoned(text: str, player: int, checkers: int) -> Condone:
    """The :class:`Condone` of an ``Illegal play (...)`` Snowie position (see
    :func:`snowie_text`): the board from the mover's (``player``'s) view; the checkers not
    on the board are borne off."""
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


def _can_play(state: MatchState) -> bool:
    """The player on roll has a legal play of the dice (in the game's own rules)."""
    assert state.dice is not None
    game = state.game_rules
    if game is not None:
        return bool(game.plays(state.board_view, state.dice))
    return bool(rules.legal_plays(state.position, state.dice))


class _Reader:
    """Turns .mat lines into actions, replaying them to check every step."""

    def __init__(self, length: int, rules_name: str, variant: str | None = None) -> None:
        self.variant = variant
        self.length = length
        self.rules_name = rules_name
        self.actions: list[Action] = []
        self.state: MatchState | None = None
        self.in_game = False
        self.expect_names = False
        self.pending: int | None = None  # a player whose roll shows no steps yet
        self.illegal_plays: str | None = None  # "condone" when the file holds an illegal play

    def do(self, action: Action) -> None:
        self.state = apply(self.state, action)
        self.actions.append(action)

    def line(self, line: str) -> None:
        stripped = line.strip()
        if not stripped or stripped.startswith(";") or _LENGTH_RE.match(line):
            return
        m = _GAME_RE.match(line)
        if m:
            self.settle()
            if self.state is not None:
                if self.state.phase != GAME_OVER:
                    raise MatchRecordError(f"game {m.group(1)} starts before the last game ended")
                self.do(NextGame())
            self.in_game = True
            self.expect_names = True
            return
        if self.expect_names:
            names = _NAMES_RE.match(line)
            if not names:
                raise MatchRecordError("expected the players' names and scores")
            self.expect_names = False
            score = (int(names.group(2)), int(names.group(4)))
            if self.state is None:
                players = (names.group(1), names.group(3))
                self.do(
                    StartMatch(
                        self.length, self.rules_name, players, variant=self.variant,
                        illegal_plays=self.illegal_plays,
                    )
                )
            if self.state is not None and self.state.score != score:
                raise MatchRecordError(
                    f"the file gives the score {score[0]}-{score[1]}, "
                    f"the games before give {self.state.score[0]}-{self.state.score[1]}"
                )
            return
        if not self.in_game:
            return
        for player, item in _columns(line):
            self.item(player, item.strip())

    def settle(self, resigning: int | None = None) -> None:
        """A roll written without steps is a pass, unless its roller resigns next (gnubg
        writes dice rolled before a resignation the same way)."""
        if self.pending is None or self.pending == resigning:
            return
        state = self.state
        assert state is not None and state.dice is not None
        if _can_play(state):
            raise MatchRecordError(
                f"{state.players[self.pending]} rolled {state.dice[0]}{state.dice[1]} and did not play"
            )
        self.pending = None
        self.do(Pass())

    def item(self, player: int, text: str) -> None:
        state = self.state
        assert state is not None
        wins = _WINS_RE.match(text)
        self.settle(resigning=1 - player if wins else None)
        m = _MOVE_RE.match(text)
        if m:
            dice = (int(m.group(1)), int(m.group(2)))
            self.move(player, dice, m.group(3).strip())
            return
        m = _DOUBLE_RE.match(text)
        if m:
            self.do(Double(player=player))
            return
        if text.lower().startswith("takes"):
            self.do(Take(player=player))
            return
        if text.lower().startswith("drops"):
            self.do(Drop(player=player))
            return
        m = _WINS_RE.match(text)
        if m:
            self.wins(player, text)
            return
        raise MatchRecordError(f"cannot read {text!r}")

    def move(self, player: int, dice: tuple[int, int], text: str) -> None:
        state = self.state
        assert state is not None
        if state.phase == OPENING:
            if dice[0] == dice[1]:
                raise MatchRecordError(f"an opening roll cannot be a double ({dice[0]}{dice[1]})")
            high, low = max(dice), min(dice)
            self.do(OpeningRoll((high, low) if player == 0 else (low, high)))
        elif state.phase == TURN:
            if state.turn != player:
                raise MatchRecordError(f"{state.players[player]} moves out of turn")
            self.do(Roll(dice))
        state = self.state
        assert state is not None
        if state.phase != PLAY or state.turn != player:
            raise MatchRecordError(f"{state.players[player]} cannot move now")
        illegal = _ILLEGAL_RE.match(text)
        if illegal:
            self.do(_condoned(illegal.group(1), player, state.checkers))
            return
        steps = parse_steps(text)
        if steps:
            self.do(Move(steps))
        else:
            self.pending = player  # a pass, or dice rolled before resigning: see settle()

    def wins(self, player: int, text: str) -> None:
        m = _WINS_RE.match(text)
        if not m:
            raise MatchRecordError(f"cannot read {text!r}")
        points = int(m.group(1))
        state = self.state
        assert state is not None
        if state.phase not in (GAME_OVER, MATCH_OVER):
            # A resignation: the loser resigns, the winner accepts.
            loser = 1 - player
            if state.turn != loser:
                raise MatchRecordError(f"{state.players[loser]} resigns out of turn")
            if points % state.cube or not 1 <= points // state.cube <= 3:
                raise MatchRecordError(f"{points} points is no resignation with the cube at {state.cube}")
            self.do(Resign(points // state.cube))
            self.do(AcceptResign())
            self.pending = None
        state = self.state
        assert state is not None
        last = state.games[-1]
        if (last.winner, last.points) != (player, points):
            raise MatchRecordError(
                f"the file says {state.players[player]} wins {points}, "
                f"the moves give {state.players[last.winner]} {last.points}"
            )

    def finish(self) -> None:
        if self.state is None:
            raise MatchRecordError("the file holds no game")
        state = self.state
        if self.pending is not None and state.dice and _can_play(state):
            return  # the record ends on a roll not yet played: a match in progress
        self.settle()
