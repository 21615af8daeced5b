"""Where a learner is in the practice drills (adapter): one SQLite file beside the journal,
so that ``bgboard run`` in ``[teach] mode = "practice"`` resumes at the same drill after a
restart, with the grades so far (the learner report covers the whole session).

The store keeps one JSON body (what :class:`bgboard.control.practice_room.PracticeRoom` and the
teacher say they need) and knows nothing of drills or lessons.  A write is one transaction:
after a power cut the file holds the last progress written or the one before it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from bgboard.errors import InputError

__all__ = ["PROGRESS_NAME", "Progress"]

#: The file's name, beside the journal.
PROGRESS_NAME = "practice.sqlite"


class Progress:
    """The practice progress in ``path`` (created when missing); :meth:`load`, :meth:`save`,
    :meth:`clear`, :meth:`close` (idempotent)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db: sqlite3.Connection | None = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit is kept or the one before it
            self._db.execute("CREATE TABLE IF NOT EXISTS progress (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL)")
        except sqlite3.Error as exc:
            raise InputError(f"{self.path} cannot hold the practice progress ({exc}): move it aside "
                             "(the drills start again from the first) and start again") from None

    def load(self) -> dict[str, Any] | None:
        """The progress last saved, or None (none saved, or a body that is no JSON object)."""
        row = self._live().execute("SELECT body FROM progress WHERE id = 1").fetchone()
        if row is None:
            return None
        try:
            body = json.loads(row[0])
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def save(self, body: dict[str, Any]) -> None:
        """Keep ``body`` (in place of the one before)."""
        self._live().execute("INSERT OR REPLACE INTO progress (id, body) VALUES (1, ?)",
                             (json.dumps(body, sort_keys=True),))

    def clear(self) -> None:
        """Forget the progress (the drills are done: the next start begins again)."""
        self._live().execute("DELETE FROM progress")

    def _live(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the progress store is closed")
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
