"""The simulator's journal: every match action and verdict in SQLite before it takes effect.

An adapter (I/O).  WAL mode with ``synchronous=FULL``: a row is on disk when ``append``
returns, so a ``kill -9`` loses at most the entry in flight.  Rows are JSON objects:

* ``{"type": "<action kind>", ...}`` - match actions (:func:`bgboard.match.actions.action_to_dict`)
* ``{"type": "verdict", "game": g, "turn": t, "verdict": "illegal"|"play"|"rejected", ...}``
  - what the board reading was judged to be.

Reading the journal back and replaying its actions rebuilds the match exactly.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from bgboard.errors import InputError


class JournalError(InputError):
    """A journal file that cannot be read as a simulator journal."""


class Journal:
    """Append-only log of JSON rows in one SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS sim_journal (id INTEGER PRIMARY KEY, entry TEXT NOT NULL)"
            )
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path} is not a journal this simulator can read ({exc})") from None

    def append(self, entry: dict[str, Any]) -> None:
        """Write one row durably."""
        self._db.execute("INSERT INTO sim_journal (entry) VALUES (?)", (json.dumps(entry, sort_keys=True),))

    def entries(self) -> list[dict[str, Any]]:
        """Every row, oldest first."""
        rows = self._db.execute("SELECT entry FROM sim_journal ORDER BY id").fetchall()
        return [json.loads(r[0]) for r in rows]

    def close(self) -> None:
        """Close the file (idempotent)."""
        try:
            self._db.close()
        except sqlite3.Error:  # pragma: no cover - already closed
            pass

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
