"""Backups of the club database (adapter): SQLite's online backup API, a check, a restore.

:func:`backup` copies the whole database with ``sqlite3.Connection.backup`` in one step: it
reads one consistent snapshot (WAL readers never block, and are never blocked by, the
director's ``club serve`` writing), writes it to ``FILE.part``, checks the copy
(:func:`check_club_file`), syncs it and renames it over ``FILE`` — a backup file is whole or
absent.  :func:`restore` checks the file is a club database before it copies it over the
club's database with the same API, keeping what was there as ``DB.before-restore-TIME.sqlite``.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from bgboard.club.db import CLUB_TABLES, SCHEMA, Club, ClubDatabaseError, ClubDatabaseUnavailableError
from bgboard.errors import EnvironmentFailure, InputError

def check_club_file(path: str | Path, integrity: bool = True) -> str:
    """The club's name in ``path``, or one sentence saying why it is not a usable club database
    (``integrity``: with SQLite's whole-file integrity check)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"there is no file {path}")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise InputError(f"{path} cannot be opened ({exc})") from None
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0 or not CLUB_TABLES <= tables:
            raise InputError(f"{path} is not a bgboard club database")
        if version > SCHEMA:
            raise InputError(f"{path} has club schema {version}, this bgboard reads up to {SCHEMA}: "
                             "upgrade bgboard")
        check = conn.execute("PRAGMA integrity_check").fetchone()[0] if integrity else "ok"
        if check != "ok":
            raise InputError(f"{path} is damaged ({str(check)[:200]})")
        row = conn.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        if row is None:
            raise InputError(f"{path} is not a bgboard club database (it has no club name)")
        return str(row[0])
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{path} is not a bgboard club database ({exc})") from None
    finally:
        conn.close()


def _copy(source: sqlite3.Connection, target: Path, single_file: bool = True) -> None:
    dest = sqlite3.connect(target)
    try:
        source.backup(dest)          # pages=-1: the whole database from one snapshot
        if single_file:              # a backup is one file: no -wal/-shm beside it
            dest.execute("PRAGMA journal_mode=DELETE")
    finally:
        dest.close()


def backup(db_path: str | Path, out: str | Path) -> Path:
    """Copy the club database at ``db_path`` to ``out`` (module doc); returns ``out``."""
    if not Path(db_path).exists():
        Club(db_path)               # the usual sentence: no club database there
    check_club_file(db_path, integrity=False)   # never migrates what it copies
    out = Path(out)
    if out.resolve() == Path(db_path).resolve():
        raise InputError("the backup cannot be the club database itself: pick another --out")
    part = out.with_name(out.name + ".part")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        part.unlink(missing_ok=True)
        source = sqlite3.connect(db_path, timeout=30.0)
        try:
            _copy(source, part)
        finally:
            source.close()
        check_club_file(part)
        with open(part, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(part, out)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise InputError(f"cannot write the backup {out} ({exc.strerror or exc})") from None
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        raise InputError(f"the backup to {out} failed ({exc})") from None
    return out


def restore(file: str | Path, db_path: str | Path, at: datetime | None = None) -> Path | None:
    """Replace the club database at ``db_path`` by the backup ``file`` (checked first).
    What ``db_path`` held is kept beside it first; returns that copy's path (None: there
    was no database)."""
    file = Path(file)
    db_path = Path(db_path)
    check_club_file(file)
    if db_path.exists() and db_path.resolve() == file.resolve():
        raise InputError("the backup is the club database itself: nothing to restore")
    kept = None
    if db_path.exists():
        stamp = (at or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
        kept = backup(db_path, db_path.with_name(f"{db_path.name}.before-restore-{stamp}.sqlite"))
    try:
        source = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
        try:
            _copy(source, db_path, single_file=False)
        finally:
            source.close()
        with Club(db_path):
            pass                    # migrates an older backup to this schema
    except (sqlite3.Error, ClubDatabaseError, ClubDatabaseUnavailableError) as exc:
        kind = EnvironmentFailure if isinstance(exc, EnvironmentFailure) else InputError
        raise kind(f"the restore into {db_path} failed ({exc})"
                         + (f": the database before it is kept as {kept}" if kept else "")) from None
    return kept


__all__ = ["backup", "restore", "check_club_file"]
