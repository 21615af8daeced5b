"""``bgboard analyse``: files, journals, folders with a progress bar and a results cache
that survives an interruption; bad input is one sentence and exit code 2."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgboard.analysis.file_batch import CACHE_NAME, Cache
from bgboard.errors import InputError

from bgboard.match.mat_write import export_mat
from bgboard.match.selfplay import selfplay

WORLD = Path(__file__).parent.parent / "data" / "match" / "world"


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard", "analyse", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def test_json_gives_each_player_in_the_files_column_order():
    done = _run(str(WORLD / "gnubg_match_3_12.mat"), "--json")
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert [p["name"] for p in players] == ["gnubg", "root"]
    for p in players:
        assert {"name", "unforced_moves", "checker_error_emg", "cube_error_emg", "error_rate_memg", "pr",
                "luck_emg", "pr_low", "pr_high", "decisions", "worst"} <= set(p)
        assert p["pr"] == pytest.approx(p["error_rate_memg"] / 2)


def test_text_names_the_ratings_and_the_interval():
    done = _run(str(WORLD / "gnubg_match_7_13.mat"))
    assert done.returncode == 0, done.stderr
    assert "Error rate mEMG" in done.stdout and "95 % interval" in done.stdout
    assert "few decisions: the interval is wide" in done.stdout


@pytest.mark.parametrize(
    ("content", "options", "words"),
    [
        (b"not a match at all\n", [], "not a .mat match record"),
        (None, [], "there is no file or folder"),
        (b"\x00\xff" * 10, ["--engine", "pubeval"], "unknown analysis engine"),
        (b"\x00\xff" * 10, ["--ply", "7"], "--ply must be 0, 1 or 2"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_code_2(tmp_path: Path, content, options, words):
    path = tmp_path / "bad.mat"
    if content is not None:
        path.write_bytes(content)
    done = _run(str(path), *options)
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_journal_is_analysed(tmp_path: Path):
    out = tmp_path / "sim"
    sim = subprocess.run([sys.executable, "-m", "bgboard", "sim", "--model-firmware", "--match-length", "1",
                          "--seed", "5", "--out", str(out), "-q"], capture_output=True, text=True, timeout=600)
    journals = sorted(out.rglob("journal.sqlite"))
    assert sim.returncode == 0 and journals, f"bgboard sim made no journal: {sim.stderr[-500:]}"
    journal = journals[0]
    done = _run(str(journal), "--json")
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert len(players) == 2 and sum(p["total_moves"] for p in players) > 0


@pytest.mark.slow
def test_a_folder_is_resumed_from_the_cache_after_an_interruption(tmp_path: Path, monkeypatch):
    from bgboard.commands.analyse import default_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # (the commands below inherit it)
    folder = tmp_path / "matches"
    folder.mkdir()
    for seed in range(12):
        (folder / f"m{seed:02d}.mat").write_text(export_mat(selfplay(3, seed)))
    (folder / "broken.mat").write_text("garbage\n")
    cache = default_cache(folder)
    assert cache.parent == tmp_path / "cache" / "bgboard"
    proc = subprocess.Popen([sys.executable, "-m", "bgboard", "analyse", str(folder), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # interrupt once some results are kept
        if cache.exists() and len(Cache.open(cache).results) >= 3:
            break
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=300)
    kept = Cache.open(cache).results
    assert 3 <= len(kept)
    if len(kept) < 12:
        assert "run again to resume" in err
    done = _run(str(folder), "--json")
    assert done.returncode == 2  # the broken file is reported
    assert "broken.mat" in done.stderr and "not a .mat match record" in done.stderr
    assert "[" in done.stderr and "13/13" in done.stderr  # the progress bar
    files = json.loads(done.stdout)["files"]
    assert len(files) == 12
    again = Cache.open(cache).results
    assert len(again) == 12
    assert sorted(p.name for p in folder.iterdir()) == sorted([f"m{seed:02d}.mat" for seed in range(12)] + ["broken.mat"])
    # the figures of a resumed run equal a fresh run's
    fresh = _run(str(folder / "m05.mat"), "--json")
    assert json.loads(fresh.stdout)["players"] == next(f for f in files if f["file"].endswith("m05.mat"))["players"]


@pytest.mark.slow
def test_bgsage_counts_the_same_decisions_and_grades_close_to_gnubg_nn():
    """Another engine, the same definitions: the counts are the match's, the errors bgsage's."""
    path = str(WORLD / "gnubg_headers_selfplay_1_7.mat")
    gnubg_nn = json.loads(_run(path, "--json").stdout)["players"]
    bgsage = _run(path, "--json", "--engine", "bgsage")
    assert bgsage.returncode == 0, bgsage.stderr
    sage = json.loads(bgsage.stdout)
    assert sage["engine"] == "bgsage"
    for a, b in zip(sage["players"], gnubg_nn):
        assert (a["total_moves"], a["unforced_moves"]) == (b["total_moves"], b["unforced_moves"])
        assert a["checker_error_emg"] == pytest.approx(b["checker_error_emg"], rel=0.25)


def test_the_cache_keeps_every_whole_line_and_drops_a_line_cut_short(tmp_path: Path):
    path = tmp_path / CACHE_NAME
    cache = Cache.open(path)
    cache.put("a", {"players": [1]})
    cache.put("b", {"players": [2]})
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"key": "c", "figu')  # a stop in the middle of a write
    assert Cache.open(path).results == {"a": {"players": [1]}, "b": {"players": [2]}}
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "junk", lines[1]]) + "\n")  # damage before the end
    with pytest.raises(InputError, match="not one bgboard wrote"):
        Cache.open(path)


def test_analysing_a_folder_writes_nothing_into_it_and_a_bad_file_is_named(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "good.mat").write_text(export_mat(selfplay(1, 3)))
    (folder / "bad.mat").write_text("garbage\n")
    done = _run(str(folder / "good.mat"), str(folder / "bad.mat"), "--json")
    assert done.returncode == 2
    assert f"bgboard: {folder / 'bad.mat'}: no 'N point match' line" in done.stderr  # which of the files failed
    done = _run(str(folder), "--json")
    assert done.returncode == 2 and len(json.loads(done.stdout)["files"]) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["bad.mat", "good.mat"]  # no cache left in the user's folder
    assert list((tmp_path / "cache" / "bgboard").glob("analysis-*.jsonl"))


def test_the_table_shows_an_engines_name_whole(tmp_path: Path):
    # a match against the engine names its player "gnubg-nn (intermediate)": no "gnubg-nn (intermedia"
    text = (Path(__file__).parents[1] / "data" / "match" / "gnubg_7pt_seed4.mat").read_text()
    path = tmp_path / "engine.mat"
    path.write_text(text.replace(" root : ", " gnubg-nn (intermediate) : "))
    done = _run(str(path))
    assert done.returncode == 0, done.stderr
    header, first = done.stdout.splitlines()[1:3]
    assert header.rstrip().endswith("gnubg-nn (intermediate)")
    assert len(first.rstrip()) == len(header.rstrip())  # the figures stay under their names
