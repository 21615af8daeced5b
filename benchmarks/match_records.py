"""Match play figures beside gnubg, in one process.

    .venv/bin/python benchmarks/match_records.py [--matches 20]

* self-play: a 7-point match between the built-in players (legal plays from
  bgboard.rules), per match and per action;
* reading a .mat file into the match model (parse + replay with legality checks) beside
  gnubg's ``import mat`` of the same file;
* writing the .mat of a match beside gnubg's ``export match mat`` of the same match;
* Match IDs for every state of a match.
gnubg's text output is sent to /dev/null while it works.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bgboard.match import replay, states
from bgboard.match.mat import export_mat, read_mat
from bgboard.match.matchid import match_id_text
from bgboard.match.selfplay import selfplay


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


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    n = args.matches

    t0 = time.perf_counter()
    logs = [selfplay(7, seed) for seed in range(n)]
    t_self = (time.perf_counter() - t0) / n
    actions = sum(len(log) for log in logs) / n
    print(f"self-play 7-point match      {_ms(t_self)} per match, {actions:.0f} actions, "
          f"{t_self / actions * 1e6:.0f} µs per action")

    texts = [export_mat(log) for log in logs]
    t0 = time.perf_counter()
    for log in logs:
        export_mat(log)
    t_write = (time.perf_counter() - t0) / n
    t0 = time.perf_counter()
    for text in texts:
        replay(read_mat(text))
    t_read = (time.perf_counter() - t0) / n

    ready = [s for _a, s, _b in states(logs[0])]
    t0 = time.perf_counter()
    for s in ready:
        match_id_text(s)
    t_id = (time.perf_counter() - t0) / len(ready)

    try:
        import gnubg  # type: ignore[import-not-found]
    except ImportError:
        gnubg = None
    g_read = g_write = None
    if gnubg is not None:
        with tempfile.TemporaryDirectory() as tmp, _silenced():
            gnubg.command("set sound enable off")
            gnubg.command("set display off")
            gnubg.command("set confirm new off")
            for p in (0, 1):
                gnubg.command(f"set player {p} human")
            files = []
            for k, text in enumerate(texts):
                path = Path(tmp) / f"m{k}.mat"
                path.write_text(text)
                files.append(path)
            reads, writes = [], []
            for k, path in enumerate(files):
                t0 = time.perf_counter()
                gnubg.command(f"import mat {path}")
                reads.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                gnubg.command(f"export match mat {Path(tmp) / f'out{k}.mat'}")
                writes.append(time.perf_counter() - t0)
            g_read, g_write = statistics.mean(reads), statistics.mean(writes)

    def ratio(ours: float, theirs: float | None) -> str:
        return f"gnubg {_ms(theirs)}  ratio {ours / theirs:5.2f}" if theirs else "gnubg n/a"

    print(f"read .mat + replay (checked) {_ms(t_read)} per match   {ratio(t_read, g_read)} (import mat)")
    print(f"write .mat                   {_ms(t_write)} per match   {ratio(t_write, g_write)} (export match mat)")
    print(f"Match ID per state           {t_id * 1e6:8.1f} µs")


if __name__ == "__main__":
    main()
