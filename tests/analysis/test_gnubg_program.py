"""``bgboard analyse --engine gnubg``: the gnubg program itself (Debian's ``gnubg`` package,
the Raspberry Pi's analysis engine, tools/test-services installs it) analyses each match in
its own process.  Checked against gnubg run a second way (its command line, the statistics
table read from its output), against the gnubg-nn engine on the analysis test files (the
figures docs/analysis.md gives), and ``--engine auto`` choosing it where gnubg-nn is missing.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.analysis.gnubg_program import gnubg_program
from bgboard.analysis.gnubg_table import statistics as read_table
from tests.support import shared_run

HERE = Path(__file__).parent
WORLD = HERE.parent / "data" / "match" / "world"
FILES = sorted(p for p in WORLD.glob("*.mat") if not p.name.startswith("hand_"))
SEED4 = HERE.parent / "data" / "match" / "gnubg_7pt_seed4.mat"


def bgboard(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **(env or {})})


def gnubg_by_its_command_line(path: Path) -> list[dict[str, object]]:
    """gnubg's own table for ``path``, through its command line (no Python inside gnubg)."""
    commands = "\n".join([
        "set display off", "set threads 1", "set sound enable off",
        "set analysis chequerplay evaluation plies 0", "set analysis cubedecision evaluation plies 0",
        "set output mwc off", f'import mat "{path}"', "analyse match", "show statistics match", "",
    ])
    done = subprocess.run([gnubg_program(), "-t", "-q"], input=commands, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HOME": str(path.parent)})
    return read_table(done.stdout[done.stdout.index("Player"):])


@pytest.fixture(scope="session")
def both(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Both engines' figures on every analysis test file (made once per run)."""
    def make(own: Path) -> dict[str, object]:
        out = {}
        for engine in ("gnubg", "gnubg-nn"):
            done = bgboard("analyse", *map(str, FILES), "--engine", engine, "--json", "--worst", "50")
            assert done.returncode == 0, done.stderr
            out[engine] = {Path(f["file"]).name: f for f in json.loads(done.stdout)["files"]}
        return out
    return shared_run(tmp_path_factory, "gnubg-program-both", make)[0]


def test_the_gnubg_program_is_installed() -> None:
    # tools/test-services installs Debian's gnubg: missing, this fails (the Pi's engine)
    assert Path(gnubg_program()).name == "gnubg"


def test_figures_are_gnubgs_own_table() -> None:
    done = bgboard("analyse", str(SEED4), "--engine", "gnubg", "--json")
    assert done.returncode == 0, done.stderr
    mine = json.loads(done.stdout)
    assert mine["engine"] == "gnubg"
    table = gnubg_by_its_command_line(SEED4.resolve())
    for ours, theirs in zip(mine["players"], table, strict=True):
        assert ours["name"] == theirs["name"]
        for key in ("total_moves", "unforced_moves", "cube_decisions", "close_cube_decisions", "doubles", "takes",
                    "passes", "checker_error_emg", "cube_error_emg", "error_rate_memg", "luck_emg", "overall_rating"):
            assert ours[key] == theirs[key], key
        assert ours["pr"] == pytest.approx(ours["error_rate_memg"] / 2, abs=0.06)  # the table prints 0.1 mEMG


def test_the_worst_decisions_are_gnubgs() -> None:
    """The gnubg player's one wrong take in this match: the worst decision listed carries
    the loss gnubg's table gives for its wrong takes."""
    done = bgboard("analyse", str(SEED4), "--engine", "gnubg", "--json", "--worst", "3")
    player = json.loads(done.stdout)["players"][0]
    worst = player["worst"][0]
    assert (worst["type"], worst["played"], worst["better"]) == ("cube", "take", "pass")
    assert player["cube_mistakes"]["wrong takes"]["count"] == 1
    assert worst["error_emg"] == pytest.approx(player["cube_mistakes"]["wrong takes"]["emg"], abs=0.001)
    assert [d["error_emg"] for d in player["worst"]] == sorted((d["error_emg"] for d in player["worst"]), reverse=True)


def test_agreement_with_the_gnubg_nn_engine(both: dict[str, dict[str, dict[str, object]]]) -> None:
    """Debian's gnubg 1.07 and gnubg-nn's nets on the 19 analysis test files: the same
    moves counted, PR within 3 % at the median (docs/analysis.md gives the figures)."""
    relative = []
    for name, program in both["gnubg"].items():
        nn = both["gnubg-nn"][name]
        for a, b in zip(program["players"], nn["players"], strict=True):  # type: ignore[index]
            assert (a["total_moves"], a["unforced_moves"]) == (b["total_moves"], b["unforced_moves"]), name
            relative.append(abs(a["pr"] - b["pr"]) / max(b["pr"], 1.0))
    assert len(relative) == 2 * len(FILES)
    assert statistics.median(relative) <= 0.05
    assert statistics.mean(relative) <= 0.10


def _hide(tmp_path: Path, *modules: str) -> dict[str, str]:
    """An environment in which ``modules`` cannot be imported (as on a Pi without them)."""
    shim = tmp_path / "hidden"
    shim.mkdir(exist_ok=True)
    for name in modules:
        (shim / f"{name}.py").write_text(f"raise ImportError('no {name} here')\n")
    return {"PYTHONPATH": os.pathsep.join([str(shim), os.environ.get("PYTHONPATH", "")])}


def test_auto_takes_the_gnubg_program_where_gnubg_nn_is_missing(tmp_path: Path) -> None:
    done = bgboard("analyse", str(SEED4), "--json", env=_hide(tmp_path, "gnubg_nn"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["engine"] == "gnubg"


def test_no_engine_at_all_is_one_sentence_and_69(tmp_path: Path) -> None:
    env = {**_hide(tmp_path, "gnubg_nn", "bgsage"), "BGBOARD_GNUBG": str(tmp_path / "no-gnubg")}
    done = bgboard("analyse", str(SEED4), env=env)
    assert done.returncode == 69
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "apt-get install gnubg" in lines[0] and "Traceback" not in done.stderr


def test_one_gnubg_analyses_match_after_match_and_ends_at_close() -> None:
    """The program keeps one gnubg for a batch of matches: the second match's figures in the
    same gnubg are the first's (nothing carried over from one match to the next), the
    process is the same, and close() ends it."""
    from bgboard.analysis.gnubg_program import GnubgProgram

    other = WORLD / FILES[0].name
    program = GnubgProgram()
    try:
        first = program.analyse_mat(SEED4.read_text(), worst=3)
        gnubg = program._gnubg  # (private: the process, to show it is kept)
        assert gnubg is not None and gnubg.poll() is None
        middle = program.analyse_mat(other.read_text(), worst=3)
        again = program.analyse_mat(SEED4.read_text(), worst=3)
        assert program._gnubg is gnubg
    finally:
        program.close()
    assert gnubg.poll() is not None, "close() ends gnubg"
    assert again == first and middle != first
    alone = GnubgProgram()
    try:
        assert alone.analyse_mat(other.read_text(), worst=3) == middle
    finally:
        alone.close()
