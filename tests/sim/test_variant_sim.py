"""End to end: whole matches of each seed variant (and a tavli match) on the real firmware
(MicroPython unix port on a pty), every play recognised from the firmware's slot states,
Plakoto's pins read through the field model; records read back into the same match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.match import Move, replay
from bgboard.match.mat import read_mat
from bgboard.sim.variant import play_match


def _check(out: Path, summary: dict, rules: str, length: int) -> None:
    actions = read_mat((out / "match.mat").read_text(), rules)
    state = replay(actions)
    assert state.phase == "match_over" and max(state.score) >= length
    assert list(state.score) == summary["score"]
    assert summary["plays_recognised"] == sum(isinstance(a, Move) for a in actions)
    assert json.loads((out / "summary.json").read_text()) == summary


def test_a_plakoto_match_on_the_firmware_reads_its_pins(tmp_path: Path) -> None:
    summary = play_match(tmp_path, variant="plakoto", rules="standard", length=1, seed=1, noise="medium")
    _check(tmp_path, summary, "standard", 1)
    assert summary["pinned_points_read"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["plakoto", "fevga", "anti", "race"])
def test_three_point_matches_of_every_variant_on_the_firmware(tmp_path: Path, variant: str) -> None:
    summary = play_match(tmp_path, variant=variant, rules="standard", length=3, seed=3, noise="medium")
    _check(tmp_path, summary, "standard", 3)


@pytest.mark.slow
def test_a_tavli_match_on_the_firmware_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--variant", "tavli", "--match-length", "5", "--seed", "2", "--noise", "medium",
                 "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    _check(tmp_path, summary, "tavli", 5)
    results = {g["result"] for g in summary["games"]}
    assert results <= {"single", "gammon", "backgammon", "mother", "resign"}
    assert summary["pinned_points_read"] > 0  # Plakoto, the second game, was played
    frames = sorted((tmp_path / "frames").glob("*.png"))
    assert len(frames) == summary["display_frames"] >= 2 * len(summary["games"])


def test_bad_variant_options_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--variant", "tavli", "--match-length", "3"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.strip() == "bgboard: a tavli match is played to 5 or 7 points"
