"""Writing Jellyfish ``.mat`` match records exactly as gnubg's ``export match mat`` does.

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

Reading is :mod:`bgboard.match.mat_read`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from bgboard.match.actions import (
    AcceptResign,
    Action,
    Beaver,
    Condone,
    Double,
    Drop,
    Move,
    NextGame,
    Pass,
    StartMatch,
    Take,
)
from bgboard.match.state import GAME_OVER, MATCH_OVER, MatchState, states
from bgboard.rules import BAR, Position
from bgboard.rules.games import VARIANTS

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


#: The .mat ``Variation`` of each match format that has one (the registry's ``mat_name``;
#: the seed games' are bgboard's extension, docs/match.md "Records of the variants").
VARIATIONS = {name: v.mat_name for name, v in VARIANTS.items() if v.mat_name is not None}


def format_steps(position: Position, steps: Sequence[tuple[int, int]]) -> str:
    """The steps in the order they were played (as gnubg keeps a move entered with its
    ``move`` command; a move it reads from a file it stores in its own generator's order),
    formatted as gnubg's ``FormatMovePlain``: ``13/8 8/3* `` (a space after each of the first three
    steps; ``*`` when the opponent had a checker on the destination before the move and no
    earlier step of the move landed there)."""
    out: list[str] = []
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
    out: list[str] = []
    if info.site:
        out.append(f'; [Site "{info.site}"]\n')
    if info.event:
        out.append(f'; [Event "{info.event}"]\n')
    if info.round:
        out.append(f'; [Round "{info.round}"]\n')
    if info.event_date:
        y, m, d = info.event_date
        out.append(f'; [EventDate "{y:4d}.{m:02d}.{d:02d}"]\n')
    variation = VARIANTS[state.rules.variant].mat_name
    if variation is not None:
        out.append(f'; [Variation "{variation}"]\n')
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
    out: list[str] = []
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


def _play_chunk(cursor: MatCursor, action: Move | Pass, before: MatchState, after: MatchState) -> tuple[str, MatCursor]:
    """A play (or a pass: the roll alone) in its player's column, and the game's end when
    the play ends it."""
    assert before.turn is not None and before.dice is not None
    steps = action.steps if isinstance(action, Move) else ()
    seed = before.playing.seed
    if seed:
        marked = before.playing.steps_of(before.board_view, steps, before.dice)
        text = f"{before.dice[0]}{before.dice[1]}: " + "".join(
            f"{s.frm}/{s.to}{'*' if s.hit else ''}{' ' if k < 3 else ''}" for k, s in enumerate(marked)
        )
    else:
        text = f"{before.dice[0]}{before.dice[1]}: " + format_steps(before.position, steps)
    wins = after.games[-1].points if after.phase in (GAME_OVER, MATCH_OVER) else 0
    cursor = replace(cursor, dice_rolled=False)
    if wins and after.games[-1].winner != before.turn or seed and wins == 0 and after.phase in (GAME_OVER, MATCH_OVER):
        return _other_column_end(cursor, text, before.turn, after.games[-1].winner, wins)
    return _emit(cursor, text, _NORMAL, before.turn, wins)


def _resign_chunk(cursor: MatCursor, before: MatchState, after: MatchState) -> tuple[str, MatCursor]:
    """An accepted resignation: the resigner's dice when they had rolled, then the
    winner's ``Wins`` in the other column."""
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
        return _play_chunk(cursor, action, before, after)
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
        return _resign_chunk(cursor, before, after)
    return "", cursor  # OpeningRoll, Roll, Resign, RejectResign: nothing in the file


def export_mat(actions: Iterable[Action], info: MatInfo | None = None) -> str:
    """The whole .mat text of an action log."""
    return mat_of_states(states(actions), info)


def mat_of_states(
    replayed: Iterable[tuple[Action, MatchState, MatchState | None]], info: MatInfo | None = None
) -> str:
    """The whole .mat text of a log already replayed (:func:`bgboard.match.state.states`):
    for a writer that keeps the replay of a growing log instead of replaying it again."""
    out: list[str] = []
    cursor = MatCursor()
    for action, after, before in replayed:
        chunk, cursor = mat_chunk(cursor, action, before, after, info)
        out.append(chunk)
    return "".join(out)
