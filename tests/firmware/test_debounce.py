"""The debouncer's fast path (only slots that changed) reports exactly what looking at
every slot reports, scan by scan, under MicroPython."""

from __future__ import annotations

from pathlib import Path

from fwrun import run_script

SCRIPT = r'''
import os
from debounce import Debouncer

N = 40
for trial in range(40):
    fast = Debouncer(N, 4)
    slow = Debouncer(N, 4)
    states = bytearray(N)
    fast.prime(states)
    slow.prime(states)
    busy = os.urandom(1)[0] % 3  # 0: few slots move, 2: most slots move (the full path)
    for scan in range(300):
        changed = []
        r = os.urandom(N)
        for s in range(N):
            if r[s] < (8, 40, 200)[busy]:
                new = r[s] % 3
                if new != states[s]:
                    states[s] = new
                    changed.append(s)
        a = fast.changes(fast.update(states, changed, len(changed)))
        b = slow.changes(slow.update(states))
        if a != b or fast.reported != slow.reported:
            print("DIFFER", trial, scan, a, b)
            raise SystemExit(1)
print("same")
'''


def test_fast_and_full_debouncing_agree(tmp_path: Path) -> None:
    proc = run_script(SCRIPT, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "same"
