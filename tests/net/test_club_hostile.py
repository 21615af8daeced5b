"""The club under attack (issue 25, the network's side): a real Mosquitto, a real ``bgboard club
serve`` process where the case involves it.

* one board's oversized, deeply nested or retained junk never ends ``club serve`` (director and
  web pages together) and junk left retained is cleared;
* a database locked longer than SQLite's busy time-out: the director waits, stores, then acks;
* a board's password cannot take the director's session (client ids are user names);
* assignments follow the database whoever changed it (the CLI in another process);
* a board flooding 5,000 messages: the broker drops nothing meant for the director and the
  other boards' results are stored and acked (each sent once);
* a whole evening with a hostile board in it ends with its champion, every result once.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.club.db import BUSY_TIMEOUT_ENV
from bgboard.club.director import Director as Service
from bgboard.match import replay
from bgboard.match.mat import export_mat
from bgboard.match.selfplay import selfplay
from bgboard.net.boardlink import ClubLink
from bgboard.net.broker import DIRECTOR, board_user
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.protocol import (
    MAX_PAYLOAD, Assignment, Game, ProtocolError, Result, decode, encode, parse_broker_url,
)
from bgboard.net.mqtt_client import MqttError, open_client
from bgboard.store.journal import Journal
from tests.club.stores import club_database, club_location, store  # noqa: F401  (the club's two stores)
from tests.net.club_harness import Evening, board_settings, new_club
from tests.net.conftest import CLUB
from tests.support import until

BASE = f"bgboard/{CLUB}/board"
NESTED = '{"v":1,"type":"state","players":' + "[" * 5000 + "]" * 5000 + "}"
BGBOARD = [sys.executable, "-m", "bgboard"]


# ----------------------------------------------------------------------------- helpers
def client(broker: PrivateBroker, user: str, identifier: str | None = None) -> Any:
    return open_client(parse_broker_url(broker.url), username=user, password=broker.password(user),
                       identifier=identifier or f"test-{user}")


def result_for(m: Any, board: int, uid: str, seed: int = 3) -> Result:
    actions = selfplay(1, seed=seed, players=(m.players[0], m.players[1]))
    s = replay(actions)
    return Result(uid, board, "Friday", m.id, s.players, 1, s.score, s.winner or 0,
                  tuple(Game(g.winner, g.points, g.result) for g in s.games), export_mat(actions), len(actions), 1)


class Serve:
    """``bgboard club serve --broker ... --http 127.0.0.1:0`` as a process; its output in a file."""

    def __init__(self, broker: PrivateBroker, db: Path, log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log
        self.proc = subprocess.Popen(
            [*BGBOARD, "club", "--db", str(db), "serve", "--broker", broker.url, "--topic", CLUB,
             "--password-file", str(broker.password_file(DIRECTOR)), "--http", "127.0.0.1:0"],
            stdout=open(log, "ab"), stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
        )
        self.url = ""

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, pattern: str, seconds: float = 120.0) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while True:
            m = re.search(pattern, self.text())
            if m:
                return m
            assert self.proc.poll() is None, f"club serve ended ({self.proc.returncode}):\n{self.text()[-3000:]}"
            assert time.monotonic() < deadline, f"club serve never said {pattern!r}:\n{self.text()[-3000:]}"
            time.sleep(0.05)

    def page(self, path: str = "events") -> int:
        url = self.wait_for(r"web pages on (http://\S+/)").group(1)
        with urllib.request.urlopen(url + path, timeout=60) as response:
            return int(response.status)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait()


async def retained_states(broker: PrivateBroker) -> list[tuple[str, bytes]]:
    """Every retained message on the boards' state topics, seen by the director's user: the
    broker sends them right after the subscription, before it handles a later publish, so the
    marker board 7 publishes after the subscription comes after every one of them.  The broker
    ties the client id to the user, so this client resumes the director's own persistent session:
    the messages queued for it while the director was stopped (any kind, on any board's topic)
    come first and are not retained ones — only retained messages on a state topic count."""
    seen = []
    async with client(broker, DIRECTOR) as c, client(broker, board_user(7)) as board7:
        await c.subscribe(f"{BASE}/+/state", qos=1)
        await board7.publish(f"{BASE}/7/state", b"marker", qos=1)
        async with asyncio.timeout(60):
            async for m in c.messages:
                if m.payload == b"marker":
                    break
                if m.retain and m.topic.matches(f"{BASE}/+/state"):
                    seen.append((str(m.topic), bytes(m.payload)))
    return seen


# ----------------------------------------------------------------------------- the decoder
payloads = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=60,
)


@given(kind=st.sampled_from(["state", "online", "result", "assign", "ack"]), body=payloads,
       depth=st.integers(0, 3000), opener=st.sampled_from(["[", "{\"a\":"]), junk=st.binary(max_size=200))
@settings(max_examples=300, deadline=None)
def test_the_decoder_takes_any_payload_without_an_unexpected_exception(kind: str, body: Any, depth: int, opener: str,
                                                                       junk: bytes) -> None:
    closer = "]" if opener == "[" else "}"
    texts = [
        json.dumps({"v": 1, "type": kind, "players": body}),
        json.dumps(body),
        '{"v":1,"type":"%s","players":%s0%s}' % (kind, opener * depth, closer * depth),
        opener * depth,
        junk,
        b'{"v":1,"type":"' + kind.encode() + b'","score":[1' + b"0" * min(depth, 6000) + b",1]}",
    ]
    for text in texts:
        try:
            decode(kind, text)
        except ProtocolError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 400


def test_huge_and_deep_payloads_are_one_sentence_each() -> None:
    cases = {
        NESTED: "larger than",
        '{"v":1,"type":"result","games":' + "[" * 3000 + "]" * 3000 + "}": "nests deeper",
        '{"v":1,"type":"ack","uuid":' + "9" * 1500 + "}": "a number of 1500 digits",
        '{"v":1,"type":"online","online":NaN}': "NaN",
        "x" * (MAX_PAYLOAD + 1): "larger than",
    }
    for text, words in cases.items():
        kind = re.search(r'"type":"(\w+)"', text[:60])
        name = kind.group(1) if kind else "result"
        with pytest.raises(ProtocolError, match=words):
            decode(name, text)
    # a .mat full of brackets inside a string is not nesting
    r = Result("0b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f", 1, "E", 1, ("A", "B"), 1, (1, 0), 0, (), "[" * 20000, 1, 1)
    assert decode("result", encode(r)) == r


# ----------------------------------------------------------------------------- case 1
def test_junk_from_a_board_never_ends_club_serve_and_retained_junk_is_cleared(tmp_path: Path, broker: PrivateBroker) -> None:
    db = tmp_path / "club.sqlite"
    new_club(db)

    async def junk() -> None:
        async with client(broker, board_user(3)) as board3:
            for where in ("state", "result", "online"):
                await board3.publish(f"{BASE}/3/{where}", NESTED.replace('"state"', f'"{where}"').encode()[:9000], qos=1, retain=True)
            await board3.publish(f"{BASE}/3/state", b"\xff\xfe not json", qos=1)
            await board3.publish(f"{BASE}/3/result", ('{"v":1,"type":"result","games":' + "[" * 5000 + "]" * 5000 + "}").encode(), qos=1)

    asyncio.run(junk())  # retained before the director starts: it meets them at once
    serve = Serve(broker, db, tmp_path / "serve.log")
    try:
        serve.wait_for(r"web pages on")
        serve.wait_for(r"ignored a message on bgboard/\S+/board/3/")
        asyncio.run(junk())  # and again while it runs
        time.sleep(0.5)
        assert serve.page() == 200 and serve.proc.poll() is None
        assert "Traceback" not in serve.text() and "RecursionError" not in serve.text()
        assert serve.stop() == 0
        restarted = Serve(broker, db, tmp_path / "serve2.log")  # a restart meets no junk
        try:
            restarted.wait_for(r"web pages on")
            assert restarted.page() == 200
        finally:
            assert restarted.stop() == 0
        assert "ignored a message" not in restarted.text()
    finally:
        serve.stop()
    assert asyncio.run(retained_states(broker)) == []


# ----------------------------------------------------------------------------- case 2
@pytest.mark.slow
def test_a_database_locked_past_the_busy_timeout_delays_the_ack_and_loses_nothing(tmp_path: Path, broker: PrivateBroker) -> None:
    db = tmp_path / "club.sqlite"
    m = next(x for x in new_club(db) if x.board == 2)
    # the director's busy timeout set to 1 s (the product's is 10 s, BUSY_TIMEOUT_S): the lock
    # is held past it as before, in 2 s instead of 11 s (a board's result waits 1 s either way)
    serve = Serve(broker, db, tmp_path / "serve.log", env={BUSY_TIMEOUT_ENV: "1"})
    try:
        serve.wait_for(r"web pages on")
        lock = sqlite3.connect(db, timeout=60)
        lock.execute("BEGIN IMMEDIATE")  # another program holds the write lock ...
        locked_at = time.monotonic()

        async def go() -> list[Any]:
            journal = Journal(tmp_path / "b2.sqlite")
            link = ClubLink(board_settings(broker, 2), journal)
            task = asyncio.create_task(link.run())
            link.submit_result(result_for(m, 2, "00000000-0000-4000-8000-0000000000b2"))
            await until(lambda: "locked" in serve.text(), 60)
            await asyncio.sleep(max(0.0, 2.0 - (time.monotonic() - locked_at)))  # ... past the busy timeout
            assert journal.outbox_pending()  # nothing acked while it is not stored
            assert serve.proc.poll() is None
            lock.rollback()
            await until(lambda: not journal.outbox_pending(), 120)
            link.stop()
            await task
            statuses = [o.status for o in journal.outbox()]
            journal.close()
            return statuses

        assert asyncio.run(go()) == ["stored"]
        assert serve.page() == 200
    finally:
        assert serve.stop() == 0
    with Service.open(db) as s:
        assert s.match(m.id).status == "finished" and s.match(m.id).reported_by == "board 2"


# ----------------------------------------------------------------------------- case 3
def test_a_board_cannot_take_the_directors_session(broker: PrivateBroker) -> None:
    """Board 1 connects under the director's client id: the director's session stays up (the
    broker makes every client id its user name)."""

    async def go() -> bytes:
        async with client(broker, DIRECTOR, "bgboard-testclub-director") as director:
            async with client(broker, board_user(1), "bgboard-testclub-director") as board1:
                await board1.subscribe(f"{BASE}/1/assign", qos=1)
                await director.publish(f"{BASE}/1/assign", b"still the director", qos=1, timeout=30)
                async with asyncio.timeout(60):
                    async for m in board1.messages:
                        return bytes(m.payload)
        raise AssertionError("no message")

    assert asyncio.run(go()) == b"still the director"


# ----------------------------------------------------------------------------- case 4
def test_assignments_follow_the_database_whoever_changes_it(tmp_path: Path, broker: PrivateBroker, club_location) -> None:
    """With ``club serve --broker`` running, the CLI (another process) pairs a round: board 1
    is sent its match; the CLI enters that match's result by hand: board 1's assignment is
    cleared.  On both stores: SQLite's data_version, PostgreSQL's LISTEN/NOTIFY."""
    from tests.net.club_harness import PLAYERS

    db = club_location
    with Service.create(db, "Test club") as s:
        for name in PLAYERS[:4]:
            s.add_player(name)
        s.new_event("Friday", "swiss", 1, rounds=1)
        s.enter("Friday", PLAYERS[:4])
    serve = Serve(broker, db, tmp_path / "serve.log")
    got: list[Assignment] = []

    async def go() -> None:
        async with client(broker, board_user(1)) as board1:
            await board1.subscribe(f"{BASE}/1/assign", qos=1)
            serve.wait_for(r"boards through")

            async def read() -> None:
                async for message in board1.messages:
                    got.append(decode("assign", message.payload))

            reader = asyncio.create_task(read())
            done = subprocess.run([*BGBOARD, "club", "--db", str(db), "round", "Friday", "--json"],
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            [mine] = [m for m in json.loads(done.stdout)["matches"] if m["board"] == 1]
            await until(lambda: any(a.match == mine["id"] for a in got))
            done = subprocess.run([*BGBOARD, "club", "--db", str(db), "result", "Friday", str(mine["id"]), "--score", "1-0"],
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            await until(lambda: got[-1].match == 0)
            reader.cancel()

    try:
        asyncio.run(go())
    finally:
        assert serve.stop() == 0
    assert got[-1].board == 1 and got[-1].players == ("", "")


# ----------------------------------------------------------------------------- case 9
@pytest.mark.slow
def test_a_flooding_board_makes_the_broker_drop_nothing_for_the_director(tmp_path: Path, broker: PrivateBroker) -> None:
    """While the director is away (a restart), board 8 publishes 5,000 well-formed results of
    10 KB (each names board 2's match, so the director must look it up), then board 2 reports
    its own.  The broker keeps all of them for the director's session (Mosquitto's default
    queue of 1,000 dropped the rest, board 2's result among them); back, the director reads
    every one of the flood (dropped unread, or ignored: not board 8's match) and stores and
    acks board 2's result on its first sending."""
    db = tmp_path / "club.sqlite"
    m = next(x for x in new_club(db) if x.board == 2)

    def reached(counts: dict[str, int]) -> int:
        return counts["bad"] + counts.get("dropped", 0) + counts["ignored"]

    async def go() -> tuple[dict[str, int], list[str], int]:
        evening = Evening(tmp_path, broker, db)
        evening.start_director()  # its persistent session subscribes ...
        assert evening.director is not None
        first = evening.director
        await until(lambda: first.online)
        await asyncio.sleep(0.5)
        await evening.stop_director()  # ... and it goes away: the broker queues for it
        journal = Journal(tmp_path / "b2.sqlite")
        from dataclasses import replace

        link = ClubLink(replace(board_settings(broker, 2), resend_s=3600.0), journal)  # sent once: a loss would hang
        task = asyncio.create_task(link.run())
        await until(lambda: link.online)
        flood = [encode(Result(f"00000000-0000-4000-8000-{i:012d}", 8, "Friday", m.id, (m.players[0], m.players[1]), 1,
                               (1, 0), 0, (), "x" * 10_000, 1, 1)) for i in range(5000)]
        async with client(broker, board_user(8)) as flooder:
            for k in range(0, 5000, 100):
                await asyncio.gather(*(flooder.publish(f"{BASE}/8/result", payload, qos=1) for payload in flood[k:k + 100]))
        sent_before = link.sent_results
        link.submit_result(result_for(m, 2, "00000000-0000-4000-8000-0000000000c2"))
        await until(lambda: link.sent_results > sent_before)  # queued for the director behind the flood
        evening.start_director()
        director = evening.director
        assert director is not None and director is not first
        await until(lambda: not journal.outbox_pending(), 120)
        await until(lambda: reached(director.counts) >= 5000, 120)
        link.stop()
        await task
        counts = dict(director.counts)
        statuses = [o.status for o in journal.outbox()]
        journal.close()
        await evening.stop_director()
        return counts, statuses, link.sent_results

    counts, statuses, sent = asyncio.run(go())
    assert statuses == ["stored"] and sent == 1
    assert reached(counts) == 5000 and counts["stored"] == 1 and counts.get("failed", 0) == 0


# ----------------------------------------------------------------------------- the whole evening
@pytest.mark.slow
def test_a_hostile_board_cannot_spoil_a_club_evening(tmp_path: Path, broker: PrivateBroker) -> None:
    """A double elimination of 8 players on boards 1-4; board 8 (its own password) floods,
    leaves oversized and deeply nested JSON retained, and connects under the director's client
    id, again and again.  The evening ends with its champion, every result stored once."""
    db = tmp_path / "club.sqlite"
    new_club(db, format="double-elimination", rounds=None, players=8)

    async def hostile(stop: asyncio.Event) -> int:
        rounds = 0
        while not stop.is_set():
            try:
                async with client(broker, board_user(8), "bgboard-testclub-director") as bad:
                    await bad.publish(f"{BASE}/8/state", NESTED.encode(), qos=1, retain=True)
                    await bad.publish(f"{BASE}/8/result", b"{" * 4000, qos=1, retain=True)
                    await bad.publish(f"{BASE}/8/online", b'{"v":1,"type":"online","online":' + b"1" * 400 + b"}", qos=1, retain=True)
                    for _ in range(20):
                        await asyncio.gather(*(bad.publish(f"{BASE}/8/state", b"[" * 100, qos=1) for _ in range(50)))
                    rounds += 1
            except MqttError:
                pass
            try:
                await asyncio.wait_for(stop.wait(), 0.5)
            except TimeoutError:
                pass
        return rounds

    async def go() -> tuple[Evening, dict[str, int], int]:
        evening = Evening(tmp_path, broker, db)
        evening.start_director()
        stop = asyncio.Event()
        attack = asyncio.create_task(hostile(stop))
        for n in range(1, 5):
            evening.start_board(n)
        with Service.open(db) as s:
            await evening.until(lambda: s.event("Friday").status == "finished", 600)
        for n in list(evening.boards):
            await evening.until(lambda: not evening.boards[n].journal_pending(), 120)
            await evening.stop_board(n)
        # an evening may end before the attacker's first thousand messages have all reached
        # the director (the faster the director, the sooner): the attack goes on until they have
        director = evening.director
        assert director is not None
        await evening.until(lambda: director.counts["bad"] + director.counts["dropped"] >= 1000, 120)
        stop.set()
        attacks = await attack
        assert evening.director is not None and evening.director.online
        counts = dict(evening.director.counts)
        await evening.stop_director()
        return evening, counts, attacks

    evening, counts, attacks = asyncio.run(go())
    assert attacks >= 1 and counts["bad"] + counts["dropped"] >= 1000 and counts["failed"] == 0
    with Service.open(db) as s:
        standings = s.standings("Friday")
        played = [m for m in s.matches("Friday") if m.status == "finished"]
        keys = s.db.execute("SELECT COUNT(*), COUNT(DISTINCT result_key) FROM matches WHERE result_key IS NOT NULL").fetchone()
    assert [st.status for st in standings].count("champion") == 1
    assert tuple(keys) == (len(played), len(played)) and counts["stored"] == len(played)
    # one board record per stored result (two players may meet twice: records, not pairs, counted)
    assert len(list(tmp_path.glob("board*/matches/*/match.mat"))) == len(played)
    # the boards' own retained states remain whole. (The attack's last retained junk may reach
    # the director after it stopped: that it is cleared — at once, or when the director next
    # subscribes — is test_junk_from_a_board_never_ends_club_serve_and_retained_junk_is_cleared's.)
    retained = [(topic, payload) for topic, payload in asyncio.run(retained_states(broker))
                if not topic.startswith(f"{BASE}/8/")]
    assert retained and all(decode("state", payload) for _, payload in retained)
    assert not any(where.startswith(f"{BASE}/8/") for where, _ in retained)


# ----------------------------------------------------------------------------- the checked store
def test_a_board_result_checked_off_the_writer_is_stored_like_one_checked_inside(tmp_path: Path) -> None:
    """The director's store (results checked in a worker, then ``record_result(...,
    mat_checked=True)`` in one transaction): a new result is stored with its .mat; a result
    entered by hand while the board was away gets the board's key and .mat; a .mat that does
    not replay to the score is refused before the writer; a second result refused."""
    from bgboard.club.board_checks import CHECKED, DUPLICATE, REFUSED, STORED, check_board_result
    from bgboard.club.board_tournament import ClubTournament

    db = tmp_path / "club.sqlite"
    matches = new_club(db)
    m1, m2 = (next(x for x in matches if x.board == b) for b in (1, 2))
    r1 = result_for(m1, 1, "00000000-0000-4000-8000-0000000000d1")
    r2 = result_for(m2, 2, "00000000-0000-4000-8000-0000000000d2")
    with Service.open(db) as s:
        s.record_result("Friday", m2.id, r2.score)  # by hand, no .mat: the board was offline
        tournament = ClubTournament(s)
        assert check_board_result(str(db), 1, r1).status == CHECKED
        assert check_board_result(str(db), 2, r2).status == CHECKED
        flipped = Result(r1.uuid[:-1] + "e", 1, r1.event, r1.match, r1.players, 1, r1.score[::-1], 1 - r1.winner,
                         r1.games, r1.mat, r1.last_seq, 1)
        refused = check_board_result(str(db), 1, flipped)
        assert refused.status == REFUSED and "not stored" in refused.reason
        assert [o.status for o in tournament.store([(1, r1), (2, r2)])] == [STORED, DUPLICATE]
        second = tournament.store([(1, Result(r1.uuid[:-1] + "f", *[getattr(r1, f) for f in Result.__slots__[1:]]))])
        assert [o.status for o in second] == [REFUSED] and "already has a result" in second[0].reason
        assert s.match_record(m1.id) == r1.mat and s.match_record(m2.id) == r2.mat
        keys = dict(s.db.execute("SELECT id, result_key FROM matches WHERE id IN (?, ?)", (m1.id, m2.id)).fetchall())
    assert keys == {m1.id: r1.uuid, m2.id: r2.uuid}


def test_a_checking_worker_killed_does_not_stop_the_results(tmp_path: Path, broker: PrivateBroker) -> None:
    """The workers that replay the .mat files are killed (SIGKILL: out of memory, a stray
    kill): new workers take over and the next result is stored and acked."""
    db = tmp_path / "club.sqlite"
    m = next(x for x in new_club(db) if x.board == 3)

    async def go() -> list[str]:
        evening = Evening(tmp_path, broker, db)
        evening.start_director()
        director = evening.director
        assert director is not None
        await until(lambda: director.online and director.checks.pool is not None)
        pool: Any = director.checks.pool
        await until(lambda: len(getattr(pool, "_processes", None) or {}) >= 1)  # the warm-up started them
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        journal = Journal(tmp_path / "b3.sqlite")
        link = ClubLink(board_settings(broker, 3), journal)
        task = asyncio.create_task(link.run())
        link.submit_result(result_for(m, 3, "00000000-0000-4000-8000-0000000000e3"))
        await until(lambda: not journal.outbox_pending(), 120)
        link.stop()
        await task
        statuses = [o.status for o in journal.outbox()]
        journal.close()
        assert director.checks.pool is not pool  # new workers
        await evening.stop_director()
        return statuses

    assert asyncio.run(go()) == ["stored"]
