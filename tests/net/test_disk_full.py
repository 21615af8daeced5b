"""A full disk never starves the result path (issue 35, "refuse before reading"): with the
temporary folder and the database on one small disk, a held upload once filled it and only 1 of
16 board results was acknowledged in 20 s ("database or disk is full"); the director retried
a full disk as it retries a lock, silently, for ever.  Now an upload never becomes a temporary
file (held in memory, on a budget), and a result the full disk cannot take is refused at once
with the reason, so the board shows it; a result that still fits is stored and acknowledged.

On real parts: a size-limited tmpfs mounted here (the suite runs as root; the test fails,
never skips, when it cannot mount one) holds ``club.sqlite`` and ``club serve``'s TMPDIR, a
real ``bgboard club serve --broker --http``, a real Mosquitto and a board's real link."""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import httpx2
import pytest

from bgboard.net.boardlink import ClubLink
from bgboard.net.mosquitto import PrivateBroker
from bgboard.store.journal import Journal
from bgboard.club.director import Director as Service
from bgboard.club.web.password import hash_password
from tests.club.webclub import PASSWORD, csrf, log_in
from tests.net.club_harness import board_settings, new_club
from tests.net.test_club_hostile import Serve, result_for
from tests.support import until

DISK = "16m"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    # a short path: club serve's helper processes put their sockets in TMPDIR on this disk, and
    # a socket's path has at most 107 bytes (xdist's worker folders made it longer: "AF_UNIX path
    # too long")
    where = Path(tempfile.mkdtemp(prefix="bgdisk-", dir="/tmp"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK},mode=0700", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"cannot mount a {DISK} tmpfs for the full-disk test (it needs root): {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


def fill(disk: Path) -> int:
    """Write a file until the disk refuses one more byte; the bytes written (bounded by the disk)."""
    written = 0
    with open(disk / "filler", "wb", buffering=0) as out:
        for chunk in (1 << 20, 1 << 12, 1 << 9, 1):
            while written < (64 << 20):
                try:
                    written += out.write(b"\0" * chunk)
                except OSError as exc:
                    assert exc.errno in (errno.ENOSPC, errno.EDQUOT), exc
                    break
    return written


def test_a_board_result_on_a_full_disk_is_answered_within_a_second(tmp_path: Path, small_disk: Path,
                                                                   broker: PrivateBroker) -> None:
    db = small_disk / "club.sqlite"
    spool = small_disk / "tmp"
    spool.mkdir()
    matches = new_club(db)
    with Service.open(db) as s:
        s.set_director_password_hash(hash_password(PASSWORD))
    os.environ["TMPDIR"], before = str(spool), os.environ.get("TMPDIR")
    try:
        serve = Serve(broker, db, tmp_path / "serve.log")
    finally:
        if before is None:
            os.environ.pop("TMPDIR")
        else:
            os.environ["TMPDIR"] = before
    answers: list[tuple[float, str, str]] = []
    try:
        url = serve.wait_for(r"web pages on (http://\S+/)").group(1)
        director = httpx2.Client(base_url=url, timeout=10)
        assert log_in(director).status_code == 303      # the session is written while there is room
        token = csrf(director.get("/director/setup").text)
        assert fill(small_disk) > 0 and os.statvfs(small_disk).f_bavail == 0

        # a 2 MB upload on the full disk: held in memory, judged, answered with its sentence
        started = time.monotonic()
        upload = director.post("/director/evening/mat", data={"csrf": token, "event": "Friday", "match": "1"},
                               files={"mat": ("big.mat", b"x" * (2 << 20))}, follow_redirects=False)
        upload_s = time.monotonic() - started
        assert upload.status_code == 400 and "no score yet" in upload.text, (upload.status_code, upload.text[-500:])
        assert [p for p in spool.rglob("*") if p.is_file()] == []   # (multiprocessing's own folder: a socket)

        async def go(board: int) -> None:
            m = next(x for x in matches if x.board == board)
            journal = Journal(tmp_path / f"board{board}.sqlite")
            assigned = asyncio.Event()
            link = ClubLink(board_settings(broker, board), journal, on_assignment=lambda a: assigned.set())
            task = asyncio.create_task(link.run())
            try:
                await asyncio.wait_for(assigned.wait(), 60)       # the director is there
                sent = time.monotonic()
                link.submit_result(result_for(m, board, f"00000000-0000-4000-8000-0000000000{board:02d}"))
                await until(lambda: not journal.outbox_pending(), 30, poll=0.01)
                (owed,) = journal.outbox()
                answers.append((time.monotonic() - sent, owed.status, owed.reason))
            finally:
                link.stop()
                await task
                journal.close()

        for board in (1, 2, 3):
            asyncio.run(go(board))
        assert director.get("/").status_code == 200      # the pages still answer
        director.close()
    finally:
        assert serve.stop() == 0
    print(f"upload answered in {upload_s:.3f} s; results answered: {answers}")
    text = serve.text()
    assert "Traceback" not in text, text[-3000:]
    for took, status, reason in answers:
        assert took < 1.0, answers
        assert status == "stored" or (status == "refused" and "disk is full" in reason), answers
    assert any(status == "refused" for _, status, _ in answers), answers   # the disk was really full
