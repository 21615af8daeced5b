"""The federation's database (adapter): PostgreSQL through psycopg 3, versioned migrations.

:class:`Ledger` opens (and migrates) the federation's database at a ``postgresql://``
address.  The schema version is ``meta.schema``; each entry of :data:`MIGRATIONS` takes the
database one version up inside one transaction (a second process migrating at the same time
waits on the advisory lock and finds the work done).  Every result is stored once by its
club and id (the primary key; :meth:`Ledger.store` inserts with ``ON CONFLICT DO NOTHING`` and
says ``stored`` or ``duplicate`` for each), in one transaction per batch, committed before any
club hears an answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from bgboard.errors import EnvironmentFailure, InputError
from bgboard.federation.stored_result import StoredResult
from bgboard.net.results_feed import ClubResult

MIGRATIONS: tuple[str, ...] = (
    # 1: the whole first schema
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE clubs (
        name TEXT PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        joined_at TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE members (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        home_club TEXT,
        added_at TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE results (
        club TEXT NOT NULL REFERENCES clubs(name),
        id TEXT NOT NULL,
        event TEXT NOT NULL,
        match BIGINT NOT NULL,
        player_a TEXT NOT NULL,
        player_b TEXT NOT NULL,
        member_a TEXT,
        member_b TEXT,
        length INTEGER NOT NULL,
        score_a INTEGER,
        score_b INTEGER,
        winner SMALLINT NOT NULL,
        rated BOOLEAN NOT NULL,
        seq BIGINT NOT NULL,
        played_at TIMESTAMPTZ NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        stored_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
        corrected_at TIMESTAMPTZ,
        PRIMARY KEY (club, id)
    );
    CREATE INDEX results_played ON results (played_at, club, seq);
    CREATE TABLE seasons (
        name TEXT PRIMARY KEY,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE counted_events (
        season TEXT NOT NULL REFERENCES seasons(name),
        club TEXT NOT NULL REFERENCES clubs(name),
        event TEXT NOT NULL,
        PRIMARY KEY (season, club, event)
    );
    """,
)
SCHEMA = len(MIGRATIONS)
_LOCK = 3636  # the advisory lock the migrations take (issue 36)


class LedgerUnavailableError(EnvironmentFailure):
    """The federation's database cannot be reached or used now (one sentence)."""


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - the extra is part of the test install
        raise LedgerUnavailableError(f"the federation needs the 'postgres' extra ({exc.name} is missing): "
                                     "pip install 'bgboard[postgres]'") from None
    return psycopg


def _sentence(exc: Exception, url: str) -> LedgerUnavailableError:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return LedgerUnavailableError(f"the federation's database cannot be used ({first[:200]}): check that "
                                  f"PostgreSQL runs and the address {shown_url(url)} is right")


def shown_url(url: str) -> str:
    """An address as it may be printed (a password in it replaced by ***)."""
    head, at, tail = url.partition("@")
    if at and ":" in head.split("//", 1)[-1]:
        user = head.split("//", 1)[-1].split(":", 1)[0]
        return f"{head.split('//', 1)[0]}//{user}:***@{tail}"
    return url


def ensure_database(url: str) -> bool:
    """Create the database ``url`` names when its server has none of that name (connecting to
    the server's ``postgres`` database to do it); whether it was created."""
    psycopg = _psycopg()
    from psycopg import conninfo, sql

    try:
        psycopg.connect(url, connect_timeout=10).close()
        return False
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            raise _sentence(exc, url) from None
    except psycopg.Error as exc:
        raise _sentence(exc, url) from None
    params = conninfo.conninfo_to_dict(url)
    name = str(params.get("dbname") or "")
    try:
        with psycopg.connect(conninfo.make_conninfo(url, dbname="postgres"), autocommit=True,
                             connect_timeout=10) as admin:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.Error as exc:
        raise _sentence(exc, url) from None
    return True


class Ledger:
    """An open federation database (see the module docstring)."""

    def __init__(self, url: str) -> None:
        if not isinstance(url, str) or not url.startswith(("postgresql://", "postgres://")):
            raise InputError(f"the federation's database is a postgresql:// address, not {str(url)[:80]!r}")
        self.url = url
        psycopg = _psycopg()
        self._errors = (psycopg.Error,)
        try:
            self.conn = psycopg.connect(url, autocommit=False, connect_timeout=10)
        except psycopg.Error as exc:
            raise _sentence(exc, url) from None
        try:
            self._migrate()
        except psycopg.Error as exc:
            self.conn.close()
            raise _sentence(exc, url) from None

    def _migrate(self) -> None:
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            made = self.conn.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone()[0]
            version = 0
            if made:
                row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                version = int(row[0]) if row else 0
            if version > SCHEMA:
                raise InputError(f"the federation's database has schema {version}, this bgboard reads up to "
                                 f"{SCHEMA}: upgrade bgboard")
            for number in range(version, SCHEMA):
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute("INSERT INTO meta (key, value) VALUES ('schema', %s) ON CONFLICT (key) "
                                  "DO UPDATE SET value = EXCLUDED.value", (str(number + 1),))

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        try:
            with self.conn.transaction():
                yield self.conn
        except self._errors as exc:
            raise _sentence(exc, self.url) from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the federation's facts
    def meta(self, key: str) -> str | None:
        with self.transaction() as db:
            row = db.execute("SELECT value FROM meta WHERE key = %s", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = "
                       "EXCLUDED.value", (key, value))

    def add_club(self, name: str, title: str = "") -> bool:
        """Register a club; whether it is new."""
        with self.transaction() as db:
            return db.execute("INSERT INTO clubs (name, title) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING "
                              "RETURNING name", (name, title)).fetchone() is not None

    def clubs(self) -> list[dict[str, Any]]:
        with self.transaction() as db:
            rows = db.execute("SELECT c.name, c.title, c.joined_at, count(r.id) FROM clubs c LEFT JOIN results r "
                              "ON r.club = c.name GROUP BY c.name ORDER BY c.name").fetchall()
        return [{"name": r[0], "title": r[1], "joined_at": r[2].isoformat(), "results": int(r[3])} for r in rows]

    def add_member(self, member_id: str, name: str, home_club: str | None = None) -> bool:
        """Register a member (an officer's, or the first result naming him); whether it is new."""
        with self.transaction() as db:
            return db.execute("INSERT INTO members (id, name, home_club) VALUES (%s, %s, %s) ON CONFLICT (id) "
                              "DO NOTHING RETURNING id", (member_id, name, home_club)).fetchone() is not None

    def members(self) -> list[dict[str, Any]]:
        with self.transaction() as db:
            rows = db.execute("SELECT id, name, home_club FROM members ORDER BY id").fetchall()
        return [{"id": r[0], "name": r[1], "club": r[2]} for r in rows]

    def store(self, results: Iterable[ClubResult]) -> list[str]:
        """Store each result once by (club, id), in one transaction: ``stored`` (new, or a later
        revision replacing the one kept: a club's correction), ``duplicate`` (this revision or a
        later one is kept) or ``refused`` (a club that has not joined) for each, in order."""
        out = []
        with self.transaction() as db:
            known = {r[0] for r in db.execute("SELECT name FROM clubs")}
            for r in results:
                if r.club not in known:
                    out.append("refused")
                    continue
                for member, name in zip(r.members, r.players):
                    if member:
                        db.execute("INSERT INTO members (id, name, home_club) VALUES (%s, %s, %s) "
                                   "ON CONFLICT (id) DO NOTHING", (member, name, r.club))
                score = r.score or (None, None)
                row = db.execute(
                    "INSERT INTO results (club, id, event, match, player_a, player_b, member_a, member_b, length,"
                    " score_a, score_b, winner, rated, seq, played_at, revision) VALUES (%s, %s, %s, %s, %s, %s, %s,"
                    " %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (club, id) DO UPDATE SET event = EXCLUDED.event,"
                    " player_a = EXCLUDED.player_a, player_b = EXCLUDED.player_b, member_a = EXCLUDED.member_a,"
                    " member_b = EXCLUDED.member_b, length = EXCLUDED.length, score_a = EXCLUDED.score_a,"
                    " score_b = EXCLUDED.score_b, winner = EXCLUDED.winner, rated = EXCLUDED.rated, seq = EXCLUDED.seq,"
                    " revision = EXCLUDED.revision, corrected_at = clock_timestamp()"
                    " WHERE results.revision < EXCLUDED.revision RETURNING id",
                    (r.club, r.id, r.event, r.match, r.players[0], r.players[1], r.members[0] or None,
                     r.members[1] or None, r.length, score[0], score[1], r.winner, r.rated, r.seq,
                     r.played_at, r.revision)).fetchone()
                out.append("stored" if row is not None else "duplicate")
        return out

    def results(self, changed_since: str | None = None, margin_s: float = 0.0) -> list[StoredResult]:
        """Every result in the order played: the time the club stored it, then the club, then
        the club's own rating order (docs/club-network.md); with ``changed_since`` (a
        :meth:`version`'s time) only those stored or corrected since, less ``margin_s``."""
        where, args = "", ()
        if changed_since:
            where = " WHERE greatest(stored_at, corrected_at) >= %s::timestamptz - make_interval(secs => %s)"
            args = (changed_since, float(margin_s))
        with self.transaction() as db:
            rows = db.execute("SELECT club, id, event, player_a, player_b, member_a, member_b, length, score_a,"
                              " score_b, winner, rated, seq, played_at FROM results" + where +
                              " ORDER BY played_at, club, seq, id", args).fetchall()
        return [StoredResult(r[0], r[1], r[2], (r[3], r[4]), (r[5], r[6]), int(r[7]),
                             None if r[8] is None else (int(r[8]), int(r[9])), int(r[10]), bool(r[11]),
                             int(r[12]), r[13].isoformat()) for r in rows]

    def stored_times(self) -> dict[tuple[str, str], float]:
        """When each result was stored (seconds since the epoch, the server's clock), by (club, id)."""
        with self.transaction() as db:
            return {(r[0], r[1]): float(r[2]) for r in db.execute(
                "SELECT club, id, extract(epoch FROM stored_at) FROM results")}

    def version(self) -> tuple[int, str]:
        """What changes whenever a result is stored or corrected: (results, latest change)."""
        with self.transaction() as db:
            n, last = db.execute("SELECT count(*), max(greatest(stored_at, corrected_at)) FROM results").fetchone()
        return int(n), "" if last is None else last.isoformat()

    def count(self) -> int:
        with self.transaction() as db:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])

    def count_event(self, season: str, club: str, event: str) -> None:
        """Count a club's event in a season's standings."""
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM clubs WHERE name = %s", (club,)).fetchone() is None:
                raise InputError(f"there is no club {club!r} in the federation: 'bgboard federation join' adds one")
            db.execute("INSERT INTO seasons (name) VALUES (%s) ON CONFLICT (name) DO NOTHING", (season,))
            db.execute("INSERT INTO counted_events (season, club, event) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                       (season, club, event))

    def counted_events(self, season: str) -> set[tuple[str, str]]:
        with self.transaction() as db:
            return {(r[0], r[1]) for r in db.execute(
                "SELECT club, event FROM counted_events WHERE season = %s", (season,))}

    def seasons(self) -> list[str]:
        with self.transaction() as db:
            return [r[0] for r in db.execute("SELECT name FROM seasons ORDER BY created_at, name")]


__all__ = ["MIGRATIONS", "SCHEMA", "ensure_database", "Ledger", "LedgerUnavailableError", "shown_url"]
