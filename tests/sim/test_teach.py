"""``bgboard sim --teach``: every play graded as gnubg-nn itself grades it, the learner
report written beside the journal (the summary's ``report`` names it) and opened in a real
browser, and the whole drill set played through on the real firmware."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gnubg_nn  # required: the grades are checked against gnubg-nn itself
import pytest

from bgboard.hints.drills import builtin_drills
from bgboard.hints.gnubg_engine import cubeless_equity
from bgboard.rules import Position, legal_plays, position_from_id
from bgboard.sim.practice_run import run_drills
from bgboard.sim.modelled_board import Options
from bgboard.sim.match_run import run_match
from bgboard.teaching import REPORT_NAME
from tests.club.webrun import chromium
from tests.sim.simrecords import journal_actions
from tests.support import shared_run


#: A guard against a hung ``bgboard sim``, never a measure of the machine's speed.
HANG_S = 600


def _gnubg(after: Position) -> float:
    board = after.swap().to_gnubg()
    return -cubeless_equity(gnubg_nn.probabilities([list(board[0]), list(board[1])], 0))


@pytest.fixture(scope="module")
def taught(tmp_path_factory) -> tuple[Path, dict]:
    """Played once per test run for every test (and xdist worker) that reads it."""
    options = Options(match_length=3, seed=2, illegal_rate=0.1, teach="learner", engine="gnubg-nn")
    summary, out = shared_run(tmp_path_factory, "sim-teach-taught", lambda out: run_match(options, out))
    return out, summary


@pytest.fixture(scope="module")
def taught_on_firmware(tmp_path_factory) -> tuple[Path, dict]:
    """``bgboard sim --teach`` as it runs by default: the real firmware on a pty, the real
    host app in learner mode, its teacher grading on the hint worker."""
    from bgboard.sim.match_run import run_firmware_match

    out = tmp_path_factory.mktemp("teach-firmware")
    summary = run_firmware_match(Options(match_length=1, seed=2, illegal_rate=0.1, teach="learner", engine="gnubg-nn"), out)
    return out, summary


@pytest.mark.slow
def test_every_play_is_graded_with_gnubg_nns_own_losses(taught) -> None:
    _graded_as_gnubg_nn_grades(*taught)


@pytest.mark.slow
def test_on_the_real_firmware_every_play_is_graded_with_gnubg_nns_own_losses(taught_on_firmware) -> None:
    out, summary = taught_on_firmware
    _graded_as_gnubg_nn_grades(out, summary)
    assert summary["plays_recognised"] > len(summary["grades"]) > 20 and summary["legal_rejected"] == 0
    _the_report_named(out, summary)  # written by the app, beside its journal


def _the_report_named(out: Path, summary: dict) -> str:
    """The summary's ``report`` names the learner report written beside the journal, of
    exactly the summary's grades; its text."""
    assert summary["report"] == str(out / REPORT_NAME)
    report = Path(summary["report"]).read_text()
    plays = len(summary["grades"])
    plays = "1 play" if plays == 1 else f"{plays} plays"
    assert "<title>Learner report" in report and f"{plays} graded" in report
    assert summary["in_short"].startswith(f"{plays}, ")
    return report


def _graded_as_gnubg_nn_grades(out: Path, summary: dict) -> None:
    """A grade for every play of the journal, each loss gnubg-nn's own 0-ply evaluation."""
    grades = summary["grades"]
    moves = [a for a in journal_actions(out) if a["type"] == "move"]
    assert len(grades) == len(moves) > 20 and summary["engine"] == "gnubg-nn"
    assert set(grades[0]) == {"player", "position", "dice", "play", "best", "loss", "grade"}
    for g in grades:
        position = position_from_id(g["position"])
        dice = (int(g["dice"][0]), int(g["dice"][1]))
        assert dice[0] >= dice[1]
        equities = {p.notation: _gnubg(p.position) for p in legal_plays(position, dice)}
        top = max(equities.values())
        assert g["loss"] == pytest.approx(top - equities[g["play"]], abs=2e-6)
        assert equities[g["best"]] == pytest.approx(top, abs=1e-9)
        loss = g["loss"]
        assert g["grade"] == ("very bad" if loss > 0.16 else "bad" if loss > 0.08 else "doubtful" if loss > 0.04 else "good")
    assert json.loads((out / "summary.json").read_text())["grades"] == grades


@pytest.mark.slow
def test_the_learner_report_opens_in_a_browser(taught, tmp_path) -> None:
    out, summary = taught
    _the_report_named(out, summary)
    report = Path(summary["report"])
    assert report.parent == (out / "journal.sqlite").parent
    driver = chromium()
    try:
        driver.get(report.as_uri())
        from selenium.webdriver.common.by import By

        assert driver.title.startswith("Learner report")
        assert f"{len(summary['grades'])} plays graded" in driver.find_element(By.ID, "summary").text
        sections = driver.find_elements(By.CSS_SELECTOR, "section.learner")
        assert [s.find_element(By.TAG_NAME, "h2").text for s in sections] == ["White", "Black"]
        for side, section in enumerate(sections):  # each learner's own chart, worst positions and plays
            chart = section.find_element(By.CSS_SELECTOR, ".chart svg")
            assert chart.size["width"] > 300 and chart.size["height"] > 100  # drawn, not an empty box
            worst = section.find_elements(By.CSS_SELECTOR, ".worst-boards li")
            assert len(worst) == 3
            mine = [g for g in summary["grades"] if g["player"] == side]
            free = [g for g in mine if len(legal_plays(position_from_id(g["position"]),
                                                       (int(g["dice"][0]), int(g["dice"][1])))) > 1]
            losses = sorted((g["loss"] for g in free), reverse=True)[:3]
            for item, loss in zip(worst, losses):
                assert f"lost {loss:.3f}" in item.text
            rows = section.find_elements(By.CSS_SELECTOR, "table.plays tr")
            assert len(rows) == len(mine) + 1
    finally:
        driver.quit()


def _subset():
    drills = builtin_drills()
    kinds: dict[str, list] = {}
    for d in drills:
        kinds.setdefault(d.kind, []).append(d)
    return kinds["opening"][:2] + kinds["bear-off"][:1] + kinds["bar"][:1] + kinds["cube"][1:2]


def test_drills_are_laid_out_with_the_guidance_rolled_played_and_graded(tmp_path) -> None:
    drills = _subset()
    shown: list = []
    from bgboard.sim.modelled_board import ModelledBoard

    real = ModelledBoard.show  # the practice run's board is the match's modelled board

    def keep(self, state):
        shown.append(state)
        real(self, state)

    ModelledBoard.show = keep  # type: ignore[method-assign]
    try:
        summary = run_drills(Options(match_length=1, seed=3, engine="gnubg-nn"), tmp_path, drills)
    finally:
        ModelledBoard.show = real  # type: ignore[method-assign]
    assert [r["drill"] for r in summary["drills"]] == [d.name for d in drills]
    assert len(summary["grades"]) == len(drills)
    for drill, result in zip(drills, summary["drills"]):
        lesson = result["lesson"]
        assert lesson["position"] == drill.position_id
        if drill.dice is not None:
            assert lesson["dice"] == f"{max(drill.dice)}{min(drill.dice)}"
    # the set-up guidance showed the diagram between drills (the board held the last one)
    setups = [s for s in shown if s.phase == "setup"]
    assert setups and all(s.diagram is not None and s.diagram.marked for s in setups)
    assert "drill set" in _the_report_named(tmp_path, summary) and list((tmp_path / "frames").glob("*.png"))
    assert json.loads((tmp_path / "summary.json").read_text()) == summary


@pytest.mark.slow
def test_drills_on_the_real_firmware_are_laid_out_played_and_graded(tmp_path) -> None:
    """``bgboard sim --teach practice`` by default: the app's practice room on the real
    firmware, each drill laid out by the simulated hand and graded by the app's teacher."""
    from bgboard.sim.practice_run import run_firmware_drills

    drills = _subset()
    summary = run_firmware_drills(Options(match_length=1, seed=3, engine="gnubg-nn"), tmp_path, drills)
    assert [r["drill"] for r in summary["drills"]] == [d.name for d in drills]
    assert len(summary["grades"]) == len(drills) and summary["engine"] == "gnubg-nn"
    for drill, result, grade in zip(drills, summary["drills"], summary["grades"]):
        assert result["lesson"] == grade and grade["position"] == drill.position_id
        if drill.dice is not None:
            assert grade["dice"] == f"{max(drill.dice)}{min(drill.dice)}"
        dice = (int(grade["dice"][0]), int(grade["dice"][1]))
        equities = {p.notation: _gnubg(p.position) for p in legal_plays(drill.position, dice)}
        assert grade["loss"] == pytest.approx(max(equities.values()) - equities[grade["play"]], abs=2e-6)
    assert "practice drills" in _the_report_named(tmp_path, summary) and list((tmp_path / "frames").glob("*.png"))
    assert json.loads((tmp_path / "summary.json").read_text()) == summary


@pytest.mark.slow
def test_the_whole_drill_set_is_played_through_on_the_real_firmware(tmp_path) -> None:
    """``bgboard sim --teach practice`` as it runs by default, the whole built-in set: every
    drill laid out, played and graded by the app's teacher from the drill's own position
    (with its own roll where it has one), the loss gnubg-nn's own."""
    from bgboard.sim.practice_run import run_firmware_drills

    drills = builtin_drills()
    summary = run_firmware_drills(Options(match_length=1, seed=1, engine="gnubg-nn"), tmp_path)
    assert len(drills) >= 29 and {d.kind for d in drills} == {"opening", "bear-off", "bar", "cube"}
    assert [r["drill"] for r in summary["drills"]] == [d.name for d in drills]
    assert not any(r.get("skipped") for r in summary["drills"])
    assert [r["lesson"]["position"] for r in summary["drills"]] == [d.position_id for d in drills]
    assert [r["lesson"] for r in summary["drills"]] == summary["grades"]
    for drill, grade in zip(drills, summary["grades"]):
        dice = (int(grade["dice"][0]), int(grade["dice"][1]))
        if drill.dice is not None:
            assert dice == (max(drill.dice), min(drill.dice))
        equities = {p.notation: _gnubg(p.position) for p in legal_plays(drill.position, dice)}
        assert grade["loss"] == pytest.approx(max(equities.values()) - equities[grade["play"]], abs=2e-6)
    assert "practice drills" in _the_report_named(tmp_path, summary)


@pytest.mark.slow
def test_the_sim_command_prints_the_grades_with_gnubg_nns_own_losses(tmp_path) -> None:
    """``bgboard sim --teach --json`` as a user types it: the printed summary's grades."""
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--teach", "--json", "--engine", "gnubg-nn",
                           "--match-length", "1", "--seed", "2", "--model-firmware", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    _graded_as_gnubg_nn_grades(tmp_path, summary)
    _the_report_named(tmp_path, summary)


def test_engine_without_teach_is_one_line_and_exit_2(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--engine", "gnubg-nn", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--teach" in done.stderr


@pytest.mark.slow
def test_any_position_id_is_a_drill(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--teach", "practice", "--drill", "4HPwATDgc/ABMA:31",
                           "--engine", "gnubg-nn", "--out", str(tmp_path), "--json"],
                          capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["grades"] == [{"player": 0, "position": "4HPwATDgc/ABMA", "dice": "31", "play": "8/5 6/5",
                                  "best": "8/5 6/5", "loss": 0.0, "grade": "good"}]
    _the_report_named(tmp_path, summary)
    said = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--teach", "practice", "--drill", "4HPwATDgc/ABMA:31",
                           "--engine", "gnubg-nn", "--model-firmware", "--out", str(tmp_path / "said")],
                          capture_output=True, text=True, timeout=HANG_S)
    assert said.returncode == 0, said.stderr
    assert said.stdout.splitlines() == [
        "1 drill played; 1 play, 0 mistakes (0 very bad), 0.000 lost per play",
        f"learner report: {tmp_path / 'said' / REPORT_NAME}", f"written to {tmp_path / 'said'}/"]
    bad = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--teach", "practice", "--drill", "nonsense",
                          "--out", str(tmp_path / "x")], capture_output=True, text=True, timeout=HANG_S)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Position ID" in bad.stderr


@pytest.mark.slow
def test_the_sim_command_without_json_says_the_session_in_short_and_where_the_report_is(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--teach", "--engine", "gnubg-nn", "--match-length", "1",
                           "--seed", "2", "--model-firmware", "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    graded = json.loads((tmp_path / "summary.json").read_text())["grades"]
    assert any(line.startswith(f"graded by gnubg-nn: {len(graded)} plays, ") for line in lines), lines
    assert f"learner report: {tmp_path / REPORT_NAME}" in lines
