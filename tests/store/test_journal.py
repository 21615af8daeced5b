"""The SQLite journal: durable, ordered, readable after a reopen, one sentence on a bad file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bgboard.store.journal import Journal, JournalError, MemoryJournal


def test_events_come_back_in_order_after_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "match.db"
    with Journal(path) as journal:
        assert journal.append("action", {"type": "roll", "dice": [3, 1]}, 1_000) == 1
        assert journal.append("clock", {"reserve": [1, 2]}, 2_000) == 2
    with Journal(path) as journal:
        entries = journal.entries()
    assert [(e.seq, e.kind, e.body, e.at_ms) for e in entries] == [
        (1, "action", {"dice": [3, 1], "type": "roll"}, 1_000),
        (2, "clock", {"reserve": [1, 2]}, 2_000),
    ]


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "match.db"
    with Journal(path) as journal:
        journal.append("action", {}, 0)
        assert journal._db is not None
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    other = sqlite3.connect(path)  # another reader sees the row at once
    assert other.execute("SELECT count(*) FROM journal").fetchone()[0] == 1
    other.close()


def test_a_file_that_is_not_a_journal_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(JournalError, match="cannot be used as a journal"):
        Journal(path)


def test_the_memory_journal_behaves_the_same() -> None:
    journal = MemoryJournal()
    body = {"a": [1, 2]}
    journal.append("action", body, 5)
    body["a"].append(3)  # a copy was kept
    assert [(e.seq, e.body) for e in journal.entries()] == [(1, {"a": [1, 2]})]
