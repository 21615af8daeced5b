"""The room's seats leave the result path free (issue 35, defect 2's proof): with the usual
1,024 file descriptors, 1,100 held ``/live`` streams once left a board result unacknowledged for
20 s.  Here a real ``bgboard club serve --broker --http`` runs at a 1,024-descriptor limit, 1,100
spectators (127.0.0.0/8 addresses, 16 each) ask for the room's stream and those given a seat hold
it, and a board's result over the real Mosquitto is acknowledged within a second, the room's page
answering too.  Bounded loops on the loopback only."""

from __future__ import annotations

import asyncio
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2

from bgboard.club.director import Director as Service
from bgboard.club.web.server import streams_for
from bgboard.net.boardlink import ClubLink
from bgboard.net.broker import DIRECTOR
from bgboard.net.mosquitto import PrivateBroker
from bgboard.store.journal import Journal
from tests.club.test_room_seats import _open_stream
from tests.net.club_harness import board_settings, new_club
from tests.net.conftest import CLUB
from tests.net.test_club_hostile import result_for
from tests.support import until

SPECTATORS = 1100
FDS = 1024


def _serve(broker: PrivateBroker, db: Path, log: Path) -> tuple[subprocess.Popen, str]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (FDS, FDS))

    server = subprocess.Popen(
        [sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve", "--broker", broker.url, "--topic", CLUB,
         "--password-file", str(broker.password_file(DIRECTOR)), "--http", "127.0.0.1:0"],
        stdout=open(log, "ab"), stderr=subprocess.STDOUT, preexec_fn=limit)
    deadline = time.monotonic() + 120
    while True:
        found = re.search(r"web pages on (http://\S+):(\d+)/", log.read_text(errors="replace"))
        if found:
            return server, f"http://127.0.0.1:{found.group(2)}"
        assert server.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.05)


def test_a_board_result_is_acknowledged_within_a_second_beside_1100_held_streams(tmp_path: Path,
                                                                                   broker: PrivateBroker) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))  # this client's own sockets
    db = tmp_path / "club.sqlite"
    matches = new_club(db)
    log = tmp_path / "serve.log"
    server, url = _serve(broker, db, log)
    held: list[socket.socket] = []
    journal = Journal(tmp_path / "board1.sqlite")
    try:
        counts: dict[int | None, int] = {200: 0, 503: 0, None: 0}
        for i in range(SPECTATORS):
            status, sock = _open_stream(url, f"127.0.{1 + i // 16 // 250}.{2 + (i // 16) % 250}")
            counts[status] = counts.get(status, 0) + 1
            (held.append(sock) if status == 200 else sock.close())
            if counts[None] > 5:     # the server no longer answers: no use going on
                break
        assert counts[200] == streams_for(FDS) and counts[503] == SPECTATORS - streams_for(FDS), counts

        m = next(x for x in matches if x.board == 1)

        async def board() -> tuple[float, str]:
            assigned = asyncio.Event()
            link = ClubLink(board_settings(broker, 1), journal, on_assignment=lambda a: assigned.set())
            task = asyncio.create_task(link.run())
            try:
                await asyncio.wait_for(assigned.wait(), 60)     # the director is there
                sent = time.monotonic()
                link.submit_result(result_for(m, 1, "00000000-0000-4000-8000-000000001100"))
                await until(lambda: not journal.outbox_pending(), 30, poll=0.01)
                (owed,) = journal.outbox()
                return time.monotonic() - sent, owed.status
            finally:
                link.stop()
                await task

        took, status = asyncio.run(board())
        started = time.monotonic()
        with httpx2.Client(base_url=url, timeout=10) as client:
            assert client.get("/").status_code == 200
        room_s = time.monotonic() - started
        print(f"{counts[200]} streams held, {counts[503]} told the room is full; result {status} in {took:.3f} s, "
              f"'/' in {room_s:.3f} s")
        assert status == "stored" and took < 1.0, (status, took)
        assert room_s < 1.0, room_s
    finally:
        journal.close()
        for sock in held:
            sock.close()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and len(text) < 20_000, text[-2000:]
    with Service.open(db) as s:
        assert s.match(m.id).status == "finished" and s.match(m.id).reported_by == "board 1"
