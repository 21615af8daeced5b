"""Replaying a match file on the board (bgboard.sim.replay_run, ``bgboard sim --replay``): the
stops, the buttons, and whole files replayed on the modelled board (hall field, debounce),
where every position the sensors read must be the file's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.control.judge import BLUE, GREEN
from bgboard.match import import_mat
from bgboard.sim.field import Faults
from bgboard.sim.layout import WHITE, Layout
from bgboard.sim.replay_run import BACK, FORWARD, NEXT_GAME, Replayer, guided_moves, replay_steps, simulate_replay

WORLD = Path(__file__).parents[1] / "data" / "match" / "world"


def steps_of(name: str):
    return replay_steps(import_mat((WORLD / name).read_bytes()))


def test_each_stop_lays_out_the_position_before_the_play_and_lights_the_play() -> None:
    match = import_mat((WORLD / "hand_cube_columns.mat").read_bytes())
    steps = replay_steps(match)
    plays = [p for g in match.games for p in g.plays]
    assert len(steps) == len(plays) + len(match.games)
    first = steps[0]
    assert Layout.from_position(first.position, WHITE) == Layout.from_position(plays[0].before.position, plays[0].player)
    assert first.display.dice == (3, 1) and first.display.names == ("Ann", "Bob")
    # Ann's 31: 8/5 6/5 — 8 and 6 lit blue, 5 green (LED index = point - 1)
    assert {(led.index, led.rgb) for led in first.leds} == {(7, BLUE), (5, BLUE), (4, GREEN)}
    texts = [s.text for s in steps]
    assert "Game 1, 3: Ann doubles to 2" in texts and "Game 1, 4: Bob takes" in texts
    assert "Game 1, 6: Bob doubles to 4" in texts and "Game 1, 9: Ann doubles to 8" in texts
    assert any(t.endswith("Bob drops") for t in texts)
    assert any("Ann resigns a single" in t for t in texts)
    assert texts[-1] == "Game 3: Bob wins 2 points"
    offered = next(s for s in steps if s.text.endswith("Ann doubles to 8"))
    assert offered.display.phase == "cube-offered" and offered.display.cube == 4
    assert steps[-1].display.phase == "game-over" and steps[-1].display.score == (4, 3)


def test_the_buttons_go_forward_back_and_to_the_next_game() -> None:
    steps = steps_of("hand_cube_columns.mat")
    replayer = Replayer(steps)
    assert replayer.press(BACK) is steps[0]
    assert replayer.press(FORWARD) is steps[1]
    assert replayer.press(BACK) is steps[0]
    second = replayer.press(NEXT_GAME)
    assert second.game == 2 and steps[steps.index(second) - 1].game == 1
    for _ in range(len(steps) + 3):
        replayer.press(FORWARD)
    assert replayer.current is steps[-1]


def test_the_guidance_reaches_any_layout_from_any_other() -> None:
    steps = steps_of("gnubg_match_3_12.mat")
    for a, b in ((steps[0], steps[-1]), (steps[-1], steps[0]), (steps[3], steps[40])):
        start, target = Layout.from_position(a.position, WHITE), Layout.from_position(b.position, WHITE)
        layout = start
        for move in guided_moves(start, target):
            layout = layout.lift(move.src)[0].put(move.dst, layout.at(move.src)[0])
        assert layout == target


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gnubg_match_3_12.mat", "hand_problems.mat", "hand_notation.mat"])
def test_a_whole_match_replayed_on_the_board_reads_every_position_of_the_file(name: str) -> None:
    steps = steps_of(name)
    report = simulate_replay(steps, seed=3, noise=8.0)
    assert report.differing == []
    backs = report.presses.get("double", 0)
    assert report.stops == len(steps) and report.checked == len(steps) + 2 * backs
    assert report.carried > len(steps) // 2


def test_a_broken_sensor_makes_the_board_differ_from_the_file() -> None:
    steps = steps_of("hand_notation.mat")
    # two sensors per slot (hardware/README.md): the firmware reports a place's runs from its
    # base, so a sensor stuck at "empty" under a row leaves its place a checker short (its run
    # splits in two) — never a checker beyond a gap, never another colour
    stuck_empty = simulate_replay(steps, faults=Faults({("6", 0): 32768}))
    assert stuck_empty.differing and all("1 place(s) differ" in d for d in stuck_empty.differing)
    # the sensor under the middle of point 13's row (its third checker's slot centre)
    top = simulate_replay(steps, faults=Faults({("13", 4): 32768}))
    assert top.differing and "place(s) differ" in top.differing[0]
    assert simulate_replay(steps).differing == []


@pytest.mark.slow
def test_a_seven_point_match_in_xg_style_replays_position_for_position() -> None:
    steps = steps_of("style_xg_selfplay_7_21.mat")
    report = simulate_replay(steps, seed=1, noise=8.0)
    assert report.differing == [] and report.stops == len(steps) > 200


def test_sim_replay_command_draws_each_stop_and_grades_with_an_engine(tmp_path: Path, capsys) -> None:
    code = main(["sim", "--replay", str(WORLD / "hand_notation.mat"), "--out", str(tmp_path),
                 "--engine", "pubeval", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["differing"] == [] and summary["stops"] == 9
    assert len(list((tmp_path / "replay").glob("*.png"))) == summary["positions_checked"]
    assert json.loads((tmp_path / "replay.json").read_text()) == summary


def test_sim_replay_of_a_file_that_is_no_match_is_one_sentence(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "x.mat"
    bad.write_text("hello\n")
    assert main(["sim", "--replay", str(bad), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no 'N point match' line" in err
