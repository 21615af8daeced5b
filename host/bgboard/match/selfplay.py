"""Self-play: two built-in players play a complete match, deterministic by seed.

The players are deliberately simple (this is a test and demo driver, not an engine):

* **checker play**: among ``bgboard.rules.legal_plays`` pick the play that leaves the
  opponent the most pips (hits) and the fewest own blots, ties broken by the seeded RNG;
* **cube**: before rolling, double when the pip lead is at least ``double_lead`` (a
  fraction of the opponent's pip count, drawn per match from the seed so that different
  seeds give cautious and aggressive players); take unless the doubler leads by more than
  ``drop_lead``;
* **resign**: now and then (before or after rolling) a player far behind in pips offers
  to resign: a single once it has borne a checker off, else a gammon or a hopeful single;
  the opponent rejects a single from a player with nothing borne off.

Across seeds this produces doubles, takes, drops, redoubles, gammons, backgammons,
resignations and Crawford games (tests/match/test_selfplay.py checks that they all occur).

In the seed variants (Plakoto, Fevga, Anti, Race, and tavli's rotation) none of the
engines knows the game, so the players use a small pure-Python heuristic per variant
(:func:`variant_score`; :class:`SeedGamePlayers`, chosen from the game's registry entry by
:func:`players_of`): win at once when a play ends the game in their favour; Plakoto
prizes pins and fears its own lone checkers; Fevga prizes progress and points held; Anti
wants to keep pips and leave the opponent few; Race plays like backgammon's player.  They
neither resign nor double in these games (Race and Anti keep the cube for people).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from bgboard import rules
from bgboard.match.actions import (
    AcceptResign,
    Action,
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
from bgboard.match.state import (
    DOUBLED,
    GAME_OVER,
    MATCH_OVER,
    OPENING,
    PLAY,
    RESIGNED,
    TURN,
    MatchState,
    apply,
)
from bgboard.rules import BAR, OFF, Position
from bgboard.rules.board import Board
from bgboard.rules.game import Game

#: A match this long (in actions) is a bug, not a long match.
MAX_ACTIONS = 200_000


@dataclass(frozen=True, slots=True)
class Style:
    """Cube and resignation habits of the two built-in players for one match."""

    double_lead: float
    drop_lead: float
    resign_chance: float


def style_for(rng: random.Random) -> Style:
    """A player style drawn from the seeded RNG."""
    return Style(
        double_lead=rng.choice((0.08, 0.12, 0.16, 0.22)),
        drop_lead=rng.choice((0.20, 0.28, 0.36)),
        resign_chance=rng.choice((0.0, 0.02, 0.05)),
    )


def selfplay(
    length: int,
    seed: int,
    rules_name: str = "standard",
    players: tuple[str, str] = ("White", "Black"),
    variant: str | None = None,
) -> list[Action]:
    """The action log of a complete match (or, for money play, one game) by seed."""
    rng = random.Random(seed)
    style = style_for(rng)
    actions: list[Action] = [
        StartMatch(length=length, rules=rules_name, players=players, variant=variant)
    ]
    state = apply(None, actions[0])
    while state.phase != MATCH_OVER:
        if state.phase == GAME_OVER and state.rules.money:
            break
        if len(actions) > MAX_ACTIONS:  # pragma: no cover - a loop in the rules
            raise RuntimeError("self-play did not finish")
        action = next_action(state, rng, style)
        state = apply(state, action)
        actions.append(action)
    return actions


def next_action(state: MatchState, rng: random.Random, style: Style) -> Action:
    """The built-in players' next action in ``state``: the opening roll and the next game
    in every game, anything else as the players of the game being played (:func:`players_of`)."""
    phase = state.phase
    if phase == OPENING:
        return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
    if phase == GAME_OVER:
        return NextGame()
    return players_of(state.playing).next_action(state, rng, style)


class SelfPlayers(Protocol):
    """How the built-in players play one kind of game (a turn, the cube, a resignation, the
    play), past the opening roll and a game's end."""

    def next_action(self, state: MatchState, rng: random.Random, style: Style) -> Action:
        """The players' next action in ``state`` (its phase neither the opening nor a game over)."""
        ...


class BackgammonPlayers:
    """Backgammon's starts, on backgammon's :class:`~bgboard.rules.position.Position`: the
    cube and resignations of ``style``, the pip-and-blot play (the module docstring)."""

    def next_action(self, state: MatchState, rng: random.Random, style: Style) -> Action:
        phase = state.phase
        position = state.position
        if phase == TURN:
            if _wants_to_resign(position, rng, style):
                return Resign(_resign_level(position, rng))
            if state.may_double and _lead(position) >= style.double_lead:
                return Double()
            return Roll((rng.randint(1, 6), rng.randint(1, 6)))
        if phase == DOUBLED:
            # The answer comes from the opponent: their lead is minus the doubler's.
            return Drop() if _lead(position) > style.drop_lead else Take()
        if phase == RESIGNED:
            # Reject a single while the resigner has borne nothing off (a gammon is likely).
            resigner_off = position.mine[OFF]
            return AcceptResign() if state.resign_level >= 2 or resigner_off > 0 else RejectResign()
        if phase == PLAY:
            assert state.dice is not None
            if _wants_to_resign(position, rng, style):  # resigning with the dice rolled
                return Resign(_resign_level(position, rng))
            plays = rules.legal_plays(position, state.dice)
            if not plays:
                return Pass()
            return Move.of(max(plays, key=lambda play: _score(play.position, rng)))
        raise AssertionError(f"no move for phase {phase}")  # pragma: no cover


class SeedGamePlayers:
    """The tavli family's seed games, on a :class:`~bgboard.rules.board.Board`: roll, then
    the play :func:`variant_score` prefers; they neither double nor resign."""

    def next_action(self, state: MatchState, rng: random.Random, style: Style) -> Action:
        game = state.playing
        if state.phase == TURN:
            return Roll((rng.randint(1, 6), rng.randint(1, 6)))
        if state.phase in (DOUBLED, RESIGNED):  # pragma: no cover - the players never offer either
            return Take() if state.phase == DOUBLED else AcceptResign()
        assert state.phase == PLAY and state.dice is not None
        plays = game.plays(state.board_view, state.dice)
        if not plays:
            return Pass()
        return Move.of(max(plays, key=lambda play: variant_score(game, play.position, game.outcome(play.position))
                           + rng.random()))


_BACKGAMMON, _SEED_GAMES = BackgammonPlayers(), SeedGamePlayers()


def players_of(game: Game) -> SelfPlayers:
    """The built-in players of ``game``, from its registry entry: the one place self-play
    tells backgammon's starts (cube, resignations, played on backgammon's Position) from the
    seed games (played on a Board) - the fact :func:`bgboard.sim.players.habits_of` and
    :class:`bgboard.sense.roll.RollReading` go by too."""
    return _SEED_GAMES if game.seed else _BACKGAMMON


def _lead(position: Position) -> float:
    """The pip lead of the player on roll as a fraction of the opponent's pips."""
    mine, theirs = position.pips()
    return (theirs - mine) / max(theirs, 1)


def _wants_to_resign(position: Position, rng: random.Random, style: Style) -> bool:
    if style.resign_chance == 0.0:
        return False
    mine, theirs = position.pips()
    return mine - theirs > 70 and rng.random() < style.resign_chance


def _resign_level(position: Position, rng: random.Random) -> int:
    """A single once a checker is off; before that a gammon, or now and then a hopeful
    single (which the opponent rejects)."""
    if position.mine[OFF] > 0 or rng.random() < 0.4:
        return 1
    return 2


def _score(after: Position, rng: random.Random) -> float:
    """Higher is better for the mover (``after.mine``)."""
    their_pips = after.pips()[1]
    blots = sum(1 for p in range(1, BAR) if after.mine[p] == 1)
    return their_pips - 4 * blots + rng.random() * 3


def variant_score(game: Game, after: Board, ended: tuple[str | None, str, int] | None) -> float:
    """Higher is better for the mover (``after.mine``) in a seed game (by the registry's
    properties: who bears off first loses, pins, both sides going the same way)."""
    if ended is not None:
        winner, _, points = ended
        return 1000.0 * points if winner == "mine" else (-1000.0 * points if winner else -500.0)
    mine = sum(p * n for p, n in enumerate(after.mine)) + 25 * after.reserve[0]
    theirs = sum(p * n for p, n in enumerate(after.theirs)) + 25 * after.reserve[1]
    if not game.bearing_off_wins:
        return mine - theirs - 20.0 * after.mine[OFF]
    if game.pins:
        lone = sum(1 for p in range(1, BAR) if after.mine[p] == 1 and not after.pins[1] >> (BAR - p) & 1)
        return theirs - mine + 15.0 * bin(after.pins[1]).count("1") - 20.0 * bin(after.pins[0]).count("1") - 3.0 * lone
    if game.same_way:
        held = sum(1 for p in range(1, BAR) if after.mine[p])
        return theirs - mine + 2.0 * held
    blots = sum(1 for p in range(1, BAR) if after.mine[p] == 1)
    return theirs - mine - 4.0 * blots
