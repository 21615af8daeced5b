"""Properties of the analysis with the real gnubg-nn engine: a match played by the
engine's own best plays has no checker error; one deliberately wrong play costs exactly
that play's loss."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.analysis import analyse_match, summarise
from bgboard.analysis.walk import cube_state
from bgboard.analysis.evaluators import GnubgEvaluator
from bgboard.match import apply
from bgboard.match.actions import Move, NextGame, OpeningRoll, Pass, Roll, StartMatch
from bgboard.match.mat_read import import_mat
from bgboard.match.mat_write import export_mat
from bgboard.match.state import GAME_OVER, MATCH_OVER, OPENING, PLAY, TURN
from bgboard.rules import legal_plays


@pytest.fixture(scope="module")
def evaluator() -> GnubgEvaluator:
    return GnubgEvaluator()  # fails (not skips) when gnubg-nn is missing


def _play_match(evaluator: GnubgEvaluator, seed: int, length: int, wrong_at: int | None) -> tuple[str, float]:
    """A match whose every play is the evaluator's best, except the ``wrong_at``-th
    unforced play, which is its worst candidate; the .mat text and that play's loss."""
    rng = random.Random(seed)
    actions = [StartMatch(length=length, rules="standard", players=("Best", "Other"))]
    state = apply(None, actions[0])
    unforced = 0
    loss = 0.0
    while state.phase != MATCH_OVER and len(actions) < 3000:
        if state.phase == OPENING:
            action = OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
        elif state.phase == GAME_OVER:
            action = NextGame()
        elif state.phase == TURN:
            action = Roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif state.phase == PLAY:
            assert state.dice is not None and state.turn is not None
            position = state.position
            plays = legal_plays(position, state.dice)
            if not plays:
                action = Pass()
            else:
                cs = cube_state(state, state.turn)
                count, ranked = evaluator.plays(position, state.dice, cs)
                target = ranked[0]
                if count > 1 and len(ranked) > 1:
                    if unforced == wrong_at:
                        target = ranked[-1]
                        loss = ranked[0][1] - ranked[-1][1]
                    unforced += 1
                action = Move.of(next(p for p in plays if p.position == target[0]))
        else:  # pragma: no cover - no cube and no resignation in these matches
            raise AssertionError(state.phase)
        state = apply(state, action)
        actions.append(action)
    return export_mat(actions), loss


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_the_engines_own_best_plays_have_no_error(evaluator: GnubgEvaluator, seed: int):
    text, _ = _play_match(evaluator, seed, 1, None)
    analysis = analyse_match(import_mat(text), evaluator, luck=False)
    assert analysis.checker, "the match has plays"
    for player in (0, 1):
        stats = summarise(analysis, player)
        assert stats.checker_error_emg == 0.0
        assert stats.unforced_moves > 0


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), wrong_at=st.integers(0, 15))
def test_one_wrong_play_costs_exactly_its_loss(evaluator: GnubgEvaluator, seed: int, wrong_at: int):
    text, loss = _play_match(evaluator, seed, 1, wrong_at)
    analysis = analyse_match(import_mat(text), evaluator, luck=False)
    total = sum(summarise(analysis, p).checker_error_emg for p in (0, 1))
    assert total == pytest.approx(loss, abs=1e-9)
    if loss > 0:
        assert sum(1 for d in analysis.checker if d.error > 0) == 1
