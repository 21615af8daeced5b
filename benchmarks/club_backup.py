"""``bgboard club backup`` (SQLite's online backup API, checked copy, fsync, rename) beside a
plain file copy of the same database (the reference: what copying the bytes costs), and
while a writer records results in another process.

    .venv/bin/python benchmarks/club_backup.py [--players 64] [--events 40] [--repeat 5]

The club: ``--players`` players and ``--events`` finished round-robin events of 16 players
(120 results each, every one with an audit row and its rating history), made through the
director's service.  Each figure is the median of ``--repeat`` runs, wall clock:

* ``copy``: ``shutil.copyfile`` of the database file (no consistency: a reference only);
* ``backup``: :func:`bgboard.club.backup.backup` (snapshot, ``integrity_check``, fsync, rename);
* ``backup while writing``: the same while a second process enters results as fast as it can
  (it waits for nothing: the backup's read transaction never blocks a WAL writer); the
  writer's results per second with and without a backup running are printed too.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path


def make_club(path: Path, players: int, events: int) -> None:
    from bgboard.club.director import Director

    with Director.create(path, "Benchmark Club") as d:
        names = [f"Player {i:03d}" for i in range(players)]
        for i, n in enumerate(names):
            d.add_player(n, 1500 + (i % 50))
        for e in range(events):
            field = [names[(e * 7 + k) % players] for k in range(16)]
            d.new_event(f"Event {e}", "round-robin", 1)
            d.enter(f"Event {e}", field)
            while d.event(f"Event {e}").status != "finished":
                for m in d.pair_round(f"Event {e}").matches:
                    d.record_result(f"Event {e}", m.id, (1, 0) if (m.id % 3) else (0, 1))
        d.new_event("Live", "round-robin", 1)
        d.enter("Live", names[:64] if players >= 64 else names)


def writer(path: str, stop, counter) -> None:
    """Pair rounds of the 'Live' event and enter every result until told to stop."""
    from bgboard.club.director import Director

    with Director.open(path) as d:
        while not stop.is_set():
            try:
                paired = d.pair_round("Live")
            except Exception:
                return
            for m in paired.matches:
                if stop.is_set():
                    return
                d.record_result("Live", m.id, (1, 0))
                with counter.get_lock():
                    counter.value += 1


def timed(fn, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from bgboard.club.backup import backup

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "club.sqlite"
        t = time.perf_counter()
        make_club(db, args.players, args.events)
        made = time.perf_counter() - t
        size = os.path.getsize(db) + (os.path.getsize(str(db) + "-wal") if os.path.exists(str(db) + "-wal") else 0)
        copy = timed(lambda: shutil.copyfile(db, Path(tmp) / "copy.sqlite"), args.repeat)
        plain = timed(lambda: backup(db, Path(tmp) / "b.sqlite"), args.repeat)
        stop = multiprocessing.Event()
        counter = multiprocessing.Value("i", 0)
        proc = multiprocessing.Process(target=writer, args=(str(db), stop, counter))
        proc.start()
        time.sleep(1.0)
        start_count, start = counter.value, time.perf_counter()
        busy = timed(lambda: backup(db, Path(tmp) / "w.sqlite"), args.repeat)
        during = (counter.value - start_count) / (time.perf_counter() - start)
        time.sleep(0.5)
        quiet_count, quiet_start = counter.value, time.perf_counter()
        time.sleep(max(1.0, busy * args.repeat))
        alone = (counter.value - quiet_count) / (time.perf_counter() - quiet_start)
        stop.set()
        proc.join(60)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"club: {args.players} players, {args.events} finished events, {size / 1e6:.1f} MB (made in {made:.0f} s)")
    print(f"copy (reference)       {copy * 1000:8.1f} ms")
    print(f"backup                 {plain * 1000:8.1f} ms   {plain / copy:6.1f}x the copy")
    print(f"backup while writing   {busy * 1000:8.1f} ms   {busy / copy:6.1f}x the copy")
    print(f"writer: {alone:.0f} results/s alone, {during:.0f} results/s while backups ran")
    print(f"load average {' '.join(load)}")


if __name__ == "__main__":
    main()
