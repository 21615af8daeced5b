"""The learner report's section per learner: their decisions only, loss per unforced play,
PR, a board picture per worst position, the drill kinds to practise next."""

from __future__ import annotations

import re

import pytest

from bgboard.boardsvg import board_svg
from bgboard.hints.lesson import CubeLesson, PlayLesson
from bgboard.hints.learner_report import drill_kinds, history_svg, learner_section, report_html, unforced
from bgboard.rules import Position, position_id
from bgboard.rules.starts import start_position

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
    boards = section[section.index('class="worst-boards"'):section.index('class="practise"')]
    assert boards.count("<svg") == 1 and START in boards  # the worst position, drawn
    assert section.count('<figure class="chart"><svg') == 1  # and the chart of Ann's plays
    assert "mistakes: 0 doubtful, 0 bad, 1 very bad,\n1 at the cube" in section
    assert f'[teach] drills = ["{START}:31"]' in section


def test_the_match_analysis_gives_pr_interval_and_luck():
    figures = {"pr": 4.25, "pr_low": 1.0, "pr_high": 7.5, "pr_wide": True, "pr_note": "few decisions: the interval is wide", "decisions": 40,
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
    start = start_position()
    svg = board_svg((start.mine, start.theirs), "start", numbers=True)
    assert svg.startswith("<svg") and svg.count("<circle") == 2 * (2 + 5 + 3 + 5)
    assert svg.count('class="point-number"') == 24


def test_a_report_for_one_learner_shows_only_their_decisions():
    lessons = [_play(0, "31", 0.2, "very bad"), _play(1, "42", 0.5, "very bad"), _play(1, "21", 0.1, "bad")]
    page = report_html(lessons, "r", ("Ann", "Bob"), learners=[0])
    assert page.count('<section class="learner"') == 1 and "<h2>Ann</h2>" in page and "Bob" not in page
    assert "0.500" not in page and "1 play graded" in page  # the summary line is Ann's too
    both = report_html(lessons, "r", ("Ann", "Bob"), learners=[0, 1])
    assert both.count('<section class="learner"') == 2 and "3 plays graded" in both
    assert "The session" not in both and 'id="plays"' not in both  # no mixed tables after the sections


def _error_bars(svg: str) -> list[float]:
    """The lengths of the error bars of an SVG chart (matplotlib's LineCollection paths)."""
    group = svg[svg.index('<g id="LineCollection_1">'):]
    group = group[:group.index("</g>")]
    lengths = []
    for (y0, y1) in re.findall(r'd="M [\d.]+ ([\d.]+) \s*L [\d.]+ ([\d.]+) \s*"', group):
        lengths.append(abs(float(y0) - float(y1)))
    return lengths


def test_the_pr_history_is_a_table_and_a_chart_with_error_bars():
    rows = [{"played": "2026-11-01", "pr": 12.5, "pr_low": 8.0, "pr_high": 17.0, "decisions": 60},
            {"played": "2026-11-08", "pr": 7.25, "pr_low": None, "pr_high": None, "decisions": 4},
            {"played": "<b>2026</b>", "pr": 5.0, "pr_low": 3.5, "pr_high": 6.5, "decisions": 80}]
    section = learner_section([_play(0, "31", 0.2, "very bad")], 0, "Ann", history=rows)
    table = section[section.index('<table class="history">'):]
    table = table[:table.index("</table>")]
    assert table.count("<tr>") == 4
    assert "<td>1</td><td>2026-11-01</td><td>12.5</td><td>8.0–17.0</td><td>60</td>" in table
    assert "<td>7.2</td><td>not known</td><td>4</td>" in table and "&lt;b&gt;" in table
    chart = history_svg(rows)
    assert chart.startswith("<svg") and "PR (lower is better)" in chart
    # the error bars: matplotlib's vertical lines, as long as each interval (8.0–17.0, none, 3.5–6.5)
    bars = _error_bars(chart)
    assert len(bars) == 3 and bars[1] == pytest.approx(0.0, abs=1e-6)
    assert bars[0] / bars[2] == pytest.approx((17.0 - 8.0) / (6.5 - 3.5), rel=1e-3)
    assert learner_section([_play(0, "31", 0.2, "very bad")], 0, "Ann").count("history") == 0
