"""Helpers for the match tests: states built through the public actions."""

from __future__ import annotations

from dataclasses import replace

from bgboard.match import TURN, MatchState, OpeningRoll, StartMatch, apply


def started(length: int = 5, rules: str = "standard", **options: object) -> MatchState:
    """A match just after player 0 won the opening roll with 3-1."""
    state = apply(None, StartMatch(length=length, rules=rules, players=("Ann", "Bob"), **options))  # type: ignore[arg-type]
    return apply(state, OpeningRoll((3, 1)))


def at_turn(state: MatchState, turn: int, **fields: object) -> MatchState:
    """``state`` moved on to ``turn``'s roll-or-double decision (a unit-test shortcut
    standing for a sequence of plays), with ``fields`` changed."""
    return replace(state, phase=TURN, turn=turn, dice=None, **fields)  # type: ignore[arg-type]
