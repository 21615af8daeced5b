"""The statistics' definitions (gnubg's analysis.c / formatgs.c), on hand-made decisions."""

from __future__ import annotations

import math

import pytest

from bgboard.analysis.stats import (
    CheckerDecision,
    CubeDecision,
    LuckRoll,
    MatchAnalysis,
    luck_rating,
    mark,
    rating,
    summarise,
)


def _play(player: int, legal: int, error: float) -> CheckerDecision:
    return CheckerDecision(player, 1, 10, "4HPwATDgc/ABMA", (3, 1), "8/5 6/5", "8/5 6/5", legal, error, error / 10)


def _cube(player: int, kind: str, error: float, close: bool, mistake: str | None) -> CubeDecision:
    return CubeDecision(player, 1, 11, "4HPwATDgc/ABMA", kind, 0.5, 0.6, 1.0, close, error, error / 10, mistake, "double, take")


def _analysis() -> MatchAnalysis:
    checker = (
        _play(0, 5, 0.10), _play(0, 3, 0.0), _play(0, 1, 0.0), _play(0, 0, 0.0), _play(0, 9, 0.05),
        _play(1, 4, 0.0), _play(1, 2, 0.20),
    )
    cube = (
        _cube(0, "no double", 0.0, False, None),
        _cube(0, "no double", 0.06, True, "missed doubles below CP"),
        _cube(1, "take", 0.30, True, "wrong takes"),
    )
    luck = (LuckRoll(0, 0.2, 0.02), LuckRoll(0, -0.1, -0.01), LuckRoll(1, 0.3, 0.03))
    return MatchAnalysis(("Ann", "Bob"), 7, "test", 0, checker, cube, luck, (5, 2), result=(0.5, -0.5))


def test_error_rate_is_errors_over_unforced_moves_and_close_cube_decisions():
    ann = summarise(_analysis(), 0)
    assert ann.total_moves == 5 and ann.unforced_moves == 3  # the forced play and the pass do not count
    assert ann.checker_error_emg == pytest.approx(0.15)
    assert ann.checker_rate_memg == pytest.approx(50.0)
    assert ann.cube_decisions == 2 and ann.close_cube_decisions == 1
    assert ann.cube_error_emg == pytest.approx(0.06)
    assert ann.cube_mistakes["missed doubles below CP"][0] == 1
    assert ann.error_rate_memg == pytest.approx(1000 * 0.21 / 4)
    assert ann.pr == pytest.approx(ann.error_rate_memg / 2)  # PR = 500 × error / decisions
    assert ann.snowie_error_rate == pytest.approx(1000 * 0.21 / 7)  # both players' moves
    assert ann.decisions == 4 and ann.pr_wide  # four decisions: a wide interval
    assert ann.pr_note == "few decisions: the interval is wide"
    assert ann.pr_low <= ann.pr <= ann.pr_high


def test_luck_and_luck_adjusted_result():
    ann, bob = summarise(_analysis(), 0), summarise(_analysis(), 1)
    assert ann.luck_emg == pytest.approx(0.1) and ann.luck_rate_memg == pytest.approx(20.0)
    assert ann.luck_adjusted_result == pytest.approx(0.5 - 0.01 + 0.03)
    assert bob.luck_adjusted_result == pytest.approx(-(ann.luck_adjusted_result or 0))


def test_worst_decisions_come_first_with_the_better_choice():
    bob = summarise(_analysis(), 1)
    assert [d.error for d in bob.worst] == [0.30, 0.20]
    assert bob.to_dict()["worst"][0]["better"] == "double, take"


def test_marks_and_rating_words_use_gnubgs_thresholds():
    assert mark(0.13) == "very bad" and mark(0.07) == "bad" and mark(0.031) == "doubtful" and mark(0.03) is None
    assert rating(0.0049) == "Super Grandmaster" and rating(0.0054) == "Grandmaster"
    assert rating(0.0174) == "Advanced" and rating(0.0318) == "Intermediate" and rating(0.276) == "Beginner"
    assert luck_rating(0.041) == "Good dice, man!" and luck_rating(-0.0128) == "None"
    assert luck_rating(-0.07) == "Go to bed"


def test_one_decision_has_no_interval_and_json_says_none():
    one = MatchAnalysis(("A", "B"), 1, "t", 0, (_play(0, 3, 0.1),), (), (), (1, 0))
    stats = summarise(one, 0)
    assert math.isinf(stats.pr_high) and stats.to_dict()["pr_high"] is None and stats.pr_wide


def test_a_wide_interval_says_why():
    from bgboard.analysis.stats import FEW_DECISIONS, WIDE_HALF_WIDTH, pr_note

    assert pr_note(FEW_DECISIONS - 1, 0.0) == "few decisions: the interval is wide"
    assert pr_note(FEW_DECISIONS, WIDE_HALF_WIDTH + 0.1) == "the interval is wide: one match says little of a PR"
    assert pr_note(FEW_DECISIONS, WIDE_HALF_WIDTH) == ""
