"""The learner report's section per learner: their decisions only, loss per unforced play,
PR, a board picture per worst position, the drill kinds to practise next."""

from __future__ import annotations

from bgboard.hints.boardsvg import board_svg
from bgboard.hints.lesson import CubeLesson, PlayLesson
from bgboard.hints.report import drill_kinds, learner_section, report_html, unforced
from bgboard.rules import Position, position_id
from bgboard.rules.variants import start_position

START = position_id(start_position())


def _play(player: int, dice: str, loss: float, grade: str, position: str = START) -> PlayLesson:
    return PlayLesson(player, position, dice, "13/10 13/12", "8/5 6/5", loss, grade)


def test_a_section_holds_one_learners_decisions_and_their_pr():
    lessons = [_play(0, "31", 0.2, "very bad"), _play(1, "31", 0.5, "very bad"), _play(0, "42", 0.0, "good"),
               CubeLesson(0, START, "double", "no double", 0.1, "bad")]
    section = learner_section(lessons, 0, "Ann")
    assert "<h2>Ann</h2>" in section
    assert "2 plays (2 with a choice), 1 cube decision" in section
    assert "0.100 lost per unforced play" in section  # 0.2 over two unforced plays
    assert "PR 50.0 from the graded decisions (3)" in section  # 500 × (0.2 + 0.1) / 3
    assert "-0.500" not in section and "0.500" not in section  # Bob's play is not Ann's
    assert section.count("<svg") == 1 and START in section  # the worst position, drawn
    assert f'[teach] drills = ["{START}:31"]' in section


def test_the_match_analysis_gives_pr_interval_and_luck():
    figures = {"pr": 4.25, "pr_low": 1.0, "pr_high": 7.5, "pr_wide": True, "decisions": 40,
               "error_rate_memg": 8.5, "overall_rating": "Master", "luck_emg": -0.31, "luck_rating": "Bad dice, man!"}
    section = learner_section([_play(0, "31", 0.2, "very bad")], 0, "Ann <b>", figures)
    assert "PR 4.2 (95 % interval 1.0–7.5 (few decisions: the interval is wide)) over 40 decisions" in section
    assert "Luck -0.31 (Bad dice, man!)" in section and "Ann &lt;b&gt;" in section


def test_drill_kinds_put_the_costliest_first():
    bar = position_id(Position((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
                               (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)))
    kinds = drill_kinds([_play(0, "31", 0.05, "doubtful"), _play(0, "31", 0.3, "very bad", bar),
                         CubeLesson(0, START, "take", "pass", 0.2, "very bad")])
    assert [k for k, _n, _e in kinds] == ["bar", "cube", "opening"]


def test_forced_plays_are_not_unforced():
    assert unforced(_play(0, "31", 0.0, "good"))
    closed = position_id(Position((0, 14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
                                  (0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    assert not unforced(_play(0, "66", 0.0, "good", closed))  # the bar against a closed board: no play


def test_the_page_has_a_phone_viewport_and_one_section_per_learner():
    page = report_html([_play(0, "31", 0.2, "very bad"), _play(1, "42", 0.1, "bad")], "Learner report", ("Ann", "Bob"))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert page.count('<section class="learner"') == 2
    only = report_html([_play(0, "31", 0.2, "very bad"), _play(1, "42", 0.1, "bad")], "r", ("Ann", "Bob"), learners=[1])
    assert only.count('<section class="learner"') == 1 and "<h2>Bob</h2>" in only


def test_a_board_picture_counts_the_checkers():
    svg = board_svg(start_position(), "start")
    assert svg.startswith("<svg") and svg.count("<circle") == 2 * (2 + 5 + 3 + 5)
