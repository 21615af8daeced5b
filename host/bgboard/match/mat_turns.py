"""The items of a turn in a ``.mat`` file (pure), as gnubg's ``import mat`` reads them
(gnubg/import.c, ``ParseMatMove``): a roll and its play (a pass, the only play, or dice
rolled before a resignation when none is written), Snowie's ``Illegal play (...)``,
``Doubles``, ``Takes``, ``Drops``, ``Beavers`` and ``Wins``, each replayed on the
:class:`~bgboard.match.mat_scoresheet.Scoresheet` and, where the rules do not allow it, read
as gnubg reads it with the problem noted.  The lines and games around them are
:mod:`bgboard.match.mat_read`'s."""

from __future__ import annotations

import re
from dataclasses import replace

from bgboard import rules
from bgboard.match.actions import (
    AcceptResign, Beaver, Double, Drop, Move, OpeningRoll, Pass, Resign, Roll, Take,
)
from bgboard.match.mat_lines import bounded, condoned, parse_steps
from bgboard.match.mat_scoresheet import Pending, Scoresheet
from bgboard.match.rule_errors import MatchRecordError, MatchRuleError
from bgboard.match.state import DOUBLED, GAME_OVER, MATCH_OVER, OPENING, PLAY, TURN, after_play
from bgboard.rules import Position
from bgboard.rules.notation import IllegalPlayError as NotationIllegal
from bgboard.rules.notation import NotationError, play_out

__all__ = ["read_item", "settle"]

_ROLL_RE = re.compile(r"^([1-6])([1-6]):(.*)$")
_WINS_RE = re.compile(r"^wins?\s+(\d+)", re.IGNORECASE)
_ILLEGAL_RE = re.compile(r"^Illegal play\s*\(([^)]*)\)?", re.IGNORECASE)


def read_item(sheet: Scoresheet, line: int, player: int, text: str) -> None:
    """One item of ``player``'s column: a roll with its play, a cube action, a ``Wins``
    line; anything else (or anything after the game ended) is a problem and left out."""
    low = text.lower()
    roll = _ROLL_RE.match(text)
    wins = _WINS_RE.match(text)
    if sheet.st.phase in (GAME_OVER, MATCH_OVER) and not wins:
        if low.startswith("resign"):
            return
        sheet.problem(line, f"{bounded(text)!r} comes after the game ended: left out")
        return
    if roll:
        settle(sheet)
        _roll(sheet, line, player, (int(roll.group(1)), int(roll.group(2))), roll.group(3).strip())
    elif low.startswith(("double", "redouble")):
        settle(sheet)
        _double(sheet, line, player, text)
    elif low.startswith(("take", "accept")):
        settle(sheet)
        _answer(sheet, line, player, "take", text)
    elif low.startswith(("beaver", "raccoon")):
        settle(sheet)
        _answer(sheet, line, player, "beaver", text)
    elif low.startswith(("drop", "pass", "reject")):
        settle(sheet)
        _answer(sheet, line, player, "drop", text)
    elif wins:
        _wins(sheet, line, player, int(wins.group(1)), text)
    elif low.startswith("resign"):
        return  # ".gam" style "Resigns": the Wins line tells the rest (gnubg ignores it)
    else:
        sheet.problem(line, f"cannot read {bounded(text)!r}: left out (gnubg leaves it out too)")


def _to_play(sheet: Scoresheet, line: int, player: int, dice: tuple[int, int]) -> None:
    """Bring the state to ``player`` playing ``dice``."""
    st = sheet.st
    if st.phase == OPENING:
        if dice[0] == dice[1]:
            sheet.problem(line, f"an opening roll cannot be a double ({dice[0]}{dice[1]}): "
                                "read as the file gives it")
            sheet.force(phase=PLAY, turn=player, dice=dice)
            return
        high, low = max(dice), min(dice)
        sheet.do(OpeningRoll((high, low) if player == 0 else (low, high)))
        return
    if st.phase == DOUBLED:
        sheet.problem(line, f"{sheet.name(1 - st.turn if st.turn is not None else 0)} did not answer the double: "  # noqa: E501
                            "read as taken (as gnubg does)")
        assert st.turn is not None
        sheet.force(phase=TURN, cube=st.cube * 2, cube_owner=1 - st.turn)
        st = sheet.st
    if st.phase == TURN and st.turn == player:
        sheet.do(Roll(dice))
        return
    sheet.problem(line, f"{sheet.name(player)} rolls {dice[0]}{dice[1]} out of turn: read as the file gives it")
    sheet.force(phase=PLAY, turn=player, dice=dice)


def _roll(sheet: Scoresheet, line: int, player: int, dice: tuple[int, int], text: str) -> None:
    """``player`` rolls ``dice`` and plays ``text`` (none: settled by what follows)."""
    _to_play(sheet, line, player, dice)
    st = sheet.st
    if st.turn != player:  # pragma: no cover - to_play hands the roll over
        return
    if text.startswith("?"):  # XG: dice rolled before resigning
        text = text.lstrip("?").strip()
    if text.lower().startswith("cannot move"):
        text = ""
    illegal = _ILLEGAL_RE.match(text)
    if illegal:
        _snowie(sheet, line, player, dice, text, illegal.group(1))
        return
    if not text:
        plays = st.playing.plays(st.board_view, dice)
        forced = plays[0].steps if len(plays) == 1 else None
        sheet.pending = Pending(player, line, text, st, len(plays),
                                tuple((s.frm, s.to) for s in forced) if forced is not None else None)
        return
    try:
        steps = parse_steps(text)
    except MatchRecordError as exc:
        sheet.problem(line, f"{sheet.name(player)}'s {dice[0]}{dice[1]}: {exc}: left out (gnubg leaves it out too)")
        sheet.pending = Pending(player, line, text, st, 0, None, quiet=True)
        return
    try:
        sheet.do(Move(steps))
        sheet.record(line, player, "move", st, text, dice, steps)
        return
    except MatchRuleError as exc:
        if st.playing.seed:  # a seed variant (bgboard's extension): its own rules only
            sheet.problem(line, f"illegal play by {sheet.name(player)}: {dice[0]}{dice[1]}: {bounded(text)} "
                                f"({exc}): left out")
            sheet.pending = Pending(player, line, text, st, 0, None, quiet=True)
            return
    _written_play(sheet, line, player, dice, text, steps)


def _written_play(sheet: Scoresheet, line: int, player: int, dice: tuple[int, int], text: str,
                  steps: tuple[tuple[int, int], ...]) -> None:
    """A backgammon play our rules refuse as written: the legal play that leaves the same
    board (written another way), else the board it leaves kept as written (a problem), or
    left out when it cannot be made on this board at all (a problem)."""
    st = sheet.st
    position = st.position
    try:
        result = play_out(text, position)
    except (NotationError, NotationIllegal) as exc:
        sheet.problem(line, f"{sheet.name(player)}'s {dice[0]}{dice[1]}: {bounded(text)} cannot be played "
                            f"on this board ({exc}): left out (as gnubg does)")
        sheet.pending = Pending(player, line, text, st, 0, None, quiet=True)
        return
    for play in rules.legal_plays(position, dice):
        if play.position == result:  # written another way (11/4 for 61: 11/5 5/4)
            legal = tuple((s.frm, s.to) for s in play.steps)
            sheet.do(Move(legal))
            sheet.record(line, player, "move", st, text, dice, legal)
            return
    reason = rules.explain(position, dice, result) or f"not a play of {dice[0]}{dice[1]}"
    sheet.problem(line, f"illegal play by {sheet.name(player)}: {dice[0]}{dice[1]}: {bounded(text)} ({reason}): "
                        "kept as written")
    sheet.state = after_play(st, player, result)
    sheet.replayable = False
    sheet.record(line, player, "illegal", st, text, dice, steps)


def _snowie(sheet: Scoresheet, line: int, player: int, dice: tuple[int, int], text: str, fields: str) -> None:
    """Snowie's ``Illegal play (...)``: the board after the play (gnubg's SETBOARD)."""
    st = sheet.st
    try:
        action = condoned(fields, player, st.checkers)
    except MatchRecordError as exc:
        sheet.problem(line, f"{exc}: left out")
        sheet.pending = Pending(player, line, text, st, 0, None, quiet=True)
        return
    try:
        sheet.do(action)
    except MatchRuleError as exc:
        sheet.problem(line, f"illegal play by {sheet.name(player)}: {exc}: kept as written")
        sheet.state = after_play(st, player, Position(action.mine, action.theirs))
        sheet.replayable = False
    sheet.record(line, player, "condone", st, text, dice)


def settle(sheet: Scoresheet, resigner: int | None = None, eof: bool = False) -> None:
    """A roll written without a play, decided by what follows it."""
    pending, sheet.pending = sheet.pending, None
    if pending is None:
        return
    st = sheet.st
    dice = pending.before.dice
    kind = "roll" if pending.plays else "pass"
    if pending.quiet:  # a play left out: gnubg keeps no record of it either
        if resigner is None and not eof and st.phase == PLAY and st.turn == pending.player:
            sheet.force(phase=TURN, turn=1 - pending.player, dice=None)
        return
    if resigner == pending.player:
        sheet.record(pending.line, pending.player, kind, pending.before, pending.text, dice)
        return
    if not pending.plays and not pending.quiet:
        sheet.do(Pass())
        sheet.record(pending.line, pending.player, "pass", pending.before, pending.text, dice)
        return
    if pending.forced is not None:
        sheet.do(Move(pending.forced))
        sheet.record(pending.line, pending.player, "move", pending.before, pending.text, dice, pending.forced)
        return
    sheet.record(pending.line, pending.player, "roll", pending.before, pending.text, dice)
    if eof:
        return  # the record ends on a roll not yet played: a match in progress
    assert dice is not None
    sheet.problem(pending.line, f"{sheet.name(pending.player)} rolled {dice[0]}{dice[1]} and did not play, "
                                    "though a play was legal: the turn passes (as gnubg reads it)")
    if st.phase == PLAY and st.turn == pending.player:
        sheet.force(phase=TURN, turn=1 - pending.player, dice=None)


def _double(sheet: Scoresheet, line: int, player: int, text: str) -> None:
    """``player`` doubles; out of turn or against the cube rules, read as doubled (a problem)."""
    st = sheet.st
    if st.phase == TURN and st.turn == player:
        try:
            sheet.do(Double(player=player))
        except MatchRuleError as exc:
            sheet.problem(line, f"{sheet.name(player)} doubles: {exc}: read as doubled (as gnubg does)")
            sheet.force(phase=DOUBLED)
    else:
        sheet.problem(line, f"{sheet.name(player)} doubles out of turn: read as doubled (as gnubg does)")
        sheet.force(phase=DOUBLED, turn=player, dice=None)
    sheet.record(line, player, "double", st, text)


def _answer(sheet: Scoresheet, line: int, player: int, kind: str, text: str) -> None:
    """``player`` takes, drops or beavers (``kind``) the double; a beaver in a match is a take."""
    st = sheet.st
    if st.phase != DOUBLED or st.decider != player:
        sheet.problem(line, f"{bounded(text)!r} answers no double: left out (as gnubg does)")
        return
    if kind == "beaver" and not (st.rules.money and st.rules.beavers):
        if not st.rules.money:
            sheet.problem(line, "a beaver in a match: read as a take")
            kind = "take"
        else:
            sheet.force(rules=replace(st.rules, beavers=True))
    action = {"take": Take, "drop": Drop, "beaver": Beaver}[kind](player=player)
    sheet.do(action)
    sheet.record(line, player, kind, st, text)


def _wins(sheet: Scoresheet, line: int, player: int, points: int, text: str) -> None:
    """``player`` wins ``points``: after the game's end, checked against it; while the game
    is on, the other player resigned (gnubg's levels from the cube)."""
    st = sheet.st
    if st.phase in (GAME_OVER, MATCH_OVER):
        settle(sheet)
        last = st.games[-1]
        if (last.winner, last.points) != (player, points):
            given = "a draw" if last.winner is None else f"{sheet.name(last.winner)} {last.points}"
            sheet.problem(line, f"the file says {sheet.name(player)} wins {points}, the moves give {given}")
        return
    loser = 1 - player
    pending = sheet.pending
    if pending is not None and pending.player == player:
        # The winner's unplayed roll: the loser resigned while the winner was to play.
        sheet.pending = None
        if not pending.quiet:
            kind = "roll" if pending.plays else "pass"
            sheet.record(pending.line, pending.player, kind, pending.before, pending.text, pending.before.dice)
        st = sheet.st
    else:
        settle(sheet, resigner=loser)
        st = sheet.st
    level = 1 if points <= st.cube else 2 if points <= 2 * st.cube else 3
    before = st
    if st.phase not in (TURN, PLAY) or st.turn != loser:
        # A resignation by the player not on roll (or before the first roll): gnubg
        # records it whoever is on roll.
        sheet.force(phase=TURN, turn=loser, dice=None)
    sheet.do(Resign(level))
    sheet.do(AcceptResign())
    got = sheet.st.games[-1].points
    sheet.record(line, loser, "resign", before, text, level=level)
    if got != points:
        sheet.problem(line, f"the file says {sheet.name(player)} wins {points}: resigning "
                            f"{('a single', 'a gammon', 'a backgammon')[level - 1]} with the cube at "
                            f"{st.cube} gives {got} (as gnubg counts it)")
