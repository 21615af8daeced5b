"""A club on PostgreSQL served by several processes (issue 36), on a real Mosquitto: one
``club serve --broker`` takes the boards' results, two ``club serve --http`` serve the pages.
The boards' results are stored once and acked; a result the director enters on one page
process reaches its board (cleared) through the director's process, pushed by NOTIFY; the
third process's pages show every result."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx2

from bgboard.club.director import Director as Service
from bgboard.club.web.password import hash_password
from bgboard.net.boardlink import ClubLink
from bgboard.net.broker import board_user
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.protocol import Assignment, decode
from bgboard.store.journal import Journal
from tests.club.webclub import csrf
from tests.net.club_harness import PLAYERS, board_settings
from tests.net.test_club_hostile import BASE, Serve, client, result_for
from tests.support import until

PASSWORD = "a long director password"


def pages(db: str) -> tuple[subprocess.Popen, str]:
    """``bgboard club --db DB serve --http 127.0.0.1:0``: the process and its address."""
    server = subprocess.Popen([sys.executable, "-m", "bgboard", "club", "--db", db, "serve", "--http", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    found = re.search(r"http://\S+/", server.stdout.readline() if server.stdout else "")
    assert found, server.communicate(timeout=60)
    return server, found.group(0).rstrip("/")


def test_one_process_takes_the_boards_results_two_serve_pages(tmp_path: Path, broker: PrivateBroker,
                                                              postgres_url: str) -> None:
    db = postgres_url
    with Service.create(db, "Shared club") as s:
        for name in PLAYERS[:4]:
            s.add_player(name)
        s.new_event("Friday", "swiss", 1, rounds=1)
        s.enter("Friday", PLAYERS[:4])
        s.set_director_password_hash(hash_password(PASSWORD))
        one, two = sorted(s.pair_round("Friday").matches, key=lambda m: m.board)
    director = Serve(broker, db, tmp_path / "serve.log")
    left, left_url = pages(db)
    right, right_url = pages(db)
    got: list[Assignment] = []
    try:
        director.wait_for(r"boards through")

        async def go() -> list[str]:
            async with client(broker, board_user(two.board)) as board2:
                await board2.subscribe(f"{BASE}/{two.board}/assign", qos=1)

                async def read() -> None:
                    async for message in board2.messages:
                        got.append(decode("assign", message.payload))

                reader = asyncio.create_task(read())
                journal = Journal(tmp_path / "b1.sqlite")
                link = ClubLink(board_settings(broker, one.board), journal)
                task = asyncio.create_task(link.run())
                result = result_for(one, one.board, "00000000-0000-4000-8000-0000000000d1")
                link.submit_result(result)
                link.submit_result(result)          # a re-send: the same id, stored once
                await until(lambda: not journal.outbox_pending(), 120)
                link.stop()
                await task
                statuses = [o.status for o in journal.outbox()]
                journal.close()
                await until(lambda: any(a.match == two.id for a in got), 60)
                # the director enters match two's result on the left page process
                with httpx2.Client(base_url=left_url, timeout=60) as web:
                    token = csrf(web.get("/director/login").text)
                    web.post("/director/login", data={"csrf": token, "password": PASSWORD})
                    token = csrf(web.get("/director").text)
                    answer = web.post("/director/result", data={
                        "csrf": token, "event": "Friday", "match": str(two.id), "score": "0-1"})
                    assert answer.status_code == 303, answer.text[:300]
                await until(lambda: got[-1].match == 0, 60)   # board 2 cleared, through NOTIFY
                reader.cancel()
                return statuses

        assert asyncio.run(go()) == ["stored"]
        with httpx2.Client(base_url=right_url, timeout=60) as web:
            page = web.get("/events/Friday").text
        for m in (one, two):
            assert all(name in page for name in m.players)
    finally:
        for server in (left, right):
            server.send_signal(signal.SIGINT)
            server.communicate(timeout=60)
        assert director.stop() == 0
    with Service.open(db) as s:
        assert [m.status for m in s.matches("Friday")] == ["finished", "finished"]
        assert s.match(one.id).reported_by == f"board {one.board}" and s.match(two.id).reported_by != f"board {two.board}"
        stored = s.db.execute("SELECT COUNT(*) FROM audit WHERE action = 'result'").fetchone()[0]
        assert stored == 2
    assert got[-1].board == two.board and got[-1].players == ("", "")
