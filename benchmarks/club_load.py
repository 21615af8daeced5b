"""200 boards report to one director through one Mosquitto on this machine (issue 12).

One real ``mosquitto`` (the club's configuration: passwords, ACL, persistence) and one real
director process (``bgboard club serve --broker``) on a club database whose Swiss event has
``2 x boards`` players, so each round puts one match on every board.  The boards are
lightweight: ``boards`` instances of the real board-side client (:class:`ClubLink` with the
real SQLite journal and outbox each) in one process, taking their assignments from the
director over MQTT and replaying a precomputed self-play match of those players — its states
(coalesced by the link) and its result with the whole .mat — as fast as they can.

Measured: results per second; for each result the time from ``submit_result`` (the board's
outbox write) to the director's ack, which is published only after the result, the ratings
and so the standings are committed in the club database (p50, p99); mosquitto's and the
director's CPU seconds and peak memory (VmHWM); lost and duplicated results (the database
against what the boards submitted).  Reference, in the same run: the same results stored by
calling the club service directly in this process (no network), as a ratio.

Usage: .venv/bin/python benchmarks/club_load.py [--boards 200] [--rounds 2] [--length 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgboard.club.director import Director as Service  # noqa: E402
from bgboard.match import replay  # noqa: E402
from bgboard.match.selfplay import selfplay  # noqa: E402
from bgboard.match.state import states  # noqa: E402
from bgboard.net.boardlink import ClubLink, LinkSettings  # noqa: E402
from bgboard.net.broker import DIRECTOR, board_user  # noqa: E402
from bgboard.net.mosquitto import PrivateBroker  # noqa: E402
from bgboard.net.protocol import Assignment, parse_broker_url  # noqa: E402
from bgboard.net.report import board_state, result_of  # noqa: E402
from bgboard.store.journal import Journal  # noqa: E402

TOPIC = "load"
EVENT = "Load"


def proc_figures(pid: int) -> tuple[float, int]:
    """(CPU seconds, peak resident KiB) of a live process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    hwm = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmHWM"))
    return cpu, hwm


def new_club(db: Path, boards: int, rounds: int, length: int) -> list[str]:
    names = [f"P{i:04d}" for i in range(2 * boards)]
    with Service.create(db, "Load club") as s:
        for i, name in enumerate(names):
            s.add_player(name, rating=1500.0 + (i % 97))
        s.new_event(EVENT, "swiss", length, rounds=rounds)
        s.enter(EVENT, names)
        s.pair_round(EVENT)
    return names


class Board:
    """One lightweight board: the real ClubLink and journal, replaying self-play."""

    def __init__(self, n: int, settings: LinkSettings, journal: Journal, book: list[list[Any]], latencies: list[float]) -> None:
        self.n = n
        self.book = book
        self.journal = journal
        self.latencies = latencies
        self.sent: dict[str, float] = {}
        self.done: set[tuple[str, int]] = set()
        self.queue: asyncio.Queue[Assignment] = asyncio.Queue()
        self.link = ClubLink(settings, journal, on_assignment=self.queue.put_nowait)
        self._settle = journal.outbox_settle
        journal.outbox_settle = self._acked  # type: ignore[method-assign]  # timestamp the ack

    def _acked(self, uuid: str, status: str, reason: str, at_ms: int) -> bool:
        fresh = self._settle(uuid, status, reason, at_ms)
        if fresh and uuid in self.sent:
            self.latencies.append(time.perf_counter() - self.sent.pop(uuid))
        return fresh

    async def play(self, rounds: int) -> None:
        import uuid as uuids

        while len(self.done) < rounds:
            a = await self.queue.get()
            if not a.match or (a.event, a.match) in self.done:
                continue
            self.done.add((a.event, a.match))
            played = self.book[a.match % len(self.book)]  # a self-play match, under these players' names
            actions = [replace(played[0], players=a.players), *played[1:]]
            for _action, after, _before in list(states(actions))[:: max(1, len(actions) // 6)]:
                self.link.publish_state(board_state(after, int(time.time() * 1000), assignment=a))
                await asyncio.sleep(0)
            state = replay(actions)
            result = result_of(actions, state, uuid=str(uuids.uuid4()), board=self.n, assignment=a,
                               last_seq=len(actions), finished_ms=int(time.time() * 1000))
            self.sent[result.uuid] = time.perf_counter()
            self.link.submit_result(result)
        while self.sent:  # until every result is acked
            await asyncio.sleep(0.05)


async def run_boards(broker: PrivateBroker, tmp: Path, boards: int, rounds: int, length: int) -> tuple[list[float], float, int]:
    latencies: list[float] = []
    book = [selfplay(length, seed) for seed in range(1, 41)]  # computed before the clock starts
    fleet = []
    for n in range(1, boards + 1):
        s = LinkSettings(parse_broker_url(broker.url), TOPIC, n, board_user(n), broker.password(board_user(n)),
                         resend_s=10.0, keepalive_s=30, backoff_most_s=2.0)
        fleet.append(Board(n, s, Journal(tmp / f"board{n}.sqlite"), book, latencies))
    links = [asyncio.create_task(b.link.run()) for b in fleet]
    start = time.perf_counter()
    await asyncio.gather(*(b.play(rounds) for b in fleet))
    wall = time.perf_counter() - start
    resent = sum(b.link.sent_results for b in fleet) - boards * rounds
    for b in fleet:
        b.link.stop()
    await asyncio.gather(*links)
    for b in fleet:
        b.journal.close()
    return latencies, wall, resent


def reference(tmp: Path, boards: int, length: int) -> float:
    """Results per second stored straight through the service (one round, no network)."""
    db = tmp / "reference.sqlite"
    new_club(db, boards, 1, length)
    with Service.open(db) as s:
        todo = [(a.id, a.players) for a in s.assignments(EVENT)]
        mats = {}
        for mid, players in todo:
            actions = selfplay(length, seed=mid, players=(players[0], players[1]))
            state = replay(actions)
            mats[mid] = (state.score, result_of(actions, state, uuid="0" * 8 + "-0000-4000-8000-" + f"{mid:012d}", board=1,
                                                 assignment=None, last_seq=0, finished_ms=0).mat)
        t = time.perf_counter()
        for mid, _ in todo:
            score, mat = mats[mid]
            s.record_result(EVENT, mid, score, mat=mat, result_key=f"ref-{mid}")
            s.standings(EVENT)
        return len(todo) / (time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--length", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        db = tmp / "club.sqlite"
        new_club(db, args.boards, args.rounds, args.length)
        broker = PrivateBroker(tmp / "broker", TOPIC, range(1, args.boards + 1))
        broker.start()
        assert broker.process is not None
        director = subprocess.Popen(
            [sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve", "--broker", broker.url, "--topic", TOPIC,
             "--password-file", str(broker.password_file(DIRECTOR))],
            stdout=subprocess.DEVNULL, stderr=open(tmp / "director.log", "w"), env=dict(os.environ, PYTHONPATH=str(ROOT / "host")),
        )
        try:
            time.sleep(1.0)
            b0, d0 = proc_figures(broker.process.pid), proc_figures(director.pid)
            latencies, wall, resent = asyncio.run(run_boards(broker, tmp, args.boards, args.rounds, args.length))
            b1, d1 = proc_figures(broker.process.pid), proc_figures(director.pid)
        finally:
            director.terminate()
            director.wait(30)
            broker.stop()
        print((tmp / "director.log").read_text()[-1500:], file=sys.stderr)
        with sqlite3.connect(db) as c:
            stored, keys = c.execute(
                "SELECT COUNT(*), COUNT(DISTINCT result_key) FROM matches WHERE result_key IS NOT NULL").fetchone()
        ref = reference(tmp, args.boards, args.length)
    submitted = args.boards * args.rounds
    rate = submitted / wall
    q = statistics.quantiles(latencies, n=100)
    print(f"boards {args.boards}, rounds {args.rounds}, {args.length}-point matches: {submitted} results in {wall:.1f} s")
    print(f"results/s through MQTT: {rate:.1f}; straight into the club service: {ref:.1f}; ratio {rate / ref:.2f}")
    print(f"submit -> stored and acked: p50 {q[49] * 1000:.0f} ms, p99 {q[98] * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
    print(f"mosquitto: {b1[0] - b0[0]:.1f} s CPU, peak {b1[1] / 1024:.1f} MiB; director: {d1[0] - d0[0]:.1f} s CPU, peak {d1[1] / 1024:.1f} MiB")
    print(f"stored {stored} of {submitted} (lost {submitted - stored}), distinct result keys {keys} (duplicated {stored - keys}); "
          f"re-sends before an ack {resent}")


if __name__ == "__main__":
    main()
