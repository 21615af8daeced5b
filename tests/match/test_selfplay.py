"""Self-play: determinism, variety across seeds, the CLI, and rebuilding every state from
the journalled action log."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.cli import main
from bgboard.match import (
    AcceptResign,
    Double,
    RejectResign,
    action_from_dict,
    action_to_dict,
    apply,
    from_json,
    log_from_json,
    log_to_json,
    replay,
    states,
    to_json,
)
from bgboard.match.mat import export_mat
from bgboard.match.selfplay import selfplay


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(length=st.sampled_from([1, 3, 5, 7]), seed=st.integers(0, 10_000), rules=st.sampled_from(["standard", "brainking"]))
def test_rebuilding_from_the_journal_equals_the_live_state_after_every_action(length: int, seed: int, rules: str) -> None:
    if rules == "brainking" and length == 1:
        length = 3
    actions = selfplay(length, seed, rules)
    rebuilt = None
    for k, (action, live, _before) in enumerate(states(actions)):
        journalled = action_from_dict(json.loads(json.dumps(action_to_dict(action))))
        assert journalled == action
        rebuilt = apply(rebuilt, journalled)
        assert rebuilt == live
        assert from_json(to_json(live)) == live
        if k % 97 == 0:
            assert replay(log_from_json(log_to_json(actions[: k + 1]))) == live
    assert replay(actions).phase == "match_over"


def test_same_seed_same_match_and_seeds_differ() -> None:
    assert export_mat(selfplay(7, 42)) == export_mat(selfplay(7, 42))
    assert export_mat(selfplay(7, 42)) != export_mat(selfplay(7, 43))


@pytest.mark.slow
def test_doubles_takes_drops_redoubles_gammons_and_crawford_games_all_occur() -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        actions = selfplay(5, seed)
        state = replay(actions)
        for game in state.games:
            seen[game.result] += 1
            seen["crawford"] += game.crawford
            seen["redouble"] += game.cube >= 4
        for action, after, before in states(actions):
            if isinstance(action, Double):
                seen["double"] += 1
            if isinstance(action, RejectResign):
                seen["rejected"] += 1
            if isinstance(action, AcceptResign) and before.dice is not None:
                seen["resigned after rolling"] += 1
        if state.games[-1].result == "drop":
            seen["match ends on a drop"] += 1
    wanted = {"single", "gammon", "backgammon", "drop", "resign", "crawford", "redouble",
              "double", "match ends on a drop"}
    assert wanted <= {k for k, v in seen.items() if v}, seen


def test_cli_writes_the_record_and_prints_the_json_shape(tmp_path: Path, capsys) -> None:
    out, sgf = tmp_path / "m.mat", tmp_path / "m.sgf"
    code = main(["selfplay", "--match-length", "5", "--seed", "2", "--out", str(out), "--sgf", str(sgf), "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    state = replay(selfplay(5, 2))
    assert result == {
        "match_length": 5,
        "score": list(state.score),
        "games": [{"winner": g.winner, "points": g.points, "cube": g.cube, "result": g.result} for g in state.games],
    }
    assert set(result) == {"match_length", "score", "games"}
    assert all(g["result"] in {"single", "gammon", "backgammon", "drop", "resign"} for g in result["games"])
    assert out.read_text() == export_mat(selfplay(5, 2))
    assert sgf.read_text().startswith("(;FF[4]GM[6]")
    assert max(result["score"]) >= 5


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard", "selfplay", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_bad_arguments_exit_2_with_one_line(tmp_path: Path) -> None:
    out = str(tmp_path / "m.mat")
    cases = [
        (["--match-length", "4", "--seed", "1", "--rules", "brainking", "--out", out], "brainking rules allow"),
        (["--match-length", "0", "--seed", "1", "--out", out], "a match is played to 1 point or more"),
        (["--match-length", "5", "--seed", "x", "--out", out], "invalid int value"),
        (["--match-length", "5", "--seed", "1", "--rules", "fibs", "--out", out], "invalid choice"),
        (["--match-length", "5", "--seed", "1", "--out", str(tmp_path / "no" / "m.mat")], "cannot write the match record"),
        (["--match-length", "5", "--out", out], "required"),
    ]
    for args, message in cases:
        result = _cli(*args)
        assert result.returncode == 2, args
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], (args, result.stderr)
    assert not (tmp_path / "m.mat").exists()


def test_money_session_plays_one_game(tmp_path: Path, capsys) -> None:
    code = main(["selfplay", "--match-length", "0", "--seed", "9", "--rules", "money", "--out", str(tmp_path / "m.mat"), "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["match_length"] == 0 and len(result["games"]) == 1
    assert (tmp_path / "m.mat").read_text().splitlines()[1] == " 0 point match"


@pytest.mark.slow
def test_cli_same_seed_same_files(tmp_path: Path, capsys) -> None:
    outputs = []
    for run in (1, 2):
        out, sgf = tmp_path / f"{run}.mat", tmp_path / f"{run}.sgf"
        assert main(["selfplay", "--match-length", "9", "--seed", "77", "--rules", "brainking",
                     "--out", str(out), "--sgf", str(sgf), "--json"]) == 0
        outputs.append((out.read_bytes(), sgf.read_bytes(), capsys.readouterr().out))
    assert outputs[0] == outputs[1]


@pytest.mark.slow
def test_crawford_game_is_exactly_the_game_after_first_reaching_match_point() -> None:
    for seed in range(30):
        length = (3, 5, 7)[seed % 3]
        actions = selfplay(length, seed, "brainking")
        state = replay(actions)
        scores = [(0, 0)]
        for game in state.games:
            a, b = scores[-1]
            scores.append((a + game.points, b) if game.winner == 0 else (a, b + game.points))
        # scores[k] is the score before game k+1; the Crawford game follows the first one
        # that leaves a player exactly one point short (and the match not over).
        first = next((k for k, s in enumerate(scores) if max(s) == length - 1), None)
        expected = [first is not None and k == first for k in range(len(state.games))]
        assert [g.crawford for g in state.games] == expected, seed
        # No cube action at all in the Crawford game.
        doubled_in = {before.game for action, _after, before in states(actions) if isinstance(action, Double)}
        assert not any(state.games[g - 1].crawford for g in doubled_in)
