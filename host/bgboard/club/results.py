"""A match's result: checked, stored, corrected, forfeited (service, over
:class:`~bgboard.club.director.Director`; its methods of the same names).

    check_result(d, event, match_id, score, mat)             (record_result's checks, no write)
    record_result(d, event, match_id, score, mat=None, result_key=None, mat_checked=False) -> MatchInfo
    correct_result(d, event, match_id, score, mat=None, reason="")       -> MatchInfo
    forfeit(d, event, match_id, winner, reason)                -> MatchInfo
    withdraw(d, event, name, reason)                           (pending matches forfeited)
    penalty(d, event, name, points, reason)

A stored result rates the match at once (:mod:`bgboard.club.rating_store`); a correction or a
forfeit re-derives every rating.  Each change is one transaction with its audit row.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from bgboard.club import audit, bracket, db as queries, evening, formats, rating_store
from bgboard.club.audit import now
from bgboard.club.desk import Desk
from bgboard.club.checks import (
    MAX_MAT, bounded_name, clean_name, clean_text, mat_key, parse_score, shell_word,
)
from bgboard.club.model import ELIMINATION
from bgboard.club.views import BYE, FINISHED, FORFEIT, PENDING, MatchInfo
from bgboard.errors import InputError



def finish_check(d: Desk, event: sqlite3.Row) -> None:
    """Mark the event finished when its last match is decided (after its commit, the evening's
    hook: :func:`bgboard.club.evening.after_finish`)."""
    status = d.db.execute("SELECT status FROM events WHERE id = ?", (event["id"],)).fetchone()[0]
    if status != "running" or d.db.execute(
            "SELECT 1 FROM matches WHERE event_id = ? AND status = 'pending' LIMIT 1",
            (event["id"],)).fetchone():
        return
    if formats.finished(
            queries.event_spec(event), queries.entrants(d.db, event["id"]), queries.played(d.db, event["id"])):
        d.db.execute("UPDATE events SET status = 'finished' WHERE id = ?", (event["id"],))
        d.club.after_commit(lambda: evening.after_finish(d, event["name"]))


def check_score(match: sqlite3.Row, score: tuple[int, int]) -> int:
    """The winner's id of ``match`` ended at ``score`` (one sentence if it is no finished match's score)."""
    a, b = score
    n = match["length"]
    if a < 0 or b < 0 or a > 99 + n or b > 99 + n:
        raise InputError(f"a score is two whole numbers from 0, not {a}-{b}")
    if (a >= n) == (b >= n):
        raise InputError(f"in a {n}-point match exactly one player reaches {n} points; "
                         f"{a}-{b} is not a finished match")
    return match["player_a"] if a >= n else match["player_b"]


def check_mat(conn: sqlite3.Connection, match: sqlite3.Row, rules: str, score: tuple[int, int], mat: str) -> str:
    """``mat`` when it replays under ``rules`` to a finished match of ``match``'s players and
    length ending at ``score`` (one sentence why not otherwise)."""
    from bgboard.match import MATCH_OVER, StartMatch, import_mat, read_mat, replay

    if len(mat) > MAX_MAT:
        raise InputError(f"a .mat record has at most {MAX_MAT} characters")
    try:
        # The strict reading replays every action on the state machine under the rule set
        # the file implies; only an event under other rules needs a second replay (this
        # halves the check's time, and 200 results in one second are bounded by it).
        imported = import_mat(mat, strict=True)
        state = imported.state
        first = imported.actions[0] if imported.actions else None
        if not isinstance(first, StartMatch) or first.rules != rules:
            state = replay(read_mat(mat, rules))
    except InputError as exc:
        raise InputError(f"the .mat record cannot be replayed ({exc}): the result was not stored") from None
    names = queries.player_names(conn)
    a, b = names[match["player_a"]], names[match["player_b"]]
    got = tuple(state.score)
    players = [mat_key(p) for p in state.players]
    if players == [mat_key(b), mat_key(a)]:
        got = got[::-1]
    elif players != [mat_key(a), mat_key(b)]:
        shown = " v ".join(repr(bounded_name(p)) for p in state.players)
        raise InputError(f"the .mat record is a match of {shown}, match {match['id']} is "
                         f"{a!r} v {b!r}: the result was not stored")
    if state.length != match["length"]:
        raise InputError(f"the .mat record is a {state.length}-point match, match {match['id']} "
                         f"is {match['length']} points: the result was not stored")
    if state.phase != MATCH_OVER:
        raise InputError(f"the .mat record ends at {got[0]}-{got[1]} before the match is over: "
                         "the result was not stored")
    if got != tuple(score):
        raise InputError(f"the .mat record ends {got[0]}-{got[1]}, not {score[0]}-{score[1]} as "
                         "reported: the result was not stored")
    return mat


@contextmanager
def _changing(d: Desk, event: str, match_id: int) -> Iterator[tuple[sqlite3.Connection, sqlite3.Row, sqlite3.Row]]:
    """One transaction over an event's match: (the connection, the event's row, the match's row
    as it was), the event and the match found by what a person typed."""
    with d.club.transaction() as db:
        ev = queries.event_row(d.db, event)
        yield db, ev, queries.match_row(d.db, ev, match_id)


def _reread(db: sqlite3.Connection, match: sqlite3.Row) -> sqlite3.Row:
    """The match's row again, after a change to it."""
    return db.execute("SELECT * FROM matches WHERE id = ?", (match["id"],)).fetchone()


def _score(score: tuple[int, int] | str) -> tuple[int, int]:
    return parse_score(score) if isinstance(score, str) else score


def check_result(d: Desk, event: str, match_id: int, score: tuple[int, int], mat: str) -> None:
    """The checks of a board's result that need no writing — the score is a finished
    match's and the .mat replays to it — raising :class:`InputError` as
    :meth:`record_result` would.  The director's MQTT side runs them in worker processes,
    off the one writer, then stores with ``record_result(..., mat_checked=True)``."""
    ev = queries.event_row(d.db, event)
    match = queries.match_row(d.db, ev, match_id)
    if match["status"] == BYE:
        raise InputError(f"match {match['id']} is a bye: it has no result to enter")
    check_score(match, score)
    check_mat(d.db, match, ev["rules"], score, mat)


def record_result(d: Desk, event: str, match_id: int, score: tuple[int, int] | str,
                  mat: str | None = None, result_key: str | None = None, *,
                  actor: str = "director", at: str | None = None,
                  mat_checked: bool = False) -> MatchInfo:
    """Store a match's result (by hand or from a board).  With ``result_key`` the same
    result may arrive any number of times: stored once, repeats are no-ops, a different
    result under the same key (or a second result for the match) is refused.
    ``mat_checked``: :meth:`check_result` already replayed this ``mat`` to this score for
    this match (the .mat is not replayed again inside the transaction)."""
    score = _score(score)
    at = at or now()
    with _changing(d, event, match_id) as (db, ev, match):
        if result_key is not None:
            result_key = clean_text(result_key, "a result key")
            if not result_key:
                raise InputError("a result key cannot be empty")
            other = db.execute("SELECT * FROM matches WHERE result_key = ?", (result_key,)).fetchone()
            if other is not None:
                same = (other["id"] == match["id"] and (other["score_a"], other["score_b"]) == tuple(score)
                        and (mat is None or mat == other["mat"]))
                if same:
                    return queries.match_info(d.db, other)
                raise InputError(f"result {result_key} was already recorded for match {other['id']} "
                                 f"as {other['score_a']}-{other['score_b']}: a different result under "
                                 "the same key is refused (the director can correct the match)")
        if match["status"] == BYE:
            raise InputError(f"match {match['id']} is a bye: it has no result to enter")
        if (result_key is not None and match["status"] == FINISHED and match["result_key"] is None
                and (match["score_a"], match["score_b"]) == tuple(score)):
            # entered by hand while the board was offline: the board's report agrees
            db.execute("UPDATE matches SET result_key = ? WHERE id = ?", (result_key, match["id"]))
            if mat is not None and match["mat"] is None:
                if not mat_checked:
                    mat = check_mat(d.db, match, ev["rules"], score, mat)
                db.execute("UPDATE matches SET mat = ? WHERE id = ?", (mat, match["id"]))
            audit.write(d.db, "result_key", {"event": ev["name"], "node": match["node"],
                                       "result_key": result_key, "mat": mat},
                        None, None, actor, at, ev["id"], match["id"])
            return queries.match_info(d.db, _reread(db, match))
        if match["status"] != PENDING:
            raise InputError(f"match {match['id']} already has a result "
                             f"({_describe(match)}): correct it with "
                             f"'bgboard club result {shell_word(ev['name'])} {match['id']} --score A-B --correct'")
        winner = check_score(match, score)
        if mat is not None and not mat_checked:
            mat = check_mat(d.db, match, ev["rules"], score, mat)
        before = queries.match_snapshot(d.db, match)
        db.execute("UPDATE matches SET status = 'finished', score_a = ?, score_b = ?, winner = ?,"
                   " mat = ?, result_key = ?, reported_at = ?, reported_by = ? WHERE id = ?",
                   (score[0], score[1], winner, mat, result_key, at, actor, match["id"]))
        match = _reread(db, match)
        rating_store.rate_new(d.db, match)
        audit.write(d.db, "result", {"event": ev["name"], "node": match["node"], "score": list(score),
                               "mat": mat, "result_key": result_key},
                    before, queries.match_snapshot(d.db, match), actor, at, ev["id"], match["id"])
        finish_check(d, ev)
    return queries.match_info(d.db, match)


def _describe(match: sqlite3.Row) -> str:
    if match["status"] == FORFEIT:
        return "a forfeit"
    return f"{match['score_a']}-{match['score_b']}"


def _downstream_made(d: Desk, ev: sqlite3.Row, match: sqlite3.Row) -> bool:
    """Whether a later bracket match was already made from this match's winner/loser."""
    spec = queries.event_spec(ev)
    if spec.format not in ELIMINATION:
        return False
    tree = formats.nodes(spec, len(queries.entrants(d.db, ev["id"])))
    made = {r[0] for r in d.db.execute("SELECT node FROM matches WHERE event_id = ?", (ev["id"],))}
    return any(n.key in made and any(s.kind != bracket.SEED and s.ref == match["node"]
                                     for s in n.sources) for n in tree)


def _override(d: Desk, ev: sqlite3.Row, match: sqlite3.Row, winner: int) -> None:
    if match["status"] == BYE:
        raise InputError(f"match {match['id']} is a bye: there is nothing to correct")
    if (match["winner"] is not None and winner != match["winner"]
            and _downstream_made(d, ev, match)):
        raise InputError(f"the winner of match {match['id']} has already been paired in a later "
                         "match: correct the later matches first")


def correct_result(d: Desk, event: str, match_id: int, score: tuple[int, int] | str,
                   mat: str | None = None, reason: str = "", *, actor: str = "director",
                   at: str | None = None) -> MatchInfo:
    """The director changes a match's score (or enters it); ratings are re-derived."""
    score = _score(score)
    at = at or now()
    with _changing(d, event, match_id) as (db, ev, match):
        winner = check_score(match, score)
        _override(d, ev, match, winner)
        if mat is not None:
            mat = check_mat(d.db, match, ev["rules"], score, mat)
        before = queries.match_snapshot(d.db, match)
        seq = match["rated_seq"]
        if seq is None:
            seq = 1 + (db.execute("SELECT MAX(rated_seq) FROM matches").fetchone()[0] or 0)
        db.execute("UPDATE matches SET status = 'finished', score_a = ?, score_b = ?, winner = ?,"
                   " mat = COALESCE(?, mat), forfeit_reason = NULL, rated_seq = ?,"
                   " reported_at = COALESCE(reported_at, ?), reported_by = COALESCE(reported_by, ?)"
                   " WHERE id = ?", (score[0], score[1], winner, mat, seq, at, actor, match["id"]))
        if mat is None and match["mat"] is not None and before["score"] != list(score):
            db.execute("UPDATE matches SET mat = NULL WHERE id = ?", (match["id"],))
        rating_store.recompute(d.club)
        match = _reread(db, match)
        audit.write(d.db, "correct", {"event": ev["name"], "node": match["node"], "score": list(score),
                                "mat": mat, "reason": clean_text(reason, "a reason")},
                    before, queries.match_snapshot(d.db, match), actor, at, ev["id"], match["id"])
        finish_check(d, ev)
    return queries.match_info(d.db, match)


def forfeit(d: Desk, event: str, match_id: int, winner: str, reason: str, *,
            actor: str = "director", at: str | None = None) -> MatchInfo:
    """Award a match to ``winner`` (clock, no-show ...); unrated; ratings re-derived."""
    at = at or now()
    reason = clean_text(reason, "a reason")
    if not reason:
        raise InputError("say why the match is forfeited (--reason), for the audit log")
    with _changing(d, event, match_id) as (db, ev, match):
        wid = queries.player_id(d.db, winner)
        if wid not in (match["player_a"], match["player_b"]) or match["player_b"] is None:
            raise InputError(f"{clean_name(winner)} does not play match {match['id']}")
        _override(d, ev, match, wid)
        before = queries.match_snapshot(d.db, match)
        was_rated = match["rated_seq"] is not None
        db.execute("UPDATE matches SET status = 'forfeit', score_a = NULL, score_b = NULL,"
                   " winner = ?, forfeit_reason = ?, rated_seq = NULL, reported_at = ?,"
                   " reported_by = ? WHERE id = ?", (wid, reason, at, actor, match["id"]))
        if was_rated:
            rating_store.recompute(d.club)
        match = _reread(db, match)
        audit.write(d.db, "forfeit", {"event": ev["name"], "node": match["node"], "winner": clean_name(winner),
                                "reason": reason}, before, queries.match_snapshot(d.db, match), actor, at,
                    ev["id"], match["id"])
        finish_check(d, ev)
    return queries.match_info(d.db, match)


def withdraw(d: Desk, event: str, name: str, reason: str, *, actor: str = "director",
             at: str | None = None) -> list[MatchInfo]:
    """Withdraw a player: his pending matches are forfeited to his opponents, he is not
    paired again (an elimination bracket gives his later opponents a walkover)."""
    at = at or now()
    reason = clean_text(reason, "a reason")
    with d.club.transaction() as db:
        ev = queries.event_row(d.db, event)
        pid = queries.player_id(d.db, name)
        entry = db.execute("SELECT * FROM entries WHERE event_id = ? AND player_id = ?",
                           (ev["id"], pid)).fetchone()
        if entry is None:
            raise InputError(f"{clean_name(name)} is not entered in {ev['name']!r}")
        if entry["withdrawn"]:
            raise InputError(f"{clean_name(name)} has already withdrawn from {ev['name']!r}")
        if ev["status"] == "open":
            db.execute("DELETE FROM entries WHERE event_id = ? AND player_id = ?", (ev["id"], pid))
        else:
            db.execute("UPDATE entries SET withdrawn = 1 WHERE event_id = ? AND player_id = ?",
                       (ev["id"], pid))
        forfeited = []
        for m in db.execute("SELECT * FROM matches WHERE event_id = ? AND status = 'pending'"
                            " AND (player_a = ? OR player_b = ?)", (ev["id"], pid, pid)).fetchall():
            other = m["player_b"] if m["player_a"] == pid else m["player_a"]
            db.execute("UPDATE matches SET status = 'forfeit', winner = ?, forfeit_reason = ?,"
                       " reported_at = ?, reported_by = ? WHERE id = ?",
                       (other, f"withdrawn: {reason}" if reason else "withdrawn", at, actor, m["id"]))
            forfeited.append(m["id"])
        audit.write(d.db, "withdraw", {"event": ev["name"], "name": clean_name(name), "reason": reason},
                    {"withdrawn": False}, {"withdrawn": True, "forfeited": forfeited},
                    actor, at, ev["id"])
        finish_check(d, ev)
    return [d.match(m) for m in forfeited]


def penalty(d: Desk, event: str, name: str, points: int, reason: str, *,
            actor: str = "director", at: str | None = None) -> None:
    """Penalty points against a player: counted as points lost in the standings."""
    at = at or now()
    reason = clean_text(reason, "a reason")
    if not isinstance(points, int) or not 1 <= points <= 99:
        raise InputError(f"penalty points are a whole number from 1 to 99, not {points}")
    with d.club.transaction() as db:
        ev = queries.event_row(d.db, event)
        pid = queries.player_id(d.db, name)
        if not db.execute("SELECT 1 FROM entries WHERE event_id = ? AND player_id = ?",
                          (ev["id"], pid)).fetchone():
            raise InputError(f"{clean_name(name)} is not entered in {ev['name']!r}")
        db.execute("INSERT INTO penalties (event_id, player_id, points, reason, at, actor)"
                   " VALUES (?, ?, ?, ?, ?, ?)", (ev["id"], pid, points, reason, at, actor))
        audit.write(d.db, "penalty", {"event": ev["name"], "name": clean_name(name), "points": points,
                                "reason": reason}, None, {"points": points}, actor, at, ev["id"])


__all__ = ["finish_check", "check_score", "check_mat", "check_result", "record_result", "correct_result",
           "forfeit", "withdraw", "penalty"]
