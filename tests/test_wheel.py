"""A wheel installs and runs outside the checkout: the hardware description, the firmware,
the fonts and the demos travel inside the package.

The wheel is built from the tracked files copied to a temporary directory (no stale build/
and no network: ``--no-build-isolation`` with the test venv's setuptools), installed with
``--no-deps`` into a fresh venv that finds the dependencies in this venv's site-packages
(a .pth line; this venv's own editable bgboard is not on that path), and every command runs
from an empty directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _copy_tracked_files(target: Path) -> None:
    listed = _run(["git", "ls-files", "-z"], REPO)
    assert listed.returncode == 0, listed.stderr
    for name in filter(None, listed.stdout.split("\0")):
        source, dest = REPO / name, target / name
        if not source.is_symlink() and not source.exists():
            continue  # deleted in the work tree, not yet committed
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            os.symlink(os.readlink(source), dest)
        else:
            shutil.copy2(source, dest)


@pytest.mark.slow
def test_the_wheel_installs_and_runs_in_an_empty_directory(tmp_path: Path) -> None:
    source, dist, venv, work = (tmp_path / name for name in ("source", "dist", "venv", "work"))
    _copy_tracked_files(source)
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                  "-q", "-w", str(dist), str(source)], tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("bgboard-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("bgboard/hardware/pins.toml", "bgboard/hardware/grid.toml", "bgboard/hardware/sensing.toml",
                   "bgboard/hardware/field_table.json", "bgboard/hardware/firmware/main.py",
                   "bgboard/hardware/firmware/board.py", "bgboard/hardware/firmware/sim/machine.py",
                   "bgboard/locale/de/LC_MESSAGES/bgboard.mo", "bgboard/locale/nl/LC_MESSAGES/bgboard.mo",
                   "bgboard/club/web/static/gallery.js", "bgboard/club/web/static/vendor/mqtt.min.js",
                   "bgboard/club/web/static/vendor/mqtt.LICENSE.md"):
        assert needed in names, needed
    assert not any(n.startswith("bgboard/link/places") for n in names), "no stale files from an old build"

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                      "--no-index", str(wheel)], tmp_path)
    assert installed.returncode == 0, installed.stderr
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp_path).stdout.strip())
    (site / "bgboard-test-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")  # Pillow, pyserial, ...
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BGBOARD_HARDWARE")}
    bgboard = str(venv / "bin" / "bgboard")

    where = _run([str(python), "-c", "import bgboard.hardware as h; print(h.__file__); print(h.firmware_dir())"], work, env)
    module, firmware = where.stdout.split()
    assert module.startswith(str(venv)) and firmware.startswith(str(venv)), where.stdout

    sim = _run([bgboard, "sim", "--model-firmware", "--match-length", "1", "--seed", "1", "--out", "out"], work, env)
    assert sim.returncode == 0, sim.stderr
    assert (work / "out" / "match.mat").read_text().startswith(" 1 point match") or (work / "out" / "match.mat").stat().st_size

    render = _run([bgboard, "render", "--demo", "hint", "--panel", "waveshare-4in2", "--out", "hint.png"], work, env)
    assert render.returncode == 0 and (work / "hint.png").stat().st_size > 0, render.stderr
    german = _run([bgboard, "render", "--demo", "hint", "--lang", "de", "--json"], work, env)  # the catalogues shipped
    assert german.returncode == 0 and "Alice zieht 3-1" in german.stdout, german.stdout + german.stderr

    (work / "config.toml").write_text('[board]\nport = "/dev/ttyACM0"\n[match]\nlength = 7\n')
    check = _run([bgboard, "run", "--check", "--config", "config.toml"], work, env)
    assert check.returncode == 0 and "config.toml is valid" in check.stdout, check.stderr

    helped = _run([bgboard, "firmware", "deploy", "--help"], work, env)
    assert helped.returncode == 0 and "--port" in helped.stdout, helped.stderr
    dry = _run([bgboard, "firmware", "deploy", "--dry-run", "--port", "/dev/ttyACM0"], work, env)
    assert dry.returncode == 0 and f"{firmware}/main.py" in dry.stdout, dry.stdout + dry.stderr
