"""A learner's history (adapter): each finished match's PR with its 95 % interval and the
number of decisions behind it, and the learner's worst positions, in the SQLite file beside
the journal that also keeps the practice progress (``practice.sqlite``).

The learner report draws the PR match by match from it (:mod:`bgboard.hints.learner_report`), and
``[teach] drills = ["mine"]`` practises the worst positions (:mod:`bgboard.hints.drills`).
The date of a match is passed in (the caller's clock); a match is kept once, by its key
(writing the same match again replaces it).  A learner is known by name.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Iterable, Mapping

from bgboard.errors import InputError

__all__ = ["LearnerHistory"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS learner_matches (learner TEXT NOT NULL, match TEXT NOT NULL, played TEXT NOT NULL,"
    " pr REAL NOT NULL, pr_low REAL, pr_high REAL, decisions INTEGER NOT NULL, PRIMARY KEY (learner, match))",
    "CREATE TABLE IF NOT EXISTS learner_worst (learner TEXT NOT NULL, match TEXT NOT NULL, position TEXT NOT NULL,"
    " dice TEXT NOT NULL, loss REAL NOT NULL, PRIMARY KEY (learner, match, position, dice))",
)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class LearnerHistory:
    """The history in ``path`` (created when missing): :meth:`record`, :meth:`matches`,
    :meth:`worst`, :meth:`close` (idempotent)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db: sqlite3.Connection | None = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for statement in _SCHEMA:
                self._db.execute(statement)
        except sqlite3.Error as exc:
            raise InputError(f"{self.path} cannot hold the learner's history ({exc}): move it aside "
                             "and start again") from None

    def record(self, learner: str, match: str, played: str, figures: Mapping[str, Any],
               worst: Iterable[tuple[str, str, float]] = ()) -> None:
        """Keep one finished match of ``learner`` (in one transaction): ``figures`` with
        ``pr``, ``decisions`` and, when known, ``pr_low``/``pr_high``; ``worst`` the
        learner's costliest positions of the match as (Position ID, dice, loss)."""
        pr = _number(figures.get("pr"))
        decisions = figures.get("decisions")
        if pr is None or not isinstance(decisions, int):
            raise ValueError("a match's figures need a PR and a number of decisions")
        db = self._live()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("INSERT OR REPLACE INTO learner_matches VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (learner, match, played, pr, _number(figures.get("pr_low")), _number(figures.get("pr_high")),
                        decisions))
            db.execute("DELETE FROM learner_worst WHERE learner = ? AND match = ?", (learner, match))
            db.executemany("INSERT OR REPLACE INTO learner_worst VALUES (?, ?, ?, ?, ?)",
                           [(learner, match, pid, dice, float(loss)) for pid, dice, loss in worst])
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def matches(self, learner: str) -> list[dict[str, Any]]:
        """``learner``'s matches, oldest first: ``played``, ``pr``, ``pr_low``, ``pr_high``
        (None when not known), ``decisions``."""
        rows = self._live().execute(
            "SELECT played, pr, pr_low, pr_high, decisions FROM learner_matches WHERE learner = ?"
            " ORDER BY played, rowid", (learner,)).fetchall()
        return [dict(zip(("played", "pr", "pr_low", "pr_high", "decisions"), row)) for row in rows]

    def worst(self, learners: Iterable[str] | None = None, limit: int = 12) -> list[tuple[str, str, float]]:
        """The costliest positions kept (of ``learners``, by default everyone's), the worst
        first, each position and roll once: (Position ID, dice, loss)."""
        names = None if learners is None else list(learners)
        where = "" if names is None else f" WHERE learner IN ({', '.join('?' * len(names))})"
        rows = self._live().execute(
            f"SELECT position, dice, MAX(loss) AS lost FROM learner_worst{where} GROUP BY position, dice"
            " ORDER BY lost DESC, position, dice LIMIT ?", (*(names or ()), limit)).fetchall()
        return [(str(p), str(d), float(x)) for p, d, x in rows]

    def _live(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the learner history is closed")
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
