"""Grading every decision of a match record with an engine, as gnubg's ``analyse match``
walks it (analysis.c ``AnalyzeMove`` / ``updateStatcontext``).

Pure given the :class:`Evaluator` it is handed (the engines live in
:mod:`bgboard.analysis.evaluators`): the match comes from :func:`bgboard.match.import_mat`
(a ``.mat`` file, or a journal's match written as one).  For each item of each game:

* a roll (a play, a pass, an illegal play kept as written; not dice rolled before a
  resignation, which gnubg's import does not keep): one of the player's moves; a
  cube decision "no double" first when the cube was available to them and the board is
  not the starting position (gnubg's ``GetDPEq`` and ``is_initial_position``); the roll's
  luck (best equity of the roll thrown − the mean over all rolls; over the 30 opening
  rolls, either player's, at the starting position: gnubg's ``LuckFirst``); the play's
  error (best − played) among the engine's candidates;
* a double (not a beaver), a take, a pass: the doubler's no double / double-take /
  double-pass equities decide the error, as in ``updateStatcontext``.
"""

from __future__ import annotations

from typing import Callable, Protocol

from bgboard.analysis.stats import CheckerDecision, CubeDecision, LuckRoll, MatchAnalysis
from bgboard.hints.hint_engine import CubeState
from bgboard.match.mat_types import ImportedMatch, MatPlay
from bgboard.match.state import MatchState
from bgboard.rules import Position, format_play, legal_plays, position_id
from bgboard.rules.starts import start_position

__all__ = ["Evaluator", "analyse_match", "cube_state", "START"]

#: The starting position (either side's view: it is symmetric).
START = start_position("standard")
_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
#: gnubg's threshold for a close cube decision (eval.c ``isCloseCubedecision``).
CLOSE_CUBE = 0.16
#: Cube equities closer than this are equal (a no double worth exactly the cash is no
#: missed double).  gnubg computes in single precision: in games all but decided it counts
#: some mistakes of a few 1e-5 EMG and not others, so counts of such mistakes may differ
#: (docs/analysis.md); the error totals do not.
TIE = 1e-6


class Evaluator(Protocol):
    """What the walk asks an engine (every value the mover's EMG at ``state``)."""

    name: str

    def plays(
        self, position: Position, dice: tuple[int, int], state: CubeState, played: Position | None = None
    ) -> tuple[int, list[tuple[Position, float]]]:
        """(distinct legal plays, [(resulting position, EMG)] best first, ``played`` included)."""
        ...

    def best_value(self, position: Position, dice: tuple[int, int], state: CubeState) -> float:
        """EMG after the best play of ``dice`` (or of passing when there is none)."""
        ...

    def cube(self, position: Position, state: CubeState) -> tuple[float, float, float] | None:
        """(no double, double/take, double/pass) for the player on roll, or None."""
        ...

    def win_lose(self, state: CubeState) -> tuple[float, float]:
        """Match winning chances after winning / losing the cube's value now."""
        ...


def cube_state(state: MatchState, player: int) -> CubeState:
    """The cube and score of ``state`` as ``player`` sees them (1-away at least)."""
    owner = "centred" if state.cube_owner is None else ("mine" if state.cube_owner == player else "theirs")
    if state.length == 0:
        return CubeState(value=state.cube, owner=owner, jacoby=state.rules.jacoby, beaver=state.rules.beavers)
    return CubeState(
        value=state.cube,
        owner=owner,
        my_away=max(1, state.length - state.score[player]),
        their_away=max(1, state.length - state.score[1 - player]),
        crawford=state.crawford,
    )


#: The cube's owner seen from the other side.
SWAP_OWNER = {"centred": "centred", "mine": "theirs", "theirs": "mine"}


def swap_cube(state: CubeState) -> CubeState:
    """The cube and score seen from the other player."""
    owner = SWAP_OWNER[state.owner]
    return CubeState(value=state.value, owner=owner, my_away=state.their_away, their_away=state.my_away,
                     crawford=state.crawford, jacoby=state.jacoby, beaver=state.beaver)


def may_double(state: CubeState) -> bool:
    """gnubg's ``GetDPEq``: the player on roll may turn the cube now."""
    if state.owner == "theirs":
        return False
    if state.money:
        return True
    return not state.crawford and state.my_away > state.value


def _scale(evaluator: Evaluator, state: CubeState) -> float:
    """MWC (points at money) per EMG: gnubg's ``eq2mwc(x) - eq2mwc(0)`` slope."""
    if state.money:
        return float(state.value)
    win, lose = evaluator.win_lose(state)
    return (win - lose) / 2.0


def _luck(evaluator: Evaluator, position: Position, dice: tuple[int, int], state: CubeState) -> float:
    """gnubg's ``LuckNormal`` / ``LuckFirst`` for the roll ``dice`` of the player on roll."""
    hi, lo = max(dice), min(dice)
    if position == START and hi != lo:
        other = swap_cube(state)
        total = 0.0
        for a, b in _ROLLS:
            if a == b:
                continue
            total += evaluator.best_value(position, (a, b), state)
            total -= evaluator.best_value(position, (a, b), other)
        return evaluator.best_value(position, (hi, lo), state) - total / 30.0
    total = 0.0
    mine = 0.0
    for a, b in _ROLLS:
        value = evaluator.best_value(position, (a, b), state)
        total += value if a == b else 2.0 * value
        if (a, b) == (hi, lo):
            mine = value
    return mine - total / 36.0


def _notation(position: Position, dice: tuple[int, int], after: Position | None) -> str:
    if after is None:
        return "(no play)"
    for play in legal_plays(position, dice):
        if play.position == after:
            return format_play(play.steps)
    return "(not a legal play)"


def analyse_match(
    match: ImportedMatch,
    evaluator: Evaluator,
    *,
    plies: int = 0,
    luck: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """Grade every decision of ``match`` with ``evaluator`` (see the module docstring).
    ``progress(done, total)`` is called after each item."""
    checker: list[CheckerDecision] = []
    cube: list[CubeDecision] = []
    rolls: list[LuckRoll] = []
    total_moves = [0, 0]
    items = [(g.number, p) for g in match.games for p in g.plays]
    pending: tuple[CubeDecision, float] | None = None
    for done, (game, play) in enumerate(items, 1):
        if play.kind in ("move", "pass", "illegal", "roll"):
            _roll(evaluator, play, game, checker, cube, rolls, total_moves, luck)
        elif play.kind == "double":
            pending = _double(evaluator, play, game, cube)
        elif play.kind in ("take", "drop") and pending is not None:
            cube.append(_answer(pending[0], pending[1], play, game))
            pending = None
        if progress is not None:
            progress(done, len(items))
    return MatchAnalysis(
        players=match.players,
        length=match.length,
        engine=evaluator.name,
        plies=plies,
        checker=tuple(checker),
        cube=tuple(cube),
        luck=tuple(rolls),
        total_moves=(total_moves[0], total_moves[1]),
        result=_result(match),
        problems=tuple(str(p) for p in match.problems),
    )


def _result(match: ImportedMatch) -> tuple[float, float] | None:
    """Each player's actual result: a decided match's MWC − 0.5; points at money."""
    if match.length == 0:
        won = [0.0, 0.0]
        for g in match.games:
            if g.winner is not None:
                won[g.winner] += g.points
                won[1 - g.winner] -= g.points
        return won[0], won[1]
    if match.winner is None:
        return None
    return (0.5, -0.5) if match.winner == 0 else (-0.5, 0.5)


def _roll(
    evaluator: Evaluator,
    play: MatPlay,
    game: int,
    checker: list[CheckerDecision],
    cube: list[CubeDecision],
    rolls: list[LuckRoll],
    total_moves: list[int],
    luck: bool,
) -> None:
    before = play.before
    player = play.player
    if play.dice is None or not before.playing.hints:  # no engine evaluates this game's positions
        return
    position = Position(before.board[player], before.board[1 - player])
    state = cube_state(before, player)
    scale = _scale(evaluator, state)
    pid = position_id(position)
    initial = position == START
    if not initial and before.cube_used and may_double(state):
        values = evaluator.cube(position, state)
        if values is not None:
            cube.append(_no_double(values, player, game, play.line, pid, scale))
    if play.kind == "roll":
        # dice rolled and not played (a resignation followed): gnubg's import keeps no
        # roll there, so it has no luck either
        return
    if luck:
        value = _luck(evaluator, position, play.dice, state)
        rolls.append(LuckRoll(player, value, value * scale))
    total_moves[player] += 1
    played = play.result if play.kind in ("move", "illegal") else None
    count, ranked = evaluator.plays(position, play.dice, state, played)
    if count == 0:
        checker.append(CheckerDecision(player, game, play.line, pid, play.dice, "(no play)", "(no play)", 0, 0.0, 0.0))
        return
    best_after, best = ranked[0]
    error = 0.0
    for after, value in ranked:
        if after == played:
            error = max(0.0, best - value)
            break
    checker.append(
        CheckerDecision(
            player, game, play.line, pid, play.dice,
            play.text.strip() or _notation(position, play.dice, played),
            _notation(position, play.dice, best_after) if error > 0 else play.text.strip(),
            count, error, error * scale,
        )
    )


def _better(nd: float, dt: float, dp: float) -> tuple[str, float]:
    """gnubg's ``FindBestCubeDecision``: the right action's words and its equity."""
    if dt >= nd and dp >= nd:
        return ("double, take", dt) if dp > dt else ("double, pass", dp)
    if nd > dp:
        return ("too good to double, " + ("pass" if dt > dp else "take"), nd)
    return ("no double, take", nd)


def _no_double(values: tuple[float, float, float], player: int, game: int, line: int, pid: str, scale: float) -> CubeDecision:
    nd, dt, dp = values
    better, optimal = _better(nd, dt, dp)
    double = min(dt, 1.0)
    close = optimal - double < CLOSE_CUBE
    error = optimal - nd if optimal - nd > TIE else 0.0
    mistake = None
    if error > 0.0:
        mistake = "missed doubles above CP" if dt > 1.0 else "missed doubles below CP"
    return CubeDecision(player, game, line, pid, "no double", nd, dt, dp, close, error, error * scale, mistake, better)


def _double(evaluator: Evaluator, play: MatPlay, game: int, cube: list[CubeDecision]) -> tuple[CubeDecision, float] | None:
    before = play.before
    player = play.player
    if not before.playing.hints or not before.cube_used:
        return None
    state = cube_state(before, player)
    position = Position(before.board[player], before.board[1 - player])
    values = evaluator.cube(position, state)
    if values is None:
        return None
    nd, dt, dp = values
    better, optimal = _better(nd, dt, dp)
    scale = _scale(evaluator, state)
    error = optimal - min(dt, dp) if optimal - min(dt, dp) > TIE else 0.0
    mistake = None
    if error > 0:
        mistake = "wrong doubles above TG" if nd > 1.0 else "wrong doubles below DP"
    decision = CubeDecision(player, game, play.line, position_id(position), "double", nd, dt, dp, True,
                            error, error * scale, mistake, better)
    cube.append(decision)
    return decision, scale


def _answer(double: CubeDecision, scale: float, play: MatPlay, game: int) -> CubeDecision:
    """The opponent's take or pass of ``double`` (graded on the doubler's equities)."""
    dt, dp = double.dt, double.dp
    if play.kind == "take":
        error, mistake, better, kind = dt - dp, "wrong takes", ("pass" if dt > dp else "take"), "take"
    else:
        error, mistake, better, kind = dp - dt, "wrong passes", ("take" if dp > dt else "pass"), "pass"
    error = error if error > TIE else 0.0
    return CubeDecision(play.player, game, play.line, double.position_id, kind, double.nd, dt, dp, True,
                        error, error * scale, mistake if error > 0 else None, better)

