"""Pairing a round and the rounds paired: the director's :meth:`pair_round` (every match
that can be played now, each given a free board, the byes and walkovers decided at once),
:meth:`rounds` and :meth:`assignments` (the matches to play, with what a board needs to start
them), taken by :class:`~bgboard.club.director.Director` as its methods.  They take the
director as a :class:`~bgboard.club.desk.Desk`, so this module does not import the director
that imports it."""

from __future__ import annotations

import json
import uuid as uuidlib

from bgboard.club import audit, db as queries, evening, formats, results
from bgboard.club.audit import now
from bgboard.club.desk import Desk
from bgboard.club.views import BYE, FORFEIT, PENDING, Assignment, RoundInfo
from bgboard.errors import InputError


def pair_round(d: Desk, event: str, *, actor: str = "director", at: str | None = None) -> RoundInfo:
    """Pair every match that can be played now (a new round) and give each a free board."""
    at = at or now()
    with d.club.transaction() as db:
        row = queries.event_row(d.db, event)
        if row["status"] == "finished":
            raise InputError(f"event {row['name']!r} is finished: see its standings")
        evening.check_pairable(row)
        spec = queries.event_spec(row)
        entrants = queries.entrants(d.db, row["id"])
        formats.check_field(spec, len(entrants))
        played = queries.played(d.db, row["id"])
        pairings = formats.next_pairings(spec, entrants, played)
        if not pairings:
            pending = sum(1 for p in played if p.winner is None)
            raise InputError(f"nothing can be paired in {row['name']!r} now: {pending} "
                             f"match{'es are' if pending != 1 else ' is'} still being played")
        if row["status"] == "open":
            for e in entrants:
                db.execute("UPDATE entries SET seed = ? WHERE event_id = ? AND player_id = ?",
                           (e.seed, row["id"], e.player))
            db.execute("UPDATE events SET status = 'running' WHERE id = ?", (row["id"],))
        number = 1 + (db.execute("SELECT MAX(number) FROM rounds WHERE event_id = ?",
                                 (row["id"],)).fetchone()[0] or 0)
        round_id = db.execute("INSERT INTO rounds (event_id, number, paired_at) VALUES (?, ?, ?) RETURNING id",
                              (row["id"], number, at)).fetchone()[0]
        boards = queries.free_boards(d.db)
        for p in pairings:
            if p.b is None:
                status, winner, board, reason = BYE, p.a, None, None
            elif p.walkover is not None:
                status, winner, board, reason = FORFEIT, p.walkover, None, "withdrawn"
            else:
                status, winner, board, reason = PENDING, None, next(boards), None
            db.execute(
                "INSERT INTO matches (uuid, event_id, round_id, node, flight, player_a, player_b,"
                " length, board, status, winner, forfeit_reason, reported_at, reported_by)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (str(uuidlib.uuid4()), row["id"], round_id, p.node, p.flight, p.a, p.b, p.length,
                 board, status, winner, reason,
                 at if status != PENDING else None, actor if status != PENDING else None))
        evening.number_matches(db, row["id"])
        audit.write(d.db, "pair_round", {"event": row["name"]}, None,
                    {"round": number, "nodes": [p.node for p in pairings]}, actor, at, row["id"])
        results.finish_check(d, row)
    names = queries.player_names(d.db)
    rows = d.db.execute("SELECT * FROM matches WHERE round_id = ? ORDER BY id", (round_id,)).fetchall()
    infos = [queries.match_info(d.db, r, names, number, row["name"]) for r in rows]
    byes = list(dict.fromkeys(m.players[0] for m in infos if m.status == BYE))
    d.last_backup = evening.after_round(d, row["name"], number)
    return RoundInfo(row["name"], number, [m for m in infos if m.status == PENDING],
                     byes, [m for m in infos if m.status == FORFEIT])  # type: ignore[arg-type]


def rounds(d: Desk, event: str) -> list[RoundInfo]:
    """Every round paired so far, its matches (byes apart) and its byes."""
    row = queries.event_row(d.db, event)
    names = queries.player_names(d.db)
    out = []
    for r in d.db.execute("SELECT * FROM rounds WHERE event_id = ? ORDER BY number", (row["id"],)).fetchall():
        infos = [queries.match_info(d.db, m, names, r["number"], row["name"]) for m in
                 d.db.execute("SELECT * FROM matches WHERE round_id = ? ORDER BY id", (r["id"],))]
        byes = list(dict.fromkeys(m.players[0] for m in infos if m.status == BYE))
        out.append(RoundInfo(row["name"], r["number"], [m for m in infos if m.status != BYE],
                             byes))  # type: ignore[arg-type]
    return out


def assignments(d: Desk, event: str) -> list[Assignment]:
    """The matches to be played now, with what a board needs to start them."""
    row = queries.event_row(d.db, event)
    names = queries.player_names(d.db)
    clock = json.loads(row["clock"])
    out = []
    for m in d.db.execute("SELECT m.*, r.number AS round_number FROM matches m JOIN rounds r ON r.id = m.round_id"
                          " WHERE m.event_id = ? AND m.status = 'pending' ORDER BY m.board",
                          (row["id"],)):
        out.append(Assignment(m["id"], m["uuid"], row["name"], m["round_number"], m["board"],
                              [names[m["player_a"]], names[m["player_b"]]], m["length"],
                              m["flight"], row["rules"], clock))
    return out


__all__ = ["assignments", "pair_round", "rounds"]
