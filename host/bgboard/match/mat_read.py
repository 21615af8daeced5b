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
moves, Snowie positions) is :mod:`bgboard.match.mat_lines`'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from bgboard import rules
from bgboard.match.actions import (
    AcceptResign,
    Action,
    Beaver,
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
from bgboard.match.rule_errors import MatchRecordError, MatchRuleError
from bgboard.match.mat_lines import (
    MAX_LENGTH, MAX_TEXT, bounded, columns, condoned, decode_mat, names_line, parse_steps, position_id,
    split_rating, variant_of,
)
from bgboard.match.mat_types import ImportedMatch, MatGame, MatPlay, MatProblem
from bgboard.match.state import (
    DOUBLED,
    GAME_OVER,
    MATCH_OVER,
    OPENING,
    PLAY,
    TURN,
    MatchState,
    after_play,
    apply,
    fresh_game,
    game_variant,
)
from bgboard.rules import Position
from bgboard.rules.games import recorded
from bgboard.rules.notation import IllegalPlayError as NotationIllegal
from bgboard.rules.notation import NotationError, play_out

__all__ = ["import_mat", "read_mat"]

_LENGTH_RE = re.compile(r"^\s*(\d{1,10})\s*points?\s*match\b", re.IGNORECASE)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)", re.IGNORECASE)
_TAG_RE = re.compile(r'^\[\s*([A-Za-z][\w ]*?)\s*"(.*)"\s*\]?\s*$')
_ROLL_RE = re.compile(r"^([1-6])([1-6]):(.*)$")
_WINS_RE = re.compile(r"^wins?\s+(\d+)", re.IGNORECASE)
_ILLEGAL_RE = re.compile(r"^Illegal play\s*\(([^)]*)\)?", re.IGNORECASE)


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
                variant = variant_of(value)
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
            MatPlay(line, self.game["number"], player, kind, dice, bounded(text),
                    position_id(before, player), steps, level, before, self.st)
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
                names = names_line(line)
                if names is None:
                    self.problem(number, f"expected the players' names and scores (like 'Ann : 0   Bob : 0'), "
                                         f"not {bounded(line)!r}: game {game_no} is left out")
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
        (player0, rating0), (player1, rating1) = split_rating(name0), split_rating(name1)
        players = (bounded(player0)[:MAX_TEXT], bounded(player1)[:MAX_TEXT])
        if first:
            self.players = players
            self.ratings = (rating0, rating1)
            self.do(StartMatch(self.length, "money" if self.length == 0 else "standard", players,
                               jacoby=self.jacoby, beavers=self.beavers or None,
                               variant=recorded(self.variant),
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
        self.force(game=game, score=score, **fresh_game(game_variant(self.st.rules.variant, game)))

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
            self.problem(line, f"{bounded(text)!r} comes after the game ended: left out")
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
            self.problem(line, f"cannot read {bounded(text)!r}: left out (gnubg leaves it out too)")

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
        seed = st.playing.seed
        position = st.position
        if not text:
            plays = st.playing.plays(st.board_view, dice)
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
            if seed:  # a seed variant (bgboard's extension): its own rules only
                self.problem(line, f"illegal play by {self.name(player)}: {dice[0]}{dice[1]}: {bounded(text)} "
                                   f"({exc}): left out")
                self.pending = _Pending(player, line, text, st, 0, None, quiet=True)
                return
        try:
            result = play_out(text, position)
        except (NotationError, NotationIllegal) as exc:
            self.problem(line, f"{self.name(player)}'s {dice[0]}{dice[1]}: {bounded(text)} cannot be played "
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
        self.problem(line, f"illegal play by {self.name(player)}: {dice[0]}{dice[1]}: {bounded(text)} ({reason}): "
                           "kept as written")
        self.state = after_play(st, player, result)
        self.replayable = False
        self.record(line, player, "illegal", st, text, dice, steps)

    def snowie(self, line: int, player: int, dice: tuple[int, int], text: str, fields: str) -> None:
        """Snowie's ``Illegal play (...)``: the board after the play (gnubg's SETBOARD)."""
        st = self.st
        try:
            action = condoned(fields, player, st.checkers)
        except MatchRecordError as exc:
            self.problem(line, f"{exc}: left out")
            self.pending = _Pending(player, line, text, st, 0, None, quiet=True)
            return
        try:
            self.do(action)
        except MatchRuleError as exc:
            self.problem(line, f"illegal play by {self.name(player)}: {exc}: kept as written")
            self.state = after_play(st, player, Position(action.mine, action.theirs))
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
            self.problem(line, f"{bounded(text)!r} answers no double: left out (as gnubg does)")
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
