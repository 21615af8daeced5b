"""The match's analysis at its end, on the board: computed on the hint worker (a child
process with the real gnubg-nn), handed to the controller, shown on the end screen of every
panel; and through the whole app (``bgboard sim`` on the real firmware with a hint engine)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.analysis import analyse_match, summarise
from bgboard.analysis.match_end import figures_for_actions, summary_lines
from bgboard.analysis.evaluators import GnubgEvaluator
from bgboard.control.clock import ClockRules
from bgboard.control.controller import Controller, Settings
from bgboard.control.events import ROLL, BoardRead, ButtonPressed, DiceRolled, Tick
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render_report, required_items
from bgboard.hints.registry import open_engine
from bgboard.hints.worker import HintWorker
from bgboard.match.mat_read import import_mat
from bgboard.match.mat_write import export_mat
from bgboard.match.selfplay import selfplay
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, Observation, board_of
from bgboard.store.journal import MemoryJournal

START = Observation.of_board(board_of(start_position(), WHITE))


def _pid() -> int:
    return os.getpid()


@pytest.mark.slow
def test_the_worker_analyses_the_match_in_its_own_process():
    actions = tuple(selfplay(3, 8))
    expected = summarise(analyse_match(import_mat(export_mat(actions)), GnubgEvaluator()), 0)

    async def main() -> tuple[tuple[str, ...], int]:
        with HintWorker(open_engine("gnubg-nn").engine, separate_process=True) as worker:
            figures = await worker.call(figures_for_actions, actions, "gnubg-nn", budget=300)
            text = summary_lines(figures)
            pid = await worker.call(_pid, budget=60)
        return text, pid

    text, pid = asyncio.run(main())
    assert pid != os.getpid(), "the analysis ran in the worker's process, not the loop's"
    assert text[0].startswith(f"White PR {expected.pr:.1f} ({expected.error_rate_memg:.1f} mEMG) · Black PR ")
    assert len(text) == 4 and all(t.startswith(("White", "PR ")) for t in text)


def test_a_variant_or_an_engine_without_equities_gives_no_analysis(monkeypatch, tmp_path):
    assert figures_for_actions(tuple(selfplay(1, 2, variant="plakoto")), "gnubg-nn") == ()
    monkeypatch.setenv("BGBOARD_GNUBG", str(tmp_path / "no-gnubg"))  # a machine without the gnubg program
    assert figures_for_actions(tuple(selfplay(1, 2)), "pubeval") == ()


def test_with_pubeval_hints_the_gnubg_program_analyses_the_match():
    """A Pi's board hints with pubeval or bgsage; its end-of-match figures are gnubg's own
    where Debian's gnubg is installed (tools/test-services installs it here)."""
    figures = figures_for_actions(tuple(selfplay(3, 8)), "pubeval")
    assert len(figures) == 2 and all(f["total_moves"] > 0 for f in figures)
    assert summary_lines(figures)[0].startswith(f"{figures[0]['name']} PR {figures[0]['pr']:.1f}")


def test_the_end_screen_shows_both_players_pr_and_error_rate_on_every_panel():
    shown: list = []
    c = Controller.resume(MemoryJournal(), Settings(length=1, clock=ClockRules(per_point_ms=10_000, delay_ms=1_000)),
                          0, show=shown.append)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(0, ROLL, 2))
    c.handle(DiceRolled((3, 1), 1, 3))
    c.handle(Tick(60_000))  # white's clock runs out: the match is over
    assert shown[-1].phase == "match-over" and shown[-1].analysis == ()
    actions = len(c.actions)
    c.show_analysis(("White PR 0.0 (0.0 mEMG) · Black PR 0.0 (0.0 mEMG)", "PR 0.0 · 0.0"), actions - 1)
    assert shown[-1].analysis == (), "an analysis of another match is not shown"
    c.show_analysis(("White PR 0.0 (0.0 mEMG) · Black PR 0.0 (0.0 mEMG)", "PR 0.0 · 0.0"), actions)
    state = shown[-1]
    assert state.analysis[0].startswith("White PR") and "analysis" in required_items(state)
    for spec in PANELS.values():
        assert "analysis" in render_report(state, spec).placed, spec.name


def test_the_lines_name_both_figures():
    a, b = (summarise(analyse_match(import_mat(export_mat(selfplay(3, 8))), GnubgEvaluator(), luck=False), p)
            for p in (0, 1))
    lines = summary_lines((a.to_dict(), b.to_dict()))
    assert f"{a.pr:.1f}" in lines[-1] and f"{b.pr:.1f}" in lines[-1]
    assert f"{a.error_rate_memg:.1f}" in lines[1] and f"{b.error_rate_memg:.1f}" in lines[1]


@pytest.mark.slow
def test_bgboard_sim_with_a_hint_engine_ends_on_the_analysis(tmp_path: Path):
    out = tmp_path / "sim"
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--match-length", "1", "--seed", "3",
                           "--teach", "learner", "--engine", "gnubg-nn", "--out", str(out), "-v"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-800:]
    logged = re.search(r"match analysis: (.*)", done.stderr)
    assert logged, "the app analysed the match at its end"
    figures = json.loads(subprocess.run([sys.executable, "-m", "bgboard", "analyse", str(out / "match.mat"), "--json"],
                                        capture_output=True, text=True, timeout=300, check=True).stdout)["players"]
    a, b = figures
    assert logged.group(1) == (f"{a['name']} PR {a['pr']:.1f} ({a['error_rate_memg']:.1f} mEMG) · "
                               f"{b['name']} PR {b['pr']:.1f} ({b['error_rate_memg']:.1f} mEMG)")
    assert "the match analysis was dropped" not in done.stderr
    _the_learner_report_on_a_phone(out / "learner-report.html", figures)


def _the_learner_report_on_a_phone(report: Path, figures: list) -> None:
    """One section per learner with the match's PR, interval and luck, a board picture of
    each worst position and the drills to practise next; nothing wider than a 390 px phone."""
    from selenium.webdriver.common.by import By

    from tests.club.webrun import chromium

    driver = chromium()
    try:
        driver.set_window_size(390, 900)
        driver.get(report.as_uri())
        width, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width <= inner <= 390, "the page scrolls sideways on a phone"
        sections = driver.find_elements(By.CSS_SELECTOR, "section.learner")
        assert [s.find_element(By.TAG_NAME, "h2").text for s in sections] == [f["name"] for f in figures]
        for section, f in zip(sections, figures):
            pr = section.find_element(By.CSS_SELECTOR, ".pr").text
            assert pr.startswith(f"PR {f['pr']:.1f} (95 % interval {f['pr_low']:.1f}–{f['pr_high']:.1f}")
            assert f"Luck {f['luck_emg']:+.2f} ({f['luck_rating']})" in pr
            boards = section.find_elements(By.CSS_SELECTOR, ".worst-boards svg")
            assert boards and all(b.size["width"] <= 390 for b in boards)
            assert section.find_elements(By.CSS_SELECTOR, ".practise li")
            # the match joined the learner's history: its PR and interval in the table, drawn within the phone
            [row] = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                     for tr in section.find_elements(By.CSS_SELECTOR, "table.history tr")[1:]]
            assert row[2:] == [f"{f['pr']:.1f}", f"{f['pr_low']:.1f}–{f['pr_high']:.1f}", str(f["decisions"])]
            assert 200 < section.find_element(By.CSS_SELECTOR, ".history-chart svg").size["width"] <= 390
    finally:
        driver.quit()
