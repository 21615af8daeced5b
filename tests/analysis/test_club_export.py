"""``bgboard club export EVENT --out DIR --analyse``: the club's evening (``bgboard club
demo``: a real Mosquitto, the director, simulated boards) exported with every match's
figures, one row per match and player, equal to ``bgboard analyse`` of the match's file."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.analysis.file_batch import CACHE_NAME


def _bgboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard", *args], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="session")  # once per worker: read only (module scope made it again each time a worker came back)
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("club")
    done = _bgboard("club", "demo", "--boards", "2", "--players", "4", "--out", str(out))
    assert done.returncode == 0, done.stderr[-800:]
    return out


@pytest.mark.slow
def test_the_export_carries_every_matchs_figures(evening: Path, tmp_path: Path):
    out = tmp_path / "export"
    done = _bgboard("club", "--db", str(evening / "club.sqlite"), "export", "Demo evening", "--out", str(out), "--analyse")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader((out / "analysis.csv").open()))
    mats = sorted((out / "mat").glob("*.mat"))
    assert mats and len(rows) == 2 * len(mats)
    for mat in mats:
        figures = json.loads(_bgboard("analyse", str(mat), "--json").stdout)["players"]
        mine = [r for r in rows if r["match"] == mat.stem]
        assert [r["player"] for r in mine] == [f["name"] for f in figures]
        for row, f in zip(mine, figures):
            assert float(row["pr"]) == pytest.approx(f["pr"], abs=1e-4)
            assert int(row["decisions"]) == f["decisions"]
    # exporting again analyses nothing twice: the figures come from the cache beside the files
    # (the cache gains a line for every file it analyses: none this time)
    cache = out / "mat" / CACHE_NAME
    kept = cache.read_text()
    assert kept.count("\n") == 1 + len(mats)  # the header, then one line per record
    again = _bgboard("club", "--db", str(evening / "club.sqlite"), "export", "Demo evening", "--out", str(out), "--analyse")
    assert again.returncode == 0 and (out / "analysis.csv").read_text().count("\n") == len(rows) + 1
    assert cache.read_text() == kept


def test_an_unknown_engine_is_one_sentence(evening: Path, tmp_path: Path):
    done = _bgboard("club", "--db", str(evening / "club.sqlite"), "export", "Demo evening", "--out", str(tmp_path / "e"),
                    "--analyse", "pubeval")
    assert done.returncode == 2 and "unknown analysis engine 'pubeval'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "e").exists(), "the engine is refused before any file is written"
