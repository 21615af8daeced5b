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

With ``--flood N`` one more board, with its own credentials and in a process of its own,
publishes N messages as fast as it can (junk states and deeply nested results, QoS 1) the
moment the first result is submitted: the other boards' latencies, against a run without it, are what one hostile board
costs them.  ``--json`` prints a last line ``{"results", "lost", "duplicated", "p50_s",
"p99_s", ...}``.

Usage: .venv/bin/python benchmarks/club_load.py [--boards 200] [--rounds 2] [--length 1] [--flood 5000] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

    def __init__(self, n: int, settings: LinkSettings, journal: Journal, book: list[list[Any]], latencies: list[float],
                 first_result: asyncio.Event) -> None:
        self.n = n
        self.first_result = first_result
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
            self.first_result.set()
        while self.sent:  # until every result is acked
            await asyncio.sleep(0.05)


def flood_process(url: str, board: int, password: str, count: int, go: Any, took: Any) -> None:
    """A hostile board in a process of its own: ``count`` junk messages on its own topics as
    fast as the broker takes them, from the moment ``go`` is set; ``took`` gets the seconds."""
    from bgboard.net.session import open_client

    async def main() -> None:
        base = f"bgboard/{TOPIC}/board/{board}"
        junk_state = b'{"v":1,"type":"state","players":["x","y"],"length":"junk"}'
        nested = ('{"v":1,"type":"result","games":' + "[" * 3000 + "]" * 3000 + "}").encode()
        async with open_client(parse_broker_url(url), username=board_user(board), password=password,
                               identifier=f"flood{board}") as client:
            await asyncio.to_thread(go.wait)
            t = time.perf_counter()
            for k in range(0, count, 100):
                await asyncio.gather(*(client.publish(f"{base}/state" if i % 2 else f"{base}/result",
                                                      junk_state if i % 2 else nested, qos=1)
                                       for i in range(k, min(count, k + 100))))
            took.value = time.perf_counter() - t

    asyncio.run(main())


async def run_boards(broker: PrivateBroker, tmp: Path, boards: int, rounds: int, length: int, flooding: int = 0) -> tuple[list[float], float, int, float]:
    latencies: list[float] = []
    book = [selfplay(length, seed) for seed in range(1, 41)]  # computed before the clock starts
    fleet = []
    first_result = asyncio.Event()
    for n in range(1, boards + 1):
        s = LinkSettings(parse_broker_url(broker.url), TOPIC, n, board_user(n), broker.password(board_user(n)),
                         resend_s=10.0, keepalive_s=30, backoff_most_s=2.0)
        fleet.append(Board(n, s, Journal(tmp / f"board{n}.sqlite"), book, latencies, first_result))
    links = [asyncio.create_task(b.link.run()) for b in fleet]
    flooder = None
    if flooding:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        go, took = context.Event(), context.Value("d", -1.0)
        flooder = context.Process(target=flood_process, args=(broker.url, boards + 1, broker.password(board_user(boards + 1)),
                                                             flooding, go, took))
        flooder.start()
        first_result.clear()

        async def start_flood() -> None:
            await first_result.wait()
            go.set()

        starter = asyncio.create_task(start_flood())
    start = time.perf_counter()
    await asyncio.gather(*(b.play(rounds) for b in fleet))
    wall = time.perf_counter() - start
    flood_s = 0.0
    if flooder is not None:
        await asyncio.to_thread(flooder.join, 600)
        starter.cancel()
        flood_s = took.value
    resent = sum(b.link.sent_results for b in fleet) - boards * rounds
    for b in fleet:
        b.link.stop()
    await asyncio.gather(*links)
    for b in fleet:
        b.journal.close()
    return latencies, wall, resent, flood_s


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
    parser.add_argument("--flood", type=int, default=0, metavar="N", help="one more board floods N junk messages")
    parser.add_argument("--json", action="store_true", help="a last line of JSON figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        db = tmp / "club.sqlite"
        new_club(db, args.boards, args.rounds, args.length)
        broker = PrivateBroker(tmp / "broker", TOPIC, range(1, args.boards + 2))  # the last: the flooder
        broker.start()
        assert broker.process is not None
        director = subprocess.Popen(
            [sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve", "--broker", broker.url, "--topic", TOPIC,
             "--password-file", str(broker.password_file(DIRECTOR))],
            stdout=subprocess.DEVNULL, stderr=open(tmp / "director.log", "w"), env=dict(os.environ, PYTHONPATH=str(ROOT / "host")),
        )
        try:
            time.sleep(3.0)  # the director connects and starts its checking workers
            b0, d0 = proc_figures(broker.process.pid), proc_figures(director.pid)
            latencies, wall, resent, flood_s = asyncio.run(run_boards(broker, tmp, args.boards, args.rounds, args.length, args.flood))
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
    if args.flood:
        print(f"a board flooded {args.flood} junk messages in {flood_s:.1f} s meanwhile")
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"load average {' '.join(load)} (a shared machine)")
    if args.json:
        print(json.dumps({"results": submitted, "lost": submitted - stored, "duplicated": stored - keys,
                          "p50_s": round(q[49], 3), "p99_s": round(q[98], 3), "max_s": round(max(latencies), 3),
                          "resent": resent, "flood": args.flood, "reference_per_s": round(ref, 1),
                          "loadavg": [float(x) for x in load]}))


if __name__ == "__main__":
    main()
