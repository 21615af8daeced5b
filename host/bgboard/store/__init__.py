"""The match journal in SQLite (adapter): every action appended in one transaction, read back
to resume a match after a power cut (docs/host.md)."""

from __future__ import annotations

from bgboard.store.journal import SCHEMA, Journal, JournalError, MemoryJournal, read_entries

__all__ = [
    "SCHEMA", "Journal", "JournalError", "MemoryJournal", "read_entries",
]
