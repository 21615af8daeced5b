"""The match's state as a value (pure, frozen): :class:`MatchState` with its :class:`Phase`
and the :class:`GameRecord` of each game played, the variants a match may be played in, and
the state a match and each of its games start from.  :mod:`bgboard.match.state` is the
state machine over it (and the name every caller imports these from).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bgboard.language import Phrase
from bgboard.match import cube as cubes
from bgboard.match.actions import StartMatch
from bgboard.match.rule_errors import MatchRuleError
from bgboard.match.ruleset import RuleSet, rule_set
from bgboard.rules import Position
from bgboard.rules.board import Board
from bgboard.rules.games import ROTATIONS, VARIANTS, Game, variant as match_variant


class Phase(StrEnum):
    """What the match waits for (the table in :mod:`bgboard.match.state`'s docstring)."""

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



def game_variant(variant: str, game: int) -> str:
    """The variant of game number ``game`` in a match of ``variant`` (``tavli`` rotates)."""
    return match_variant(variant).game(game).name

Side = tuple[int, ...]


def match_rules(variant: str, rules: str = "standard") -> tuple[str, str | None]:
    """The ``(rule set, variant)`` of a match played in the registry's ``variant``: a
    rotation (tavli) is played under its own rule set of the same name, a game alone under
    ``rules``.  :class:`~bgboard.rules.starts.UnknownVariantError` for an unknown name."""
    return (variant, None) if match_variant(variant).rotates else (rules, variant)

#: The variants a match may be played in: backgammon's family, the seed variants, tavli.
MATCH_VARIANTS: tuple[str, ...] = tuple(VARIANTS)


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
    def playing(self) -> Game:
        """The registry's :class:`~bgboard.rules.game.Game` of the game being played."""
        return match_variant(self.rules.variant).game(self.game)

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
        return match_variant(self.rules.variant).cube

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
            return phase_rule(self, "double")
        who = self.turn if player is None else player
        if who != self.turn:
            return "it is not your turn: only the player on roll may double"
        if not self.cube_used:
            return no_cube_rule(self)
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
    match_variant(ruleset.variant)  # the registry's one error for an unknown name
    fresh = fresh_game(game_variant(ruleset.variant, 1))
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


def fresh_game(variant: str) -> dict[str, Any]:
    """The fields every game starts with (the first of a match and each next one): the
    variant's starting board, the opening roll to come, the cube in the middle at 1."""
    board = match_variant(variant).games[0].start()
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


def phase_rule(state: MatchState, what: str) -> str:
    """The rule that forbids ``what`` in the current phase."""
    phase = state.phase
    if phase == MATCH_OVER:
        return Phrase("the match is over")
    if phase == GAME_OVER:
        return Phrase("the game is over: start the next game")
    if phase == OPENING:
        return Phrase("roll the opening roll first: each player rolls one die")
    if phase == DOUBLED:
        return Phrase("answer the double first: take or drop")
    if phase == RESIGNED:
        return Phrase("answer the resignation first: accept or reject")
    if phase == PLAY:
        if what == "double":
            return Phrase("the cube is offered only before rolling")
        return Phrase("you have already rolled: play your checkers")
    if phase == TURN:
        if what in ("take", "drop", "beaver"):
            return Phrase("there is no double to answer")
        if what in ("accept", "reject"):
            return Phrase("there is no resignation to answer")
        return Phrase("roll or double first")
    return f"not allowed now ({phase})"  # pragma: no cover - every phase is listed


def no_cube_rule(state: MatchState) -> str:
    """Why the match has no doubling cube (a tavli match, a seed variant)."""
    if match_variant(state.rules.variant).rotates:
        return Phrase("a %(variant)s match is played without the doubling cube", variant=state.rules.variant)
    return Phrase("there is no doubling cube in %(game)s", game=state.playing.title)


__all__ = ["Phase", "OPENING", "TURN", "DOUBLED", "PLAY", "RESIGNED", "GAME_OVER", "MATCH_OVER", "PHASES",
           "RESULTS", "MATCH_VARIANTS", "ROTATIONS", "match_rules", "Side", "game_variant", "GameRecord", "MatchState", "start",
           "fresh_game", "phase_rule", "no_cube_rule"]
