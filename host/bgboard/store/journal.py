"""The host's journal: every event appended to SQLite before it takes effect.

An adapter (I/O).  The file is opened in WAL mode with ``synchronous=FULL`` and autocommit,
so a row is durable when :meth:`Journal.append` returns: a ``kill -9`` or a power cut loses
at most the event in flight and never leaves a half-written one.  At start the host reads
the rows back (:meth:`Journal.entries`) and replays them to stand exactly where it stood.

Rows are ``(seq, kind, body, at_ms)``: ``kind`` says what the body is (``"action"`` — a
match action as :func:`bgboard.match.action_to_dict` writes it; ``"clock"`` — the clocks;
``"undo"`` — a takeback; ``"forfeit"`` — a match lost on time), ``body`` is a JSON
object, ``at_ms`` the wall time (ms since the epoch) the caller passed in.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgboard.errors import InputError

SCHEMA = 1


class JournalError(InputError):
    """A journal file that cannot be opened or read (the message names the file)."""


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
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path} cannot be used as a journal ({exc})") from None
        if row[0] != str(SCHEMA):
            raise JournalError(f"{self.path} is a journal of schema {row[0]}, this host reads {SCHEMA}")

    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int:
        """Write one event durably (it is on disk when this returns); its sequence number."""
        if self._db is None:
            raise RuntimeError("the journal is closed")
        cursor = self._db.execute(
            "INSERT INTO journal (kind, body, at_ms) VALUES (?, ?, ?)",
            (kind, json.dumps(body, sort_keys=True), int(at_ms)),
        )
        return int(cursor.lastrowid or 0)

    def entries(self) -> list[Entry]:
        """Every event, oldest first."""
        if self._db is None:
            raise RuntimeError("the journal is closed")
        try:
            rows = self._db.execute("SELECT seq, kind, body, at_ms FROM journal ORDER BY seq").fetchall()
            return [Entry(seq, kind, json.loads(body), at_ms) for seq, kind, body, at_ms in rows]
        except (sqlite3.Error, ValueError) as exc:
            raise JournalError(f"{self.path} cannot be read ({exc})") from None

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MemoryJournal:
    """The same interface kept in memory (no durability): for tools and the REPL."""

    def __init__(self) -> None:
        self._rows: list[Entry] = []

    def append(self, kind: str, body: dict[str, Any], at_ms: int) -> int:
        """Keep one event; its sequence number."""
        entry = Entry(len(self._rows) + 1, kind, json.loads(json.dumps(body)), int(at_ms))
        self._rows.append(entry)
        return entry.seq

    def entries(self) -> list[Entry]:
        """Every event, oldest first."""
        return list(self._rows)

    def close(self) -> None:
        """Nothing to close."""
