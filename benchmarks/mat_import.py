"""Reading a large folder of .mat files: ``bgboard import``'s reader beside gnubg's
``import mat`` of the same files, in one process.

    .venv/bin/python benchmarks/mat_import.py [--files 200] [--repeat 3]

The folder: every file of tests/data/match/world (gnubg, XG and GridGammon styles, files
written by hand, money sessions) and self-played matches of 1 to 11 points written by our
exporter, up to ``--files``.  Ours: read the bytes and ``import_mat`` (parse, replay every
play on the state machine with the rules engine's legality check, the problems list).
gnubg: ``import mat FILE`` (its text output sent to /dev/null).  Best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bgboard.match import import_mat
from bgboard.match.mat_write import export_mat
from bgboard.match.selfplay import selfplay

WORLD = Path(__file__).resolve().parents[1] / "tests" / "data" / "match" / "world"


@contextlib.contextmanager
def _silenced():
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(null)
        os.close(saved)


def folder(tmp: Path, count: int) -> list[Path]:
    files = []
    for path in sorted(WORLD.glob("*.mat")):
        shutil.copy(path, tmp / path.name)
        files.append(tmp / path.name)
    seed = 0
    while len(files) < count:
        length = 1 + seed % 11
        path = tmp / f"selfplay_{length}_{seed}.mat"
        path.write_text(export_mat(selfplay(length, 1000 + seed)))
        files.append(path)
        seed += 1
    return files[:count]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        files = folder(tmp, args.files)
        size = sum(p.stat().st_size for p in files)
        games = sum(len(import_mat(p.read_bytes()).games) for p in files)
        ours = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            for path in files:
                import_mat(path.read_bytes())
            ours.append(time.perf_counter() - t0)
        import gnubg  # type: ignore[import-not-found]

        theirs = []
        with _silenced():
            for command in ("set sound enable off", "set display off", "set confirm new off",
                            "set player 0 human", "set player 1 human"):
                gnubg.command(command)
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                for path in files:
                    gnubg.command(f"import mat {path}")
                theirs.append(time.perf_counter() - t0)
    t_ours, t_gnubg = min(ours), min(theirs)
    print(f"folder: {len(files)} .mat files, {games} games, {size / 1024:.0f} kB")
    print(f"bgboard import_mat   {len(files) / t_ours:8.1f} files/s  ({t_ours * 1000 / len(files):6.2f} ms per file)")
    print(f"gnubg import mat     {len(files) / t_gnubg:8.1f} files/s  ({t_gnubg * 1000 / len(files):6.2f} ms per file)")
    print(f"ratio (gnubg / ours) {t_ours / t_gnubg:8.1f}x")


if __name__ == "__main__":
    main()
