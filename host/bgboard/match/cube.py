"""The doubling cube and game scoring: who may double, what a game is worth.

Pure functions of a :class:`~bgboard.match.state.MatchState` (typed loosely here to keep
imports one-way: ``state`` imports ``cube``).
"""

from __future__ import annotations

from typing import Any, Sequence

from bgboard.language import Phrase
from bgboard.rules import Position, game_result

_RULE_KEYS = {
    "no doubling in the Crawford game": "crawford",
    "you do not own the cube": "cube-owner",
}


def rule_key(reason: str) -> str:
    """A short stable key for a cube rule message."""
    if reason in _RULE_KEYS:
        return _RULE_KEYS[reason]
    if reason.startswith("the cube cannot go above"):
        return "max-cube"
    if "dead cube" in reason:
        return "dead-cube"
    if reason.startswith("you need only one point"):
        return "one-away"
    return "cube"


def double_refusal(state: Any, player: int) -> str | None:
    """Why ``player`` (on roll, before rolling) may not offer the cube, or ``None``.

    Rules, in order: the Crawford game has no cube; only the owner of a turned cube
    redoubles; the rule set's highest cube; and (rule ``dead_cube``) no offer that cannot
    matter: the leader 1-away post-Crawford, or a cube that already wins the match."""
    if state.length and state.crawford:
        return Phrase("no doubling in the Crawford game")
    if state.cube_owner is not None and state.cube_owner != player:
        return Phrase("you do not own the cube")
    max_cube = state.rules.max_cube
    if max_cube is not None and state.cube * 2 > max_cube:
        return Phrase("the cube cannot go above %(value)d", value=max_cube)
    if state.length and state.rules.dead_cube:
        away = state.length - state.score[player]
        if away <= 1:
            return Phrase("you need only one point to win the match: a double cannot matter")
        if state.cube >= away:
            return Phrase("the cube at %(value)d already wins you the match: doubling cannot matter (dead cube)",
                          value=state.cube)
    return None


def win_level(winner: Sequence[int], loser: Sequence[int]) -> int:
    """1 single, 2 gammon (the loser has borne off nothing), 3 backgammon (also a loser's
    checker on the bar or in the winner's home board) once ``winner`` has borne off every
    checker.  Sides from their owners' views; the scoring is :func:`bgboard.rules.game_result`'s."""
    result = game_result(Position(tuple(winner), tuple(loser)))
    assert result is not None and result.winner == "mine", "the winner has not borne off"
    return result.points


def game_points(state: Any, level: int, result: str) -> int:
    """Points for a game ended with ``level`` (1/2/3) under the current cube.

    A drop scores the cube before the double (level 1).  Money play with the Jacoby rule:
    gammons and backgammons count single while the cube is centred (never turned)."""
    if result == "drop":
        return int(state.cube)
    if state.rules.money and state.rules.jacoby and state.cube_owner is None:
        level = 1
    return int(level * state.cube)
