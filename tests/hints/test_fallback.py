"""With bgsage and gnubg-nn really uninstalled (their import fails), pubeval answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

BLOCK = (
    "import sys\n"
    "sys.modules['bgsage'] = None\n"  # a None entry makes `import bgsage` raise ImportError
    "sys.modules['gnubg_nn'] = None\n"
    "for name in ('bgsage', 'gnubg_nn'):\n"
    "    try:\n"
    "        __import__(name)\n"
    "    except ImportError:\n"
    "        pass\n"
    "    else:\n"
    "        raise SystemExit(name + ' still imports')\n"
    "from bgboard.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _bgboard(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("BGBOARD_HINT_ENGINE", None)
    return subprocess.run(
        [sys.executable, "-c", BLOCK, *args], input=stdin, capture_output=True, text=True, timeout=60, env=env
    )


def test_auto_falls_back_to_pubeval_silently() -> None:
    done = _bgboard("hint", "4HPwATDgc/ABMA", "31", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["engine"] == "pubeval" and answer["calibrated"] is False
    assert answer["plays"][0]["play"] == "8/5 6/5"
    assert done.stderr == ""


def test_asking_for_a_missing_engine_says_so_in_one_line_and_uses_pubeval() -> None:
    for name in ("bgsage", "gnubg-nn"):
        done = _bgboard("hint", "4HPwATDgc/ABMA", "66", "--engine", name)
        assert done.returncode == 0
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and "not installed" in lines[0] and lines[0].endswith("using pubeval")
        assert "24/18(2) 13/7(2)" in done.stdout


def test_batch_works_without_compiled_engines() -> None:
    done = _bgboard("hint", "--batch", stdin="4HPwATDgc/ABMA 42\n4HPwATDgc/ABMA 65\n")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["plays"][0]["play"] for r in rows] == ["8/4 6/4", "24/13"]


def test_cube_advice_without_an_engine_is_one_clear_line() -> None:
    done = _bgboard("hint", "--cube", "4HPwATDgc/ABMA", "--match-id", "cAkAAAAAAAAA")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no cube advice except in money races" in done.stderr


def test_the_fallback_still_advises_on_the_cube_in_a_money_race() -> None:
    # A race: my 15 checkers on my 6- and 5-points (pips 83), theirs on their 6-point (90).
    from bgboard.rules import Position, position_id

    race = Position((0, 0, 0, 0, 0, 2, 13) + (0,) * 19, (0, 0, 0, 0, 0, 0, 15) + (0,) * 19).validate()
    done = _bgboard("hint", "--cube", position_id(race), "--match-id", "cAkAAAAAAAAA", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["engine"] == "pubeval" and answer["basis"].startswith("Keith count")


def test_a_missing_engine_falls_back_to_the_strongest_installed_one() -> None:
    """gnubg-nn asked for and missing, bgsage installed: bgsage answers, and it is said."""
    block = BLOCK.replace("sys.modules['bgsage'] = None\n", "").replace("('bgsage', 'gnubg_nn')", "('gnubg_nn',)")
    env = dict(os.environ)
    env.pop("BGBOARD_HINT_ENGINE", None)
    done = subprocess.run([sys.executable, "-c", block, "hint", "4HPwATDgc/ABMA", "31", "--engine", "gnubg-nn", "--json"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["engine"] == "bgsage"
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "gnubg-nn engine is not installed" in lines[0] and lines[0].endswith("using bgsage")
