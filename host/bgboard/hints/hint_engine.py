"""The ``HintEngine`` interface and the values every backend returns.

A backend is anything with the methods of :class:`HintEngine`.  It must provide
:meth:`~HintEngine.rank` (score every resulting position of one roll) and
:meth:`~HintEngine.cube`; everything else (notation, equity loss, the top-N list) is done
once here, on top of the rules engine, so that every backend returns the same shape.

Equities are cubeless money equities for the player who moves (+1 = a sure single win),
except for the pubeval fallback, whose ``calibrated`` flag is False: its numbers only rank
plays and are not equities (so no blunder grade is given from them).
"""

from __future__ import annotations

from enum import StrEnum
from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

from bgboard.errors import EnvironmentFailure, InputError
from bgboard.rules.position import Position

__all__ = [
    "CubeAction",
    "classify_cube",
    "CubeHint",
    "CubeState",
    "EngineUnavailableError",
    "HintEngine",
    "PlayHint",
    "PlaysHint",
    "UnsupportedError",
]


class EngineUnavailableError(EnvironmentFailure):
    """The engine asked for cannot be used here (not installed, or no wheel for this CPU)."""


class UnsupportedError(InputError):
    """The engine cannot answer this kind of question (e.g. pubeval gives no cube advice)."""


@dataclass(frozen=True, slots=True)
class PlayHint:
    """One candidate play of a roll, as ranked by an engine.

    ``position`` is the board after the play with the mover still ``mine`` (the convention
    of ``bgboard.rules.Play.position``); ``loss`` = best equity − this equity (≥ 0).
    """

    notation: str
    position: Position
    equity: float
    loss: float


@dataclass(frozen=True, slots=True)
class PlaysHint:
    """The ranked plays of one roll, best first (empty tuple: no legal play)."""

    engine: str
    dice: tuple[int, int]
    plays: tuple[PlayHint, ...]
    calibrated: bool

    @property
    def best(self) -> PlayHint | None:
        """The engine's choice, or None when the roll cannot be played."""
        return self.plays[0] if self.plays else None


@dataclass(frozen=True, slots=True)
class CubeState:
    """What a cube decision depends on, seen by the player on roll.

    ``owner`` is ``"centred"``, ``"mine"`` or ``"theirs"``; ``my_away`` / ``their_away``
    are the points each side still needs (both 0 in a money game); ``crawford`` is True
    during the Crawford game; ``jacoby`` and ``beaver`` are the money-game rules (gammons
    count only once the cube is turned; a doubled player may redouble at once).
    """

    value: int = 1
    owner: str = "centred"
    my_away: int = 0
    their_away: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False

    @property
    def money(self) -> bool:
        """True for a money game (no match score)."""
        return self.my_away == 0 and self.their_away == 0

    def __post_init__(self) -> None:
        if self.owner not in ("centred", "mine", "theirs"):
            raise InputError(f"the cube owner must be centred, mine or theirs, not {self.owner!r}")
        if self.value < 1 or self.value & (self.value - 1):
            raise InputError(f"the cube shows a power of two, not {self.value}")
        if (self.my_away == 0) != (self.their_away == 0) or self.my_away < 0 or self.their_away < 0:
            raise InputError("both players need a positive number of points, or neither (money)")


class CubeAction(StrEnum):
    """The four answers to "should I double?" (strings, shown as they are)."""

    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    TOO_GOOD = "too good to double"


def classify_cube(double: bool, take: bool, no_double: float, double_pass: float) -> CubeAction:
    """The cube action of an engine's answer (both engines, one rule).

    An engine says whether to double and whether the opponent should take, with the
    equities of no double (ND) and double/pass (DP).  Not doubling is *too good* when playing
    on beats the opponent's pass, ND > DP, and the opponent would pass; at ND = DP it is a
    plain no double, as gnubg's ``FindBestCubeDecision`` decides (too good only when
    ``arDouble[OUTPUT_NODOUBLE] > arDouble[OUTPUT_DROP]``)."""
    if double:
        return CubeAction.DOUBLE_TAKE if take else CubeAction.DOUBLE_PASS
    if not take and no_double > double_pass:
        return CubeAction.TOO_GOOD
    return CubeAction.NO_DOUBLE


@dataclass(frozen=True, slots=True)
class CubeHint:
    """Cube advice for the player on roll, before rolling.

    ``action`` is one of :class:`CubeAction`; ``take`` says whether the opponent should
    take if doubled.  The three values (no double, double/take, double/pass) are in
    ``unit``: "equity" (bgsage: cubeful equity, normalised so that double/pass = +1 at
    money) or "match winning chance" (gnubg-nn, 0..1), or None when the cube cannot be
    turned (``reason`` then says why: Crawford game, dead cube, the opponent owns it) or
    when a rule of thumb decided (``basis`` then names it, e.g. the Keith count).

    ``equity_scale`` turns a difference of two of the values into normalised money equity,
    the unit gnubg grades cube errors in: 1 for "equity"; for "match winning chance"
    gnubg's ``mwc2eq`` slope ``2 / (MWC win - MWC lose)`` at the current cube (the match
    winning chances after the player on roll wins or loses the cube's value), or None when
    the engine cannot say.
    """

    engine: str
    action: str
    take: bool | None
    no_double: float | None = None
    double_take: float | None = None
    double_pass: float | None = None
    reason: str | None = None
    basis: str | None = None
    unit: str = "equity"
    equity_scale: float | None = 1.0


@runtime_checkable
class HintEngine(Protocol):
    """What a backend must provide.

    ``name`` is the config/``--engine`` name; ``calibrated`` says whether :meth:`rank`
    returns equities (True) or only a ranking score (False).
    """

    name: str
    calibrated: bool

    def rank(
        self,
        position: Position,
        dice: tuple[int, int],
        results: Sequence[Position],
        state: CubeState | None = None,
    ) -> list[float]:
        """Score each of ``results`` (every resulting position of ``dice`` from
        ``position``, the mover still ``mine``): a higher score is better for the mover.
        ``state`` (cube and match score) may be used by engines that support it; None =
        cubeless money play."""
        ...

    def cube(self, position: Position, state: CubeState) -> CubeHint:
        """Cube advice for the player on roll when the cube can be turned."""
        ...

    def close(self) -> None:
        """Release the engine (idempotent)."""
        ...
