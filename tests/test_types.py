"""pyright checks host/bgboard with the project's configuration ([tool.pyright] in
pyproject.toml: strict on the pure core - rules, match, link, sense, the club's core - and basic elsewhere):
no errors.  It runs the pyright installed with the test extras, as tests/firmware/test_build.py
does for the firmware, so README's test command runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYRIGHT = Path(sys.executable).parent / "pyright"


@pytest.mark.slow
def test_pyright_finds_no_errors_in_the_package() -> None:
    proc = subprocess.run(
        [str(PYRIGHT), "--outputjson", "--pythonpath", sys.executable, "-p", str(ROOT / "pyproject.toml")],
        capture_output=True, text=True, timeout=900, cwd=ROOT,
    )
    report = json.loads(proc.stdout)
    errors = [
        f"{Path(d['file']).relative_to(ROOT)}:{d['range']['start']['line'] + 1}: {d['message']}"
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    ]
    assert errors == []
    assert report["summary"]["filesAnalyzed"] >= 100  # the whole package was read
