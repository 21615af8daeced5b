"""Match analysis speed and agreement: ``bgboard analyse --engine gnubg-nn --ply 0`` side by
side with gnubg's own 0-ply ``analyse match`` (embedded module, ``set threads 1``) on the
same files; prints seconds, the ratio and files per second, and both programs' figures.

    python benchmarks/analysis.py [FILE.mat ...]   (default: tests/data/match/world)
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from bgboard.analysis import analyse_match, summarise
from bgboard.analysis.evaluators import GnubgEvaluator
from bgboard.match.mat_read import import_mat

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    files = [Path(a) for a in sys.argv[1:]] or sorted(
        p for p in (ROOT / "tests/data/match/world").glob("*.mat") if not p.name.startswith("hand_") and "session" not in p.name)
    out = subprocess.run([sys.executable, str(ROOT / "tests/analysis/gnubg_stats.py"), "0", *map(str, files)],
                         capture_output=True, text=True, check=True).stdout
    ref = {json.loads(l[2:])["file"]: json.loads(l[2:]) for l in out.splitlines() if l.startswith("@@")}
    ours_total = gnubg_total = 0.0
    for path in files:
        evaluator = GnubgEvaluator()
        match = import_mat(path.read_bytes())
        start = time.perf_counter()
        analysis = analyse_match(match, evaluator)
        seconds = time.perf_counter() - start
        evaluator.close()
        theirs = ref[str(path)]
        ours_total += seconds
        gnubg_total += theirs["seconds"]
        print(f"{path.name}: bgboard {seconds:.2f} s, gnubg {theirs['seconds']:.2f} s, ratio {seconds / theirs['seconds']:.1f}")
        for p in (0, 1):
            s = summarise(analysis, p)
            g = theirs["players"][p]
            print(f"  {s.name[:12]:12s} unforced {s.unforced_moves}/{g['unforced_moves']}  close cube {s.close_cube_decisions}/{g['close_cube_decisions']}"
                  f"  checker {s.checker_error_emg:.3f}/{g['checker_error_emg']:.3f}  cube {s.cube_error_emg:.3f}/{g['cube_error_emg']:.3f}"
                  f"  rate {s.error_rate_memg:.1f}/{g['error_rate_memg']:.1f}  luck {s.luck_emg:+.3f}/{g['luck_emg']:+.3f}")
    print(f"total: bgboard {ours_total:.2f} s ({len(files) / ours_total:.2f} files/s), gnubg {gnubg_total:.2f} s,"
          f" ratio {ours_total / gnubg_total:.2f}")
    print("load average:", Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "n/a")


if __name__ == "__main__":
    main()
