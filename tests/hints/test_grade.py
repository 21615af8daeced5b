"""Grades use gnubg's thresholds (doubtful > 0.04, bad > 0.08, very bad > 0.16)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgboard.hints import grade, grade_play, play_hints
from bgboard.rules import legal_plays, start_position


@pytest.mark.parametrize(
    "loss,word",
    [(0.0, "good"), (0.04, "good"), (0.0401, "doubtful"), (0.08, "doubtful"), (0.0801, "bad"),
     (0.16, "bad"), (0.1601, "very bad"), (1.5, "very bad")],
)
def test_thresholds_are_gnubgs_and_strict(loss, word) -> None:
    assert grade(loss) == word


@given(st.floats(0, 3), st.floats(0, 3))
def test_grades_never_improve_with_a_bigger_loss(a, b) -> None:
    order = ["good", "doubtful", "bad", "very bad"]
    lo, hi = sorted((a, b))
    assert order.index(grade(lo)) <= order.index(grade(hi))


def test_running_with_an_opening_31_is_very_bad_and_making_the_5_point_is_best(bgsage_engine) -> None:
    hint = play_hints(bgsage_engine, start_position(), (3, 1))
    plays = {p.notation: p.position for p in legal_plays(start_position(), (3, 1))}
    best = grade_play(hint, plays["8/5 6/5"])
    assert best.loss == 0.0 and best.grade == "good" and best.text == "8/5 6/5 is the best play."
    run = grade_play(hint, plays["24/20"])
    assert run.grade == "very bad" and run.loss > 0.16
    assert "worse than 8/5 6/5" in run.text


def test_pubeval_ranks_but_does_not_grade(pubeval_engine) -> None:
    hint = play_hints(pubeval_engine, start_position(), (3, 1))
    plays = {p.notation: p.position for p in legal_plays(start_position(), (3, 1))}
    verdict = grade_play(hint, plays["24/20"])
    assert verdict.grade is None and "prefers 8/5 6/5" in verdict.text


def test_a_position_outside_the_hint_is_refused(gnubg_engine) -> None:
    hint = play_hints(gnubg_engine, start_position(), (3, 1), limit=1)
    other = legal_plays(start_position(), (3, 1))[0].position
    with pytest.raises(ValueError):
        grade_play(hint, other if other != hint.best.position else start_position())
