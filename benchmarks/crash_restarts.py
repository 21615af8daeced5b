"""kill -9 the real host process (a fresh Python interpreter each time) at random moments of
scripted matches; after every restart the match must go on from its journal and end with
the same actions and score as an uninterrupted run.  Prints the figures.

The test suite does the same with fork() (tests/store/test_crash.py, about 15 s); this is
the longer variant with whole-process restarts, the way systemd restarts ``bgboard run``.

Usage: python benchmarks/crash_restarts.py [kills=300] [seed=1]
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgboard.control.controller import Controller  # noqa: E402
from bgboard.store.journal import Journal, MemoryJournal  # noqa: E402
from tests.control.scripted import play_out  # noqa: E402
from tests.store.test_crash import SETTINGS  # noqa: E402  (the test suite's match settings)

HOST = """
import sys
from bgboard.control.controller import Controller
from bgboard.store.journal import Journal
from tests.control.scripted import play_out
from tests.store.test_crash import SETTINGS
with Journal(sys.argv[1]) as journal:
    controller = Controller.resume(journal, SETTINGS, 0)
    print("up", flush=True)
    play_out(controller, int(sys.argv[2]))
"""


def reference(seed: int) -> Controller:
    """The uninterrupted run of the match."""
    c = Controller.resume(MemoryJournal(), SETTINGS, 0)
    play_out(c, seed)
    return c


def main(kills: int = 300, seed: int = 1) -> None:
    rng = random.Random(seed)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    landed = restarts = matches = 0
    started = time.perf_counter()
    startup: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        while landed < kills:
            matches += 1
            path = Path(tmp) / f"match{matches}.db"
            while True:
                t0 = time.perf_counter()
                proc = subprocess.Popen([sys.executable, "-c", HOST, str(path), str(seed + matches)], stdout=subprocess.PIPE, env=env)
                assert proc.stdout is not None
                proc.stdout.readline()  # "up": resumed from the journal
                startup.append(time.perf_counter() - t0)
                restarts += 1
                if landed < kills:
                    time.sleep(rng.uniform(0, 0.3))
                    if proc.poll() is None:
                        proc.send_signal(signal.SIGKILL)
                        proc.wait()
                        landed += 1
                        continue
                assert proc.wait() == 0, "the host failed"
                break
            with Journal(path) as journal:
                resumed = Controller.resume(journal, SETTINGS, 0)
            uninterrupted = reference(seed + matches)
            assert resumed.actions == uninterrupted.actions and resumed.state == uninterrupted.state
    took = time.perf_counter() - started
    startup.sort()
    print(f"kill -9 of a fresh host process: {landed} kills over {matches} matches, {restarts} starts, {took:.1f} s")
    print(f"every match resumed and ended with the uninterrupted run's actions, state and score")
    print(f"host start to 'resumed': p50 {startup[len(startup) // 2] * 1000:.0f} ms, max {startup[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
