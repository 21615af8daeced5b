"""The host's journal: every event appended to SQLite before it takes effect.

An adapter (I/O).  The file is opened in WAL mode with ``synchronous=FULL`` and autocommit,
so a row is durable when :meth:`Journal.append` returns: a ``kill -9`` or a power cut loses
at most the event in flight and never leaves a half-written one.  At start the host reads
the rows back (:meth:`Journal.entries`) and replays them to stand exactly where it stood.

Rows are ``(seq, kind, body, at_ms)``: ``kind`` says what the body is (``"action"`` — a
match action as :func:`bgboard.match.action_to_dict` writes it; ``"clock"`` — the clocks;
``"undo"`` — a takeback; ``"forfeit"`` — a match lost on time), ``body`` is a JSON
object, ``at_ms`` the wall time (ms since the epoch) the caller passed in.

The **outbox** (schema 2) holds the results a networked board owes the club director
(docs/club-protocol.md): :meth:`Journal.outbox_put` stores a result durably under its UUID
(once: putting the same UUID again changes nothing), :meth:`Journal.outbox_pending` lists
those not yet answered, :meth:`Journal.outbox_settle` records the director's answer.  A file
of schema 1 is migrated in place when it is opened.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from bgboard.errors import EnvironmentFailure, InputError, shown

log = logging.getLogger(__name__)

SCHEMA = 2
#: How to get going again with a journal that cannot be read (said after every such error).
RECOVER = ": move it aside (the match in it cannot be resumed) and start again, or use another journal file"

#: Statements that bring a journal from schema ``n`` to ``n + 1`` (run in one transaction).
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE IF NOT EXISTS outbox ("
        " uuid TEXT PRIMARY KEY, payload TEXT NOT NULL, created_ms INTEGER NOT NULL,"
        " settled_ms INTEGER, status TEXT, reason TEXT NOT NULL DEFAULT '')",
    ),
}


#: SQLite's answers that mean the machine failed, not the file: the disk is full, read-only
#: or failing (``sqlite3.Error.sqlite_errorname``, its primary code before any "_" detail)
DISK_FAILURES = frozenset({"SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR"})


def disk_failed(exc: sqlite3.Error, path: Path) -> bool:
    """Whether ``exc`` from the database at ``path`` is the disk's failure (exit 69), not a
    file that is not a database or a path that is wrong (exit 2).  SQLite cannot open a file
    in a directory that exists when that directory cannot be written (a read-only disk)."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    primary = "_".join(name.split("_")[:2])
    if primary in DISK_FAILURES:
        return True
    return primary == "SQLITE_CANTOPEN" and path.parent.is_dir() and not path.is_dir()


class JournalError(InputError):
    """A journal file that cannot be opened or read (the message names the file)."""


class JournalWriteError(EnvironmentFailure):
    """The journal's disk refused an event (full, vanished, read-only): the event is not kept,
    everything before it is (the message names the file and what to do)."""


@dataclass(frozen=True, slots=True)
class Owed:
    """One result in the outbox: its UUID, payload (JSON text), and the director's answer
    (``status`` None while unanswered)."""

    uuid: str
    payload: str
    created_ms: int
    status: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    """One journalled event."""

    seq: int
    kind: str
    body: dict[str, Any]
    at_ms: int


class Journal:
    """Append-only event log in one SQLite file (see the module docstring).

    Use as a context manager or call :meth:`close` (idempotent).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db: sqlite3.Connection | None = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS journal ("
                " seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL, at_ms INTEGER NOT NULL)"
            )
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            fresh = self._db.execute("SELECT COUNT(*) FROM meta WHERE key = 'schema'").fetchone()[0] == 0
            if fresh:
                for statements in MIGRATIONS.values():
                    for statement in statements:
                        self._db.execute(statement)
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            version = int(row[0]) if str(row[0]).isdigit() else -1
            if 1 <= version < SCHEMA:
                log.info("the journal %s is migrated from schema %d to %d", self.path, version, SCHEMA)
                self._migrate(version)
                version = SCHEMA
        except sqlite3.Error as exc:
            log.debug("the journal %s cannot be opened: %s", self.path, shown(exc))
            if disk_failed(exc, self.path):
                raise JournalWriteError(
                    f"the journal {self.path} cannot be written ({exc}): its disk is full, read-only or "
                    "failing, or its directory is not writable: free space, or give [journal] path a writable "
                    "place, and start bgboard again"
                ) from None
            raise JournalError(f"{self.path} cannot be used as a journal ({exc}){RECOVER}") from None
        if version != SCHEMA:
            raise JournalError(f"{self.path} is a journal of schema {row[0]}, this host reads {SCHEMA}")
        log.debug("the journal %s is open (%s)", self.path, "new" if fresh else f"schema {SCHEMA}")

    def _migrate(self, version: int) -> None:
        """Bring the file from schema ``version`` to :data:`SCHEMA`, all or nothing."""
        assert self._db is not None
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for n in range(version, SCHEMA):
                for statement in MIGRATIONS[n]:
                    self._db.execute(statement)
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA),))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int:
        """Write one event durably (it is on disk when this returns); its sequence number."""
        if self._db is None:
            raise RuntimeError("the journal is closed")
        try:
            cursor = self._db.execute(
                "INSERT INTO journal (kind, body, at_ms) VALUES (?, ?, ?)",
                (kind, json.dumps(body, sort_keys=True), int(at_ms)),
            )
        except sqlite3.Error as exc:  # a full disk, a vanished or read-only file: the event is not kept
            log.debug("the journal %s refused a %s event: %s", self.path, shown(kind, 40), shown(exc))
            raise JournalWriteError(
                f"the journal {self.path} cannot be written ({exc}): free space on its disk and start "
                "bgboard again; everything journalled so far is kept"
            ) from None
        return int(cursor.lastrowid or 0)

    @property
    def uncommitted(self) -> bool:
        """Inside an :meth:`atomic` block: the rows appended so far are not on disk yet."""
        return self._db is not None and self._db.in_transaction

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Rows appended inside land together when the block ends, or none do (an exception,
        a ``kill -9``): for a row that must never be on disk without another (the
        simulator's verdict row and the host's action it judges)."""
        if self._db is None:
            raise RuntimeError("the journal is closed")
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db is not None:
                self._db.execute("ROLLBACK")
            raise
        if self._db is not None:
            self._db.execute("COMMIT")

    def entries(self) -> list[Entry]:
        """Every event, oldest first."""
        if self._db is None:
            raise RuntimeError("the journal is closed")
        try:
            rows = self._db.execute("SELECT seq, kind, body, at_ms FROM journal ORDER BY seq").fetchall()
            return [Entry(seq, kind, json.loads(body), at_ms) for seq, kind, body, at_ms in rows]
        except (sqlite3.Error, ValueError) as exc:
            raise JournalError(f"{self.path} cannot be read ({exc}){RECOVER}") from None

    # ------------------------------------------------------------------ the outbox
    def outbox_put(self, uuid: str, payload: str, at_ms: int) -> bool:
        """Keep a result owed to the director, durably; False if ``uuid`` was already there
        (then nothing changes)."""
        cursor = self._live().execute(
            "INSERT OR IGNORE INTO outbox (uuid, payload, created_ms) VALUES (?, ?, ?)", (uuid, payload, int(at_ms))
        )
        return cursor.rowcount == 1

    def outbox_pending(self) -> list[Owed]:
        """The results the director has not answered yet, oldest first."""
        return [o for o in self.outbox() if o.status is None]

    def outbox(self) -> list[Owed]:
        """Every result ever put in the outbox, oldest first."""
        rows = self._live().execute(
            "SELECT uuid, payload, created_ms, status, reason FROM outbox ORDER BY created_ms, rowid"
        ).fetchall()
        return [Owed(*row) for row in rows]

    def outbox_settle(self, uuid: str, status: str, reason: str, at_ms: int) -> bool:
        """Record the director's answer to ``uuid`` (the first answer counts); False if the
        outbox holds no unanswered result of that UUID."""
        cursor = self._live().execute(
            "UPDATE outbox SET status = ?, reason = ?, settled_ms = ? WHERE uuid = ? AND status IS NULL",
            (status, reason, int(at_ms), uuid),
        )
        return cursor.rowcount == 1

    def _live(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the journal is closed")
        return self._db

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_entries(path: str | Path) -> list[Entry]:
    """Every event of a journal file, opened read-only (nothing is created or migrated);
    :class:`JournalError` with one sentence if it is missing or not a journal."""
    path = Path(path)
    if not path.is_file():
        raise JournalError(f"there is no journal {path}")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT seq, kind, body, at_ms FROM journal ORDER BY seq").fetchall()
        finally:
            db.close()
        return [Entry(seq, kind, json.loads(body), at_ms) for seq, kind, body, at_ms in rows]
    except (sqlite3.Error, ValueError) as exc:
        raise JournalError(f"{path} cannot be read as a journal ({exc})") from None


class MemoryJournal:
    """The same interface kept in memory (no durability): for tools and the REPL."""

    def __init__(self) -> None:
        self._rows: list[Entry] = []
        self._outbox: dict[str, Owed] = {}

    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int:
        """Keep one event; its sequence number."""
        entry = Entry(len(self._rows) + 1, kind, json.loads(json.dumps(body)), int(at_ms))
        self._rows.append(entry)
        return entry.seq

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Rows appended inside are kept together, or none are (an exception)."""
        kept = len(self._rows)
        try:
            yield
        except BaseException:
            del self._rows[kept:]
            raise

    def entries(self) -> list[Entry]:
        """Every event, oldest first."""
        return list(self._rows)

    def outbox_put(self, uuid: str, payload: str, at_ms: int) -> bool:
        """Keep a result owed to the director; False if ``uuid`` was already there."""
        if uuid in self._outbox:
            return False
        self._outbox[uuid] = Owed(uuid, payload, int(at_ms))
        return True

    def outbox_pending(self) -> list[Owed]:
        """The results not answered yet, oldest first."""
        return [o for o in self._outbox.values() if o.status is None]

    def outbox(self) -> list[Owed]:
        """Every result put in the outbox, oldest first."""
        return list(self._outbox.values())

    def outbox_settle(self, uuid: str, status: str, reason: str, at_ms: int) -> bool:
        """Record the director's answer (the first counts)."""
        owed = self._outbox.get(uuid)
        if owed is None or owed.status is not None:
            return False
        self._outbox[uuid] = Owed(uuid, owed.payload, owed.created_ms, status, reason)
        return True

    def close(self) -> None:
        """Nothing to close."""
