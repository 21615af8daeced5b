"""What the quick test run (``pytest -m "not slow"``) costs, measured so that a loaded machine
does not hide it: CPU time (this process and the processes it waited for) beside wall time,
per test and in all.

    python benchmarks/quick_tests.py [--top 25] [PYTEST ARGS...]   (default: -m "not slow")

On the shared session machine the wall time of the same run swings 2-3x with the other
work, while its CPU time barely moves; so the figures are the CPU time, the wall time, and
the *waits* that remain on an idle machine: tests whose wall time is far above what the
run's load explains (their own timers, a broker's or a browser's start-up).  An idle wall
time is estimated as CPU + those waits (docs/performance.md, "test suite").
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class Recorder:
    """A pytest plugin: CPU and wall seconds of each test (set-up, call and tear-down)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, float]] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
        cpu, wall = _cpu(), time.monotonic()
        yield
        self.rows.append((item.nodeid, _cpu() - cpu, time.monotonic() - wall))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="tests and files listed (default 25)")
    options, rest = parser.parse_known_args()
    args = rest or ["-m", "not slow"]
    recorder = Recorder()
    cpu0, wall0 = _cpu(), time.monotonic()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))  # as ``python -m pytest`` run in the checkout has it (tests import tests.*)
    code = pytest.main(["-q", "-p", "no:cacheprovider", *args], plugins=[recorder])
    cpu, wall = _cpu() - cpu0, time.monotonic() - wall0
    rows = recorder.rows
    tests_cpu = sum(c for _, c, _ in rows)
    tests_wall = sum(w for _, _, w in rows)
    load = tests_wall / tests_cpu if tests_cpu else 1.0  # how much longer than its CPU a test took, on average
    # a test whose wall time is well above what the load explains waits for something real
    waits = [(w - load * c, n, c, w) for n, c, w in rows if c < 0.25 and w - load * c > 0.25]
    waited = sum(w - c for _, _, c, w in waits)
    print(f"\n{len(rows)} tests, exit code {code}; load average {os.getloadavg()[0]:.1f}")
    print(f"whole run: {wall:.1f} s wall, {cpu:.1f} s CPU (collection and start-up {cpu - tests_cpu:.1f} s CPU)")
    print(f"tests: {tests_wall:.1f} s wall, {tests_cpu:.1f} s CPU; {len(waits)} tests wait for something real: {waited:.1f} s")
    print(f"idle wall estimate: {cpu + waited:.0f} s (CPU + those waits)")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for name, c, w in rows:
        entry = files[name.split("::")[0]]
        entry[0] += c
        entry[1] += w
        entry[2] += 1
    print(f"\nfiles by CPU (CPU s, wall s, tests), top {options.top}:")
    for name, (c, w, n) in sorted(files.items(), key=lambda kv: -kv[1][0])[: options.top]:
        print(f"  {c:6.2f} {w:7.2f} {int(n):4d}  {name}")
    print(f"\ntests by CPU (CPU s, wall s), top {options.top}:")
    for name, c, w in sorted(rows, key=lambda r: -r[1])[: options.top]:
        print(f"  {c:6.2f} {w:7.2f}  {name}")
    print("\ntests that wait (wall above the load's share, CPU s, wall s):")
    for excess, name, c, w in sorted(waits, reverse=True)[: options.top]:
        print(f"  {c:6.2f} {w:7.2f}  {name}")
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
