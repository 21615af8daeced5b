"""``bgboard analyse --engine gnubg-nn --ply 0`` against gnubg's own 0-ply analysis
(``analyse match``, ``show statistics match``), player by player, on the match files other
programs wrote (tests/data/match/world: gnubg, XG, GridGammon styles) and on matches
bgboard plays itself (``bgboard selfplay``).

What agrees today (docs/analysis.md, "Agreement with gnubg"): the move counts (total and
unforced), the cube decision counts, and, where the cube is dead (a 1-point match),
the checker error and the luck within 5 %.  Elsewhere gnubg-nn's cube evaluation (it
ignores the cube's owner and caps no double at the cash) moves the error totals by up to
~40 %: those figures are printed by the benchmark, not asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.analysis import analyse_match, summarise
from bgboard.hints.gnubg_engine import MatchEvaluator
from bgboard.match.selfplay import selfplay
from bgboard.match.mat_read import import_mat
from bgboard.match.mat_write import export_mat

HERE = Path(__file__).parent
WORLD = HERE.parent / "data" / "match" / "world"
FILES = sorted(p for p in WORLD.glob("*.mat") if not p.name.startswith("hand_") and "session" not in p.name)


def gnubg_statistics(files: list[Path]) -> dict[str, list[dict[str, object]]]:
    """gnubg's figures per file (the oracle runs in a subprocess)."""
    out = subprocess.run(
        [sys.executable, str(HERE / "gnubg_stats.py"), "0", *map(str, files)],
        capture_output=True, text=True, timeout=600, check=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        if line.startswith("@@"):
            record = json.loads(line[2:])
            found[record["file"]] = record["players"]
    assert len(found) == len(files), "gnubg analysed every file"
    return found


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], dict[str, list[dict[str, object]]]]:
    own = tmp_path_factory.mktemp("selfplay")
    files = list(FILES)
    for length, seed in ((1, 3), (3, 8)):
        path = own / f"bgboard_selfplay_{length}_{seed}.mat"
        path.write_text(export_mat(selfplay(length, seed)))
        files.append(path)
    return files, gnubg_statistics(files)


@pytest.fixture(scope="module")
def ours(world: tuple[list[Path], dict[str, list[dict[str, object]]]]) -> dict[str, list[dict[str, object]]]:
    evaluator = MatchEvaluator()
    result = {}
    for path in world[0]:
        analysis = analyse_match(import_mat(path.read_bytes()), evaluator)
        result[str(path)] = [summarise(analysis, p).to_dict() for p in (0, 1)]
    return result


def test_the_files_are_there(world):
    assert len(world[0]) >= 15


@pytest.mark.parametrize("key", ["total_moves", "unforced_moves", "cube_decisions", "doubles", "takes", "passes"])
def test_counts_equal_gnubgs_player_by_player(world, ours, key):
    for path in world[0]:
        for player in (0, 1):
            theirs = world[1][str(path)][player]
            mine = ours[str(path)][player]
            assert mine["name"] == theirs["name"]
            assert mine[key] == theirs[key], f"{path.name} player {player} {key}"


def test_dead_cube_checker_error_and_luck_within_5_percent(world):
    """Through the command, one process per file (gnubg-nn's global score can be left
    wrong by an earlier match: docs/analysis.md, known problems)."""
    dead = [p for p in world[0] if "_1_" in p.name]
    assert dead
    for path in dead:
        out = subprocess.run([sys.executable, "-m", "bgboard", "analyse", str(path), "--json"],
                             capture_output=True, text=True, timeout=300, check=True).stdout
        figures = json.loads(out)["players"]
        for player in (0, 1):
            theirs = world[1][str(path)][player]
            mine = figures[player]
            for key in ("checker_error_emg", "luck_emg"):
                assert mine[key] == pytest.approx(theirs[key], rel=0.05, abs=0.002), f"{path.name} {player} {key}"
            assert mine["checker_rate_memg"] == pytest.approx(theirs["checker_rate_memg"], rel=0.05, abs=0.5)
