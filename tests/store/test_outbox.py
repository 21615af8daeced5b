"""The journal's outbox: results a networked board owes the director, kept across reboots."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bgboard.store.journal import SCHEMA, Journal, JournalError, MemoryJournal

U1 = "00000000-0000-4000-8000-000000000001"
U2 = "00000000-0000-4000-8000-000000000002"


@pytest.mark.parametrize("make", ["file", "memory"])
def test_a_result_is_owed_once_until_it_is_answered(tmp_path: Path, make: str) -> None:
    journal = Journal(tmp_path / "j.db") if make == "file" else MemoryJournal()
    assert journal.outbox_put(U1, '{"a": 1}', 10)
    assert not journal.outbox_put(U1, '{"a": 2}', 11)  # the same match again: no second copy
    assert journal.outbox_put(U2, '{"b": 1}', 12)
    assert [(o.uuid, o.payload) for o in journal.outbox_pending()] == [(U1, '{"a": 1}'), (U2, '{"b": 1}')]
    assert journal.outbox_settle(U1, "stored", "", 20)
    assert not journal.outbox_settle(U1, "refused", "late", 21)  # the first answer counts
    assert [o.uuid for o in journal.outbox_pending()] == [U2]
    assert [(o.uuid, o.status) for o in journal.outbox()] == [(U1, "stored"), (U2, None)]
    journal.close()


def test_the_outbox_survives_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        journal.outbox_put(U1, "{}", 1)
        journal.append("action", {"type": "start"}, 1)
    with Journal(path) as journal:
        assert [o.uuid for o in journal.outbox_pending()] == [U1]
        assert len(journal.entries()) == 1


def test_a_schema_1_journal_is_migrated_in_place_keeping_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE journal (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL, at_ms INTEGER NOT NULL)")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta VALUES ('schema', '1')")
    db.execute("INSERT INTO journal (kind, body, at_ms) VALUES ('action', '{\"type\": \"roll\"}', 5)")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert [e.body for e in journal.entries()] == [{"type": "roll"}]
        assert journal.outbox_put(U1, "{}", 6)
    check = sqlite3.connect(path)
    assert check.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(SCHEMA) == "2"
    check.close()


def test_a_journal_of_a_newer_schema_is_refused_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with Journal(path):
        pass
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '9' WHERE key = 'schema'")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="schema 9, this host reads 2"):
        Journal(path)
