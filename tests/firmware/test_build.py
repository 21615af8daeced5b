"""Every firmware file compiles with mpy-cross, type-checks against the MicroPython rp2
stubs with pyright, and firmware/board.py matches the hardware TOML it is generated from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from fwrun import FIRMWARE, ROOT

sys.path.insert(0, str(ROOT / "hardware"))
import make_board  # noqa: E402
from tests.support import parse_module

BIN = Path(sys.executable).parent
FILES = sorted(FIRMWARE.rglob("*.py"))
STUBS = Path(tempfile.gettempdir()) / "bgboard-rp2-stubs"


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIRMWARE)) for p in FILES])
def test_mpy_cross_compiles(path: Path, tmp_path: Path) -> None:
    out = tmp_path / (path.stem + ".mpy")
    proc = subprocess.run([str(BIN / "mpy-cross"), "-o", str(out), str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:1] == b"M"  # the .mpy magic


def test_board_constants_match_the_hardware_toml() -> None:
    assert (FIRMWARE / "board.py").read_text() == make_board.render(*make_board.load())


def _stubs() -> Path:
    """micropython-rp2-stubs installed with pip --target into a cached directory."""
    if not (STUBS / "machine.pyi").exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(STUBS), "micropython-rp2-stubs"],
            check=True, capture_output=True, timeout=300,
        )
    return STUBS


@pytest.mark.slow
def test_firmware_type_checks_against_the_rp2_stubs(tmp_path: Path) -> None:
    stubs = _stubs()
    rel = lambda p: os.path.relpath(p, tmp_path)  # noqa: E731 - pyright wants relative paths
    config = {
        "include": [rel(FIRMWARE)],
        "exclude": [rel(FIRMWARE / "sim")],  # the unix-port shim is not Pico code
        "stubPath": rel(stubs),
        "typeshedPath": rel(stubs),
        "extraPaths": [rel(FIRMWARE)],
        "pythonVersion": "3.11",
        "typeCheckingMode": "standard",
        "reportMissingModuleSource": "none",
    }
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    proc = subprocess.run([str(BIN / "pyright"), "--outputjson", "-p", str(tmp_path / "pyrightconfig.json")],
                          capture_output=True, text=True, timeout=300)
    report = json.loads(proc.stdout)
    problems = [f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
                for d in report["generalDiagnostics"]]
    assert problems == []
    assert report["summary"]["filesAnalyzed"] >= 10


HARDWARE_MODULES = {"machine", "neopixel", "micropython", "time", "select", "sys", "rp2"}


@pytest.mark.parametrize("path", [p for p in FILES if p.parent == FIRMWARE],
                         ids=[p.name for p in FILES if p.parent == FIRMWARE])
def test_only_hal_touches_hardware_clock_and_serial(path: Path) -> None:
    import ast

    tree = parse_module(path)
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    # ``from micropython import const`` is the compiler's constant folding, not hardware
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module
                 and not (node.module == "micropython" and [a.name for a in node.names] == ["const"])}
    touching = imported & HARDWARE_MODULES
    if path.name == "hal.py":
        assert {"machine", "time"} <= touching
    else:
        assert touching == set(), f"{path.name} imports {touching}"
