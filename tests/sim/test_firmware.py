"""The default ``bgboard sim``: the real firmware (MicroPython unix port, machine shim, fast
clock) on a real pty, the real host app (serial transport, link protocol, settler,
controller, SQLite journal, gpiozero buttons on MockFactory, file panel).

One uninterrupted 3-point match with sensor noise and learners' illegal attempts is the
reference (and the end-to-end proof); the fault injections - a firmware restart and garbled
bytes on the wire mid-match, kill -9 of the host process then ``bgboard sim`` again on the
same directory - must end exactly as it does (players and dice are functions of seed, game
and turn)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgboard.match.actions import action_from_dict
from bgboard.match.state import MATCH_OVER, replay
from bgboard.sim.firmware_board import Faults_, LiveRun
from bgboard.sim.modelled_board import Options, noise_level
from bgboard.sim.match_run import run_match
from bgboard.store.journal import Journal

from simrecords import gnubg_games, journal_actions
from tests.support import shared_run

pytestmark = pytest.mark.slow  # whole matches / engines / firmware runs: the full run, not -m "not slow"

BGBOARD = [sys.executable, "-m", "bgboard"]
ARGS = ["--match-length", "3", "--seed", "7", "--noise", "medium", "--illegal-rate", "0.3"]
OPTIONS = Options(3, seed=7, noise=noise_level("medium"), illegal_rate=0.3)


def _comparable(actions: list[dict]) -> list[dict]:
    """The actions without their wall-clock times (a resumed run has other times)."""
    return [{k: v for k, v in a.items() if k not in ("at", "at_ms", "time")} for a in actions]


def _running_in(directory: Path) -> list[int]:
    """Processes whose working directory is ``directory`` (the firmware runs in DIR/pico)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink(f"/proc/{pid}/cwd") == str(directory):
                    found.append(int(pid))
            except OSError:
                continue
    return found


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    """The uninterrupted match through the CLI's default path (the real firmware), played once
    per test run for every test (and xdist worker) that reads it (tests.support.shared_run)."""
    def play(out: Path) -> dict:
        done = subprocess.run([*BGBOARD, "sim", *ARGS, "--out", str(out), "--json"], capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return shared_run(tmp_path_factory, "sim-firmware-whole", play)


def test_end_to_end_through_the_firmware(whole: tuple[dict, Path]) -> None:
    """Noise and illegal attempts: every attempt refused with the rules engine's reason, no
    legal play refused, the journal replays to the final score, gnubg imports the .mat with
    the same games and score, and the firmware really rolled the seeded dice."""
    summary, out = whole
    assert summary["illegal_attempts"] >= 8
    assert summary["illegal_flagged"] == summary["illegal_attempts"]
    assert summary["legal_rejected"] == 0
    with Journal(out / "journal.sqlite") as j:
        notes = [e.body for e in j.entries() if e.kind == "sim"]
    attempts = [n for n in notes if n["what"] == "attempt"]
    assert len(attempts) == summary["illegal_attempts"]
    assert all(n["refused"] and n["reason"] == n["expected"] for n in attempts)
    actions = [action_from_dict(a) for a in journal_actions(out)]
    final = replay(actions)
    assert final.phase == MATCH_OVER
    assert list(final.score) == summary["score"] and max(final.score) >= 3
    # every roll of the match came out of the firmware: numbered and logged in its flash
    rolls = [a for a in journal_actions(out) if a.get("type") in ("opening", "roll")]
    log = [tuple(map(int, line.split()[1:3])) for line in (out / "pico" / "flash" / "rolls.log").read_text().splitlines()]
    assert [tuple(r["dice"]) for r in rolls] == log[-len(rolls):]
    assert "Traceback" not in (out / "pico" / "firmware.log").read_text()
    assert (out / "display.gif").stat().st_size > 0
    assert json.loads((out / "summary.json").read_text()) == summary


def test_gnubg_imports_the_firmware_match_with_the_same_games_and_score(whole: tuple[dict, Path]) -> None:
    pytest.importorskip("gnubg", reason="gnubg wheels exist only for x86-64 Linux/Windows")
    summary, out = whole
    games = gnubg_games(out / "match.mat")
    assert games == [(g["winner"], g["points"]) for g in summary["games"]]
    assert [sum(p for w, p in games if w == i) for i in (0, 1)] == summary["score"]


def test_the_firmware_plays_the_match_the_model_plays(whole: tuple[dict, Path], tmp_path: Path) -> None:
    """Same seed, same match: the in-process model of the firmware (--model-firmware) and
    the real firmware give the same actions, record and summary."""
    summary, out = whole
    assert run_match(OPTIONS, tmp_path) == summary
    assert _comparable(journal_actions(tmp_path)) == _comparable(journal_actions(out))
    assert (tmp_path / "match.mat").read_text() == (out / "match.mat").read_text()


def test_firmware_restart_and_garbled_bytes_mid_match_end_as_the_uninterrupted_run(
    whole: tuple[dict, Path], tmp_path: Path
) -> None:
    summary, out = whole
    # at 12x real time (the reference ran at the default 8x): the match does not depend on it
    run = LiveRun(OPTIONS, tmp_path, faults=Faults_(restart_at=30, garble_at=60), speed=12)
    import asyncio

    asyncio.run(run.run())
    assert run.injected == ["firmware restart after 30 actions", "garbled bytes after 60 actions"]
    assert run.pico.restarts == 1
    assert run.summary() == summary
    assert _comparable(journal_actions(tmp_path)) == _comparable(journal_actions(out))
    assert "Traceback" not in (tmp_path / "pico" / "firmware.log").read_text()
    # the LED strip as the firmware drove it: host LEDs 0..27 after the time stamp
    lit: set[tuple[int, ...]] = set()
    for line in (tmp_path / "pico" / "leds.log").read_text().splitlines():
        for value in line.split()[1:29]:
            rgb = (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
            if rgb != (0, 0, 0):
                lit.add(tuple(1 if c else 0 for c in rgb))
    assert (0, 1, 0) in lit  # legal destinations of a lifted checker (green)
    assert (0, 0, 1) in lit  # the place it was lifted from (blue)
    assert (1, 0, 0) in lit  # the places to put right after an illegal play (red)


def test_kill_9_of_the_host_then_sim_again_ends_as_the_uninterrupted_run(whole: tuple[dict, Path], tmp_path: Path) -> None:
    summary, out = whole
    target = tmp_path / "killed"
    killed = subprocess.Popen([*BGBOARD, "sim", *ARGS, "--speed", "12", "--out", str(target), "--json"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = target / "journal.sqlite"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if journal.exists() and len(journal_actions(target)) >= 40:
            break
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait()
    assert killed.returncode == -signal.SIGKILL
    assert 40 <= len(journal_actions(target)) < len(journal_actions(out))
    # the firmware died with the host (parent-death signal): no board left running
    deadline = time.monotonic() + 30  # at once; the bound only against a loaded machine
    while _running_in(target / "pico") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _running_in(target / "pico") == []
    again = subprocess.run([*BGBOARD, "sim", *ARGS, "--speed", "12", "--out", str(target), "--json"],
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == summary
    assert _comparable(journal_actions(target)) == _comparable(journal_actions(out))
    assert (target / "match.mat").read_text() == (out / "match.mat").read_text()


def test_a_stuck_sensor_stops_the_firmware_run_with_the_place_to_check(tmp_path: Path) -> None:
    """A sensor shorted to ground: the firmware classifies the reading as FAULT, the host names
    the place, the run stops with that sentence and exit code 2 (the model path has the same
    test with the resume)."""
    done = subprocess.run([*BGBOARD, "sim", "--match-length", "1", "--seed", "3", "--out", str(tmp_path),
                           "--stuck", "6:0:0"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 2
    assert done.stderr == "bgboard: check point 6: a sensor reports a fault\n"
    assert _running_in(tmp_path / "pico") == []
