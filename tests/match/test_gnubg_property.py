"""Property: any match ``bgboard selfplay`` writes, imported and exported again by gnubg in
its own ``.mat``, is read back by us as the same match — the same games, results and
score, and the same plays (player, dice, Position ID before each)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.match import import_mat, replay
from bgboard.match.mat_write import export_mat
from bgboard.match.selfplay import selfplay

ORACLE = Path(__file__).with_name("gnubg_oracle.py")


def plays(match) -> list[tuple]:
    return [(p.game, p.player, p.kind, p.dice, p.position_id) for g in match.games for p in g.plays]


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(length=st.integers(1, 11), seed=st.integers(0, 10**6), rules=st.sampled_from(["standard", "brainking"]))
def test_gnubg_export_of_any_selfplay_match_reads_back_as_the_same_match(
    tmp_path: Path, length: int, seed: int, rules: str
) -> None:
    if rules == "brainking" and (length < 3 or length % 2 == 0):
        length = max(3, length | 1)
    actions = selfplay(length, seed, rules)
    original = replay(actions)
    path = tmp_path / f"m{length}_{seed}.mat"
    path.write_text(export_mat(actions))
    done = subprocess.run([sys.executable, str(ORACLE), "reexport", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    theirs = import_mat(Path(f"{path}.gnubg").read_bytes())
    ours = import_mat(path.read_bytes())
    assert theirs.problems == ()
    assert theirs.players == original.players and theirs.length == original.length
    assert theirs.score == original.score and theirs.finished
    assert [(g.winner, g.points, g.result) for g in theirs.games] == [
        (g.winner, g.points, g.result) for g in original.games
    ]
    assert plays(theirs) == plays(ours)
    assert theirs.actions is not None
    again = replay(theirs.actions)
    assert again.games == original.games and again.score == original.score
