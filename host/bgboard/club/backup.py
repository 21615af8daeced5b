"""Backups of the club database (adapter): SQLite's online backup API, a check, a restore.

:func:`backup` copies the whole database with ``sqlite3.Connection.backup`` in one step: it
reads one consistent snapshot (WAL readers never block, and are never blocked by, the
director's ``club serve`` writing), writes it to ``FILE.part``, checks the copy
(:func:`check_club_file`), syncs it and renames it over ``FILE`` — a backup file is whole or
absent.  :func:`restore` checks the file is a club database before it copies it over the
club's database with the same API, keeping what was there as ``DB.before-restore-TIME.sqlite``.
A club database is checked against the exact schema of the version it claims
(:func:`bgboard.club.db.schema_of`: every table, column, index and trigger of our migrations
and nothing else), SQLite's integrity and foreign-key checks; a restored older one is then
migrated forward by our migrations.

A club on PostgreSQL (``--db postgresql://...``) is backed up to the same SQLite file: a new
club file made by our migrations, filled from one read-only snapshot of the PostgreSQL
database and checked like any backup.  A restore into PostgreSQL checks the file the same way
(and migrates a copy of an older one forward), keeps what the database held as a backup file
beside ``FILE``, then replaces the club's tables with the file's rows in one transaction under
the club's write lock: all of it or none.  So ``club backup`` / ``club restore`` also move a
club from SQLite to PostgreSQL and back.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import tempfile
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, cast

from bgboard.club.checks import bounded_name
from bgboard.club.db import (
    CLUB_TABLES, MIGRATIONS, SCHEMA, Club, ClubDatabaseError, ClubDatabaseUnavailableError, database_error, is_postgres, shown,
    schema_objects, schema_of,
)
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
        _check_schema(conn, path, version)
        if integrity and conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
            raise InputError(f"{path} is damaged (rows that point at rows it does not have)")
        row = conn.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        if row is None:
            raise InputError(f"{path} is not a bgboard club database (it has no club name)")
        return str(row[0])
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{path} is not a bgboard club database ({exc})") from None
    finally:
        conn.close()


def _check_schema(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """One sentence unless ``conn``'s schema is exactly club schema ``version``'s: every table,
    column, index and trigger of our migrations, and nothing else (a trigger or a view that
    is not ours would run in the live club)."""
    found, ours = schema_objects(conn), schema_of(version)
    extra = sorted(found - ours, key=lambda o: (o[0] != "trigger", o[1]))
    missing = sorted(ours - found, key=lambda o: o[1])
    names_ours = {(o[0], o[1]) for o in ours}
    for kind, name, _, _ in extra:
        if (kind, name) in names_ours:
            raise InputError(f"{path} claims club schema {version} but its {kind} {bounded_name(name)!r} is not "
                             "that schema's: it was not written by bgboard, nothing was restored")
        raise InputError(f"{path} holds a {kind} {bounded_name(name)!r} that is not the club's: "
                         "it was not written by bgboard, nothing was restored")
    if missing:
        kind, name = missing[0][0], missing[0][1]
        raise InputError(f"{path} claims club schema {version} but lacks its {kind} {bounded_name(name)!r}: "
                         "it was not written by bgboard, nothing was restored")


def _copy(source: sqlite3.Connection, target: Path, single_file: bool = True) -> None:
    dest = sqlite3.connect(target)
    try:
        source.backup(dest)          # pages=-1: the whole database from one snapshot
        if single_file:              # a backup is one file: no -wal/-shm beside it
            dest.execute("PRAGMA journal_mode=DELETE")
    finally:
        dest.close()


SIDECARS = ("", "-wal", "-shm", "-journal")  # the database's own files: never a backup's target


def backup_target(db_path: str | Path | None, out: str | Path) -> Path:
    """Where a backup of ``db_path`` may go for ``--out`` ``out``: the path with its symlinks
    resolved, judged there.  One sentence if it is the database or one of its own files
    (``-wal``, ``-shm``, ``-journal``: replacing one loses committed changes), or anything but
    a regular file that may be replaced (a device, a FIFO, a socket, a folder)."""
    target = Path(out).resolve()
    db = Path(db_path).resolve() if db_path is not None else None  # None: a club on PostgreSQL
    for suffix in SIDECARS:
        if db is not None and target == db.with_name(db.name + suffix):
            what = "the club database itself" if not suffix else f"the club database's {suffix[1:]} file"
            raise InputError(f"the backup cannot be {what} ({target}): pick another --out")
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise InputError(f"cannot use {out} for the backup ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        kind = ("a folder" if stat.S_ISDIR(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise InputError(f"{out} is {kind}: a backup goes to a regular file (or a new one)")
    return target


def club_name(location: str | Path) -> str:
    """The club's name in the database at ``location`` (an SQLite file, checked; or a
    PostgreSQL address)."""
    if is_postgres(location):
        with Club(location) as club:
            return str(club.conn.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()[0])
    return check_club_file(location)


def _tables(conn: sqlite3.Connection) -> list[str]:
    """The club file's tables in the order they were made (a table after those it points at)."""
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]


def _write_backup(db_path: str | Path | None, out: Path, fill: Callable[[Path], None],
                  db_error: Callable[[sqlite3.Error], Exception]) -> Path:
    """Write a backup to ``out``: ``fill`` writes a new file of our own beside the target
    (O_EXCL: never a file, link or device that was there), which is checked, synced and renamed
    over the target once it is whole (the target judged again just before); on any failure the
    part is removed and nothing at ``out`` changed."""
    target = backup_target(db_path, out)
    part: Path | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        os.close(fd)
        part = Path(name)
        fill(part)
        check_club_file(part)
        with open(part, "rb+") as f:
            os.fsync(f.fileno())
        backup_target(db_path, target)  # still a regular file (or none) just before the rename
        os.replace(part, target)
    except OSError as exc:
        if part is not None:
            part.unlink(missing_ok=True)
        raise InputError(f"cannot write the backup {out} ({exc.strerror or exc})") from None
    except sqlite3.Error as exc:
        if part is not None:
            part.unlink(missing_ok=True)
        raise db_error(exc) from None
    except BaseException:
        if part is not None:
            part.unlink(missing_ok=True)
        raise
    return out


def _backup_postgres(url: str, out: Path) -> Path:
    """:func:`backup` of a club on PostgreSQL: a new SQLite club file filled from one snapshot."""

    def fill(part: Path) -> None:
        part.unlink()   # Club(create=True) makes the file itself
        with Club(url) as club, Club(part, create=True) as dest:
            source = cast(Any, club.conn)
            source.execute_plain("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                with dest.transaction() as db:
                    for table in _tables(dest.conn):
                        columns = _columns(dest.conn, table)
                        names = ", ".join(f'"{c}"' for c in columns)
                        rows = source.execute_plain(f'SELECT {names} FROM "{table}" ORDER BY 1')
                        if table == "analyses":  # the copied matches queued theirs: the source's rows count
                            db.execute("DELETE FROM analyses")
                        db.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(columns))})',
                                       (tuple(r) for r in rows))
            finally:
                source.execute_plain("ROLLBACK")
            dest.conn.execute("PRAGMA journal_mode=DELETE")

    return _write_backup(None, out, fill, lambda exc: database_error(exc, shown(url)))


def backup(db_path: str | Path, out: str | Path) -> Path:
    """Copy the club database at ``db_path`` to ``out`` (module doc); returns ``out``."""
    if is_postgres(db_path):
        return _backup_postgres(str(db_path), Path(out))
    if not Path(db_path).exists():
        Club(db_path)               # the usual sentence: no club database there
    check_club_file(db_path, integrity=False)   # never migrates what it copies
    out = Path(out)

    def fill(part: Path) -> None:
        source = sqlite3.connect(db_path, timeout=30.0)
        try:
            _copy(source, part)
        finally:
            source.close()

    return _write_backup(db_path, out, fill, lambda exc: InputError(f"the backup to {out} failed ({exc})"))


def restore(file: str | Path, db_path: str | Path, at: datetime | None = None) -> Path | None:
    """Replace the club database at ``db_path`` by the backup ``file`` (checked first).
    What ``db_path`` held is kept beside it first; returns that copy's path (None: there
    was no database)."""
    file = Path(file)
    if is_postgres(db_path):
        return _restore_postgres(file, str(db_path), at)
    db_path = Path(db_path)
    check_club_file(file)
    if db_path.exists() and db_path.resolve() == file.resolve():
        raise InputError("the backup is the club database itself: nothing to restore")
    # the file is copied once into a file of our own and that copy is checked and restored:
    # what is checked is what goes in, even if the file changes meanwhile
    fd, name = tempfile.mkstemp(prefix=f".{db_path.name}.", suffix=".restoring", dir=db_path.parent)
    os.close(fd)
    staged = Path(name)
    try:
        try:
            source = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
            try:
                _copy(source, staged)
            finally:
                source.close()
        except sqlite3.Error as exc:
            raise InputError(f"{file} cannot be read ({exc})") from None
        check_club_file(staged)
        kept = None
        if db_path.exists():
            stamp = (at or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
            kept = backup(db_path, db_path.with_name(f"{db_path.name}.before-restore-{stamp}.sqlite"))
        try:
            source = sqlite3.connect(f"file:{staged}?mode=ro", uri=True)
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
    finally:
        staged.unlink(missing_ok=True)
    return kept


RESTORE_WAIT_MS = 30_000  # how long a restore waits for the club's write lock (a backup waits 30 s too)


def _restore_postgres(file: Path, url: str, at: datetime | None) -> Path | None:
    """:func:`restore` into a PostgreSQL database (module doc)."""
    from bgboard.club import postgres_store as pg

    check_club_file(file)
    folder = Path(tempfile.mkdtemp(prefix="bgboard-restore-"))
    staged = folder / "club.sqlite"
    try:
        try:
            source = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
            try:
                _copy(source, staged, single_file=True)
            finally:
                source.close()
        except sqlite3.Error as exc:
            raise InputError(f"{file} cannot be read ({exc})") from None
        check_club_file(staged)
        with Club(staged):
            pass                        # an older backup migrated forward, in our own copy
        kept = None
        conn = pg.connect(pg.check_url(url))
        try:
            tables = pg.tables_here(conn)
            if tables and not CLUB_TABLES <= tables:
                raise InputError(f"{shown(url)} holds tables that are not a club's ({', '.join(sorted(tables)[:3])}): "
                                 "restore into an empty database or the club's own")
            if tables:
                stamp = (at or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
                kept = backup(url, file.parent / f"{pg.database_name(url)}.before-restore-{stamp}.sqlite")
            rows = sqlite3.connect(f"file:{staged}?mode=ro", uri=True)
            try:
                conn.begin(RESTORE_WAIT_MS)
                try:
                    pg.drop_club(conn, sorted(pg.tables_here(conn)))
                    pg.migrate_in(conn, MIGRATIONS, conn, create=True, club_tables=CLUB_TABLES, refuse=ClubDatabaseError)
                    for table in _tables(rows):
                        columns = _columns(rows, table)
                        names = ", ".join(f'"{c}"' for c in columns)
                        if table == "analyses":  # the copied matches queued theirs: the file's rows count
                            conn.execute("DELETE FROM analyses")
                        pg.copy_in(conn, table, columns, rows.execute(f'SELECT {names} FROM "{table}"'))
                except BaseException:
                    conn.execute_plain("ROLLBACK")
                    raise
                conn.execute_plain("COMMIT")
            finally:
                rows.close()
        except (sqlite3.Error, ClubDatabaseError) as exc:
            kind = EnvironmentFailure if pg.unreachable(exc) else InputError
            raise kind(f"the restore into {shown(url)} failed ({exc})"
                       + (f": the database before it is kept as {kept}" if kept else "")) from None
        finally:
            conn.close()
        with Club(url):
            pass
    finally:
        for leftover in folder.iterdir():
            leftover.unlink()
        folder.rmdir()
    return kept


__all__ = ["backup", "backup_target", "restore", "check_club_file", "club_name"]
