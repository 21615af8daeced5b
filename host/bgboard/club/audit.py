"""The club's audit log (adapter over the club database): every change writes one row —
who, when, what, and the match's or the settings' state before and after — in the change's
own transaction.  :mod:`bgboard.club.operations` re-runs a log into a new club.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from typing import Any

from bgboard.club.checks import clean_name
from bgboard.club.views import AuditEntry


def now() -> str:
    """The time a change is made, when its caller gives none (ISO-8601 UTC, to the second)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write(conn: sqlite3.Connection, action: str, args: dict[str, Any], before: Any, after: Any, actor: str,
          at: str | None, event_id: int | None = None, match_id: int | None = None) -> None:
    """One audit row: ``args`` re-run the change (:mod:`bgboard.club.operations`), ``before``
    and ``after`` say what it changed (None: nothing to show)."""
    conn.execute(
        "INSERT INTO audit (at, actor, action, event_id, match_id, args, before, after)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (at or now(), clean_name(actor, "the actor's name"), action, event_id, match_id,
         json.dumps(args, sort_keys=True),
         None if before is None else json.dumps(before, sort_keys=True),
         None if after is None else json.dumps(after, sort_keys=True)))


def entries(conn: sqlite3.Connection, event_id: int | None = None) -> list[AuditEntry]:
    """The log in order: every row, or the rows of one event."""
    names = {r["id"]: r["name"] for r in conn.execute("SELECT id, name FROM events")}
    query = "SELECT * FROM audit"
    params: tuple[Any, ...] = ()
    if event_id is not None:
        query += " WHERE event_id = ?"
        params = (event_id,)
    return [AuditEntry(r["id"], r["at"], r["actor"], r["action"], names.get(r["event_id"]),
                       r["match_id"], json.loads(r["args"]),
                       json.loads(r["before"]) if r["before"] else None,
                       json.loads(r["after"]) if r["after"] else None)
            for r in conn.execute(query + " ORDER BY id", params)]


__all__ = ["now", "write", "entries"]
