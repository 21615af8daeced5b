"""The players' FIBS ratings kept in the club database (adapter over :mod:`bgboard.club.ratings`).

A newly finished match is rated on top of the current ratings (:func:`rate_new`); a
correction, a forfeit or a changed starting rating re-derives every rating and the whole
history from the starting values and the rated results in order (:func:`recompute`).  Both
record the changes through :func:`_store`, the one writer of ``rating_history``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from bgboard.club.db import Club
from bgboard.club.ratings import RatedResult, Rating, Change, apply_result, rate


def _store(conn: sqlite3.Connection, changes: Iterable[Change]) -> None:
    """Record each change in the history (the players' ratings are set by the caller)."""
    for change in changes:
        conn.execute("INSERT INTO rating_history (player_id, match_id, rating_before, rating_after,"
                     " experience_before, experience_after) VALUES (?, ?, ?, ?, ?, ?)",
                     (change.player, change.match_id, change.before.rating, change.after.rating,
                      change.before.experience, change.after.experience))


def rate_new(conn: sqlite3.Connection, match: sqlite3.Row) -> None:
    """Rate a newly finished match on top of the current ratings (it is the last result)."""
    seq = 1 + (conn.execute("SELECT MAX(rated_seq) FROM matches").fetchone()[0] or 0)
    conn.execute("UPDATE matches SET rated_seq = ? WHERE id = ?", (seq, match["id"]))
    winner = match["winner"]
    loser = match["player_b"] if winner == match["player_a"] else match["player_a"]
    ratings = {r["id"]: Rating(r["rating"], r["experience"]) for r in conn.execute(
        "SELECT id, rating, experience FROM players WHERE id IN (?, ?)", (winner, loser))}
    changes = apply_result(ratings, RatedResult(match["id"], winner, loser, match["length"]))
    for change in changes:
        conn.execute("UPDATE players SET rating = ?, experience = ? WHERE id = ?",
                     (change.after.rating, change.after.experience, change.player))
    _store(conn, changes)


def recompute(club: Club) -> None:
    """Re-derive every rating and the history from the starting values and the results."""
    with club.transaction() as db:
        start = {r["id"]: Rating(r["start_rating"], r["start_experience"])
                 for r in db.execute("SELECT * FROM players")}
        results = [RatedResult(r["id"], r["winner"],
                               r["player_b"] if r["winner"] == r["player_a"] else r["player_a"],
                               r["length"])
                   for r in db.execute("SELECT * FROM matches WHERE status = 'finished' AND"
                                       " rated_seq IS NOT NULL ORDER BY rated_seq")]
        final, history = rate(start, results)
        db.execute("DELETE FROM rating_history")
        for pid, r in final.items():
            db.execute("UPDATE players SET rating = ?, experience = ? WHERE id = ?",
                       (r.rating, r.experience, pid))
        _store(db, history)


def history(conn: sqlite3.Connection, player_id: int) -> list[dict[str, Any]]:
    """The player's rating changes, match by match."""
    return [dict(r) for r in conn.execute(
        "SELECT match_id, rating_before, rating_after, experience_before, experience_after"
        " FROM rating_history WHERE player_id = ? ORDER BY id", (player_id,))]


__all__ = ["rate_new", "recompute", "history"]
