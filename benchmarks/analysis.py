"""Match analysis speed and agreement: ``bgboard analyse --engine gnubg-nn --ply 0`` side by
side with gnubg's own 0-ply ``analyse match`` (its embedded module, ``set threads 1``) on
the same files, file by file (gnubg first, then bgboard, so both meet the same load);
prints seconds, the ratio, files per second, both programs' figures and the load average.

    python benchmarks/analysis.py [--repeat N] [FILE.mat ...]   (default: tests/data/match/world)

gnubg's time is its ``analyse match`` alone (the oracle times it inside its process); ours
is :func:`bgboard.analysis.analyse_match` with a fresh evaluator per file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bgboard.analysis import analyse_match, summarise
from bgboard.analysis.evaluators import GnubgEvaluator
from bgboard.match.mat_read import import_mat

ROOT = Path(__file__).resolve().parents[1]


def gnubg_run(path: Path) -> dict:
    out = subprocess.run([sys.executable, str(ROOT / "tests/analysis/gnubg_stats.py"), "0", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return next(json.loads(line[2:]) for line in out.splitlines() if line.startswith("@@"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or sorted(p for p in (ROOT / "tests/data/match/world").glob("*.mat") if not p.name.startswith("hand_"))
    print("load average before:", Path("/proc/loadavg").read_text().strip())
    ours_total = gnubg_total = 0.0
    for path in files:
        ours_times, gnubg_times = [], []
        for _ in range(args.repeat):
            theirs = gnubg_run(path)
            gnubg_times.append(theirs["seconds"])
            match = import_mat(path.read_bytes())
            start = time.perf_counter()
            analysis = analyse_match(match, GnubgEvaluator())
            ours_times.append(time.perf_counter() - start)
        ours_s, gnubg_s = statistics.median(ours_times), statistics.median(gnubg_times)
        ours_total += ours_s
        gnubg_total += gnubg_s
        print(f"{path.name}: bgboard {ours_s:.2f} s, gnubg {gnubg_s:.2f} s, ratio {ours_s / gnubg_s:.1f}")
        for p in (0, 1):
            s = summarise(analysis, p)
            g = theirs["players"][p]
            print(f"  {s.name[:12]:12s} unforced {s.unforced_moves}/{g['unforced_moves']}  close cube {s.close_cube_decisions}/{g['close_cube_decisions']}"
                  f"  checker {s.checker_error_emg:.3f}/{g['checker_error_emg']:.3f}  cube {s.cube_error_emg:.3f}/{g['cube_error_emg']:.3f}"
                  f"  rate {s.error_rate_memg:.1f}/{g['error_rate_memg']:.1f}  luck {s.luck_emg:+.3f}/{g['luck_emg']:+.3f}")
    print(f"total: bgboard {ours_total:.2f} s ({len(files) / ours_total:.2f} files/s), gnubg {gnubg_total:.2f} s"
          f" ({len(files) / gnubg_total:.2f} files/s), ratio {ours_total / gnubg_total:.2f}")
    print("load average after:", Path("/proc/loadavg").read_text().strip())


if __name__ == "__main__":
    main()
