"""One rule for what is not installed: each command checks its engines and extras when it
starts, names the extra to install and exits 69 — before any game begins.

The real commands run with the optional package hidden (a module of its name that raises
ImportError comes first on the path, as a machine without the package behaves)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _hidden(tmp_path: Path, *modules: str) -> dict[str, str]:
    blocker = tmp_path / "hidden"
    blocker.mkdir(exist_ok=True)
    for module in modules:
        (blocker / f"{module}.py").write_text(f"raise ImportError('No module named {module}')\n")
    import os

    return {**os.environ, "PYTHONPATH": str(blocker)}


def _run(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard", *args], input=stdin, env=env, capture_output=True,
                          text=True, timeout=300)


def test_an_interactive_game_against_a_missing_engine_never_starts(tmp_path: Path) -> None:
    env = _hidden(tmp_path, "gnubg_nn")
    done = _run(["sim", "--interactive", "--model-firmware", "--opponent", "gnubg-nn:advanced",
                 "--out", str(tmp_path / "o")], env, stdin="r\n13/10\n")
    assert done.returncode == 69, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        "bgboard: --opponent gnubg-nn:advanced needs gnubg-nn, which is not installed: pip install 'bgboard[hints]'"]
    assert "keys:" not in done.stdout and "13/10" not in done.stdout  # no move was asked for


def test_teach_without_matplotlib_says_so_once_and_exits_69(tmp_path: Path) -> None:
    env = _hidden(tmp_path, "matplotlib")
    done = _run(["sim", "--teach", "--model-firmware", "--match-length", "1", "--engine", "pubeval",
                 "--out", str(tmp_path / "o")], env)
    assert done.returncode == 69, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        "bgboard: the learner report of --teach needs matplotlib, which is not installed: pip install 'bgboard[teach]'"]
    assert '"report": null' not in done.stdout and done.stdout == ""


def test_hardware_field_without_magpylib_exits_69_naming_the_extra(tmp_path: Path) -> None:
    env = _hidden(tmp_path, "magpylib")
    done = _run(["hardware", "field", "--grade", "N52"], env)
    assert done.returncode == 69, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        "bgboard: bgboard hardware field needs magpylib, which is not installed: pip install 'bgboard[hardware]'"]


@pytest.mark.parametrize("engine", ["gnubg-nn", "bgsage"])
def test_grading_with_a_named_engine_that_is_missing_stops_at_once(tmp_path: Path, engine: str) -> None:
    env = _hidden(tmp_path, engine.replace("-", "_"))
    done = _run(["sim", "--teach", "--model-firmware", "--engine", engine, "--out", str(tmp_path / "o")], env)
    assert done.returncode == 69
    assert f"needs {engine}, which is not installed: pip install 'bgboard[hints]'" in done.stderr
    assert not (tmp_path / "o" / "journal.jsonl").exists()
