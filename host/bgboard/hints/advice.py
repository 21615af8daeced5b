"""Checker-play and cube hints on top of any :class:`HintEngine` (pure orchestration).

The rules engine lists the legal plays (one per resulting position, with its notation);
the engine only scores resulting positions.  So every backend answers with the same
plays, in the same notation, and a play that the engine would not consider cannot appear.
"""

from __future__ import annotations

from typing import Callable

from bgboard.hints.hint_engine import CubeAction, CubeHint, CubeState, HintEngine, PlayHint, PlaysHint
from bgboard.rules import legal_plays
from bgboard.rules.position import Position

__all__ = ["Cancelled", "cube_blocker", "cube_hint", "play_hints"]


class Cancelled(Exception):
    """The hint was cancelled (the board changed, or its time budget ran out)."""


def play_hints(
    engine: HintEngine,
    position: Position,
    dice: tuple[int, int],
    limit: int | None = None,
    cancelled: Callable[[], bool] | None = None,
    state: CubeState | None = None,
) -> PlaysHint:
    """The legal plays of ``dice`` ranked by ``engine``, best first, at most ``limit``.

    ``state`` (cube and match score) lets an engine that supports it (bgsage) rank for
    that score; None ranks for cubeless money play.

    Ties keep the rules engine's deterministic order.  ``cancelled`` is polled before the
    engine is asked; if it returns True, :class:`Cancelled` is raised.
    """
    plays = legal_plays(position, dice)
    if cancelled is not None and cancelled():
        raise Cancelled
    if not plays:
        return PlaysHint(engine.name, (dice[0], dice[1]), (), engine.calibrated)
    results = [play.position for play in plays]
    scores = engine.rank(position, (dice[0], dice[1]), results) if state is None else engine.rank(
        position, (dice[0], dice[1]), results, state
    )
    if cancelled is not None and cancelled():
        raise Cancelled
    order = sorted(range(len(plays)), key=lambda i: -scores[i])
    best = scores[order[0]]
    if limit is not None:
        order = order[: max(limit, 0)]
    ranked = tuple(
        PlayHint(plays[i].notation, plays[i].position, float(scores[i]), float(best - scores[i])) for i in order
    )
    return PlaysHint(engine.name, (dice[0], dice[1]), ranked, engine.calibrated)


def cube_blocker(state: CubeState) -> str | None:
    """Why the player on roll cannot (usefully) double, or None if the cube is available.

    The Crawford game has no cube; a cube the opponent owns cannot be turned; in a match a
    cube is dead when its value already wins the match for the player on roll.
    """
    if state.crawford:
        return "this is the Crawford game: no doubling"
    if state.owner == "theirs":
        return "your opponent owns the cube"
    if not state.money and state.value >= state.my_away:
        return "the cube is dead: a win at this cube value already wins the match"
    return None


def cube_hint(engine: HintEngine, position: Position, state: CubeState) -> CubeHint:
    """Cube advice for the player on roll: "no double" with the reason when the cube
    cannot be turned, else the engine's answer."""
    reason = cube_blocker(state)
    if reason is not None:
        return CubeHint(engine=engine.name, action=CubeAction.NO_DOUBLE, take=None, reason=reason)
    return engine.cube(position, state)
