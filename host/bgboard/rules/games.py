"""The registry of games bgboard plays (pure code): every game, and every format a match
is played in, each with what callers need to know instead of comparing names.

* :data:`GAMES`: one :class:`~bgboard.rules.game.Game` each — backgammon with each start
  (standard, Nackgammon, Hypergammon 1-3: backgammon's Position and fast generator) and the
  seed games of the tavli family (Plakoto, Fevga, Anti Backgammon, Backgammon Race).
* :data:`VARIANTS`: what a match is played in — every game alone, and tavli's rotation of
  Portes, Plakoto and Fevga — as a :class:`Variant` (title, cube, pins, seed, its games).
* :func:`variant` and :func:`game`: the lookups, with the one clear error
  (:class:`UnknownVariantError`) for a name bgboard does not know.

Config, CLI (``choices=``), simulator, app and match layer read these properties; none
compares a game's name.

Usage::

    g = game("plakoto")
    plays = g.plays(g.start(), (3, 1))               # Play[Board] values
    g.outcome(plays[0].position)                     # None, or (winner, kind, points)
    g.parse_play("24/21 24/23", g.start(), (3, 1))   # one Play, or IllegalPlayError
    variant("tavli").game(2).name                    # "plakoto"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bgboard.language import Phrase
from bgboard.rules import fevga, plakoto, race
from bgboard.rules.board import Board
from bgboard.rules.game import Game, Outcome
from bgboard.rules.position import BAR
from bgboard.rules.result import game_result
from bgboard.rules.starts import UnknownVariantError, layout, layout_position


def _mirror(p: int) -> int:
    return BAR - p


def _backgammon_outcome(board: Board) -> Outcome | None:
    r = game_result(board)
    return None if r is None else (r.winner, r.kind, r.points)


def backgammon_start(name: str, title: str, points: dict[int, int], mat_name: str | None = None,
                     sgf_name: str | None = None, *, engine_play: bool = False, analysis: bool = False,
                     remote_play: bool = False) -> Game:
    """Backgammon from a start (``points``: checkers per point, each side's own view): its
    plays from the fast generator, hints from every hint engine; what else it supports
    (``engine_play``, ``analysis``, ``remote_play``) as the caller declares."""
    start = layout_position(points)
    checkers = sum(points.values())
    return Game(
        name=name,
        title=title,
        cube=True,
        kinds=("single", "gammon", "backgammon"),
        start=lambda: Board.of(start),
        steps_from=race.anti_steps_from,
        outcome=_backgammon_outcome,
        problems=lambda board: board.plain().problems(checkers),
        opposite=_mirror,
        why_not=race.why_not,
        checkers=checkers,
        seed=False,
        mat_name=mat_name,
        sgf_name=sgf_name,
        hits=True,
        ends_mid_turn=False,
        fast_plays=race.anti_plays,
        hints=True,
        engine_play=engine_play,
        analysis=analysis,
        remote_play=remote_play,
    )


def _backgammon(name: str, title: str, mat_name: str | None, sgf_name: str | None, **supports: bool) -> Game:
    return backgammon_start(name, title, layout(name), mat_name, sgf_name, **supports)


#: The game a match plays when it names none.
_DEFAULT = "standard"

#: Every game bgboard plays, by name.
GAMES: dict[str, Game] = {
    # gnubg-nn, bgsage and pubeval choose plays in both; gnubg's analysis is of the standard game
    "standard": _backgammon("standard", "Backgammon", None, None, engine_play=True, analysis=True, remote_play=True),
    "nackgammon": _backgammon("nackgammon", "Nackgammon", "NackGammon", "Nackgammon", engine_play=True,
                              remote_play=True),
    "hypergammon1": _backgammon("hypergammon1", "Hypergammon (1)", "HyperGammon (1)", "Hypergammon1"),
    "hypergammon2": _backgammon("hypergammon2", "Hypergammon (2)", "HyperGammon (2)", "Hypergammon2"),
    "hypergammon3": _backgammon("hypergammon3", "Hypergammon (3)", "HyperGammon (3)", "Hypergammon3"),
    # bgboard's extension of the .mat and SGF names: gnubg has none of the seed games
    # (docs/match.md, "Records of the variants")
    "plakoto": Game(
        name="plakoto",
        # source: the tavli games' Greek names (VARIANTS.md; BrainKing's list in seeds/000)
        title=Phrase("Plakoto"),
        cube=False,
        kinds=("single", "gammon", "mother", "draw"),
        start=plakoto.start,
        steps_from=plakoto.steps_from,
        outcome=plakoto.outcome,
        problems=plakoto.problems,
        opposite=_mirror,
        why_not=plakoto.why_not,
        pins=True,
        mat_name="Plakoto",
        sgf_name="Plakoto",
        setup="Plakoto: 15 white on 24, 15 black on 1",
    ),
    "fevga": Game(
        name="fevga",
        title=Phrase("Fevga"),
        cube=False,
        kinds=("single", "gammon"),
        start=fevga.start,
        steps_from=fevga.steps_from,
        outcome=fevga.outcome,
        problems=fevga.problems,
        opposite=fevga.theirs_at,
        filter_plays=fevga.open_primes,
        why_not=fevga.why_not,
        prime_rule=fevga.PRIME_RULE,
        same_way=True,
        mat_name="Fevga",
        sgf_name="Fevga",
        setup="Fevga: 15 white on 24, 15 black on 12",
    ),
    "anti": Game(
        name="anti",
        title="Anti Backgammon",
        cube=True,
        kinds=("single",),
        start=race.anti_start,
        steps_from=race.anti_steps_from,
        outcome=race.anti_outcome,
        problems=race.anti_problems,
        opposite=_mirror,
        why_not=race.why_not,
        bearing_off_wins=False,
        mat_name="Anti Backgammon",
        sgf_name="Anti",
        hits=True,
        ends_mid_turn=False,
        fast_plays=race.anti_plays,
    ),
    "race": Game(
        name="race",
        title="Backgammon Race",
        cube=True,
        kinds=("single", "gammon", "backgammon"),
        start=race.race_start,
        steps_from=race.race_steps_from,
        outcome=race.race_outcome,
        problems=race.race_problems,
        opposite=_mirror,
        why_not=race.why_not,
        mat_name="Backgammon Race",
        sgf_name="Race",
        setup="Race: 15 of each colour in its tray",
        hits=True,
        ends_mid_turn=False,
    ),
}


@dataclass(frozen=True)
class Variant:
    """What a match is played in: one game throughout, or a rotation of games (tavli).

    ``games``: the games in order (game ``n`` of the match plays ``games[(n - 1) % len]``);
    ``titles``: their names in this format (tavli calls backgammon Portes);
    ``mat_name``: the .mat ``Variation`` (None: gnubg's default, backgammon)."""

    name: str
    title: str
    games: tuple[Game, ...]
    titles: tuple[str, ...]
    mat_name: str | None

    def game(self, number: int) -> Game:
        """The game played as game ``number`` (1, 2, ...) of a match."""
        return self.games[(number - 1) % len(self.games)]

    def game_title(self, number: int) -> str:
        return self.titles[(number - 1) % len(self.titles)]

    @property
    def rotates(self) -> bool:
        """Several games take turns (tavli): the display names the game being played."""
        return len(self.games) > 1

    @property
    def cube(self) -> bool:
        """Whether the match uses the doubling cube (not in a rotation: VARIANTS.md)."""
        return not self.rotates and self.games[0].cube

    @property
    def pins(self) -> bool:
        """Whether some game of the match pins checkers (the board's reading must allow it)."""
        return any(g.pins for g in self.games)

    @property
    def seed(self) -> bool:
        """Whether some game of the match is a seed game (played on a Board with pins or a
        reserve, not on backgammon's Position alone)."""
        return any(g.seed for g in self.games)

    @property
    def checkers(self) -> int:
        return self.games[0].checkers

    @property
    def hints(self) -> bool:
        """Whether a hint engine knows every game of the match (:attr:`Game.hints`)."""
        return all(g.hints for g in self.games)

    @property
    def engine_play(self) -> bool:
        """Whether the engine opponent plays every game of the match (:attr:`Game.engine_play`)."""
        return all(g.engine_play for g in self.games)

    @property
    def analysis(self) -> bool:
        """Whether the match analysis covers every game of the match (:attr:`Game.analysis`)."""
        return all(g.analysis for g in self.games)

    @property
    def remote_play(self) -> bool:
        """Whether two boards may play the match through a broker (:attr:`Game.remote_play`)."""
        return all(g.remote_play for g in self.games)


def _alone(g: Game) -> Variant:
    return Variant(g.name, g.title, (g,), (g.title,), g.mat_name)


#: Tavli (VARIANTS.md, issue 16): Portes, Plakoto and Fevga in rotation.
TAVLI = Variant(
    "tavli", Phrase("Tavli"), (GAMES["standard"], GAMES["plakoto"], GAMES["fevga"]),
    (Phrase("Portes"), Phrase("Plakoto"), Phrase("Fevga")), "Tavli"
)

#: Every format a match may be played in, by name: each game alone, then tavli.
VARIANTS: dict[str, Variant] = {**{name: _alone(g) for name, g in GAMES.items()}, TAVLI.name: TAVLI}

#: The match formats that rotate games (tavli), each played under its own rule set of the
#: same name (:data:`bgboard.match.ruleset.RULE_SETS`).
ROTATIONS: dict[str, Variant] = {name: v for name, v in VARIANTS.items() if v.rotates}
#: The names of the seed games (not backgammon's starts).
SEED_GAMES: tuple[str, ...] = tuple(name for name, g in GAMES.items() if g.seed)
#: The names of the match formats that play a seed game (the variant simulator's choices).
SEED_VARIANTS: tuple[str, ...] = tuple(name for name, v in VARIANTS.items() if v.seed)


def variant(name: str) -> Variant:
    """The match format called ``name``; :class:`UnknownVariantError` names the choices."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariantError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None


#: What a game may support (:class:`~bgboard.rules.game.Game`'s declared capabilities).
Capability = Literal["hints", "engine_play", "analysis", "remote_play"]


def supporting(capability: Capability) -> tuple[str, ...]:
    """The names of the match formats that support ``capability`` (``"engine_play"``,
    ``"analysis"``, ``"remote_play"``, ``"hints"``), in the registry's order: for the
    sentence that refuses another."""
    return tuple(name for name, v in VARIANTS.items() if getattr(v, capability))


def recorded(name: str) -> str | None:
    """The game ``name`` as a match records its variant: None for backgammon's standard
    start (the default, which a ``StartMatch`` and a journal leave out), else the name."""
    return None if name == _DEFAULT else name


def game(name: str) -> Game:
    """The game called ``name`` (a match format that rotates has no single game)."""
    found = variant(name)
    if found.rotates:
        raise UnknownVariantError(f"{name!r} is a rotation of games: choose one of {', '.join(GAMES)}")
    return found.games[0]



__all__ = ["GAMES", "ROTATIONS", "Capability", "SEED_GAMES", "SEED_VARIANTS", "TAVLI", "VARIANTS", "Game",
           "UnknownVariantError", "Variant", "backgammon_start", "game", "recorded", "supporting", "variant"]
