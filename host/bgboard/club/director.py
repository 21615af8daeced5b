"""The director's service: every club operation, for the CLI and the web pages alike.

Open a club with ``Director.create(path, name)`` or ``Director.open(path)``.  Each change
runs in one transaction, writes an audit row (who, when, what, before -> after) and takes
``actor`` (a name for the audit log) and ``at`` (an ISO-8601 UTC time; default now).
Events are named by their name, players by their name, matches by their integer id.
Bad input raises :class:`bgboard.errors.InputError` with one sentence; nothing is changed.

Changes:
    add_player(name, rating=1500, experience=0)
    new_event(name, format, length, rounds=None, consolation_length=None, rules="standard",
              clock=None, last_chance=False)                -> EventInfo
    enter(event, names)
    pair_round(event)                                       -> RoundInfo (matches, byes)
    record_result, correct_result, forfeit, withdraw, penalty   (bgboard.club.results)
    set_director_password_hash(hashed)                      (the web pages' login; audited)
Reads:
    check_result(event, match_id, score, mat)               (record_result's checks, no write)
    director_password_hash(), club_name(), players() -> [PlayerInfo], ratings() -> [PlayerInfo], rating_history(name)
    events() -> [EventInfo], event(name) -> EventInfo, rounds(event) -> [RoundInfo]
    matches(event) -> [MatchInfo], match(match_id) -> MatchInfo, match_record(match_id) -> str|None
    assignments(event) -> [Assignment]   (matches to play: id, uuid, players, length, rules,
                                          clock, board, flight, round)
    bracket(event) -> [BracketNode]      (elimination: every node, its players and state)
    standings(event) -> [Standing]       audit(event=None) -> [AuditEntry]
    export(event, out_dir) -> [paths]    recompute_ratings()

Its parts: the views it hands out (:mod:`bgboard.club.views`), the checks of what is typed
(:mod:`bgboard.club.checks`), the queries (:mod:`bgboard.club.db`), results
(:mod:`bgboard.club.results`), the rounds paired (:mod:`bgboard.club.pairing`), the ratings
kept (:mod:`bgboard.club.rating_store`), the audit log (:mod:`bgboard.club.audit`) and its
replay into a new club with the same standings and ratings
(:func:`bgboard.club.operations.replay_audit`, over the table of every audited operation).  The evening around the pairings — check-in, late entries, player edit/remove,
per-event match numbers, payouts, the automatic backup after each round — is
:mod:`bgboard.club.evening`'s (its hooks here: ``check_pairable``, ``number_matches``,
``after_round``, ``after_finish``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bgboard.club import (
    audit, bracket, checks, csv_export, db as queries, evening, formats, pairing, rating_store, results,
)
from bgboard.club.audit import now
from bgboard.club.checks import (
    DEFAULT_CLOCK, MAX_ID, MAX_ROUNDS, RULES, bounded_name, clean_name, resembles,
)
from bgboard.club.db import Club
from bgboard.club.model import ELIMINATION, FORMATS
from bgboard.club.standings import standings as compute_standings
from bgboard.club.views import (
    AuditEntry, BracketNode, EventInfo, MatchInfo, PlayerInfo, Standing,
)
from bgboard.errors import InputError
from bgboard.language import ENGLISH, Words


class Director:
    """The club's operations over one database (module docstring)."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.db = club.conn
        self.last_backup: str | None = None   # what the automatic backup after a round did

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(cls, path: str | Path, name: str, *, actor: str = "director",
               at: str | None = None) -> "Director":
        name = clean_name(name, "the club's name")
        director = cls(Club(path, create=True))
        with director.club.transaction() as db:
            db.execute("INSERT INTO meta VALUES ('name', ?)", (name,))
            audit.write(director.db, "init", {"name": name}, None, {"name": name}, actor, at)
        return director

    @classmethod
    def open(cls, path: str | Path) -> "Director":
        return cls(Club(path))

    def close(self) -> None:
        self.club.close()

    def __enter__(self) -> "Director":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ players
    def director_password_hash(self) -> str | None:
        """The stored hash of the director's web password (None: not set yet)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'director_password'").fetchone()
        return row["value"] if row else None

    def set_director_password_hash(self, hashed: str, *, actor: str = "director",
                                   at: str | None = None) -> None:
        """Store the hash of a new director password (made by bgboard.club.web.password);
        the audit log says it changed, never what it is."""
        if not hashed.startswith("$argon2"):
            raise InputError("the director password must be stored as an argon2 hash")
        with self.club.transaction() as db:
            was_set = self.director_password_hash() is not None
            db.execute("INSERT INTO meta VALUES ('director_password', ?) ON CONFLICT(key)"
                       " DO UPDATE SET value = excluded.value", (hashed,))
            audit.write(self.db, "director-password", {}, {"set": was_set}, {"set": True}, actor, at)
            self.end_director_sessions()   # a new password: every logged-in browser logs in again

    def director_sessions(self) -> str:
        """The token every director login's session carries ("" before the first change):
        a session whose token is not this one has ended (logged out, password changed)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'director_sessions'").fetchone()
        return row["value"] if row else ""

    def end_director_sessions(self) -> None:
        """End every director session, on every browser: a saved cookie no longer works."""
        with self.club.transaction() as db:
            db.execute("INSERT INTO meta VALUES ('director_sessions', ?) ON CONFLICT(key)"
                       " DO UPDATE SET value = excluded.value", (secrets.token_urlsafe(16),))

    def club_name(self) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        return row[0] if row else ""

    def add_player(self, name: str, rating: float = 1500.0, experience: int = 0, *,
                   actor: str = "director", at: str | None = None) -> PlayerInfo:
        name = clean_name(name)
        try:
            rating = float(rating)
            experience = int(experience)
        except (TypeError, ValueError):
            raise InputError("a rating is a number and experience a whole number") from None
        if not 0 < rating < 10000 or rating != rating:
            raise InputError(f"a rating is between 0 and 10000, not {rating}")
        if not 0 <= experience <= 10_000_000:
            raise InputError(f"experience is a whole number of match points from 0, not {experience}")
        with self.club.transaction() as db:
            if db.execute("SELECT 1 FROM players WHERE name = ?", (name,)).fetchone():
                raise InputError(f"there is already a player called {name!r}: names are unique")
            like = resembles(name, (r[0] for r in db.execute("SELECT name FROM players")))
            if like is not None:
                raise InputError(f"{name!r} looks like the player {like!r}: choose a name people can tell apart")
            db.execute("INSERT INTO players (name, start_rating, start_experience, rating,"
                       " experience, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                       (name, rating, experience, rating, experience, at or now()))
            info = {"name": name, "rating": rating, "experience": experience}
            audit.write(self.db, "player_add", info, None, info, actor, at)
        return PlayerInfo(name, rating, experience)

    def players(self) -> list[PlayerInfo]:
        return [PlayerInfo(r["name"], r["rating"], r["experience"]) for r in
                self.db.execute("SELECT * FROM players ORDER BY name COLLATE NOCASE")]

    def ratings(self) -> list[PlayerInfo]:
        """Every player, best rating first."""
        return sorted(self.players(), key=lambda p: (-p.rating, p.name.lower()))

    def rating_history(self, name: str) -> list[dict[str, Any]]:
        return rating_store.history(self.db, queries.player_id(self.db, name))

    # ------------------------------------------------------------------ events
    def new_event(self, name: str, format: str, length: int, rounds: int | None = None,
                  consolation_length: int | None = None, rules: str = "standard",
                  clock: dict[str, int] | None = None, last_chance: bool = False, *,
                  actor: str = "director", at: str | None = None) -> EventInfo:
        name = clean_name(name, "an event's name")
        if format not in FORMATS:
            raise InputError(f"unknown format {format!r}: use one of {', '.join(FORMATS)}")
        for what, n in (("--length", length), ("--consolation-length", consolation_length)):
            if n is not None and not (isinstance(n, int) and 1 <= n <= 99):
                raise InputError(f"{what} is a match length from 1 to 99 points, not {n}")
        if rounds is not None and (format != "swiss" or not (isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS)):
            raise InputError(f"--rounds is a whole number of rounds from 1 to {MAX_ROUNDS}, for a Swiss event only")
        if consolation_length is not None and format != "double-elimination":
            raise InputError("--consolation-length is for a double-elimination event only")
        if last_chance and format != "double-elimination":
            raise InputError("--last-chance is for a double-elimination event only")
        last_chance = bool(last_chance)
        if rules not in RULES:
            raise InputError(f"unknown rule set {rules!r}: use one of {', '.join(RULES)}")
        clock = dict(clock or DEFAULT_CLOCK)
        if set(clock) != set(DEFAULT_CLOCK) or not all(isinstance(v, int) and 0 <= v <= 3600
                                                        for v in clock.values()):
            raise InputError("clock settings are reserve_per_point_s and delay_s, whole seconds up to 3600")
        with self.club.transaction() as db:
            if db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
                raise InputError(f"there is already an event called {name!r}")
            db.execute("INSERT INTO events (name, format, length, consolation_length, rounds, rules,"
                       " clock, last_chance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (name, format, length, consolation_length, rounds, rules,
                        json.dumps(clock, sort_keys=True), int(last_chance), at or now()))
            args = {"name": name, "format": format, "length": length, "rounds": rounds,
                    "consolation_length": consolation_length, "rules": rules, "clock": clock,
                    "last_chance": last_chance}
            audit.write(self.db, "event_new", args, None, args, actor, at)
        return self.event(name)

    def events(self) -> list[EventInfo]:
        return [self.event(r["name"]) for r in self.db.execute("SELECT name FROM events ORDER BY id")]

    def event(self, name: str) -> EventInfo:
        row = queries.event_row(self.db, name)
        names = queries.player_names(self.db)
        players = [names[e.player] for e in sorted(queries.entrants(self.db, row["id"]), key=lambda e: e.seed)]
        return EventInfo(row["name"], row["format"], row["length"], row["consolation_length"],
                         row["rounds"], row["rules"], json.loads(row["clock"]), row["status"], players,
                         bool(row["last_chance"]))

    def enter(self, event: str, names: Sequence[str], *, actor: str = "director",
              at: str | None = None) -> EventInfo:
        if not names:
            raise InputError("name at least one player to enter")
        with self.club.transaction() as db:
            row = queries.event_row(self.db, event)
            if row["status"] != "open":
                raise InputError(f"event {row['name']!r} has started: players can no longer enter")
            for name in names:
                pid = queries.player_id(self.db, name)
                if db.execute("SELECT 1 FROM entries WHERE event_id = ? AND player_id = ?",
                              (row["id"], pid)).fetchone():
                    raise InputError(f"{clean_name(name)} is already entered in {row['name']!r}")
                db.execute("INSERT INTO entries (event_id, player_id, entered_at) VALUES (?, ?, ?)",
                           (row["id"], pid, at or now()))
            audit.write(self.db, "enter", {"event": row["name"], "names": [clean_name(n) for n in names]},
                        None, None, actor, at, row["id"])
        return self.event(event)

    # ------------------------------------------------------------------ rounds
    # Pairing a round, the rounds paired and the matches to play are bgboard.club.pairing's
    # functions, taken as this service's methods (same docstrings).
    pair_round = pairing.pair_round
    rounds = pairing.rounds

    def matches(self, event: str) -> list[MatchInfo]:
        row = queries.event_row(self.db, event)
        names = queries.player_names(self.db)
        numbers = {r["id"]: r["number"] for r in self.db.execute(
            "SELECT id, number FROM rounds WHERE event_id = ?", (row["id"],))}
        return [queries.match_info(self.db, m, names, numbers[m["round_id"]], row["name"]) for m in
                self.db.execute("SELECT * FROM matches WHERE event_id = ? ORDER BY id", (row["id"],))]

    def match(self, match_id: int) -> MatchInfo:
        mid = checks.match_id(match_id)
        row = None if mid > MAX_ID else self.db.execute("SELECT * FROM matches WHERE id = ?", (mid,)).fetchone()
        if row is None:
            raise InputError(f"there is no match {bounded_name(str(match_id).strip())}")
        return queries.match_info(self.db, row)

    def match_record(self, match_id: int) -> str | None:
        """The match's .mat text, when one was reported."""
        mid = checks.match_id(match_id)
        row = None if mid > MAX_ID else self.db.execute("SELECT mat FROM matches WHERE id = ?", (mid,)).fetchone()
        if row is None:
            raise InputError(f"there is no match {bounded_name(str(match_id).strip())}")
        return row["mat"]

    assignments = pairing.assignments

    def bracket(self, event: str) -> list[BracketNode]:
        """Every node of an elimination event's bracket (empty for Swiss / round robin)."""
        row = queries.event_row(self.db, event)
        spec = queries.event_spec(row)
        if spec.format not in ELIMINATION:
            return []
        entrants = queries.entrants(self.db, row["id"])
        seeds = [e.player for e in sorted(entrants, key=lambda e: e.seed)]
        ids = {r["node"]: r["id"] for r in self.db.execute(
            "SELECT node, id FROM matches WHERE event_id = ?", (row["id"],))}
        played = queries.played(self.db, row["id"])
        tree = formats.nodes(spec, len(entrants))
        slots = bracket.resolve(tree, seeds, {p.node: p.winner for p in played})
        names = queries.player_names(self.db)

        def show(x: object) -> str | None:
            return names[x] if isinstance(x, int) else None

        return [BracketNode(n.key, n.flight, n.stage, slots[n.key].state,
                            [show(slots[n.key].a), show(slots[n.key].b)], show(slots[n.key].winner),
                            ids.get(n.key)) for n in tree]

    # ------------------------------------------------------------------ results
    # A match's result, its correction, forfeits, withdrawals and penalties are
    # bgboard.club.results' functions, taken as this service's methods (same docstrings).
    check_result = results.check_result
    record_result = results.record_result
    correct_result = results.correct_result
    forfeit = results.forfeit
    withdraw = results.withdraw
    penalty = results.penalty

    def recompute_ratings(self) -> None:
        """Re-derive every rating and the history from the starting values and the results."""
        rating_store.recompute(self.club)

    # ------------------------------------------------------------------ standings
    def standings(self, event: str) -> list[Standing]:
        ev = queries.event_row(self.db, event)
        names = queries.player_names(self.db)
        penalties = {r["player_id"]: r["points"] for r in self.db.execute(
            "SELECT player_id, SUM(points) AS points FROM penalties WHERE event_id = ?"
            " GROUP BY player_id", (ev["id"],))}
        rows = compute_standings(queries.event_spec(ev), queries.entrants(self.db, ev["id"]),
                                 queries.played(self.db, ev["id"]), penalties)
        return [Standing(r.rank, names[r.player], r.wins, r.losses, r.points_for, r.points_against,
                         r.tiebreaks, r.status) for r in rows]

    def audit(self, event: str | None = None) -> list[AuditEntry]:
        """The audit log: every change, or one event's (:mod:`bgboard.club.audit`)."""
        return audit.entries(self.db, None if event is None else queries.event_row(self.db, event)["id"])

    # ------------------------------------------------------------------ export
    def export(self, event: str, out_dir: str | Path, words: Words = ENGLISH) -> list[Path]:
        """standings.csv, results.csv, mat/<id>.mat, draw.html (the bracket or table, the
        standings) and slips.html (the matches to play, both in ``words``' language) of an
        event in ``out_dir``."""
        info = self.event(event)
        out = Path(out_dir)
        try:
            (out / "mat").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot write to {out} ({exc.strerror}): pick another --out") from None
        standings = self.standings(event)
        matches = self.matches(event)
        written = []
        files = {
            "standings.csv": csv_export.standings_csv(standings),
            "results.csv": csv_export.results_csv(matches),
            "draw.html": evening.draw_sheet(self, info.name, css_text=True, words=words),
            "slips.html": evening.slips_sheet(self, info.name, css_text=True, words=words),
        }
        for m in matches:
            text = self.match_record(m.id)
            if text is not None:
                files[f"mat/{m.id}.mat"] = text
        for rel, text in files.items():
            path = out / rel
            path.write_text(text, encoding="utf-8")
            written.append(path)
        return written


__all__ = ["Director"]
