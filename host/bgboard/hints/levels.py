"""The engine as an opponent: its levels, and its decisions at a match score (pure given an engine).

A level is an engine plus how it chooses: the best play by the engine's own ranking, or the
best after each candidate's equity has been given Gaussian noise of standard deviation
``noise`` (cubeless equity units, as gnubg's "noise" settings).  The noise is deterministic:
a function of the level, the position and the roll (gnubg's "deterministic noise"), so the
same position with the same roll gets the same choice again (a resumed simulation repeats
the uninterrupted one, and a replay repeats the engine).

The ladder (weakest first) and its measured strength, points per game against pubeval:
benchmarks/opponent_levels.py, figures in docs/performance.md ("The engine as an opponent");
the noise constants below are the ones that measurement chose (docs/performance.md names the
sweep).  Cube decisions are the engine's own at every level (no noise): cubeful, at the match
score; where the engine gives no cube advice (pubeval; gnubg-nn in money play) a rule of
thumb on its cubeless equity decides (:func:`cube_rule`).

:func:`decide` is the one entry point: a module-level function of an engine and a
:class:`Ask`, so a :class:`~bgboard.hints.worker.HintWorker` can run it on its thread or in
its child process.
"""

from __future__ import annotations

import functools
import hashlib
import random
from dataclasses import dataclass

from bgboard.errors import EnvironmentFailure, InputError
from bgboard.hints.advice import cube_hint
from bgboard.hints.hint_engine import CubeAction, CubeState, HintEngine, UnsupportedError
from bgboard.hints.registry import make_engine
from bgboard.rules import legal_plays
from bgboard.rules.position import Position

__all__ = ["ENGINE_LEVELS", "LADDER", "Ask", "Decision", "Level", "UnknownLevelError", "choose_play", "cube_rule",
           "decide", "level_of", "make_engine", "parse_opponent"]


class UnknownLevelError(InputError):
    """An engine or level the opponent does not have (one sentence naming the choices)."""


@dataclass(frozen=True, slots=True)
class Level:
    """One rung: ``engine`` (a registry name) at ``name``; ``noise`` is the standard deviation
    of the equity noise (0: the engine's best play); ``eval_level`` bgsage's depth."""

    engine: str
    name: str
    noise: float = 0.0
    eval_level: str | None = None

    @property
    def title(self) -> str:
        """How the display and the records name the player: "gnubg-nn (advanced)"."""
        return f"{self.engine} ({self.name})"

    @property
    def spec(self) -> str:
        """``ENGINE:LEVEL`` as ``bgboard sim --opponent`` takes it."""
        return f"{self.engine}:{self.name}"


#: Noise (cubeless equity) of each noisy level: chosen by benchmarks/opponent_levels.py
#: --calibrate (a sweep of σ against pubeval; docs/performance.md, "The engine as an opponent").
BEGINNER_NOISE = 0.13
INTERMEDIATE_NOISE = 0.06
ADVANCED_NOISE = 0.03

#: The levels of each engine, weakest first; the last is the engine's full strength.
ENGINE_LEVELS: dict[str, tuple[Level, ...]] = {
    "pubeval": (Level("pubeval", "casual"),),
    "gnubg-nn": (
        Level("gnubg-nn", "beginner", BEGINNER_NOISE),
        Level("gnubg-nn", "intermediate", INTERMEDIATE_NOISE),
        Level("gnubg-nn", "advanced", ADVANCED_NOISE),
        Level("gnubg-nn", "expert"),  # gnubg-nn's 0-ply evaluation, no noise
    ),
    "bgsage": (
        Level("bgsage", "beginner", BEGINNER_NOISE, "1ply"),
        Level("bgsage", "intermediate", INTERMEDIATE_NOISE, "1ply"),
        Level("bgsage", "advanced", ADVANCED_NOISE, "1ply"),
        Level("bgsage", "expert", 0.0, "1ply"),
        # bgsage looking two plies ahead ("2ply" = gnubg's 1-ply): the strongest level whose
        # strength the repo measures to ±0.02 (benchmarks/opponent_levels.py; its 3-ply takes
        # 70× the time a game, ~20 CPU-hours for that interval: docs/performance.md).
        Level("bgsage", "world-class", 0.0, "2ply"),
    ),
}

#: The measured ladder, weakest first (benchmarks/opponent_levels.py plays each against pubeval).
LADDER: tuple[Level, ...] = (
    ENGINE_LEVELS["gnubg-nn"][0],
    ENGINE_LEVELS["pubeval"][0],
    ENGINE_LEVELS["gnubg-nn"][1],
    ENGINE_LEVELS["gnubg-nn"][2],
    ENGINE_LEVELS["gnubg-nn"][3],
    ENGINE_LEVELS["bgsage"][4],
)

_ALIASES = {"gnubg": "gnubg-nn", "gnubg_nn": "gnubg-nn"}


def level_of(engine: str, level: str = "") -> Level:
    """The level ``level`` of ``engine`` ("" = its full strength); one sentence if there is none."""
    name = _ALIASES.get(engine.strip().lower(), engine.strip().lower())
    levels = ENGINE_LEVELS.get(name)
    if levels is None:
        raise UnknownLevelError(f"unknown opponent engine {engine!r}: choose one of {', '.join(ENGINE_LEVELS)}")
    wanted = level.strip().lower()
    if not wanted:
        return levels[-1]
    for found in levels:
        if found.name == wanted:
            return found
    names = ", ".join(f.name for f in levels)
    raise UnknownLevelError(f"{name} plays at {names}, not {level!r}")


def parse_opponent(spec: str) -> Level:
    """``ENGINE[:LEVEL]`` (``bgboard sim --opponent``): ENGINE alone is its full strength."""
    engine, _, level = spec.partition(":")
    return level_of(engine, level)


@functools.lru_cache(maxsize=1)
def _equity_net() -> HintEngine:
    """gnubg-nn, opened once per process, for the resignations an engine without position
    equities answers."""
    return make_engine("gnubg-nn")


@dataclass(frozen=True, slots=True)
class Ask:
    """One question to the engine, from the view of the player on roll (``position``).

    ``kind``: "play" (the roll ``dice``), "cube" (double or roll?), "take" (the engine was
    doubled by the player on roll: take, pass or beaver?), "resign" (the player on roll
    offers ``points`` per cube: accept?).  ``state``: the cube and score as the player on
    roll sees them.  ``noise``/``salt``: the level's noise and its name (the noise's seed).
    """

    kind: str
    position: Position
    state: CubeState
    dice: tuple[int, int] | None = None
    noise: float = 0.0
    salt: str = ""
    beavers: bool = False
    level: int = 1


@dataclass(frozen=True, slots=True)
class Decision:
    """The engine's answer: ``choice`` ("double"/"roll", "take"/"pass"/"beaver",
    "accept"/"decline", or "play"); for a play, its ``steps`` ((from, to) in the mover's
    numbering; empty: no legal play) and ``notation``; ``why`` says what decided."""

    choice: str
    steps: tuple[tuple[int, int], ...] = ()
    notation: str = ""
    why: str = ""


def _noise(salt: str, position: Position, dice: tuple[int, int], count: int, sigma: float) -> list[float]:
    """``count`` deterministic Gaussian deviates of ``sigma`` for this level, position and roll."""
    if sigma <= 0:
        return [0.0] * count
    key = f"{salt}|{position.mine}|{position.theirs}|{dice[0]}{dice[1]}".encode()
    rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
    return [rng.gauss(0.0, sigma) for _ in range(count)]


def choose_play(engine: HintEngine, position: Position, dice: tuple[int, int], state: CubeState | None = None,
                noise: float = 0.0, salt: str = "") -> Decision:
    """The level's play of ``dice``: the engine's best, or its best after the noise.
    Ties keep the rules engine's order (as :func:`~bgboard.hints.advice.play_hints`)."""
    plays = legal_plays(position, dice)
    if not plays:
        return Decision("play", (), "", "no legal play")
    results = [play.position for play in plays]
    scores = engine.rank(position, dice, results) if state is None else engine.rank(position, dice, results, state)
    shaken = [s + n for s, n in zip(scores, _noise(salt, position, dice, len(scores), noise))]
    best = max(range(len(plays)), key=lambda i: (shaken[i], -i))
    play = plays[best]
    return Decision("play", tuple((int(s.frm), int(s.to)) for s in play.steps), play.notation,
                    f"{engine.name} ranks it {'first' if noise <= 0 else 'first after its noise'}")


def cube_rule(engine: HintEngine, ask: Ask) -> Decision:
    """Cube decisions without cube advice: with a calibrated engine, double at a cubeless
    equity of 0.55 or more and take at -0.5 or more (near the money market and take points);
    pubeval knows no equities: it never doubles and always takes."""
    equity_after = getattr(engine, "equity_after", None)
    if not engine.calibrated or equity_after is None:
        return Decision("roll" if ask.kind == "cube" else "take", why="pubeval never doubles and always takes")
    # the player on roll's cubeless equity: minus the opponent's, seen after a "play" that changed nothing
    equity = -float(equity_after(ask.position.swap()))
    if ask.kind == "cube":
        return Decision("double" if equity >= 0.55 else "roll", why=f"cubeless equity {equity:+.2f} (rule of thumb)")
    return Decision("take" if -equity >= -0.5 else "pass", why=f"cubeless equity {-equity:+.2f} (rule of thumb)")


def decide(engine: HintEngine, ask: Ask) -> Decision:
    """The engine's answer to ``ask`` (see :class:`Ask`)."""
    if ask.kind == "play":
        assert ask.dice is not None
        return choose_play(engine, ask.position, ask.dice, ask.state, ask.noise, ask.salt)
    if ask.kind == "resign":
        return _resign(engine, ask)
    try:
        hint = cube_hint(engine, ask.position, ask.state)
    except UnsupportedError:
        return cube_rule(engine, ask)
    if ask.kind == "cube":
        double = hint.action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS)
        return Decision("double" if double else "roll", why=f"{engine.name}: {hint.reason or hint.action}")
    # "take": the engine is the doubled player; the hint is the doubler's
    if hint.take is False:
        return Decision("pass", why=f"{engine.name}: {hint.action}")
    beaver = ask.beavers and hint.no_double is not None and hint.unit == "equity" and hint.no_double < 0
    return Decision("beaver" if beaver else "take", why=f"{engine.name}: {hint.action}")


def _resign(engine: HintEngine, ask: Ask) -> Decision:
    """Accept a resignation of ``level`` (1 single, 2 gammon, 3 backgammon) when it gives the
    engine at least its cubeless equity in the position (a backgammon always).  An engine
    that gives no position equity of its own (bgsage ranks plays) asks gnubg-nn's net."""
    if ask.level >= 3:
        return Decision("accept", why="a backgammon is the most a game can give")
    equity_after = getattr(engine, "equity_after", None)
    if equity_after is None and engine.calibrated:
        try:
            equity_after = _equity_net().equity_after  # type: ignore[attr-defined]
        except (InputError, EnvironmentFailure):  # gnubg-nn not installed: no equity to ask
            equity_after = None
    if not engine.calibrated or equity_after is None:
        return Decision("decline", why=f"{engine.name} knows no equities: it plays on")
    mine = float(equity_after(ask.position.swap()))  # the engine's equity, the resigner on roll
    return Decision("accept" if ask.level >= mine else "decline", why=f"its equity is {mine:+.2f}")

