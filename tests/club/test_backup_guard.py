"""Backups that cannot hurt (issue 35, defect 4): ``club backup --out club.sqlite-wal`` was
accepted while the database was open, and after ``kill -9`` of the writer none of its 20
committed rows survived; as root ``--out`` replaced a device node, a FIFO or a symlink.  The
target is now resolved and judged: never the database or its -wal/-shm/-journal, never a
device, FIFO, socket or folder; written to a new temporary file and renamed into place."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bgboard.club.director import Director

WRITER = textwrap.dedent("""
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")        # the rows stay in the -wal file
    for i in range(20):
        conn.execute("INSERT INTO players (name, start_rating, start_experience, rating, experience,"
                     " created_at) VALUES (?, 1500, 0, 1500, 0, '2026-11-28T20:00:00+00:00')", (f"W{i:02d}",))
    print("committed", flush=True)
    time.sleep(600)
""")


def _club(tmp_path: Path) -> Path:
    db = tmp_path / "club.sqlite"
    with Director.create(db, "Guarded Club") as d:
        d.add_player("Anna")
    return db


def _names(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT name FROM players ORDER BY id")]


def _backup(db: Path, out: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgboard", "club", "--db", str(db), "backup", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)


def _refused(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.startswith("bgboard: ") and done.stderr.count("\n") == 1, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_a_backup_over_the_open_databases_own_files_is_refused_and_the_writers_rows_survive_kill_9(tmp_path, suffix):
    db = _club(tmp_path)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "committed"
        done = _backup(db, f"{db}{suffix}")
        _refused(done, f"{suffix[1:]} file", "pick another --out")
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(30)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM players WHERE name LIKE 'W%'").fetchone()[0] == 20


def test_the_database_itself_through_a_symlink_is_refused(tmp_path):
    db = _club(tmp_path)
    link = tmp_path / "looks-harmless.sqlite"
    link.symlink_to(db)
    _refused(_backup(db, link), "the club database itself")
    assert link.is_symlink() and _names(db) == ["Anna"]


def test_a_fifo_a_socket_a_device_and_a_folder_are_refused_untouched(tmp_path):
    db = _club(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(sock_path))
    device = tmp_path / "null-device"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null stand-in (the tests run as root)
    folder = tmp_path / "folder"
    folder.mkdir()
    link_to_fifo = tmp_path / "link-to-fifo"
    link_to_fifo.symlink_to(fifo)
    try:
        for out, kind in ((fifo, "a FIFO"), (sock_path, "a socket"), (device, "a device"),
                          (folder, "a folder"), (link_to_fifo, "a FIFO")):
            _refused(_backup(db, out), kind)
        assert stat.S_ISFIFO(fifo.stat().st_mode) and stat.S_ISSOCK(sock_path.stat().st_mode)
        assert stat.S_ISCHR(device.stat().st_mode) and link_to_fifo.is_symlink()
    finally:
        listener.close()
    assert not list(tmp_path.glob("*.part")) and not list(tmp_path.glob(".*.part"))


def test_a_symlink_to_a_regular_file_writes_the_target_and_keeps_the_link(tmp_path):
    db = _club(tmp_path)
    real = tmp_path / "backups" / "club-copy.sqlite"
    real.parent.mkdir()
    real.write_bytes(b"an older backup")
    link = tmp_path / "latest.sqlite"
    link.symlink_to(real)
    done = _backup(db, link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and _names(real) == ["Anna"]
    assert not list(real.parent.glob(".*.part"))
