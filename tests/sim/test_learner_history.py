"""One learner's report over several matches (``bgboard sim --teach learner --learner white``
on the modelled firmware, gnubg-nn grading): only that learner's section, their PR match by
match with each match's 95 % interval as ``bgboard analyse`` gives it (a table and a chart
with error bars, read in Chromium at 390 px), and ``--drill mine`` practising their own
worst positions of those matches."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import gnubg_nn  # noqa: F401  # required: the matches are graded and analysed with gnubg-nn
import pytest

from bgboard.store.progress import PROGRESS_NAME
from tests.club.webrun import chromium

#: A guard against a hung ``bgboard sim``, never a measure of the machine's speed.
HANG_S = 900


def _bgboard(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "bgboard", *args], capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr[-800:]
    return done


def _match(out: Path, seed: int) -> dict:
    """White's figures of a learner match on ``seed`` in ``out``; the display's summary of
    the session at the end is white's alone (every play is graded, both sides')."""
    summary = json.loads(_bgboard("sim", "--model-firmware", "--teach", "learner", "--learner", "white", "--engine",
                                  "gnubg-nn", "--match-length", "1", "--seed", str(seed), "--out", str(out),
                                  "--json").stdout)
    white = sum(1 for g in summary["grades"] if g["player"] == 0)
    assert summary["in_short"].startswith(f"{white} plays, ") and white < len(summary["grades"])
    return json.loads(_bgboard("analyse", str(out / "match.mat"), "--json").stdout)["players"][0]


@pytest.mark.slow
def test_the_learners_pr_over_matches_and_their_own_worst_positions_as_drills(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    a = _match(first, 3)
    second.mkdir()
    shutil.copy(first / PROGRESS_NAME, second / PROGRESS_NAME)  # the learner's history moves with its file
    b = _match(second, 5)
    report = second / "learner-report.html"
    page = report.read_text()
    assert page.count('<section class="learner"') == 1 and "<h2>White</h2>" in page and "<h2>Black</h2>" not in page
    from selenium.webdriver.common.by import By

    driver = chromium()
    try:
        driver.set_window_size(390, 900)
        driver.get(report.as_uri())
        width, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width <= inner <= 390, "the page scrolls sideways on a phone"
        rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                for tr in driver.find_elements(By.CSS_SELECTOR, "table.history tr")[1:]]
        assert [r[0] for r in rows] == ["1", "2"]
        for row, f in zip(rows, (a, b)):  # each match's PR, interval and decisions, as bgboard analyse says
            assert row[2:] == [f"{f['pr']:.1f}", f"{f['pr_low']:.1f}–{f['pr_high']:.1f}", str(f["decisions"])]
        chart = driver.find_element(By.CSS_SELECTOR, ".history-chart svg")
        assert 200 < chart.size["width"] <= 390 and chart.size["height"] > 60
        assert "PR (lower is better)" in chart.get_attribute("outerHTML")
    finally:
        driver.quit()
    # the learner's worst positions of both matches, the worst first, become the drills
    with sqlite3.connect(second / PROGRESS_NAME) as db:
        kept = db.execute("SELECT position, dice, MAX(loss) FROM learner_worst WHERE learner = 'White'"
                          " GROUP BY position, dice ORDER BY MAX(loss) DESC").fetchall()
    assert len({m for (m,) in sqlite3.connect(second / PROGRESS_NAME).execute(
        "SELECT DISTINCT match FROM learner_worst")}) == 2 and len(kept) >= 4
    summary = json.loads(_bgboard("sim", "--model-firmware", "--teach", "practice", "--engine", "gnubg-nn",
                                  "--drill", "mine", "--out", str(second), "--json").stdout)
    assert [g["position"] for g in summary["grades"]] == [pid for pid, _d, _l in kept]
    assert [g["dice"] for g in summary["grades"]] == [d for _p, d, _l in kept]


def test_mine_with_no_match_kept_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--model-firmware", "--teach", "practice",
                           "--drill", "mine", "--out", str(tmp_path)], capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("none is kept yet: play a match in learner mode first")


def test_learner_without_teach_learner_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--model-firmware", "--learner", "black",
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 2 and "use it with --teach learner" in done.stderr and "Traceback" not in done.stderr
