"""Simulated players: deterministic in (seed, game, turn), legal, and laid out as real moves."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard import rules
from bgboard.rules import Position
from bgboard.rules.board import Board
from bgboard.rules.games import GAMES
from bgboard.sim.layout import BLACK, WHITE, Layout
from bgboard.sim.players import choose_play, dice_for, moves_of, takes, wants_double

STANDARD = GAMES["standard"]


def _self_play(seed: int, plies: int) -> tuple[Position, int]:
    """A position reached by ``plies`` turns of the simulated players, and who is on roll."""
    position, colour = rules.start_position(), WHITE
    for turn in range(1, plies + 1):
        if rules.game_result(position.swap()) is not None:
            break
        dice = dice_for(seed, 1, turn)
        play = choose_play(STANDARD, Board.of(position), dice, seed, 1, turn)
        if play is not None:
            position = play.position
        position, colour = position.swap(), 1 - colour
    return position, colour


def test_dice_depend_only_on_seed_game_and_turn() -> None:
    assert dice_for(3, 2, 7) == dice_for(3, 2, 7)
    rolls = [dice_for(1, g, t) for g in range(1, 20) for t in range(0, 60)]
    faces = Counter(d for pair in rolls for d in pair)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert min(faces.values()) > 0.8 * len(rolls) * 2 / 6
    assert all(a != b for a, b in (dice_for(1, g, 0) for g in range(1, 200)))


@pytest.mark.slow
@given(st.integers(0, 10_000), st.integers(0, 60))
@settings(max_examples=40, deadline=None)
def test_the_chosen_play_is_legal_and_repeatable(seed: int, plies: int) -> None:
    position, _ = _self_play(seed, plies)
    dice = dice_for(seed, 1, plies + 1)
    play = choose_play(STANDARD, Board.of(position), dice, seed, 1, plies + 1)
    plays = rules.legal_plays(position, dice)
    if not plays:
        assert play is None
    else:
        assert play in plays
        assert choose_play(STANDARD, Board.of(position), dice, seed, 1, plies + 1) == play


@given(st.integers(0, 10_000), st.integers(0, 60))
@settings(max_examples=40, deadline=None)
def test_moving_checkers_one_at_a_time_reaches_the_play(seed: int, plies: int) -> None:
    position, colour = _self_play(seed, plies)
    dice = dice_for(seed, 1, plies + 1)
    play = choose_play(STANDARD, Board.of(position), dice, seed, 1, plies + 1)
    if play is None:
        return
    layout = Layout.from_position(position, colour)
    for move in moves_of(play.steps, colour):
        layout, c = layout.lift(move.src)
        assert c == colour or move.dst.startswith("bar")
        layout = layout.put(move.dst, c)
    assert layout == Layout.from_position(play.position, colour)


def test_cube_decisions_follow_the_race() -> None:
    ahead = Position.from_points([0] * 5 + [15] + [0] * 6 + [-15] + [0] * 11)
    behind = ahead.swap()
    assert any(wants_double(ahead, s, 1, 5) for s in range(10))
    assert not any(wants_double(behind, s, 1, 5) for s in range(10))
    assert all(wants_double(ahead, s, 1, 5) == wants_double(ahead, s, 1, 5) for s in range(10))
    close = rules.start_position()
    assert all(takes(close, s, 1, 3) for s in range(10))
    assert sum(takes(behind, s, 1, 3) for s in range(200)) < 80
