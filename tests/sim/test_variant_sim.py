"""End to end: whole matches of each seed variant (and a tavli match) through the real host
app (controller, journal, settler, buttons on gpiozero's MockFactory, the display) on the
real firmware (MicroPython unix port on a pty): every play recognised by the controller from
the firmware's slot states, Plakoto's pins read through the field model, the journal
replays to the same match, and the records read back into it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.match import Move, Pass, replay
from bgboard.match.mat import read_mat
from bgboard.sim.driver import Options
from bgboard.sim.match_run import run_firmware_match
from bgboard.store.journal import Journal
from bgboard.match.actions import action_from_dict
from tests.support import shared_run


def _check(out: Path, summary: dict, rules: str, length: int) -> None:
    actions = read_mat((out / "match.mat").read_text(), rules)
    state = replay(actions)
    assert state.phase == "match_over" and max(state.score) >= length
    assert list(state.score) == summary["score"]
    assert summary["plays_recognised"] == sum(isinstance(a, (Move, Pass)) for a in actions)  # a pass: the board left
    assert summary["legal_rejected"] == 0
    assert json.loads((out / "summary.json").read_text()) == summary
    journal = Journal(out / "journal.sqlite")
    try:
        journalled = [action_from_dict(e.body) for e in journal.entries() if e.kind == "action"]
    finally:
        journal.close()
    assert replay(journalled).score == state.score  # the host's own journal: the same match


#: The simulator's noise for matches with Plakoto's pins (ADC counts a conversion): its low
#: level, 180, a reading 0.032 of the array's checker (what medium noise, 450, was of the 28 mm
#: disc's before it).  At medium (0.081 of the array's checker) a pin's spot (0.48 of a checker,
#: inside the classifier's 0.42-0.58 band) reads a checker now and then alone on its point, which
#: the firmware reports as a FAULT (hardware/README.md, "Stock discs in an array", what is left).
PIN_NOISE = 180.0


def _options(variant: str, length: int, seed: int, illegal_rate: float = 0.0) -> Options:
    tavli = variant == "tavli"
    noise = PIN_NOISE if variant in ("plakoto", "tavli") else 450.0
    return Options(match_length=length, seed=seed, noise=noise, illegal_rate=illegal_rate,
                   rules="tavli" if tavli else "standard", variant=None if tavli else variant)


@pytest.mark.slow
def test_the_first_plays_of_a_plakoto_game_through_the_host_app_on_the_firmware(tmp_path: Path) -> None:
    """The short one of the default run: the opening and a few plays with wrong ones first."""
    import asyncio

    from bgboard.sim.firmware_board import LiveRun

    run = LiveRun(_options("plakoto", 1, 1, illegal_rate=0.5), tmp_path, max_actions=12)
    asyncio.run(run.run())
    tally = run.tally
    assert tally.plays_recognised >= 4 and tally.legal_rejected == 0
    assert tally.illegal_attempts > 0 and tally.illegal_flagged == tally.illegal_attempts
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        actions = [action_from_dict(e.body) for e in journal.entries() if e.kind == "action"]
    finally:
        journal.close()
    assert sum(isinstance(a, (Move, Pass)) for a in actions) == tally.plays_recognised  # each one journalled
    assert replay(actions).variant == "plakoto"


#: The seed and illegal-play rate of the one-point match of each variant on the firmware.
SEED, ILLEGAL_RATE = 3, 0.2


def _match_on_the_firmware(tmp_path_factory: pytest.TempPathFactory, variant: str) -> tuple[dict, Path]:
    """A whole one-point match of ``variant`` on the real firmware through the host app, played
    once per test run (tests.support.shared_run) and read by every test below that needs it."""
    return shared_run(tmp_path_factory, f"variant-{variant}",
                      lambda out: run_firmware_match(_options(variant, 1, SEED, ILLEGAL_RATE), out))


@pytest.fixture
def plakoto(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    return _match_on_the_firmware(tmp_path_factory, "plakoto")


@pytest.mark.slow
def test_a_plakoto_game_through_the_host_app_on_the_firmware_reads_its_pins(plakoto: tuple[dict, Path]) -> None:
    summary, out = plakoto
    _check(out, summary, "standard", 1)
    assert summary["variant"] == "plakoto" and summary["pinned_points_read"] > 0
    # every wrong play refused by the host with its reason, and put back
    assert summary["illegal_attempts"] > 0 and summary["illegal_flagged"] == summary["illegal_attempts"]
    # the LED strip as the firmware drove it (host LEDs 0..27 after the time stamp)
    lit: set[tuple[int, ...]] = set()
    for line in (out / "pico" / "leds.log").read_text().splitlines():
        for value in line.split()[1:29]:
            rgb = (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
            if rgb != (0, 0, 0):
                lit.add(tuple(1 if c else 0 for c in rgb))
    assert (0, 1, 0) in lit  # the legal destinations while a play is under way (green)
    assert (0, 0, 1) in lit  # a lifted checker's place (blue)
    assert (1, 0, 0) in lit  # the places to put right after a wrong play (red)
    assert "Traceback" not in (out / "pico" / "firmware.log").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["plakoto", "fevga", "anti", "race"])
def test_a_match_of_every_variant_on_the_firmware(tmp_path_factory: pytest.TempPathFactory, variant: str) -> None:
    """One point, one game: each variant's set-up, plays, refusals and ending on the firmware.
    (Matches of several games and their scores: tests/match/test_variants_match.py on the
    rules, the tavli match below on the firmware.)"""
    summary, out = _match_on_the_firmware(tmp_path_factory, variant)
    _check(out, summary, "standard", 1)
    assert summary["variant"] == variant
    assert summary["illegal_flagged"] == summary["illegal_attempts"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["plakoto", "race"])
def test_the_model_firmware_plays_the_same_match_as_the_firmware(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, variant: str
) -> None:
    from bgboard.sim.match_run import run_match

    firmware, firmware_out = _match_on_the_firmware(tmp_path_factory, variant)
    model = run_match(_options(variant, 1, SEED, ILLEGAL_RATE), tmp_path / "model")
    assert model == firmware
    assert (tmp_path / "model" / "match.mat").read_text() == (firmware_out / "match.mat").read_text()


@pytest.mark.slow
def test_a_plakoto_match_stopped_midway_resumes_from_the_journal_to_the_same_end(
    plakoto: tuple[dict, Path], tmp_path: Path
) -> None:
    import asyncio

    from bgboard.sim.firmware_board import LiveRun

    whole, whole_out = plakoto
    options = _options("plakoto", 1, SEED, ILLEGAL_RATE)
    stopped = LiveRun(options, tmp_path / "resumed", max_actions=40)
    asyncio.run(stopped.run())
    assert not stopped.controller.over
    resumed = run_firmware_match(options, tmp_path / "resumed")
    assert resumed == whole
    assert (tmp_path / "resumed" / "match.mat").read_text() == (whole_out / "match.mat").read_text()
    with pytest.raises(Exception, match="--variant plakoto, not --variant fevga"):
        run_firmware_match(dataclasses.replace(_options("fevga", 1, SEED, ILLEGAL_RATE), noise=PIN_NOISE),
                           tmp_path / "resumed")


@pytest.mark.slow
def test_a_tavli_match_on_the_firmware_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # seed 1: the shortest tavli match of the first ten seeds that still plays all three games
    assert main(["sim", "--variant", "tavli", "--match-length", "5", "--seed", "1", "--noise", "low",
                 "--illegal-rate", "0", "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    _check(tmp_path, summary, "tavli", 5)
    results = {g["result"] for g in summary["games"]}
    assert results <= {"single", "gammon", "backgammon", "mother", "resign", "draw"}
    assert summary["pinned_points_read"] > 0  # Plakoto, the second game, was played
    assert len(summary["games"]) >= 3  # and Fevga, the third
    assert len(list((tmp_path / "frames").glob("*.png"))) >= 2 * len(summary["games"])


def test_bad_variant_options_are_one_line() -> None:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--variant", "tavli", "--match-length", "3"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.strip() == "bgboard: a tavli match is played to 5 or 7 points"
    proc = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--variant", "fevga", "--interactive"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--interactive is not yet for the seed variants" in proc.stderr


@pytest.mark.slow
def test_kill_9_of_a_plakoto_match_then_sim_again_ends_as_the_uninterrupted_run(tmp_path: Path) -> None:
    """kill -9 of the host process at two moments of a Plakoto match (pins on the table),
    each time ``bgboard sim`` run again: the match resumes from the journal and ends as the
    uninterrupted run (same summary: plays recognised, illegal attempts flagged; same
    journal and match.mat).  The model firmware (fast); --realtime to land the kills mid-match."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from simrecords import journal_actions

    args = [sys.executable, "-m", "bgboard", "sim", "--variant", "plakoto", "--match-length", "1", "--seed", "4",
            "--noise", "low", "--illegal-rate", "0.3", "--model-firmware", "--json"]
    whole = subprocess.run([*args, "--out", str(tmp_path / "whole")], capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    summary = json.loads(whole.stdout)
    total = len(journal_actions(tmp_path / "whole"))
    killed = tmp_path / "killed"
    for at in (6, 20):
        run = subprocess.Popen([*args, "--out", str(killed), "--realtime"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300  # leaves as soon as the journal holds `at` actions
        while time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
            if (killed / "journal.sqlite").exists() and len(journal_actions(killed)) >= at:
                break
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        assert run.returncode == -signal.SIGKILL
        assert at <= len(journal_actions(killed)) < total
    again = subprocess.run([*args, "--out", str(killed)], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    resumed = json.loads(again.stdout)
    assert resumed == summary
    assert resumed["plays_recognised"] > 0 and resumed["illegal_flagged"] == resumed["illegal_attempts"] > 0
    assert resumed["pinned_points_read"] > 0
    assert journal_actions(killed) == journal_actions(tmp_path / "whole")
    assert (killed / "match.mat").read_text() == (tmp_path / "whole" / "match.mat").read_text()
