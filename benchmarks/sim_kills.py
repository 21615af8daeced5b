"""kill -9 campaigns on ``bgboard sim``: for each seed, the uninterrupted run is the reference;
then the same match is killed with SIGKILL at random moments, started again on the same DIR
each time, until it ends.  A campaign passes when its summary (plays recognised, illegal
attempts, flagged, rejected, score, games) and its journalled actions equal the reference's.

Usage: python benchmarks/sim_kills.py [campaigns=9] [kills=6] [--firmware]
(default: the model firmware, about 1 min per campaign on the session machine).
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgboard.store.journal import Journal

BGBOARD = [sys.executable, "-m", "bgboard"]


def actions(out: Path) -> list[dict]:
    with Journal(out / "journal.sqlite") as j:
        return [e.body for e in j.entries() if e.kind == "action"]


def campaign(seed: int, kills: int, firmware: bool, root: Path) -> tuple[bool, int, str]:
    args = ["sim", "--match-length", "3", "--seed", str(seed), "--noise", "low", "--illegal-rate", "0.2", "--json"]
    args += ["--speed", "12"] if firmware else ["--model-firmware"]
    whole = subprocess.run([*BGBOARD, *args, "--out", str(root / "whole")], capture_output=True, text=True, check=True)
    reference = json.loads(whole.stdout)
    rng = random.Random(f"kills:{seed}")
    landed = 0
    summary: dict | None = None
    while summary is None:
        proc = subprocess.Popen([*BGBOARD, *args, "--out", str(root / "killed")], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        if landed < kills:  # the last start runs to the end
            try:
                proc.wait(timeout=1.0 + rng.random() * (6.0 if firmware else 2.5))  # start-up takes about 1 s
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                landed += 1
                continue
        out, err = proc.communicate()
        if proc.returncode != 0:
            return False, landed, err.strip()
        summary = json.loads(out)
    same = summary == reference and actions(root / "killed") == actions(root / "whole")
    diff = "" if same else f"summary {summary} != {reference}"
    return same, landed, diff


def main(campaigns: int = 9, kills: int = 6, firmware: bool = False) -> None:
    start = time.monotonic()
    passed = 0
    for seed in range(1, campaigns + 1):
        with tempfile.TemporaryDirectory() as tmp:
            ok, landed, why = campaign(seed, kills, firmware, Path(tmp))
        passed += ok
        print(f"seed {seed}: {landed} kills, {'same summary and actions' if ok else 'DIFFERENT: ' + why}", flush=True)
    path = "real firmware" if firmware else "model firmware"
    print(f"{passed}/{campaigns} kill -9 campaigns ({path}) ended as the uninterrupted run; {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    numbers = [int(a) for a in sys.argv[1:] if not a.startswith("--")]
    main(*numbers, firmware="--firmware" in flags)
