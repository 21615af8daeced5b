"""pubeval in Python equals Tesauro's C code as shipped in gnubg-nn."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.hints.pubeval import WIN_SCORE, is_race, score
from bgboard.hints.samples import random_positions
from bgboard.rules import Position, legal_plays, start_position


@pytest.fixture(scope="module")
def gnubg_nn():
    try:
        import gnubg_nn
    except ImportError as exc:
        pytest.skip(f"gnubg_nn cannot be imported here: {exc}")
    return gnubg_nn


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_score_equals_gnubg_c_pubeval(gnubg_nn, seed: int) -> None:
    # gnubg-nn's pub_eval_score takes (mover, opponent) and picks race weights from the
    # board it is given, so compare with race = is_race(after).
    for position, dice in random_positions(30, seed=seed):
        for play in legal_plays(position, dice)[:8]:
            after = play.position
            if after.mine[0] == 15:
                assert score(after, True) == WIN_SCORE
                continue
            ref = gnubg_nn.pub_eval_score([list(after.mine[1:]), list(after.theirs[1:])])
            assert score(after, is_race(after)) == pytest.approx(ref, abs=1e-3)


def test_is_race_matches_gnubg_classification(gnubg_nn) -> None:
    for position, _ in random_positions(400, seed=5):
        board = position.to_gnubg()
        gnubg_race = gnubg_nn.classify([list(board[0]), list(board[1])]) <= gnubg_nn.c_race
        assert is_race(position) == gnubg_race, position


def test_race_weights_used_only_in_a_race() -> None:
    start = start_position()
    assert not is_race(start)
    race = Position.from_points([0] * 6 + [15] + [0] * 10 + [-15] + [0] * 6)
    assert is_race(race)
    assert score(start, True) != score(start, False)


def test_a_made_point_scores_better_than_blots() -> None:
    # 8/5 6/5 (making the 5-point) is pubeval's choice with 31, as in Tesauro's paper.
    start = start_position()
    plays = {p.notation: p.position for p in legal_plays(start, (3, 1))}
    assert score(plays["8/5 6/5"], False) > score(plays["24/23 24/21"], False)
