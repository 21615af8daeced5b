"""Children die with their parent (issue 35, defect 7): after ``kill -9`` of ``club serve`` its
helper processes (the resource tracker, the forkserver, the result checkers; 78 MB) stayed
alive, the checkers holding ``club.sqlite``, ``-wal`` and ``-shm`` open 80 s later.  Now every
helper dies with the director's process (prctl PR_SET_PDEATHSIG, bgboard.club.lifeline).
Run on the real thing: a private Mosquitto, ``club serve --http --broker``, ``kill -9``."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.net.conftest import CLUB, start_broker

from bgboard.net.broker import DIRECTOR


def _children() -> dict[int, int]:
    """pid -> parent pid of every process now (a zombie counts as gone)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                found[int(entry.name)] = int(fields[1])
    return found


def _descendants(root: int) -> set[int]:
    table = _children()
    out: set[int] = set()
    grew = True
    while grew:
        grew = False
        for pid, parent in table.items():
            if (parent == root or parent in out) and pid not in out:
                out.add(pid)
                grew = True
    return out


def _holders(db: Path) -> set[int]:
    """The processes with the database or its -wal/-shm open."""
    names = {str(db), f"{db}-wal", f"{db}-shm"}
    held = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if any(os.readlink(fd) in names for fd in (entry / "fd").iterdir()):
                    held.add(int(entry.name))
            except OSError:
                continue
    return held


def test_kill_9_of_club_serve_leaves_no_helper_and_no_database_handle(finished_club, tmp_path):
    broker = start_broker(tmp_path / "broker")
    db = tmp_path / "club.sqlite"
    shutil.copy(finished_club, db)
    director = subprocess.Popen(
        [sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve", "--http", "127.0.0.1:0",
         "--broker", broker.url, "--topic", CLUB, "--password-file", str(broker.password_file(DIRECTOR))],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    helpers: set[int] = set()
    try:
        assert re.search(r"web pages on http://", director.stdout.readline() + director.stdout.readline())
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:   # the analysis child, the forkserver and its checkers
            helpers = _descendants(director.pid)
            if len(helpers) >= 4:
                break
            time.sleep(0.2)
        assert len(helpers) >= 4, helpers
        kinds = " ".join(Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace") for pid in helpers)
        assert "forkserver" in kinds and "resource_tracker" in kinds, kinds
        director.send_signal(signal.SIGKILL)
        director.wait(30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (helpers & set(_children())):
            time.sleep(0.1)
        left = helpers & set(_children())
        assert not left, {pid: Path(f"/proc/{pid}/cmdline").read_bytes()[:120] for pid in left}
        assert not _holders(db)
    finally:
        if director.poll() is None:
            director.kill()
        for pid in helpers & set(_children()) | _descendants(director.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        broker.kill()
