"""Results both players confirm at a networked board (adapter over the club database).

An event made with ``--confirm-results`` (``event new``/``event set``; the event's settings
hold ``"confirm_results": true``) tells its boards so in each assignment (``"confirm": true``):
at the match's end the board shows the result and both players press *done* to confirm it,
or one presses another button to dispute it (:mod:`bgboard.control.confirm`).  The board then
reports the result with ``"confirmed": true`` or ``"disputed": true``.

* A confirmed result — or any result of an event that does not ask for confirmation — is
  stored as before (:meth:`bgboard.club.director.Director.record_result`) and counts at once.
* A disputed result, or one the event wanted confirmed and was not (a board of an older
  release), is **held**: a row of ``held_results`` (the score, the board's .mat, why) while the
  match stays ``pending`` — it counts for nothing (standings, ratings, pairings) until the
  director decides on the director's page (:func:`accept` the board's score with its .mat,
  or :func:`decide` the right score by hand).  The board is acked ``stored`` with the reason,
  so it stops sending; a re-send of a held result is a ``duplicate``.
* Results the director enters by hand stay immediate; one entered for a match with a held
  result settles it (the held row is no longer open once the match has a result).

Every change is in the audit log (``result_held``, ``held_settled``) and replays
(:data:`bgboard.club.operations.OPERATIONS`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bgboard.club import audit, db as queries, evening, results
from bgboard.club.audit import now
from bgboard.club.checks import parse_score
from bgboard.club.views import PENDING
from bgboard.digits import is_whole
from bgboard.errors import InputError

if TYPE_CHECKING:
    from bgboard.club.director import Director

SETTING = "confirm_results"
OPEN, ACCEPTED, DECIDED = "open", "accepted", "decided"
DISPUTED_WHY = "disputed at the board"
UNCONFIRMED_WHY = "not confirmed by both players at the board"


@dataclass(frozen=True)
class Held:
    """A board's result waiting for the director."""

    id: int
    match_id: int
    number: int | None
    event: str
    board: int | None
    players: list[str]
    score: list[int]
    why: str
    at: str
    has_mat: bool


def wants_confirmation(d: "Director", event: str) -> bool:
    """Whether ``event``'s board results need both players' confirmation."""
    return evening.settings(queries.event_row(d.db, event)).get(SETTING) is True


def confirming(d: "Director", assignments: list[Any]) -> list[Any]:
    """The network's assignments, each saying whether its event wants the result confirmed."""
    wanted: dict[str, bool] = {}
    for a in assignments:
        if a.event not in wanted:
            wanted[a.event] = wants_confirmation(d, a.event)
    return [replace(a, confirm=True) if wanted[a.event] else a for a in assignments]


def board_result(d: "Director", event: str, match_id: int, board: int, result: Any,
                 status: str) -> tuple[str, str] | None:
    """What to answer a board's ``result`` for match ``match_id`` (whose ``status`` the
    caller has read) when it is not stored as usual: ``("duplicate", "")`` for a result
    already held, ``("stored", reason)`` when it is held now; None: store it as before (it
    counts).  The result was checked off the writer (``Director.check_result``): its .mat is
    not replayed again here."""
    known = d.db.execute("SELECT id FROM held_results WHERE result_key = ?", (str(result.uuid),)).fetchone()
    if known is not None:
        return ("duplicate", "")
    if status != "pending":
        return None  # the director decided already: answered as any late board result
    if result.disputed:
        why = DISPUTED_WHY
    elif not result.confirmed and wants_confirmation(d, event):
        why = UNCONFIRMED_WHY
    else:
        return None
    hold(d, event, match_id, tuple(result.score), result.mat, str(result.uuid), why, board=board,
         actor=f"board {board}", mat_checked=True)
    return ("stored", f"held for the director: {why}")


def hold(d: "Director", event: str, match_id: int, score: tuple[int, int], mat: str | None, result_key: str,
         why: str, *, board: int | None = None, actor: str = "board", at: str | None = None,
         mat_checked: bool = False) -> int:
    """Keep a board's result for the director; the match stays pending.  The score must be a
    finished match and the .mat must replay to it (else :class:`InputError`, the board is
    refused as for any result; ``mat_checked``: it was replayed to this score already)."""
    at = at or now()
    with d.club.transaction() as db:
        ev = queries.event_row(d.db, event)
        match = queries.match_row(d.db, ev, match_id)
        if match["status"] != PENDING:
            raise InputError(f"match {match['id']} already has a result: the board's result is not held")
        if db.execute("SELECT 1 FROM held_results WHERE match_id = ? AND status = ?", (match["id"], OPEN)).fetchone():
            raise InputError(f"match {match['id']} already has a result waiting for the director")
        results.check_score(match, score)
        if mat is not None and not mat_checked:
            mat = results.check_mat(d.db, match, ev["rules"], score, mat)
        held_id = db.execute("INSERT INTO held_results (match_id, result_key, board, score_a, score_b, mat, why, at)"
                          " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                          (match["id"], result_key, board, score[0], score[1], mat, why, at)).fetchone()[0]
        audit.write(d.db, "result_held", {"event": ev["name"], "node": match["node"], "score": list(score),
                                          "mat": mat, "result_key": result_key, "why": why, "board": board},
                 None, None, actor, at, ev["id"], match["id"])
        return int(held_id)


def held(d: "Director", event: str | None = None) -> list[Held]:
    """The results waiting for the director (open, and their match still without a result)."""
    names = queries.player_names(d.db)
    rows = d.db.execute(
        "SELECT h.*, m.player_a, m.player_b, m.number, e.name AS event FROM held_results h"
        " JOIN matches m ON m.id = h.match_id JOIN events e ON e.id = m.event_id"
        " WHERE h.status = ? AND m.status = 'pending' ORDER BY h.id", (OPEN,)).fetchall()
    out = [Held(r["id"], r["match_id"], r["number"], r["event"], r["board"],
                [names[r["player_a"]], names[r["player_b"]]], [r["score_a"], r["score_b"]],
                r["why"], r["at"], r["mat"] is not None) for r in rows]
    return [h for h in out if event is None or h.event == event]


def _open_row(d: "Director", held_id: int | str) -> Any:
    text = str(held_id).strip()
    row = None
    if is_whole(text) and len(text) < 12:
        row = d.db.execute("SELECT h.*, e.name AS event FROM held_results h JOIN matches m ON m.id = h.match_id"
                           " JOIN events e ON e.id = m.event_id WHERE h.id = ?", (int(text),)).fetchone()
    if row is None:
        raise InputError(f"there is no held result {text[:20]!r}")
    if row["status"] != OPEN or d.match(row["match_id"]).status != "pending":
        raise InputError(f"the held result {row['id']} was already settled")
    return row


def held_mat(d: "Director", held_id: int | str) -> str | None:
    """The board's .mat of a held result."""
    text = str(held_id).strip()
    row = d.db.execute("SELECT mat FROM held_results WHERE id = ?", (int(text),)).fetchone() \
        if is_whole(text) and len(text) < 12 else None
    if row is None:
        raise InputError(f"there is no held result {text[:20]!r}")
    return row["mat"]


def _settle(d: "Director", row: Any, status: str, actor: str, at: str) -> None:
    d.db.execute("UPDATE held_results SET status = ?, settled_at = ?, settled_by = ? WHERE id = ?",
                 (status, at, actor, row["id"]))
    audit.write(d.db, "held_settled", {"result_key": row["result_key"], "status": status},
                None, None, actor, at, None, row["match_id"])


def settle(d: "Director", result_key: str, status: str, *, actor: str = "director", at: str | None = None) -> None:
    """Mark the held result under ``result_key`` settled (``accepted`` or ``decided``), audited:
    the audit replay's ``held_settled`` (the result itself replays from its own row).  A key
    with no held result is left alone."""
    at = at or now()
    with d.club.transaction():
        row = d.db.execute("SELECT * FROM held_results WHERE result_key = ?", (result_key,)).fetchone()
        if row is not None:
            _settle(d, row, status, actor, at)


def accept(d: "Director", held_id: int | str, *, actor: str = "director", at: str | None = None) -> Any:
    """The director accepts the board's score: stored with its .mat and result key (counts now)."""
    at = at or now()
    with d.club.transaction():
        row = _open_row(d, held_id)
        info = d.record_result(row["event"], row["match_id"], (row["score_a"], row["score_b"]), mat=row["mat"],
                               result_key=row["result_key"], actor=actor, at=at,
                               mat_checked=True)  # replayed to this score when it was held
        _settle(d, row, ACCEPTED, actor, at)
    return info


def decide(d: "Director", held_id: int | str, score: tuple[int, int] | str, *, actor: str = "director",
           at: str | None = None) -> Any:
    """The director enters the right score of a held result (the board's .mat is not kept
    when it ends otherwise)."""
    at = at or now()
    if isinstance(score, str):
        score = parse_score(score)
    with d.club.transaction():
        row = _open_row(d, held_id)
        if tuple(score) == (row["score_a"], row["score_b"]):
            return accept(d, held_id, actor=actor, at=at)
        info = d.record_result(row["event"], row["match_id"], score, actor=actor, at=at)
        _settle(d, row, DECIDED, actor, at)
    return info


__all__ = ["Held", "accept", "board_result", "confirming", "decide", "held", "held_mat", "hold", "settle", "wants_confirmation"]
