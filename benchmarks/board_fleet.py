"""Lightweight club boards for the benchmarks (club_load.py, federation.py): the real board side.

A :class:`Board` is the real board-side client (:class:`~bgboard.net.boardlink.ClubLink`
with the real SQLite journal and its outbox) replaying a precomputed self-play match under
the players the director assigns over MQTT: its states (coalesced by the link), the board's
end-of-match work (the replay and the ``.mat`` export), then its result submitted and sent
until the director acks it.  The firmware and the players are not simulated: on this 2-core
machine a board on the modelled firmware costs about 2.7 s CPU for a 1-point match
(docs/performance.md, simulator), which hundreds of boards cannot afford.

:func:`fleet_process` runs some boards, of one or several clubs, in a process of its own
(a real club's boards are as many computers); with a :class:`Moment` every board of a round
submits at the same moment (a barrier across the board processes).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import uuid as uuids
from dataclasses import replace
from pathlib import Path
from typing import Any

from bgboard.match import replay
from bgboard.match.selfplay import selfplay
from bgboard.match.state import states
from bgboard.net.board_report import board_state, result_of
from bgboard.net.boardlink import ClubLink, LinkSettings
from bgboard.net.broker import board_user
from bgboard.net.protocol import Assignment, parse_broker_url
from bgboard.store.journal import Journal


def proc_figures(pid: int) -> tuple[float, int]:
    """(CPU seconds, peak resident KiB) of a live process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    hwm = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmHWM"))
    return cpu, hwm


class Moment:
    """Every board of a round finishes at the same moment: the boards of this process wait for
    each other, then for every other board process (``across``, a multiprocessing barrier);
    ``go`` (the flooder's start) is set then."""

    def __init__(self, parties: int, across: Any, go: Any) -> None:
        self.parties, self.across, self.go = parties, across, go
        self.waiting = 0
        self.event = asyncio.Event()
        self.cpu_at = 0.0  # this process's CPU seconds at the first moment

    async def ready(self) -> None:
        event = self.event
        self.waiting += 1
        if self.waiting == self.parties:
            self.waiting, self.event = 0, asyncio.Event()
            await asyncio.to_thread(self.across.wait, 600)
            self.cpu_at = self.cpu_at or time.process_time()
            self.go.set()
            event.set()
        else:
            await event.wait()


class Board:
    """One lightweight board: the real ClubLink and journal, replaying self-play.

    ``timings`` gets (submit, ack arrived) on the monotonic clock for every result; ``acks``,
    when given, gets ``uuid: (submit, ack arrived)`` on the wall clock (to set beside another
    process's or PostgreSQL's timestamps)."""

    def __init__(self, n: int, settings: LinkSettings, journal: Journal, book: list[list[Any]],
                 timings: list[tuple[float, float]], moment: Moment | None,
                 acks: dict[str, tuple[float, float]] | None = None, match_s: float = 0.0) -> None:
        self.n = n
        self.match_s = match_s
        self.pace = random.Random(n)
        self.moment = moment
        self.book = book
        self.journal = journal
        self.timings = timings
        self.acks = acks
        self.sent: dict[str, tuple[float, float]] = {}
        self.done: set[tuple[str, int]] = set()
        self.queue: asyncio.Queue[Assignment] = asyncio.Queue()
        self.link = ClubLink(settings, journal, on_assignment=self.queue.put_nowait)
        self._settle = journal.outbox_settle
        journal.outbox_settle = self._acked  # type: ignore[method-assign]  # timestamp the ack

    def _acked(self, uuid: str, status: str, reason: str, at_ms: int) -> bool:
        arrived, wall = time.perf_counter(), time.time()  # the ack has reached this board; its own write follows
        fresh = self._settle(uuid, status, reason, at_ms)
        if fresh and uuid in self.sent:
            sent, sent_wall = self.sent.pop(uuid)
            self.timings.append((sent, arrived))
            if self.acks is not None:
                self.acks[uuid] = (sent_wall, wall)
        return fresh

    async def play(self, rounds: int) -> None:
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
            if self.match_s:  # the match lasts a while (0.5 to 1.5 x match_s): an evening's results spread out
                await asyncio.sleep(self.match_s * (0.5 + self.pace.random()))
            # the board's own work at the end of its match (the .mat export)
            state = replay(actions)
            result = result_of(actions, state, uuid=str(uuids.uuid4()), board=self.n, assignment=a,
                               last_seq=len(actions), finished_ms=int(time.time() * 1000))
            if self.moment is not None:  # every board of the round submits at the same moment
                await self.moment.ready()
            self.sent[result.uuid] = (time.perf_counter(), time.time())
            self.link.submit_result(result)
        while self.sent:  # until every result is acked
            await asyncio.sleep(0.05)


def fleet_process(clubs: list[tuple[str, str, dict[int, str]]], rounds: int, length: int, tmp: str,
                  across: Any, go: Any, out: str, nice: int, match_s: float = 0.0) -> None:
    """Some boards of some clubs ((broker URL, club topic, {board: password}) each) in a process
    of their own, at ``nice`` (on a real club they are other computers: their CPU is not the
    director's); each plays ``rounds`` matches, each lasting 0.5 to 1.5 x ``match_s``.  With ``across`` (a multiprocessing barrier)
    every board of a round submits at the same moment and ``go`` is set then.  Written to
    ``out`` as JSON: the (submit, ack) monotonic times, the wall-clock ``acks`` by result
    UUID, the re-sends and the CPU seconds (from the first moment, or from the start)."""
    os.nice(nice)

    async def main() -> None:
        timings: list[tuple[float, float]] = []
        acks: dict[str, tuple[float, float]] = {}
        book = [selfplay(length, seed) for seed in range(1, 41)]  # computed before the clock starts
        count = sum(len(logins) for _, _, logins in clubs)
        moment = Moment(count, across, go) if across is not None else None
        cpu0 = time.process_time()
        fleet = []
        for url, topic, logins in clubs:
            for n, password in logins.items():
                s = LinkSettings(parse_broker_url(url), topic, n, board_user(n), password,
                                 resend_s=10.0, keepalive_s=30, backoff_most_s=2.0)
                fleet.append(Board(n, s, Journal(Path(tmp) / f"{topic}-board{n}.sqlite"), book, timings, moment, acks,
                                   match_s))
        links = [asyncio.create_task(b.link.run()) for b in fleet]
        await asyncio.gather(*(b.play(rounds) for b in fleet))
        cpu = time.process_time() - (moment.cpu_at if moment is not None else cpu0)
        resent = sum(b.link.sent_results for b in fleet) - len(fleet) * rounds
        for b in fleet:
            b.link.stop()
        await asyncio.gather(*links)
        for b in fleet:
            b.journal.close()
        Path(out).write_text(json.dumps({"timings": timings, "acks": acks, "resent": resent, "cpu": cpu}))

    asyncio.run(main())
