"""``bgboard club backup`` while a real ``bgboard club serve --http`` process writes results
(the director's web forms, over HTTP), and ``bgboard club restore`` of the last backup: every
backup is a whole club database, consistent (each result with its audit row, written in the
same transaction), and the restored club has the live club's standings."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

import httpx2

from bgboard.club.backup import check_club_file
from bgboard.club.director import Director
from bgboard.club.web.password import hash_password
from tests.club.webclub import csrf

PASSWORD = "a long director password"
HANG_S = 600     # a bound against a hang only
NAMES = [f"P{i:02d}" for i in range(12)]


def bgboard(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgboard", *args], text=True, capture_output=True,
                          timeout=HANG_S)


def consistent(path) -> int:
    """The number of results in a backup, after checking each has its audit row."""
    with Director.open(path) as d:
        finished = d.db.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'").fetchone()[0]
        audited = d.db.execute("SELECT COUNT(*) FROM audit WHERE action = 'result'").fetchone()[0]
        assert finished == audited
        d.standings("League")
        return int(finished)


def test_a_backup_taken_while_club_serve_writes_restores_the_same_standings(tmp_path, club_location):
    db = club_location  # PostgreSQL: each backup one snapshot, restored into an SQLite file
    with Director.create(db, "Backup Club") as d:
        for i, name in enumerate(NAMES):
            d.add_player(name, 1600 - i)
        d.new_event("League", "round-robin", 1)
        d.enter("League", NAMES)
        d.set_director_password_hash(hash_password(PASSWORD))
    server = subprocess.Popen([sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve",
                               "--http", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env={**os.environ})
    errors: list[BaseException] = []
    posted = []
    halfway, backed_up = threading.Event(), threading.Event()
    try:
        url = re.search(r"http://\S+/", server.stdout.readline()).group(0).rstrip("/")

        def write() -> None:
            """The director at the web pages: pair each round, enter every result."""
            try:
                with httpx2.Client(base_url=url, timeout=HANG_S) as web:
                    token = csrf(web.get("/director/login").text)
                    web.post("/director/login", data={"csrf": token, "password": PASSWORD})
                    token = csrf(web.get("/director").text)
                    for number in range(len(NAMES) - 1):
                        if number == len(NAMES) // 2:
                            # one backup is certainly taken mid-evening, whatever the speeds
                            halfway.set()
                            assert backed_up.wait(HANG_S)
                        answer = web.post("/director/pair", data={"csrf": token, "event": "League"})
                        assert answer.status_code in (200, 303), answer.text[:300]
                        with Director.open(db) as d:
                            pending = [m.id for m in d.matches("League") if m.status == "pending"]
                        for mid in pending:
                            answer = web.post("/director/result", data={
                                "csrf": token, "event": "League", "match": str(mid), "score": "1-0"})
                            assert answer.status_code == 303, answer.text[:300]
                            posted.append(mid)
            except BaseException as exc:   # handed to the test's thread
                errors.append(exc)

        writer = threading.Thread(target=write)
        writer.start()
        counts = []
        n = 0
        while writer.is_alive() or n < 3:
            n += 1
            after_halfway = halfway.is_set()
            done = bgboard("club", "--db", str(db), "backup", "--out", str(tmp_path / f"b{n}.sqlite"))
            assert done.returncode == 0 and "backed up to" in done.stdout, done.stderr
            assert check_club_file(tmp_path / f"b{n}.sqlite") == "Backup Club"
            counts.append(consistent(tmp_path / f"b{n}.sqlite"))
            if after_halfway:
                backed_up.set()
        backed_up.set()
        writer.join(HANG_S)
        assert not errors, errors
        assert counts == sorted(counts)                       # each backup a later snapshot
        assert any(0 < c < len(posted) for c in counts), counts   # some taken mid-evening
        done = bgboard("club", "--db", str(db), "backup", "--out", str(tmp_path / "last.sqlite"))
        assert done.returncode == 0, done.stderr
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=HANG_S)
    restored = tmp_path / "restored.sqlite"
    done = bgboard("club", "--db", str(restored), "restore", str(tmp_path / "last.sqlite"))
    assert done.returncode == 0 and "restored" in done.stdout, done.stderr
    with Director.open(db) as live, Director.open(restored) as copy:
        assert live.event("League").status == "finished"
        assert copy.standings("League") == live.standings("League")
        assert copy.ratings() == live.ratings()
        assert len(posted) == len(NAMES) * (len(NAMES) - 1) // 2
