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

An action the rules forbid raises :class:`~bgboard.match.errors.MatchRuleError` whose
message names the rule; the state is never changed in place.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, Callable, Iterable, Iterator

from bgboard import rules
from bgboard.match import cube as cubes
from bgboard.match.condone import condone_refusal
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
from bgboard.match.errors import IllegalPlayError, MatchRuleError
from bgboard.match.ruleset import RuleSet, rule_set
from bgboard.rules import BAR, OFF, VARIANTS, InvalidDiceError, Position
from bgboard.rules.board import Board
from bgboard.rules.games import GAME_NAMES, GAMES, Game
from bgboard.rules.legal import check_dice, every_die_play

class Phase(StrEnum):
    """What the match waits for (the table in the module docstring)."""

    OPENING = "opening"
    TURN = "turn"
    DOUBLED = "doubled"
    PLAY = "play"
    RESIGNED = "resigned"
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


OPENING = Phase.OPENING
TURN = Phase.TURN
DOUBLED = Phase.DOUBLED
PLAY = Phase.PLAY
RESIGNED = Phase.RESIGNED
GAME_OVER = Phase.GAME_OVER
MATCH_OVER = Phase.MATCH_OVER
PHASES = tuple(Phase)

RESULTS = ("single", "gammon", "backgammon", "drop", "resign", "mother", "draw")

#: The tavli match format plays Portes (backgammon), Plakoto and Fevga in rotation.
TAVLI = ("standard", "plakoto", "fevga")


def game_variant(variant: str, game: int) -> str:
    """The variant of game number ``game`` in a match of ``variant`` (``tavli`` rotates)."""
    return TAVLI[(game - 1) % len(TAVLI)] if variant == "tavli" else variant

Side = tuple[int, ...]

#: The variants a match may be played in: backgammon's family, the seed variants, tavli.
MATCH_VARIANTS: tuple[str, ...] = VARIANTS + GAME_NAMES + ("tavli",)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """How one game ended: ``winner`` (0/1) scored ``points`` = value × ``cube``.

    ``result`` is ``single``, ``gammon``, ``backgammon``, ``drop`` or ``resign``, and in
    the seed variants ``mother`` (Plakoto's mother checker, 2) or ``draw`` (both mothers
    pinned: ``winner`` None, no points); ``level`` is the value before the cube (1, 2 or 3;
    for a drop 1; 0 for a draw); ``crawford`` tells whether it was the Crawford game."""

    number: int
    winner: int | None
    points: int
    cube: int
    result: str
    level: int
    crawford: bool


@dataclass(frozen=True, slots=True)
class MatchState:
    """The complete state of a match (or money session); see the module docstring."""

    rules: RuleSet
    length: int
    players: tuple[str, str]
    score: tuple[int, int]
    game: int
    phase: Phase
    board: tuple[Side, Side]
    turn: int | None
    dice: tuple[int, int] | None
    cube: int
    cube_owner: int | None
    crawford: bool
    post_crawford: bool
    resign_level: int
    games: tuple[GameRecord, ...]
    checkers: int
    pins: tuple[int, int] = (0, 0)
    reserve: tuple[int, int] = (0, 0)

    # ----------------------------------------------------------------- views
    @property
    def position(self) -> Position:
        """The board from the view of the player on roll (player 0's view before the
        opening roll)."""
        p = self.turn if self.turn is not None else 0
        return Position(self.board[p], self.board[1 - p])

    @property
    def variant(self) -> str:
        """The variant of the game being played (``tavli`` rotates Portes, Plakoto, Fevga)."""
        return game_variant(self.rules.variant, self.game)

    @property
    def game_rules(self) -> Game | None:
        """The seed variant's :class:`~bgboard.rules.games.Game` of this game, or None for
        backgammon's family (which plays on :attr:`position`)."""
        return GAMES.get(self.variant)

    @property
    def board_view(self) -> Board:
        """The board with pins and unentered checkers from the view of the player on roll
        (player 0's view before the opening roll)."""
        p = self.turn if self.turn is not None else 0
        return Board(self.board[p], self.board[1 - p], (self.pins[p], self.pins[1 - p]), (self.reserve[p], self.reserve[1 - p]))

    @property
    def cube_used(self) -> bool:
        """Whether this game is played with the doubling cube (VARIANTS.md: not in Plakoto
        and Fevga; not in a tavli match at all)."""
        game = self.game_rules
        return self.rules.variant != "tavli" and (game is None or game.cube)

    @property
    def decider(self) -> int | None:
        """The player who must act now (``None``: the opening roll or no one)."""
        if self.turn is None or self.phase in (GAME_OVER, MATCH_OVER):
            return None
        if self.phase in (DOUBLED, RESIGNED):
            return 1 - self.turn
        return self.turn

    @property
    def money(self) -> bool:
        """Money play (no match length)."""
        return self.rules.money

    def away(self, player: int) -> int:
        """Points ``player`` still needs to win the match (0 in money play)."""
        return max(0, self.length - self.score[player]) if self.length else 0

    @property
    def winner(self) -> int | None:
        """The winner of the match once it is over."""
        if self.phase != MATCH_OVER:
            return None
        return 0 if self.score[0] >= self.length else 1

    def double_refusal(self, player: int | None = None) -> str | None:
        """Why ``player`` (default: the player on roll) may not double now, or ``None``."""
        if self.phase == OPENING:
            return "a double offer is not an option at the first turn of the game"
        if self.phase != TURN or self.turn is None:
            return _phase_rule(self, "double")
        who = self.turn if player is None else player
        if who != self.turn:
            return "it is not your turn: only the player on roll may double"
        if not self.cube_used:
            return _no_cube(self)
        return cubes.double_refusal(self, who)

    @property
    def may_double(self) -> bool:
        """The player on roll may offer the cube now."""
        return self.double_refusal() is None


def start(action: StartMatch) -> MatchState:
    """The state before the first opening roll of a new match."""
    ruleset = rule_set(
        action.rules,
        jacoby=action.jacoby,
        beavers=action.beavers,
        variant=action.variant,
        illegal_plays=action.illegal_plays,
    )
    ruleset.check_length(action.length)
    if len(action.players) != 2 or not all(isinstance(n, str) for n in action.players):  # pyright: ignore[reportUnnecessaryIsInstance] - input from outside is checked at run time
        raise MatchRuleError("players", "a match is between two named players")
    if ruleset.variant not in MATCH_VARIANTS:
        raise rules.UnknownVariantError(
            f"unknown variant {ruleset.variant!r}: choose one of {', '.join(MATCH_VARIANTS)}"
        )
    fresh = _fresh_game(game_variant(ruleset.variant, 1))
    return MatchState(
        rules=ruleset,
        length=action.length,
        players=(str(action.players[0]), str(action.players[1])),
        score=(0, 0),
        game=1,
        crawford=False,
        post_crawford=False,
        games=(),
        checkers=sum(fresh["board"][0]) + fresh["reserve"][0],
        **fresh,
    )


def _fresh_game(variant: str) -> dict[str, Any]:
    """The fields every game starts with (the first of a match and each next one): the
    variant's starting board, the opening roll to come, the cube in the middle at 1."""
    if variant in GAMES:
        board = GAMES[variant].start()
    else:
        board = Board.of(rules.start_position(variant))
    return {
        "phase": OPENING,
        "board": (board.mine, board.theirs),
        "pins": board.pins,
        "reserve": board.reserve,
        "turn": None,
        "dice": None,
        "cube": 1,
        "cube_owner": None,
        "resign_level": 0,
    }


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
def _phase_rule(state: MatchState, what: str) -> str:
    """The rule that forbids ``what`` in the current phase."""
    phase = state.phase
    if phase == MATCH_OVER:
        return "the match is over"
    if phase == GAME_OVER:
        return "the game is over: start the next game"
    if phase == OPENING:
        return "roll the opening roll first: each player rolls one die"
    if phase == DOUBLED:
        return "answer the double first: take or drop"
    if phase == RESIGNED:
        return "answer the resignation first: accept or reject"
    if phase == PLAY:
        if what == "double":
            return "the cube is offered only before rolling"
        return "you have already rolled: play your checkers"
    if phase == TURN:
        if what in ("take", "drop", "beaver"):
            return "there is no double to answer"
        if what in ("accept", "reject"):
            return "there is no resignation to answer"
        return "roll or double first"
    return f"not allowed now ({phase})"  # pragma: no cover - every phase is listed


def _expect(state: MatchState, phases: tuple[str, ...], what: str) -> None:
    if state.phase not in phases:
        raise MatchRuleError(f"phase-{state.phase}", _phase_rule(state, what))


def _check_player(state: MatchState, player: int | None, decider: int | None, what: str) -> None:
    if player is None:
        return
    if player not in (0, 1):
        raise MatchRuleError("player", f"players are 0 and 1, not {player}")
    if player != decider:
        raise MatchRuleError("not-your-turn", f"it is not your decision to {what}")


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


def _after_play(state: MatchState, mover: int, position: Position) -> MatchState:
    """Store the position (mover = mine) and end the game or hand the roll over."""
    board = (position.mine, position.theirs) if mover == 0 else (position.theirs, position.mine)
    if position.mine[OFF] == state.checkers:
        level = cubes.win_level(position.mine, position.theirs)
        return _finish(replace(state, board=board), mover, level, ("single", "gammon", "backgammon")[level - 1])
    return _evolve(state, board=board, phase=TURN, turn=1 - mover, dice=None)


def _move(state: MatchState, action: Move) -> MatchState:
    _expect(state, (PLAY,), "move")
    assert state.turn is not None and state.dice is not None
    if state.game_rules is not None:
        return _variant_move(state, state.game_rules, action)
    position = state.position
    fast = every_die_play(position, state.dice, action.steps)
    if fast is not None:  # a play of every die, step by step legal: legal without generating every play
        return _after_play(state, state.turn, fast)
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
    return _after_play(state, state.turn, result)


def _variant_move(state: MatchState, game: Game, action: Move) -> MatchState:
    """A play in a seed variant: the steps are made by the variant's rules and the result
    must be one of its legal plays."""
    assert state.turn is not None and state.dice is not None
    board = state.board_view
    plays = game.plays(board, state.dice)
    if not plays:
        raise IllegalPlayError(f"no legal play with {state.dice[0]}-{state.dice[1]}: pass the turn")
    result = game.play_steps(board, action.steps, state.dice)  # IllegalPlayError says why
    if result not in {p.board for p in plays}:
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


def _no_cube(state: MatchState) -> str:
    if state.rules.variant == "tavli":
        return "a tavli match is played without the doubling cube"
    game = state.game_rules
    return f"there is no doubling cube in {game.title if game else state.variant}"


def _condone(state: MatchState, action: Condone) -> MatchState:
    """Record an illegal play as played (the board as the mover left it), when the rule set
    lets the opponent condone it and the play is condonable."""
    _expect(state, (PLAY,), "move")
    assert state.turn is not None and state.dice is not None
    if state.game_rules is not None:
        raise MatchRuleError(
            "legal-moves", f"condoning illegal plays is for backgammon only, not {state.game_rules.title}"
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
    return _after_play(state, state.turn, result)


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
    game = state.game_rules
    if game.plays(state.board_view, state.dice) if game else rules.legal_plays(state.position, state.dice):
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
        raise MatchRuleError("no-cube", _no_cube(state))
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
        **_fresh_game(game_variant(state.rules.variant, state.game + 1)),
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
