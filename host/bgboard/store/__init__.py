"""The match journal in SQLite (adapter): every action appended in one transaction, read back
to resume a match after a power cut (docs/host.md); beside it, where a learner is in the
practice drills and the learner's history (PR per match, worst positions)."""

from __future__ import annotations

from bgboard.store.history import LearnerHistory
from bgboard.store.journal import SCHEMA, Journal, JournalError, JournalWriteError, MemoryJournal, read_entries
from bgboard.store.progress import PROGRESS_NAME, Progress

__all__ = [
    "PROGRESS_NAME", "SCHEMA", "Journal", "JournalError", "JournalWriteError", "LearnerHistory", "MemoryJournal", "Progress", "read_entries",
]
