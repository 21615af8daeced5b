"""Whole simulated matches: journal replay, resume, records gnubg reads, the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.match.actions import action_from_dict
from bgboard.match.state import MATCH_OVER, replay
from bgboard.sim.modelled_board import Options, Simulation
from bgboard.sim.match_run import run_match

from simrecords import journal_actions
from tests.support import shared_run

BGBOARD = [sys.executable, "-m", "bgboard"]


OPTIONS_6 = Options(3, seed=6, noise=180.0, illegal_rate=0.2)


@pytest.fixture(scope="module")
def whole_6(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    """The uninterrupted run that interrupted runs must end like (played once per test run:
    tests.support.shared_run)."""
    return shared_run(tmp_path_factory, "sim-run-whole-6", lambda out: run_match(OPTIONS_6, out))


@pytest.mark.slow
def test_an_interrupted_run_resumes_to_the_same_end(tmp_path: Path, whole_6: tuple[dict, Path]) -> None:
    whole, whole_out = whole_6
    part = Simulation(OPTIONS_6, tmp_path)
    part.run(max_actions=57)
    part.close()
    assert replay([action_from_dict(e) for e in journal_actions(tmp_path)]).phase != MATCH_OVER
    resumed = run_match(OPTIONS_6, tmp_path)
    assert resumed == whole
    assert journal_actions(tmp_path) == journal_actions(whole_out)
    assert (tmp_path / "match.mat").read_text() == (whole_out / "match.mat").read_text()


@pytest.mark.slow
def test_outputs_are_written(tmp_path: Path) -> None:
    summary = run_match(Options(1, seed=2), tmp_path)
    for name in ("match.mat", "match.sgf", "journal.sqlite", "display.gif", "summary.json"):
        assert (tmp_path / name).stat().st_size > 0, name
    frames = sorted((tmp_path / "frames").glob("frame-*-*.png"))
    assert len(frames) > 10 and any("partial" in f.name for f in frames)
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    assert (tmp_path / "match.sgf").read_text().startswith("(;FF[4]GM[6]")


@pytest.mark.slow
def test_cli_json_has_exactly_the_documented_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--match-length", "1", "--seed", "3", "--out", str(tmp_path), "--json", "--model-firmware"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "match_length", "score", "games", "plays_recognised", "illegal_attempts",
        "illegal_flagged", "legal_rejected",
    }
    assert out["match_length"] == 1 and max(out["score"]) >= 1
    assert all(set(g) == {"winner", "points", "cube", "result"} for g in out["games"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv, words",
    [
        (["--match-length", "0"], "--match-length"),
        (["--illegal-rate", "1.5"], "--illegal-rate"),
        (["--noise", "loud"], "--noise"),
        (["--rules", "foo"], "unknown rule set 'foo'"),
        (["--rules", "brainking", "--match-length", "4"], "not 4"),
        (["--rules", "money"], "plays matches"),
        (["--stuck", "6:10:1"], "no such sensor"),  # point 6 has sensors 0..9
        (["--speed", "0"], "--speed"),
        (["--firmware", "--model-firmware"], "not both"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(tmp_path: Path, argv: list[str], words: str) -> None:
    done = subprocess.run(
        [*BGBOARD, "sim", "--out", str(tmp_path), *argv], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_kill_9_then_sim_again_ends_as_the_uninterrupted_run(tmp_path: Path, whole_6: tuple[dict, Path]) -> None:
    args = ["sim", "--match-length", "3", "--seed", "6", "--noise", "low", "--illegal-rate", "0.2", "--json", "--model-firmware"]
    whole, whole_out = whole_6
    killed = subprocess.Popen([*BGBOARD, *args, "--out", str(tmp_path / "killed"), "--realtime"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = tmp_path / "killed" / "journal.sqlite"
    deadline = time.monotonic() + 300  # leaves as soon as the journal holds 8 actions
    while time.monotonic() < deadline and killed.poll() is None:
        time.sleep(0.5)
        if journal.exists() and len(journal_actions(tmp_path / "killed")) >= 8:
            break
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait()
    assert killed.returncode == -signal.SIGKILL
    assert 8 <= len(journal_actions(tmp_path / "killed")) < len(journal_actions(whole_out))
    again = subprocess.run([*BGBOARD, *args, "--out", str(tmp_path / "killed")], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == whole
    assert journal_actions(tmp_path / "killed") == journal_actions(whole_out)


@pytest.mark.slow
def test_a_stuck_sensor_stops_the_run_with_the_place_to_check_and_the_match_resumes(tmp_path: Path) -> None:
    args = [*BGBOARD, "sim", "--match-length", "1", "--seed", "3", "--out", str(tmp_path), "--model-firmware"]
    # a sensor shorted to ground: the firmware's rail check reads FAULT, the host names the place
    stuck = subprocess.run([*args, "--stuck", "6:0:0"], capture_output=True, text=True, timeout=600)
    assert stuck.returncode == 2
    assert stuck.stderr == "bgboard: check point 6: a sensor reports a fault\n"
    # stuck at a plausible "empty" (two sensors per slot: no gap check, hardware/README.md) the
    # place reads a checker short, and the host refuses the play instead of taking another
    short = subprocess.run([*args, "--stuck", "6:0:32768"], capture_output=True, text=True, timeout=600)
    assert short.returncode == 2
    assert short.stderr.startswith("bgboard: the host did not take the legal play ") and short.stderr.count("\n") == 1
    fixed = subprocess.run([*args, "--json"], capture_output=True, text=True, timeout=600)
    assert fixed.returncode == 0, fixed.stderr
    assert max(json.loads(fixed.stdout)["score"]) >= 1


def test_a_frame_cut_short_by_a_kill_is_left_out_of_the_gif(tmp_path: Path) -> None:
    from PIL import Image

    from bgboard.sim.match_run import write_gif

    frames = []
    for i, shade in enumerate((0, 128, 255)):
        path = tmp_path / f"frame-{i:04d}-full.png"
        Image.new("L", (40, 30), shade).save(path)
        frames.append(path)
    frames[1].write_bytes(frames[1].read_bytes()[:40])  # killed while writing it
    write_gif(frames, tmp_path / "display.gif")
    with Image.open(tmp_path / "display.gif") as gif:
        assert getattr(gif, "n_frames") == 2  # GIF plugin attribute
    write_gif([frames[1]], tmp_path / "none.gif")
    assert not (tmp_path / "none.gif").exists()


CLI_6 = ["sim", "--match-length", "3", "--seed", "6", "--noise", "low", "--illegal-rate", "0.2", "--json", "--model-firmware"]


def _sim(out: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BGBOARD, *argv, "--out", str(out)], capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_resuming_with_another_seed_or_options_is_refused_in_one_sentence(tmp_path: Path) -> None:
    part = Simulation(OPTIONS_6, tmp_path)
    part.run(max_actions=10)
    part.close()
    before = journal_actions(tmp_path)
    other = _sim(tmp_path, *[("7" if a == "6" else a) for a in CLI_6])
    assert other.returncode == 2
    assert other.stderr == (
        f"bgboard: {tmp_path} holds a run started with --seed 6, not --seed 7:"
        " repeat its options to go on, or use another --out\n"
    )
    rate = _sim(tmp_path, *[("0.3" if a == "0.2" else a) for a in CLI_6])
    assert rate.returncode == 2 and "--illegal-rate 0.2, not --illegal-rate 0.3" in rate.stderr
    assert journal_actions(tmp_path) == before  # nothing was played on the refused runs


@pytest.mark.slow
def test_a_finished_dir_run_again_with_other_options_is_refused(tmp_path: Path) -> None:
    first = _sim(tmp_path, "sim", "--match-length", "1", "--seed", "3", "--json", "--model-firmware")
    assert first.returncode == 0, first.stderr
    same = _sim(tmp_path, "sim", "--match-length", "1", "--seed", "3", "--json", "--model-firmware")
    assert same.returncode == 0 and json.loads(same.stdout) == json.loads(first.stdout)
    other = _sim(tmp_path, "sim", "--match-length", "1", "--seed", "3", "--noise", "high", "--model-firmware")
    assert other.returncode == 2
    assert other.stderr.count("\n") == 1 and "--noise" in other.stderr and "another --out" in other.stderr


@pytest.mark.slow
def test_a_corrupt_journal_says_how_to_recover(tmp_path: Path) -> None:
    (tmp_path / "journal.sqlite").write_bytes(b"this is not a database\n" * 100)
    done = _sim(tmp_path, *CLI_6)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == (
        f"bgboard: {tmp_path / 'journal.sqlite'} is damaged and cannot be resumed: delete it to play the match"
        " again from the start, or use another --out\n"
    )
    (tmp_path / "journal.sqlite").unlink()
    assert _sim(tmp_path, *CLI_6).returncode == 0  # as the sentence says


def _actions_in(journal: Path) -> int:
    """Match actions journalled so far, read without writing (the run is writing it)."""
    import sqlite3

    if not journal.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=1) as db:
            return int(db.execute("SELECT COUNT(*) FROM journal WHERE kind = 'action'").fetchone()[0])
    except sqlite3.Error:
        return 0  # not created yet


def _stopped(pid: int) -> bool:
    """The process is stopped by a signal (state T in /proc/PID/stat)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] == "T"


def _run_until(proc: subprocess.Popen[str], journal: Path, moment: int, deadline_s: float = 300) -> bool:
    """Let ``proc`` run in short slices, stopped (SIGSTOP) while the journal is counted, until
    it holds ``moment`` actions; True with the process stopped there, False if it ended.

    Counting while it runs let a loaded machine (the test descheduled between two counts)
    see a run finish before its last kill: stopped, it cannot move on while it is counted."""
    deadline = time.monotonic() + deadline_s
    while True:
        proc.send_signal(signal.SIGSTOP)
        while proc.poll() is None and not _stopped(proc.pid):
            time.sleep(0.001)
        if proc.poll() is not None:
            return False
        if _actions_in(journal) >= moment:
            return True
        assert time.monotonic() < deadline, f"the run did not reach {moment} actions in {deadline_s} s"
        proc.send_signal(signal.SIGCONT)
        time.sleep(0.003)


@pytest.mark.slow
def test_kill_9_at_any_moment_keeps_the_summary_of_the_uninterrupted_run(
    tmp_path: Path, whole_6: tuple[dict, Path]
) -> None:
    """Killed again and again at moments spread over the whole match (chosen by how far the
    journal has got, so a fast or a loaded machine kills at the same places, and at any
    moment of a play: between a play and its verdict row too), each time resumed: the
    summary (plays recognised, illegal attempts) and the journalled actions are the
    uninterrupted run's."""
    import random

    whole, whole_out = whole_6
    target = tmp_path / "killed"
    journal = target / "journal.sqlite"
    total = len(journal_actions(whole_out))
    moments = sorted(random.Random(15).sample(range(3, total - 3), 6))
    kills = 0
    for moment in moments:
        proc = subprocess.Popen([*BGBOARD, *CLI_6, "--out", str(target)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        if _run_until(proc, journal, moment):
            proc.send_signal(signal.SIGKILL)  # while it is stopped at the moment
            proc.wait()
            kills += 1
        else:
            assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
            break
    done = _sim(target, *CLI_6)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == whole
    assert kills == len(moments)
    assert journal_actions(target) == journal_actions(whole_out)
