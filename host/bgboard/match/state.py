"""The match state machine: a pure ``apply(state, action) -> state``.

:class:`MatchState` is a frozen value holding everything a club scorer needs: the score,
the cube (value and owner), the Crawford flags, who is on roll, the dice, the pending
decision (``phase``) and the board.  The board is kept in **absolute** terms:
``board[p]`` is player ``p``'s 26-tuple from player ``p``'s own view (index 0 = off,
1..24 = points, 25 = bar).  :attr:`MatchState.position` gives the
``bgboard.rules.Position`` from the view of the player on roll.

Phases (who decides is :attr:`MatchState.decider`):

=============  ================================================  =========================
phase          waiting for                                       actions
=============  ================================================  =========================
``opening``    the opening roll (one die each)                   OpeningRoll
``turn``       the player on roll to roll or double              Roll, Double, Resign
``doubled``    the opponent to answer the double                 Take, Drop, Beaver
``play``       the player on roll to play the dice               Move, Condone, Pass, Resign
``resigned``   the opponent to answer the resignation            AcceptResign, RejectResign
``game_over``  the next game                                     NextGame
``match_over`` nothing: the match is decided                     --
=============  ================================================  =========================

An action the rules forbid raises :class:`~bgboard.match.rule_errors.MatchRuleError` whose
message names the rule; the state is never changed in place.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Callable, Iterable, Iterator

from bgboard import rules
from bgboard.language import Phrase
from bgboard.match import cube as cubes
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
    RejectResign,
    Resign,
    Roll,
    StartMatch,
    Take,
)
from bgboard.match.condone import condone_refusal
from bgboard.match.rule_errors import IllegalPlayError, MatchRuleError
from bgboard.match.values import (
    DOUBLED,
    GAME_OVER,
    MATCH_OVER,
    MATCH_VARIANTS,
    OPENING,
    PHASES,
    PLAY,
    RESIGNED,
    RESULTS,
    ROTATIONS,
    TURN,
    GameRecord,
    MatchState,
    Phase,
    Side,
    fresh_game,
    game_variant,
    match_rules,
    no_cube_rule,
    phase_rule,
    start,
)
from bgboard.rules import BAR, OFF, InvalidDiceError, Position
from bgboard.rules.board import Board
from bgboard.rules.games import Game
from bgboard.rules.legal import check_dice, every_die_play

#: The match's values are :mod:`bgboard.match.values`'; every caller imports them from here.
__all__ = ["Phase", "OPENING", "TURN", "DOUBLED", "PLAY", "RESIGNED", "GAME_OVER", "MATCH_OVER", "PHASES",
           "RESULTS", "MATCH_VARIANTS", "ROTATIONS", "match_rules", "Side", "game_variant", "GameRecord", "MatchState", "start",
           "fresh_game", "apply", "replay", "states", "after_play"]


def apply(state: MatchState | None, action: Action) -> MatchState:
    """The state after ``action``; raises :class:`MatchRuleError` (naming the rule) if the
    rules forbid it.  ``apply(None, StartMatch(...))`` starts a match."""
    if isinstance(action, StartMatch):
        if state is not None:
            raise MatchRuleError("started", "the match has already started")
        return start(action)
    if state is None:
        raise MatchRuleError("not-started", "start a match first")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise TypeError(f"not a match action: {action!r}")
    return handler(state, action)


def replay(actions: Iterable[Action]) -> MatchState:
    """The state reached by applying ``actions`` (the first is a :class:`StartMatch`)."""
    state: MatchState | None = None
    for action in actions:
        state = apply(state, action)
    if state is None:
        raise MatchRuleError("not-started", "an empty action log holds no match")
    return state


def states(actions: Iterable[Action]) -> Iterator[tuple[Action, MatchState, MatchState | None]]:
    """``(action, state after, state before)`` for every action of a log."""
    state: MatchState | None = None
    for action in actions:
        before = state
        state = apply(state, action)
        yield action, state, before


# --------------------------------------------------------------------- handlers
def _expect(state: MatchState, phases: tuple[str, ...], what: str) -> None:
    if state.phase not in phases:
        raise MatchRuleError(f"phase-{state.phase}", phase_rule(state, what))


#: The decisions a player may make out of turn, as the refusal names them.
_DECISIONS = {"double": Phrase("double"), "take": Phrase("take"), "beaver": Phrase("beaver"), "drop": Phrase("drop"),
              "resign": Phrase("resign"), "accept the resignation": Phrase("accept the resignation"),
              "reject the resignation": Phrase("reject the resignation")}


def _check_player(state: MatchState, player: int | None, decider: int | None, what: str) -> None:
    if player is None:
        return
    if player not in (0, 1):
        raise MatchRuleError("player", f"players are 0 and 1, not {player}")
    if player != decider:
        raise MatchRuleError("not-your-turn", Phrase("it is not your decision to %(what)s", what=_DECISIONS.get(what, what)))


def _check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """``dice`` as the rules engine accepts them, or the match's ``dice`` rule."""
    try:
        return check_dice(dice)
    except InvalidDiceError:
        raise MatchRuleError("dice", f"dice show 1 to 6, not {tuple(dice)}") from None


def _opening(state: MatchState, action: OpeningRoll) -> MatchState:
    _expect(state, (OPENING,), "opening")
    d0, d1 = _check_dice(action.dice)
    if d0 == d1:
        return state  # a tie is rolled again
    first = 0 if d0 > d1 else 1
    return replace(
        state, phase=PLAY, turn=first, dice=(max(d0, d1), min(d0, d1))
    )


_FIELDS = tuple(f.name for f in fields(MatchState))
assert all(f.init for f in fields(MatchState)) and not hasattr(MatchState, "__post_init__"), "_evolve copies fields"


def _evolve(state: MatchState, **changes: Any) -> MatchState:
    """``dataclasses.replace(state, **changes)`` at half the cost, for the moves and rolls
    (a replay makes two per move): MatchState's ``__init__`` only sets its fields, so setting
    them is all ``replace`` does."""
    new = object.__new__(MatchState)
    for name in _FIELDS:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(state, name))
    return new


def _roll(state: MatchState, action: Roll) -> MatchState:
    _expect(state, (TURN,), "roll")
    return _evolve(state, phase=PLAY, dice=_check_dice(action.dice))


def after_play(state: MatchState, mover: int, position: Position) -> MatchState:
    """Store the position (mover = mine) and end the game or hand the roll over."""
    board = (position.mine, position.theirs) if mover == 0 else (position.theirs, position.mine)
    if position.mine[OFF] == state.checkers:
        level = cubes.win_level(position.mine, position.theirs)
        return _finish(replace(state, board=board), mover, level, ("single", "gammon", "backgammon")[level - 1])
    return _evolve(state, board=board, phase=TURN, turn=1 - mover, dice=None)


def _move(state: MatchState, action: Move) -> MatchState:
    _expect(state, (PLAY,), "move")
    assert state.turn is not None and state.dice is not None
    if state.playing.seed:  # its own rules on its Board (backgammon's starts: the fast path below)
        return _variant_move(state, state.playing, action)
    position = state.position
    fast = every_die_play(position, state.dice, action.steps)
    if fast is not None:  # a play of every die, step by step legal: legal without generating every play
        return after_play(state, state.turn, fast)
    plays = rules.legal_plays(position, state.dice)
    if not plays:
        raise IllegalPlayError(
            f"no legal play with {state.dice[0]}-{state.dice[1]}: pass the turn"
        )
    for frm, to in action.steps:
        distance = frm - to
        if not (distance in state.dice or (to == OFF and 0 < distance <= max(state.dice))):
            dice = " or a ".join(str(d) for d in sorted(set(state.dice), reverse=True))
            raise IllegalPlayError(
                f"each step moves one checker by one die: {_where(frm)}/{_where(to)} is not a {dice}"
            )
    result = _apply_steps(position, action.steps)
    legal = {play.position for play in plays}
    if result not in legal:
        reason = rules.explain(position, state.dice, result)
        raise IllegalPlayError(reason or "that is not a legal play")
    return after_play(state, state.turn, result)


def _variant_move(state: MatchState, game: Game, action: Move) -> MatchState:
    """A play in a seed variant: the steps are made by the variant's rules and the result
    must be one of its legal plays."""
    assert state.turn is not None and state.dice is not None
    board = state.board_view
    plays = game.plays(board, state.dice)
    if not plays:
        raise IllegalPlayError(f"no legal play with {state.dice[0]}-{state.dice[1]}: pass the turn")
    result = game.play_steps(board, action.steps, state.dice)  # IllegalPlayError says why
    if result not in {p.position for p in plays}:
        raise IllegalPlayError(game.explain(board, state.dice, result))
    return _after_variant_play(state, state.turn, result, game)


def _after_variant_play(state: MatchState, mover: int, board: Board, game: Game) -> MatchState:
    """Store the board (mover = mine) and end the game or hand the roll over."""
    if mover == 1:
        board = board.swap()
    state = replace(state, board=(board.mine, board.theirs), pins=board.pins, reserve=board.reserve)
    ended = game.outcome(board)
    if ended is None:
        return replace(state, phase=TURN, turn=1 - mover, dice=None)
    winner, kind, points = ended
    if winner is None:
        return _finish(state, None, 0, kind)
    return _finish(state, 0 if winner == "mine" else 1, points, kind)


def _condone(state: MatchState, action: Condone) -> MatchState:
    """Record an illegal play as played (the board as the mover left it), when the rule set
    lets the opponent condone it and the play is condonable."""
    _expect(state, (PLAY,), "move")
    assert state.turn is not None and state.dice is not None
    if state.playing.seed:
        raise MatchRuleError(
            "legal-moves", f"condoning illegal plays is for backgammon only, not {state.playing.title}"
        )
    if state.rules.illegal_plays != "condone":
        raise MatchRuleError(
            "legal-moves",
            "illegal plays must be corrected under these rules (Legal Moves): only legal plays are recorded",
        )
    position = state.position
    if len(action.mine) != BAR + 1 or len(action.theirs) != BAR + 1:
        raise MatchRuleError("checkers", "a board has 26 places per side (off, points 1 to 24, bar)")
    result = Position(tuple(action.mine), tuple(action.theirs))
    if result in {play.position for play in rules.legal_plays(position, state.dice)}:
        raise MatchRuleError("legal-play", "that play is legal: record it as a move, not as a condoned play")
    refusal = condone_refusal(position, result, state.checkers)
    if refusal is not None:
        raise MatchRuleError(*refusal)
    return after_play(state, state.turn, result)


def _apply_steps(position: Position, steps: tuple[tuple[int, int], ...]) -> Position:
    """Move the checkers (mover = mine) without judging legality beyond the physical."""
    for frm, to in steps:
        if not (1 <= frm <= BAR and 0 <= to < frm):
            raise IllegalPlayError(f"{_where(frm)}/{_where(to)} is not a move forwards")
        if position.mine[frm] == 0:
            raise IllegalPlayError(f"you have no checker on {_where(frm, long=True)}")
        if to != OFF and position.theirs[BAR - to] > 1:
            raise IllegalPlayError(f"point {to} is blocked")
        position = rules.apply_step(position, rules.Step(frm, to, frm - to))  # a blot is hit
    return position


def _where(point: int, long: bool = False) -> str:
    if point == BAR:
        return "the bar" if long else "bar"
    if point == OFF:
        return "off"
    return f"point {point}" if long else str(point)


def _pass(state: MatchState, action: Pass) -> MatchState:
    _expect(state, (PLAY,), "pass")
    assert state.turn is not None and state.dice is not None
    if state.playing.plays(state.board_view, state.dice):
        raise IllegalPlayError(
            f"a legal play exists with {state.dice[0]}-{state.dice[1]}: you must play"
        )
    return replace(state, phase=TURN, turn=1 - state.turn, dice=None)


def _double(state: MatchState, action: Double) -> MatchState:
    if state.phase == OPENING:
        raise MatchRuleError(
            "first-turn", "a double offer is not an option at the first turn of the game"
        )
    _expect(state, (TURN,), "double")
    _check_player(state, action.player, state.turn, "double")
    assert state.turn is not None
    if not state.cube_used:
        raise MatchRuleError("no-cube", no_cube_rule(state))
    reason = cubes.double_refusal(state, state.turn)
    if reason is not None:
        raise MatchRuleError(cubes.rule_key(reason), reason)
    return replace(state, phase=DOUBLED)


def _take(state: MatchState, action: Take) -> MatchState:
    _expect(state, (DOUBLED,), "take")
    _check_player(state, action.player, state.decider, "take")
    assert state.turn is not None
    return replace(state, phase=TURN, cube=state.cube * 2, cube_owner=1 - state.turn)


def _beaver(state: MatchState, action: Beaver) -> MatchState:
    _expect(state, (DOUBLED,), "beaver")
    _check_player(state, action.player, state.decider, "beaver")
    assert state.turn is not None
    if not (state.rules.money and state.rules.beavers):
        raise MatchRuleError("no-beavers", "beavers are allowed only in money play with beavers on")
    return replace(state, phase=TURN, cube=state.cube * 4, cube_owner=1 - state.turn)


def _drop(state: MatchState, action: Drop) -> MatchState:
    _expect(state, (DOUBLED,), "drop")
    _check_player(state, action.player, state.decider, "drop")
    assert state.turn is not None
    # The doubler wins the cube value before the double; gammons do not count.
    return _finish(state, state.turn, 1, "drop")


def _resign(state: MatchState, action: Resign) -> MatchState:
    _expect(state, (TURN, PLAY), "resign")
    _check_player(state, action.player, state.turn, "resign")
    if action.level not in (1, 2, 3):
        raise MatchRuleError(
            "resign-level", "resign a single (1), a gammon (2) or a backgammon (3)"
        )
    return replace(state, phase=RESIGNED, resign_level=action.level)


def _accept(state: MatchState, action: AcceptResign) -> MatchState:
    _expect(state, (RESIGNED,), "accept")
    _check_player(state, action.player, state.decider, "accept the resignation")
    assert state.turn is not None
    return _finish(state, 1 - state.turn, state.resign_level, "resign")


def _reject(state: MatchState, action: RejectResign) -> MatchState:
    _expect(state, (RESIGNED,), "reject")
    _check_player(state, action.player, state.decider, "reject the resignation")
    return replace(state, phase=PLAY if state.dice is not None else TURN, resign_level=0)


def _finish(state: MatchState, winner: int | None, level: int, result: str) -> MatchState:
    """End the game: ``winner`` scores ``level`` (after Jacoby) × cube (a draw: nobody)."""
    points = cubes.game_points(state, level, result)
    score = list(state.score)
    if winner is not None:
        score[winner] += points
    record = GameRecord(
        number=state.game,
        winner=winner,
        points=points,
        cube=state.cube,
        result=result,
        level=level,
        crawford=state.crawford,
    )
    over = bool(state.length) and winner is not None and score[winner] >= state.length
    return replace(
        state,
        score=(score[0], score[1]),
        games=state.games + (record,),
        phase=MATCH_OVER if over else GAME_OVER,
        resign_level=level if result == "resign" else 0,
    )


def _next_game(state: MatchState, action: NextGame) -> MatchState:
    _expect(state, (GAME_OVER,), "next")
    post = state.post_crawford or state.crawford
    crawford = (
        state.rules.crawford
        and bool(state.length)
        and not post
        and max(state.score) == state.length - 1
    )
    return replace(
        state,
        game=state.game + 1,
        crawford=crawford,
        post_crawford=post,
        **fresh_game(game_variant(state.rules.variant, state.game + 1)),
    )


_HANDLERS: dict[type[Any], Callable[[MatchState, Any], MatchState]] = {
    OpeningRoll: _opening,
    Roll: _roll,
    Move: _move,
    Condone: _condone,
    Pass: _pass,
    Double: _double,
    Take: _take,
    Drop: _drop,
    Beaver: _beaver,
    Resign: _resign,
    AcceptResign: _accept,
    RejectResign: _reject,
    NextGame: _next_game,
}
