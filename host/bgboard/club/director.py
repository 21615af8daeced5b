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
    record_result(event, match_id, score, mat=None, result_key=None, mat_checked=False) -> MatchInfo
        once per result_key (a board's result UUID): the same result again is a no-op,
        a different one is refused; a .mat is replayed and must end at ``score``
        (``mat_checked``: check_result already did, off the writer)
    correct_result(event, match_id, score, mat=None, reason="")       -> MatchInfo
    forfeit(event, match_id, winner, reason)                -> MatchInfo
    withdraw(event, name, reason)                           (pending matches forfeited)
    penalty(event, name, points, reason)
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
    replay_audit(entries, path) -> Director  (a new club from an audit log: same standings
                                              and ratings)
The evening around the pairings — check-in, late entries, player edit/remove, per-event
match numbers, payouts, the automatic backup after each round — is :mod:`bgboard.club.evening`'s
(its hooks here: ``check_pairable``, ``number_matches``, ``after_round``, ``after_finish``).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import uuid as uuidlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bgboard.club import bracket, evening, export as exporting, formats
from bgboard.club.db import Club
from bgboard.club.model import (
    ELIMINATION, FORMATS, Entrant, EventSpec, Played,
)
from bgboard.club.ratings import RatedResult, Rating, apply_result, rate
from bgboard.club.standings import standings as compute_standings
from bgboard.errors import InputError

RULES = ("standard", "brainking")
DEFAULT_CLOCK = {"reserve_per_point_s": 120, "delay_s": 12}
MAX_NAME = 60
MAX_ROUNDS = 999  # a Swiss event's rounds (a club evening plays a handful)
MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger match id names no match
MAX_TEXT = 500
MAX_MAT = 4_000_000
PENDING, FINISHED, FORFEIT, BYE = "pending", "finished", "forfeit", "bye"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    rating: float
    experience: int


@dataclass(frozen=True)
class EventInfo:
    name: str
    format: str
    length: int
    consolation_length: int | None
    rounds: int | None
    rules: str
    clock: dict[str, int]
    status: str
    players: list[str]
    last_chance: bool = False


@dataclass(frozen=True)
class MatchInfo:
    id: int
    uuid: str
    event: str
    round: int
    node: str
    flight: str
    players: list[str | None]
    length: int
    board: int | None
    status: str
    score: list[int] | None
    winner: str | None
    forfeit_reason: str | None
    has_mat: bool
    reported_at: str | None
    reported_by: str | None
    number: int | None = None   # the match's number in its event (byes have none)


@dataclass(frozen=True)
class Assignment:
    id: int
    uuid: str
    event: str
    round: int
    board: int | None
    players: list[str]
    length: int
    flight: str
    rules: str
    clock: dict[str, int]


@dataclass(frozen=True)
class RoundInfo:
    event: str
    round: int
    matches: list[MatchInfo]
    byes: list[str]
    walkovers: list[MatchInfo] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The issue's shape: {"event", "round", "matches": [{"id", "board", "players",
        "length", "flight"}], "byes"}."""
        return {"event": self.event, "round": self.round,
                "matches": [{"id": m.id, "board": m.board, "players": m.players,
                             "length": m.length, "flight": m.flight} for m in self.matches],
                "byes": self.byes}


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    wins: int
    losses: int
    points_for: int
    points_against: int
    tiebreaks: dict[str, float]
    status: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BracketNode:
    node: str
    flight: str
    stage: int
    state: str
    players: list[str | None]
    winner: str | None
    match_id: int | None


@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: str
    actor: str
    action: str
    event: str | None
    match_id: int | None
    args: dict[str, Any]
    before: Any
    after: Any


def _name(text: str, what: str = "a player's name") -> str:
    name = " ".join(str(text).split())
    if not name:
        raise InputError(f"{what} cannot be empty")
    if len(name) > MAX_NAME:
        raise InputError(f"{what} has at most {MAX_NAME} characters, {name[:20]!r}... has {len(name)}")
    if any(ord(c) < 32 for c in name):
        raise InputError(f"{what} cannot hold control characters")
    return name


def _match_id(value: object) -> int:
    """A match id as a whole number from 0 (one sentence if it is not one); a number beyond
    SQLite's integers (:data:`MAX_ID`) is no match, never an overflow."""
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or not text.isascii():
        raise InputError(f"a match id is a whole number (as 'bgboard club round' prints it), "
                         f"not {_bounded_name(text)!r}")
    return int(text) if len(text) <= 19 else MAX_ID + 1


def mat_key(name: str) -> str:
    """A player's name as a .mat record can hold it, for comparing: spaces collapsed, case
    folded, cut at a colon (a .mat names line ends a name at its first colon)."""
    return " ".join(str(name).split(":", 1)[0].split()).casefold()


def _bounded_name(name: str) -> str:
    """A name from a file, for a sentence: printable and at most :data:`MAX_NAME` characters."""
    name = "".join(c if c.isprintable() else "?" for c in str(name))
    return name if len(name) <= MAX_NAME else name[:MAX_NAME] + "..."


def _text(text: str, what: str) -> str:
    text = " ".join(str(text).split())
    if len(text) > MAX_TEXT:
        raise InputError(f"{what} has at most {MAX_TEXT} characters")
    return text


def parse_score(text: str) -> tuple[int, int]:
    """'7-3' -> (7, 3) (one sentence if it is not two whole numbers)."""
    parts = str(text).replace(" ", "").split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise InputError(f"a score is written A-B with two whole numbers (like 7-3), not {text!r}")
    return int(parts[0]), int(parts[1])


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
        name = _name(name, "the club's name")
        director = cls(Club(path, create=True))
        with director.club.transaction() as db:
            db.execute("INSERT INTO meta VALUES ('name', ?)", (name,))
            director._audit("init", {"name": name}, None, {"name": name}, actor, at)
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

    # ------------------------------------------------------------------ helpers
    def _audit(self, action: str, args: dict[str, Any], before: Any, after: Any, actor: str,
               at: str | None, event_id: int | None = None, match_id: int | None = None) -> None:
        self.db.execute(
            "INSERT INTO audit (at, actor, action, event_id, match_id, args, before, after)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (at or now(), _name(actor, "the actor's name"), action, event_id, match_id,
             json.dumps(args, sort_keys=True),
             None if before is None else json.dumps(before, sort_keys=True),
             None if after is None else json.dumps(after, sort_keys=True)))

    def _player_id(self, name: str) -> int:
        row = self.db.execute("SELECT id FROM players WHERE name = ?", (_name(name),)).fetchone()
        if row is None:
            raise InputError(f"there is no player {name!r}: add one with 'bgboard club player add'")
        return int(row["id"])

    def _names(self) -> dict[int, str]:
        return {r["id"]: r["name"] for r in self.db.execute("SELECT id, name FROM players")}

    def _event_row(self, event: str) -> sqlite3.Row:
        row = self.db.execute("SELECT * FROM events WHERE name = ?", (" ".join(str(event).split()),)).fetchone()
        if row is None:
            raise InputError(f"there is no event {event!r}: create one with 'bgboard club event new'")
        return row

    @staticmethod
    def _spec(row: sqlite3.Row) -> EventSpec:
        return EventSpec(row["format"], row["length"], row["consolation_length"], row["rounds"],
                         bool(row["last_chance"]))

    def _entrants(self, event_id: int) -> list[Entrant]:
        rows = self.db.execute(
            "SELECT e.player_id, e.seed, e.withdrawn, e.start_score, p.rating, p.name FROM entries e"
            " JOIN players p ON p.id = e.player_id WHERE e.event_id = ?", (event_id,)).fetchall()
        if rows and rows[0]["seed"] is None:
            # not yet seeded: by rating, best first (then by name)
            rows = sorted(rows, key=lambda r: (-r["rating"], r["name"].lower()))
            return [Entrant(r["player_id"], i, bool(r["withdrawn"]), r["start_score"])
                    for i, r in enumerate(rows, 1)]
        return [Entrant(r["player_id"], r["seed"], bool(r["withdrawn"]), r["start_score"]) for r in rows]

    def _played(self, event_id: int) -> list[Played]:
        rows = self.db.execute(
            "SELECT m.*, r.number AS round_number FROM matches m JOIN rounds r ON r.id = m.round_id"
            " WHERE m.event_id = ? ORDER BY m.id", (event_id,)).fetchall()
        return [Played(r["node"], r["flight"], r["round_number"], r["player_a"], r["player_b"],
                       r["winner"],
                       (r["score_a"], r["score_b"]) if r["score_a"] is not None else None,
                       r["status"] == FORFEIT) for r in rows]

    def _match_row(self, event: sqlite3.Row, match_id: int | str) -> sqlite3.Row:
        mid = _match_id(match_id)
        row = None if mid > MAX_ID else self.db.execute("SELECT * FROM matches WHERE id = ? AND event_id = ?",
                              (mid, event["id"])).fetchone()
        if row is None:
            raise InputError(f"event {event['name']!r} has no match {_bounded_name(str(match_id).strip())}: "
                             f"'bgboard club round {evening.shell_word(event['name'])} --json' lists its matches")
        return row

    def _info(self, row: sqlite3.Row, names: dict[int, str] | None = None,
              number: int | None = None, event: str | None = None) -> MatchInfo:
        names = names or self._names()
        number = number if number is not None else int(self.db.execute(
            "SELECT number FROM rounds WHERE id = ?", (row["round_id"],)).fetchone()[0])
        event = event if event is not None else str(self.db.execute(
            "SELECT name FROM events WHERE id = ?", (row["event_id"],)).fetchone()[0])
        return MatchInfo(
            row["id"], row["uuid"], event, number, row["node"], row["flight"],
            [names[row["player_a"]], names.get(row["player_b"]) if row["player_b"] else None],
            row["length"], row["board"], row["status"],
            [row["score_a"], row["score_b"]] if row["score_a"] is not None else None,
            names.get(row["winner"]) if row["winner"] else None,
            row["forfeit_reason"], row["mat"] is not None, row["reported_at"], row["reported_by"],
            row["number"])

    def _snapshot(self, row: sqlite3.Row) -> dict[str, Any]:
        winner = None
        if row["winner"]:
            winner = self.db.execute("SELECT name FROM players WHERE id = ?", (row["winner"],)).fetchone()[0]
        return {"status": row["status"],
                "score": [row["score_a"], row["score_b"]] if row["score_a"] is not None else None,
                "winner": winner, "forfeit_reason": row["forfeit_reason"]}

    def _finish_check(self, event: sqlite3.Row) -> None:
        status = self.db.execute("SELECT status FROM events WHERE id = ?", (event["id"],)).fetchone()[0]
        if status != "running" or self.db.execute(
                "SELECT 1 FROM matches WHERE event_id = ? AND status = 'pending' LIMIT 1",
                (event["id"],)).fetchone():
            return
        if formats.finished(
                self._spec(event), self._entrants(event["id"]), self._played(event["id"])):
            self.db.execute("UPDATE events SET status = 'finished' WHERE id = ?", (event["id"],))
            self.club.after_commit(lambda: evening.after_finish(self, event["name"]))

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
            self._audit("director-password", {}, {"set": was_set}, {"set": True}, actor, at)
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
        name = _name(name)
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
            db.execute("INSERT INTO players (name, start_rating, start_experience, rating,"
                       " experience, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                       (name, rating, experience, rating, experience, at or now()))
            info = {"name": name, "rating": rating, "experience": experience}
            self._audit("player_add", info, None, info, actor, at)
        return PlayerInfo(name, rating, experience)

    def players(self) -> list[PlayerInfo]:
        return [PlayerInfo(r["name"], r["rating"], r["experience"]) for r in
                self.db.execute("SELECT * FROM players ORDER BY name COLLATE NOCASE")]

    def ratings(self) -> list[PlayerInfo]:
        """Every player, best rating first."""
        return sorted(self.players(), key=lambda p: (-p.rating, p.name.lower()))

    def rating_history(self, name: str) -> list[dict[str, Any]]:
        pid = self._player_id(name)
        return [dict(r) for r in self.db.execute(
            "SELECT match_id, rating_before, rating_after, experience_before, experience_after"
            " FROM rating_history WHERE player_id = ? ORDER BY id", (pid,))]

    # ------------------------------------------------------------------ events
    def new_event(self, name: str, format: str, length: int, rounds: int | None = None,
                  consolation_length: int | None = None, rules: str = "standard",
                  clock: dict[str, int] | None = None, last_chance: bool = False, *,
                  actor: str = "director", at: str | None = None) -> EventInfo:
        name = _name(name, "an event's name")
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
            self._audit("event_new", args, None, args, actor, at)
        return self.event(name)

    def events(self) -> list[EventInfo]:
        return [self.event(r["name"]) for r in self.db.execute("SELECT name FROM events ORDER BY id")]

    def event(self, name: str) -> EventInfo:
        row = self._event_row(name)
        names = self._names()
        players = [names[e.player] for e in sorted(self._entrants(row["id"]), key=lambda e: e.seed)]
        return EventInfo(row["name"], row["format"], row["length"], row["consolation_length"],
                         row["rounds"], row["rules"], json.loads(row["clock"]), row["status"], players,
                         bool(row["last_chance"]))

    def enter(self, event: str, names: Sequence[str], *, actor: str = "director",
              at: str | None = None) -> EventInfo:
        if not names:
            raise InputError("name at least one player to enter")
        with self.club.transaction() as db:
            row = self._event_row(event)
            if row["status"] != "open":
                raise InputError(f"event {row['name']!r} has started: players can no longer enter")
            for name in names:
                pid = self._player_id(name)
                if db.execute("SELECT 1 FROM entries WHERE event_id = ? AND player_id = ?",
                              (row["id"], pid)).fetchone():
                    raise InputError(f"{_name(name)} is already entered in {row['name']!r}")
                db.execute("INSERT INTO entries (event_id, player_id, entered_at) VALUES (?, ?, ?)",
                           (row["id"], pid, at or now()))
            self._audit("enter", {"event": row["name"], "names": [_name(n) for n in names]},
                        None, None, actor, at, row["id"])
        return self.event(event)

    # ------------------------------------------------------------------ rounds
    def _free_boards(self) -> Iterator[int]:
        used = {r[0] for r in self.db.execute(
            "SELECT board FROM matches WHERE status = 'pending' AND board IS NOT NULL")}
        n = 1
        while True:
            if n not in used:
                yield n
            n += 1

    def pair_round(self, event: str, *, actor: str = "director", at: str | None = None) -> RoundInfo:
        """Pair every match that can be played now (a new round) and give each a free board."""
        at = at or now()
        with self.club.transaction() as db:
            row = self._event_row(event)
            if row["status"] == "finished":
                raise InputError(f"event {row['name']!r} is finished: see its standings")
            evening.check_pairable(row)
            spec = self._spec(row)
            entrants = self._entrants(row["id"])
            formats.check_field(spec, len(entrants))
            played = self._played(row["id"])
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
            round_id = db.execute("INSERT INTO rounds (event_id, number, paired_at) VALUES (?, ?, ?)",
                                  (row["id"], number, at)).lastrowid
            boards = iter(self._free_boards())
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
            self._audit("pair_round", {"event": row["name"]}, None,
                        {"round": number, "nodes": [p.node for p in pairings]}, actor, at, row["id"])
            self._finish_check(row)
        names = self._names()
        rows = self.db.execute("SELECT * FROM matches WHERE round_id = ? ORDER BY id", (round_id,)).fetchall()
        infos = [self._info(r, names, number, row["name"]) for r in rows]
        byes = list(dict.fromkeys(m.players[0] for m in infos if m.status == BYE))
        self.last_backup = evening.after_round(self, row["name"], number)
        return RoundInfo(row["name"], number, [m for m in infos if m.status == PENDING],
                         byes, [m for m in infos if m.status == FORFEIT])  # type: ignore[arg-type]

    def rounds(self, event: str) -> list[RoundInfo]:
        row = self._event_row(event)
        names = self._names()
        out = []
        for r in self.db.execute("SELECT * FROM rounds WHERE event_id = ? ORDER BY number", (row["id"],)).fetchall():
            infos = [self._info(m, names, r["number"], row["name"]) for m in
                     self.db.execute("SELECT * FROM matches WHERE round_id = ? ORDER BY id", (r["id"],))]
            byes = list(dict.fromkeys(m.players[0] for m in infos if m.status == BYE))
            out.append(RoundInfo(row["name"], r["number"], [m for m in infos if m.status != BYE],
                                 byes))  # type: ignore[arg-type]
        return out

    def matches(self, event: str) -> list[MatchInfo]:
        row = self._event_row(event)
        names = self._names()
        numbers = {r["id"]: r["number"] for r in self.db.execute(
            "SELECT id, number FROM rounds WHERE event_id = ?", (row["id"],))}
        return [self._info(m, names, numbers[m["round_id"]], row["name"]) for m in
                self.db.execute("SELECT * FROM matches WHERE event_id = ? ORDER BY id", (row["id"],))]

    def _node_id(self, event: str, node: str) -> int:
        ev = self._event_row(event)
        row = self.db.execute("SELECT id FROM matches WHERE event_id = ? AND node = ?",
                              (ev["id"], node)).fetchone()
        if row is None:
            raise InputError(f"event {event!r} has no match {node}")
        return int(row[0])

    def match(self, match_id: int) -> MatchInfo:
        mid = _match_id(match_id)
        row = None if mid > MAX_ID else self.db.execute("SELECT * FROM matches WHERE id = ?", (mid,)).fetchone()
        if row is None:
            raise InputError(f"there is no match {_bounded_name(str(match_id).strip())}")
        return self._info(row)

    def match_record(self, match_id: int) -> str | None:
        """The match's .mat text, when one was reported."""
        mid = _match_id(match_id)
        row = None if mid > MAX_ID else self.db.execute("SELECT mat FROM matches WHERE id = ?", (mid,)).fetchone()
        if row is None:
            raise InputError(f"there is no match {_bounded_name(str(match_id).strip())}")
        return row["mat"]

    def assignments(self, event: str) -> list[Assignment]:
        """The matches to be played now, with what a board needs to start them."""
        row = self._event_row(event)
        names = self._names()
        clock = json.loads(row["clock"])
        out = []
        for m in self.db.execute("SELECT m.*, r.number AS round_number FROM matches m JOIN rounds r ON r.id = m.round_id"
                                 " WHERE m.event_id = ? AND m.status = 'pending' ORDER BY m.board",
                                 (row["id"],)):
            out.append(Assignment(m["id"], m["uuid"], row["name"], m["round_number"], m["board"],
                                  [names[m["player_a"]], names[m["player_b"]]], m["length"],
                                  m["flight"], row["rules"], clock))
        return out

    def bracket(self, event: str) -> list[BracketNode]:
        """Every node of an elimination event's bracket (empty for Swiss / round robin)."""
        row = self._event_row(event)
        spec = self._spec(row)
        if spec.format not in ELIMINATION:
            return []
        entrants = self._entrants(row["id"])
        seeds = [e.player for e in sorted(entrants, key=lambda e: e.seed)]
        ids = {r["node"]: r["id"] for r in self.db.execute(
            "SELECT node, id FROM matches WHERE event_id = ?", (row["id"],))}
        played = self._played(row["id"])
        tree = formats.nodes(spec, len(entrants))
        slots = bracket.resolve(tree, seeds, {p.node: p.winner for p in played})
        names = self._names()

        def show(x: object) -> str | None:
            return names[x] if isinstance(x, int) else None

        return [BracketNode(n.key, n.flight, n.stage, slots[n.key].state,
                            [show(slots[n.key].a), show(slots[n.key].b)], show(slots[n.key].winner),
                            ids.get(n.key)) for n in tree]

    # ------------------------------------------------------------------ results
    def _check_score(self, match: sqlite3.Row, score: tuple[int, int]) -> int:
        a, b = score
        n = match["length"]
        if a < 0 or b < 0 or a > 99 + n or b > 99 + n:
            raise InputError(f"a score is two whole numbers from 0, not {a}-{b}")
        if (a >= n) == (b >= n):
            raise InputError(f"in a {n}-point match exactly one player reaches {n} points; "
                             f"{a}-{b} is not a finished match")
        return match["player_a"] if a >= n else match["player_b"]

    def _check_mat(self, match: sqlite3.Row, rules: str, score: tuple[int, int], mat: str) -> str:
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
        names = self._names()
        a, b = names[match["player_a"]], names[match["player_b"]]
        got = tuple(state.score)
        players = [mat_key(p) for p in state.players]
        if players == [mat_key(b), mat_key(a)]:
            got = got[::-1]
        elif players != [mat_key(a), mat_key(b)]:
            shown = " v ".join(repr(_bounded_name(p)) for p in state.players)
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

    def _rate_new(self, match: sqlite3.Row) -> None:
        """Rate a newly finished match on top of the current ratings (it is the last result)."""
        seq = 1 + (self.db.execute("SELECT MAX(rated_seq) FROM matches").fetchone()[0] or 0)
        self.db.execute("UPDATE matches SET rated_seq = ? WHERE id = ?", (seq, match["id"]))
        winner = match["winner"]
        loser = match["player_b"] if winner == match["player_a"] else match["player_a"]
        ratings = {r["id"]: Rating(r["rating"], r["experience"]) for r in self.db.execute(
            "SELECT id, rating, experience FROM players WHERE id IN (?, ?)", (winner, loser))}
        for change in apply_result(ratings, RatedResult(match["id"], winner, loser, match["length"])):
            self._store_change(change)

    def _store_change(self, change: Any) -> None:
        self.db.execute("UPDATE players SET rating = ?, experience = ? WHERE id = ?",
                        (change.after.rating, change.after.experience, change.player))
        self.db.execute("INSERT INTO rating_history (player_id, match_id, rating_before, rating_after,"
                        " experience_before, experience_after) VALUES (?, ?, ?, ?, ?, ?)",
                        (change.player, change.match_id, change.before.rating, change.after.rating,
                         change.before.experience, change.after.experience))

    def recompute_ratings(self) -> None:
        """Re-derive every rating and the history from the starting values and the results."""
        with self.club.transaction() as db:
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
            for change in history:
                db.execute("INSERT INTO rating_history (player_id, match_id, rating_before, rating_after,"
                           " experience_before, experience_after) VALUES (?, ?, ?, ?, ?, ?)",
                           (change.player, change.match_id, change.before.rating, change.after.rating,
                            change.before.experience, change.after.experience))

    def check_result(self, event: str, match_id: int, score: tuple[int, int], mat: str) -> None:
        """The checks of a board's result that need no writing — the score is a finished
        match's and the .mat replays to it — raising :class:`InputError` as
        :meth:`record_result` would.  The director's MQTT side runs them in worker processes,
        off the one writer, then stores with ``record_result(..., mat_checked=True)``."""
        ev = self._event_row(event)
        match = self._match_row(ev, match_id)
        if match["status"] == BYE:
            raise InputError(f"match {match['id']} is a bye: it has no result to enter")
        self._check_score(match, score)
        self._check_mat(match, ev["rules"], score, mat)

    def record_result(self, event: str, match_id: int, score: tuple[int, int] | str,
                      mat: str | None = None, result_key: str | None = None, *,
                      actor: str = "director", at: str | None = None,
                      mat_checked: bool = False) -> MatchInfo:
        """Store a match's result (by hand or from a board).  With ``result_key`` the same
        result may arrive any number of times: stored once, repeats are no-ops, a different
        result under the same key (or a second result for the match) is refused.
        ``mat_checked``: :meth:`check_result` already replayed this ``mat`` to this score for
        this match (the .mat is not replayed again inside the transaction)."""
        if isinstance(score, str):
            score = parse_score(score)
        at = at or now()
        with self.club.transaction() as db:
            ev = self._event_row(event)
            match = self._match_row(ev, match_id)
            if result_key is not None:
                result_key = _text(result_key, "a result key")
                if not result_key:
                    raise InputError("a result key cannot be empty")
                other = db.execute("SELECT * FROM matches WHERE result_key = ?", (result_key,)).fetchone()
                if other is not None:
                    same = (other["id"] == match["id"] and (other["score_a"], other["score_b"]) == tuple(score)
                            and (mat is None or mat == other["mat"]))
                    if same:
                        return self._info(other)
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
                        mat = self._check_mat(match, ev["rules"], score, mat)
                    db.execute("UPDATE matches SET mat = ? WHERE id = ?", (mat, match["id"]))
                self._audit("result_key", {"event": ev["name"], "node": match["node"],
                                           "result_key": result_key, "mat": mat},
                            None, None, actor, at, ev["id"], match["id"])
                return self._info(db.execute("SELECT * FROM matches WHERE id = ?", (match["id"],)).fetchone())
            if match["status"] != PENDING:
                raise InputError(f"match {match['id']} already has a result "
                                 f"({self._describe(match)}): correct it with "
                                 f"'bgboard club result {evening.shell_word(ev['name'])} {match['id']} --score A-B --correct'")
            winner = self._check_score(match, score)
            if mat is not None and not mat_checked:
                mat = self._check_mat(match, ev["rules"], score, mat)
            before = self._snapshot(match)
            db.execute("UPDATE matches SET status = 'finished', score_a = ?, score_b = ?, winner = ?,"
                       " mat = ?, result_key = ?, reported_at = ?, reported_by = ? WHERE id = ?",
                       (score[0], score[1], winner, mat, result_key, at, actor, match["id"]))
            match = db.execute("SELECT * FROM matches WHERE id = ?", (match["id"],)).fetchone()
            self._rate_new(match)
            self._audit("result", {"event": ev["name"], "node": match["node"], "score": list(score),
                                   "mat": mat, "result_key": result_key},
                        before, self._snapshot(match), actor, at, ev["id"], match["id"])
            self._finish_check(ev)
        return self._info(match)

    def _describe(self, match: sqlite3.Row) -> str:
        if match["status"] == FORFEIT:
            return "a forfeit"
        return f"{match['score_a']}-{match['score_b']}"

    def _downstream_made(self, ev: sqlite3.Row, match: sqlite3.Row) -> bool:
        """Whether a later bracket match was already made from this match's winner/loser."""
        spec = self._spec(ev)
        if spec.format not in ELIMINATION:
            return False
        tree = formats.nodes(spec, len(self._entrants(ev["id"])))
        made = {r[0] for r in self.db.execute("SELECT node FROM matches WHERE event_id = ?", (ev["id"],))}
        return any(n.key in made and any(s.kind != bracket.SEED and s.ref == match["node"]
                                         for s in n.sources) for n in tree)

    def _override(self, ev: sqlite3.Row, match: sqlite3.Row, winner: int) -> None:
        if match["status"] == BYE:
            raise InputError(f"match {match['id']} is a bye: there is nothing to correct")
        if (match["winner"] is not None and winner != match["winner"]
                and self._downstream_made(ev, match)):
            raise InputError(f"the winner of match {match['id']} has already been paired in a later "
                             "match: correct the later matches first")

    def correct_result(self, event: str, match_id: int, score: tuple[int, int] | str,
                       mat: str | None = None, reason: str = "", *, actor: str = "director",
                       at: str | None = None) -> MatchInfo:
        """The director changes a match's score (or enters it); ratings are re-derived."""
        if isinstance(score, str):
            score = parse_score(score)
        at = at or now()
        with self.club.transaction() as db:
            ev = self._event_row(event)
            match = self._match_row(ev, match_id)
            winner = self._check_score(match, score)
            self._override(ev, match, winner)
            if mat is not None:
                mat = self._check_mat(match, ev["rules"], score, mat)
            before = self._snapshot(match)
            seq = match["rated_seq"]
            if seq is None:
                seq = 1 + (db.execute("SELECT MAX(rated_seq) FROM matches").fetchone()[0] or 0)
            db.execute("UPDATE matches SET status = 'finished', score_a = ?, score_b = ?, winner = ?,"
                       " mat = COALESCE(?, mat), forfeit_reason = NULL, rated_seq = ?,"
                       " reported_at = COALESCE(reported_at, ?), reported_by = COALESCE(reported_by, ?)"
                       " WHERE id = ?", (score[0], score[1], winner, mat, seq, at, actor, match["id"]))
            if mat is None and match["mat"] is not None and before["score"] != list(score):
                db.execute("UPDATE matches SET mat = NULL WHERE id = ?", (match["id"],))
            self.recompute_ratings()
            match = db.execute("SELECT * FROM matches WHERE id = ?", (match["id"],)).fetchone()
            self._audit("correct", {"event": ev["name"], "node": match["node"], "score": list(score),
                                    "mat": mat, "reason": _text(reason, "a reason")},
                        before, self._snapshot(match), actor, at, ev["id"], match["id"])
            self._finish_check(ev)
        return self._info(match)

    def forfeit(self, event: str, match_id: int, winner: str, reason: str, *,
                actor: str = "director", at: str | None = None) -> MatchInfo:
        """Award a match to ``winner`` (clock, no-show ...); unrated; ratings re-derived."""
        at = at or now()
        reason = _text(reason, "a reason")
        if not reason:
            raise InputError("say why the match is forfeited (--reason), for the audit log")
        with self.club.transaction() as db:
            ev = self._event_row(event)
            match = self._match_row(ev, match_id)
            wid = self._player_id(winner)
            if wid not in (match["player_a"], match["player_b"]) or match["player_b"] is None:
                raise InputError(f"{_name(winner)} does not play match {match['id']}")
            self._override(ev, match, wid)
            before = self._snapshot(match)
            was_rated = match["rated_seq"] is not None
            db.execute("UPDATE matches SET status = 'forfeit', score_a = NULL, score_b = NULL,"
                       " winner = ?, forfeit_reason = ?, rated_seq = NULL, reported_at = ?,"
                       " reported_by = ? WHERE id = ?", (wid, reason, at, actor, match["id"]))
            if was_rated:
                self.recompute_ratings()
            match = db.execute("SELECT * FROM matches WHERE id = ?", (match["id"],)).fetchone()
            self._audit("forfeit", {"event": ev["name"], "node": match["node"], "winner": _name(winner),
                                    "reason": reason}, before, self._snapshot(match), actor, at,
                        ev["id"], match["id"])
            self._finish_check(ev)
        return self._info(match)

    def withdraw(self, event: str, name: str, reason: str, *, actor: str = "director",
                 at: str | None = None) -> list[MatchInfo]:
        """Withdraw a player: his pending matches are forfeited to his opponents, he is not
        paired again (an elimination bracket gives his later opponents a walkover)."""
        at = at or now()
        reason = _text(reason, "a reason")
        with self.club.transaction() as db:
            ev = self._event_row(event)
            pid = self._player_id(name)
            entry = db.execute("SELECT * FROM entries WHERE event_id = ? AND player_id = ?",
                               (ev["id"], pid)).fetchone()
            if entry is None:
                raise InputError(f"{_name(name)} is not entered in {ev['name']!r}")
            if entry["withdrawn"]:
                raise InputError(f"{_name(name)} has already withdrawn from {ev['name']!r}")
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
            self._audit("withdraw", {"event": ev["name"], "name": _name(name), "reason": reason},
                        {"withdrawn": False}, {"withdrawn": True, "forfeited": forfeited},
                        actor, at, ev["id"])
            self._finish_check(ev)
        return [self.match(m) for m in forfeited]

    def penalty(self, event: str, name: str, points: int, reason: str, *,
                actor: str = "director", at: str | None = None) -> None:
        """Penalty points against a player: counted as points lost in the standings."""
        at = at or now()
        reason = _text(reason, "a reason")
        if not isinstance(points, int) or not 1 <= points <= 99:
            raise InputError(f"penalty points are a whole number from 1 to 99, not {points}")
        with self.club.transaction() as db:
            ev = self._event_row(event)
            pid = self._player_id(name)
            if not db.execute("SELECT 1 FROM entries WHERE event_id = ? AND player_id = ?",
                              (ev["id"], pid)).fetchone():
                raise InputError(f"{_name(name)} is not entered in {ev['name']!r}")
            db.execute("INSERT INTO penalties (event_id, player_id, points, reason, at, actor)"
                       " VALUES (?, ?, ?, ?, ?, ?)", (ev["id"], pid, points, reason, at, actor))
            self._audit("penalty", {"event": ev["name"], "name": _name(name), "points": points,
                                    "reason": reason}, None, {"points": points}, actor, at, ev["id"])

    # ------------------------------------------------------------------ standings
    def standings(self, event: str) -> list[Standing]:
        ev = self._event_row(event)
        names = self._names()
        penalties = {r["player_id"]: r["points"] for r in self.db.execute(
            "SELECT player_id, SUM(points) AS points FROM penalties WHERE event_id = ?"
            " GROUP BY player_id", (ev["id"],))}
        rows = compute_standings(self._spec(ev), self._entrants(ev["id"]), self._played(ev["id"]),
                                 penalties)
        return [Standing(r.rank, names[r.player], r.wins, r.losses, r.points_for, r.points_against,
                         r.tiebreaks, r.status) for r in rows]

    def audit(self, event: str | None = None) -> list[AuditEntry]:
        names = {r["id"]: r["name"] for r in self.db.execute("SELECT id, name FROM events")}
        query = "SELECT * FROM audit"
        params: tuple[Any, ...] = ()
        if event is not None:
            query += " WHERE event_id = ?"
            params = (self._event_row(event)["id"],)
        return [AuditEntry(r["id"], r["at"], r["actor"], r["action"], names.get(r["event_id"]),
                           r["match_id"], json.loads(r["args"]),
                           json.loads(r["before"]) if r["before"] else None,
                           json.loads(r["after"]) if r["after"] else None)
                for r in self.db.execute(query + " ORDER BY id", params)]

    # ------------------------------------------------------------------ export
    def export(self, event: str, out_dir: str | Path) -> list[Path]:
        """standings.csv, results.csv, mat/<id>.mat, draw.html (the bracket or table, the
        standings) and slips.html (the matches to play) of an event in ``out_dir``."""
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
            "standings.csv": exporting.standings_csv(standings),
            "results.csv": exporting.results_csv(matches),
            "draw.html": evening.draw_sheet(self, info.name, css_text=True),
            "slips.html": evening.slips_sheet(self, info.name, css_text=True),
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


def replay_audit(entries: Sequence[AuditEntry], path: str | Path) -> Director:
    """A new club at ``path`` made by re-running every change of an audit log, in order:
    its standings and ratings equal the original's (they are derived from the changes)."""
    director: Director | None = None
    for e in entries:
        a = e.args
        if e.action == "init":
            director = Director.create(path, a["name"], actor=e.actor, at=e.at)
            continue
        if director is None:
            raise InputError("an audit log starts with the club's 'init'")
        kw: dict[str, Any] = {"actor": e.actor, "at": e.at}
        if e.action == "player_add":
            director.add_player(a["name"], a["rating"], a["experience"], **kw)
        elif e.action == "event_new":
            director.new_event(a["name"], a["format"], a["length"], a["rounds"],
                               a["consolation_length"], a["rules"], a["clock"],
                               a.get("last_chance", False), **kw)
        elif e.action == "enter":
            director.enter(a["event"], a["names"], **kw)
        elif e.action == "pair_round":
            director.pair_round(a["event"], **kw)
        elif e.action in ("result", "correct", "forfeit"):
            mid = director._node_id(a["event"], a["node"])
            if e.action == "result":
                director.record_result(a["event"], mid, tuple(a["score"]), a["mat"], a["result_key"], **kw)
            elif e.action == "correct":
                director.correct_result(a["event"], mid, tuple(a["score"]), a["mat"], a["reason"], **kw)
            else:
                director.forfeit(a["event"], mid, a["winner"], a["reason"], **kw)
        elif e.action == "result_key":
            mid = director._node_id(a["event"], a["node"])
            score = director.match(mid).score or [0, 0]
            director.record_result(a["event"], mid, (score[0], score[1]), a["mat"], a["result_key"], **kw)
        elif e.action == "withdraw":
            director.withdraw(a["event"], a["name"], a["reason"], **kw)
        elif e.action == "penalty":
            director.penalty(a["event"], a["name"], a["points"], a["reason"], **kw)
        elif e.action == "director-password":
            continue  # the log never holds the hash: the new club sets its own password
        elif not evening.replay(director, e):
            raise InputError(f"unknown audit action {e.action!r}")
    if director is None:
        raise InputError("the audit log is empty")
    return director

__all__ = ["Director", "replay_audit", "parse_score", "PlayerInfo", "EventInfo", "MatchInfo",
           "Assignment", "RoundInfo", "Standing", "BracketNode", "AuditEntry"]
