"""The club database (adapter): one SQLite file, versioned migrations, WAL, transactions.

``open_club(path)`` opens (and migrates) an existing database; ``create_club(path, name)``
makes a new one.  The schema version is SQLite's ``user_version``; each entry of
:data:`MIGRATIONS` takes the database one version up, inside a transaction.  Every change
the director makes runs in :meth:`Club.transaction` (``BEGIN IMMEDIATE`` ... ``COMMIT``):
it is all on disk or none of it is.  The file is in WAL mode with ``synchronous=FULL``,
so readers (the web pages) never block the director and a power cut loses nothing
committed.

``--db`` may instead name a PostgreSQL database (``postgresql://...``,
:func:`club_location`): the same migrations, transactions and queries run there through
:mod:`bgboard.club.postgres_store` (docs/club.md, "The club's store").

The lookups the club's services share (a player, an event or a match by what a person types;
the entrants and matches the formats read; a match row as a :class:`~bgboard.club.views.MatchInfo`)
are this module's functions below :class:`Club`.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from bgboard.club.checks import MAX_ID, bounded_name, clean_name, match_id, shell_word, without_password
from bgboard.club.file_holders import holders_of
from bgboard.club.migrations import MIGRATIONS, SCHEMA
from bgboard.club.model import Entrant, EventSpec, Played
from bgboard.club.views import FORFEIT, MatchInfo
from bgboard.errors import EnvironmentFailure, InputError, MissingExtraError, seconds_setting


def _apply(conn: sqlite3.Connection, number: int) -> None:
    """Run migration ``number`` (0-based) on ``conn``, inside the caller's transaction."""
    step = MIGRATIONS[number]
    if callable(step):
        step(conn)
    else:
        for statement in step.split(";"):
            if statement.strip():
                conn.execute(statement)


def schema_objects(conn: sqlite3.Connection) -> set[tuple[str, str, str, str]]:
    """What ``conn``'s schema holds: (type, name, table, SQL with its spaces collapsed) of every
    table, index, trigger and view (SQLite's own automatic indexes included, by name)."""
    return {(str(t), str(n), str(tbl), " ".join(str(sql or "").split()))
            for t, n, tbl, sql in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")}


_schemas: dict[int, set[tuple[str, str, str, str]]] = {}


def schema_of(version: int) -> set[tuple[str, str, str, str]]:
    """The exact schema a club database of ``version`` has (:func:`schema_objects`): our
    migrations 1..version run on an empty database in memory, as every club file was made."""
    if version not in _schemas:
        conn = sqlite3.connect(":memory:")
        try:
            for number in range(version):
                _apply(conn, number)
            _schemas[version] = schema_objects(conn)
        finally:
            conn.close()
    return _schemas[version]


BUSY_TIMEOUT_S = 10.0  # how long a change waits for another program's change to the file
#: The environment variable that changes :data:`BUSY_TIMEOUT_S` for a deployment (or a test).
BUSY_TIMEOUT_ENV = "BGBOARD_BUSY_TIMEOUT_S"


def busy_timeout_s() -> float:
    """How long a change waits for another program's change: :data:`BUSY_TIMEOUT_S`, or the
    seconds set in :data:`BUSY_TIMEOUT_ENV`."""
    return seconds_setting(BUSY_TIMEOUT_ENV, os.environ.get(BUSY_TIMEOUT_ENV), BUSY_TIMEOUT_S)
#: The tables every club database has (from migration 1): what tells a club's file from
#: another program's (``Club``, ``club backup``/``restore``).
CLUB_TABLES = {"meta", "players", "events", "entries", "rounds", "matches", "audit"}


def is_postgres(location: object) -> bool:
    """Whether a ``--db`` value names a PostgreSQL database (``postgresql://...``) rather than
    an SQLite file."""
    return isinstance(location, str) and location.strip().lower().startswith(("postgresql://", "postgres://"))


def club_location(text: str) -> Path | str:
    """The one parser of ``--db``: a PostgreSQL address (checked: one sentence when psycopg
    cannot read it) or an SQLite file's path."""
    return postgres_store().check_url(text) if is_postgres(text) else Path(text)


def shown(location: str | Path) -> str | Path:
    """``location`` as messages may name it: a PostgreSQL address without its password."""
    return without_password(str(location)) if is_postgres(location) else location


def postgres_store() -> Any:
    """:mod:`bgboard.club.postgres_store` (psycopg), or one sentence naming the extra to install."""
    try:
        from bgboard.club import postgres_store as store
    except ImportError:
        raise MissingExtraError("a club on PostgreSQL needs psycopg, which is not installed: "
                                "pip install 'bgboard[postgres]'") from None
    return store


class ClubDatabaseError(InputError):
    """A file that is not a usable club database: another program's, damaged, missing (the
    message names the file and what to do)."""


class ClubDatabaseUnavailableError(EnvironmentFailure):
    """A good club database the machine will not let us use now: busy in another program,
    read-only, a full or failing disk, a folder that cannot be opened (the message names the
    file and what to do)."""


def database_error(exc: sqlite3.Error, path: str | Path) -> ClubDatabaseError | ClubDatabaseUnavailableError:
    """One sentence for an SQLite error a user can meet on the club database at ``path``:
    locked by another program (which, when this machine can tell), a read-only file or
    folder, a damaged file, a full disk; anything else named as SQLite says it."""
    text = str(exc)
    low = text.lower()
    code = getattr(exc, "sqlite_errorname", "") or ""
    if low.startswith("postgresql: connection") and any(
            words in low for words in ("does not exist", "authentication failed", "no password supplied")):
        return ClubDatabaseError(f"the PostgreSQL server refused the club database {path} ({text[12:300]}): "
                                 "check the database, user and password given with --db (createdb makes a database)")
    if low.startswith("postgresql: connection"):  # bgboard.club.postgres_store: no server there
        return ClubDatabaseUnavailableError(
            f"the PostgreSQL server of the club database {path} cannot be reached ({text[12:300]}): "
            "start it, or check the address given with --db")
    if "locked" in low or "busy" in low or code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        holders = holders_of(path)
        who = f" ({', '.join(holders)} has it open)" if holders else ""
        return ClubDatabaseUnavailableError(
            f"the club database {path} is busy: another program is changing it{who} and did not "
            f"finish within {busy_timeout_s():g} s; nothing was changed, try again in a moment")
    if "readonly" in low or "read-only" in low or code.startswith("SQLITE_READONLY"):
        return ClubDatabaseUnavailableError(
            f"the club database {path} is read-only: nothing was changed; let this user write the "
            "file and its folder (chmod/chown), or work on a writable copy")
    if "not a database" in low or code.startswith("SQLITE_NOTADB"):
        return ClubDatabaseError(
            f"{path} is not a club database, not even an SQLite file: give the club's file with "
            "--db (if it was the club's, restore it from your last copy of the file)")
    if "malformed" in low or "corrupt" in low or code.startswith("SQLITE_CORRUPT"):
        return ClubDatabaseError(
            f"the club database {path} is damaged ({text}): stop every program using it and "
            "restore your last backup with 'bgboard club restore FILE' ('club backup' makes one; "
            "the damaged file is kept aside)")
    if "disk is full" in low or "disk i/o" in low or code.startswith(("SQLITE_FULL", "SQLITE_IOERR")):
        return ClubDatabaseUnavailableError(f"the club database {path} cannot be written ({text}): "
                                 "free some disk space or check the disk, then try again")
    if "unable to open" in low or code.startswith("SQLITE_CANTOPEN"):
        return ClubDatabaseUnavailableError(f"the club database {path} cannot be opened ({text}): check the "
                                 "file's and its folder's permissions")
    return ClubDatabaseUnavailableError(f"the club database {path} cannot be used ({text})")


class Club:
    """An open club database: ``conn`` (rows as :class:`sqlite3.Row`) and transactions; on
    PostgreSQL (``postgres``) ``conn`` is a :class:`bgboard.club.postgres_store.PostgresConnection`
    and a transaction holds the club's write lock instead of SQLite's ``BEGIN IMMEDIATE``."""

    def __init__(self, path: str | Path, create: bool = False) -> None:
        self._depth = 0
        self._after_commit: list[Callable[[], None]] = []
        self.busy_timeout_ms = int(busy_timeout_s() * 1000)
        self.postgres = is_postgres(path)
        if self.postgres:
            self._open_postgres(str(path), create)
            return
        self.path: Path | str = Path(path)   # what messages name
        self.location: Path | str = self.path  # what opens it again (another thread, process)
        self.label = self.path.stem            # what names its backups
        self._open_sqlite(self.path, create)

    def _open_sqlite(self, path: Path, create: bool) -> None:
        if not create and not path.exists():
            raise ClubDatabaseError(f"there is no club database at {path}: create one with "
                                    "'bgboard club init --name \"Club name\"' (or pass --db)")
        if create and path.exists():
            raise ClubDatabaseError(f"{path} already exists: pick another --db path or "
                                    "use the club it holds")
        if create and not path.parent.is_dir():
            raise ClubDatabaseError(f"the folder {path.parent} does not exist: create it first, "
                                    "or choose another --db path")
        if not create and not path.is_file():
            raise ClubDatabaseError(f"{path} is not a file: give the club database's file (--db)")
        try:
            self.conn = sqlite3.connect(path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
        except sqlite3.Error as exc:
            raise database_error(exc, path) from None
        try:
            self.conn.row_factory = sqlite3.Row
            # what the file is, before anything is written: a foreign SQLite file (another
            # program's) is refused untouched, not switched to WAL or migrated
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if not create:
                self._check_is_club(version)
            if version > SCHEMA:
                raise ClubDatabaseError(f"{path} has club schema {version}, this bgboard "
                                        f"reads up to {SCHEMA}: upgrade bgboard")
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self._migrate(version)
        except sqlite3.Error as exc:
            self.conn.close()
            raise database_error(exc, path) from None
        except BaseException:
            self.conn.close()
            raise

    def _open_postgres(self, url: str, create: bool) -> None:
        """The club in a PostgreSQL database (bgboard.club.postgres_store): refused when it is
        empty (unless ``create``) or holds something else; migrated under the write lock."""
        pg = postgres_store()
        self.location = url = pg.check_url(url)
        self.path, self.label = pg.shown(url), pg.database_name(url)
        try:
            conn = pg.connect(url, connect_timeout_s=BUSY_TIMEOUT_S)
        except sqlite3.Error as exc:
            raise database_error(exc, self.path) from None
        self.conn = cast(sqlite3.Connection, conn)  # the subset of its API the club uses
        try:
            pg.migrate(conn, MIGRATIONS, self.conn, create=create, club_tables=CLUB_TABLES,
                       busy_timeout_ms=self.busy_timeout_ms, refuse=ClubDatabaseError)
        except sqlite3.Error as exc:
            conn.close()
            raise database_error(exc, self.path) from None
        except BaseException:
            conn.close()
            raise

    def broken(self) -> bool:
        """Whether the connection is lost (PostgreSQL: the server restarted): open the club again."""
        return self.postgres and bool(getattr(self.conn, "broken"))

    def set_busy_timeout(self, ms: int) -> None:
        """How long a change waits for another program's change (SQLite's busy timeout,
        PostgreSQL's lock timeout on the club's write lock)."""
        self.busy_timeout_ms = int(ms)
        if not self.postgres:
            self.conn.execute(f"PRAGMA busy_timeout = {int(ms)}")

    def after_commit(self, action: Callable[[], None]) -> None:
        """Run ``action`` once the current transaction is committed (dropped if it rolls back)."""
        self._after_commit.append(action)

    def _check_is_club(self, version: int) -> None:
        """Refuse a file that is not a club database (reading only)."""
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0 or not CLUB_TABLES <= tables:
            raise ClubDatabaseError(f"{self.path} is not a bgboard club database (it was left as it is): "
                                    "give the club's file with --db, or create one with 'bgboard club init'")

    def _migrate(self, version: int) -> None:
        for number in range(version, SCHEMA):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                _apply(self.conn, number)
                self.conn.execute(f"PRAGMA user_version = {number + 1}")
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One change: everything inside is committed together or rolled back."""
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        if self.postgres:
            cast(Any, self.conn).begin(self.busy_timeout_ms)
        else:
            self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            self._after_commit.clear()
            raise
        else:
            self.conn.execute("COMMIT")
        finally:
            self._depth = 0
        actions, self._after_commit = self._after_commit, []
        for action in actions:
            action()

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Club":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------- the director's queries
# What the club's services (director, results, evening, confirm) read: one place for the
# lookups that turn a name or a number into a row, and the rows into views.

def player_id(conn: sqlite3.Connection, name: str) -> int:
    """The id of the player called ``name`` (one sentence if there is none)."""
    row = conn.execute("SELECT id FROM players WHERE name = ?", (clean_name(name),)).fetchone()
    if row is None:
        raise InputError(f"there is no player {name!r}: add one with 'bgboard club player add'")
    return int(row["id"])


def player_names(conn: sqlite3.Connection) -> dict[int, str]:
    """Every player's name by id."""
    return {r["id"]: r["name"] for r in conn.execute("SELECT id, name FROM players")}


def event_row(conn: sqlite3.Connection, event: str) -> sqlite3.Row:
    """The event called ``event`` (one sentence if there is none)."""
    row = conn.execute("SELECT * FROM events WHERE name = ?", (" ".join(str(event).split()),)).fetchone()
    if row is None:
        raise InputError(f"there is no event {event!r}: create one with 'bgboard club event new'")
    return row


def event_spec(row: sqlite3.Row) -> EventSpec:
    """An event row's format, lengths and rounds."""
    return EventSpec(row["format"], row["length"], row["consolation_length"], row["rounds"],
                     bool(row["last_chance"]))


def entrants(conn: sqlite3.Connection, event_id: int) -> list[Entrant]:
    """The event's entrants with their seeds (before the draw: by rating, best first)."""
    rows = conn.execute(
        "SELECT e.player_id, e.seed, e.withdrawn, e.start_score, p.rating, p.name FROM entries e"
        " JOIN players p ON p.id = e.player_id WHERE e.event_id = ?", (event_id,)).fetchall()
    if rows and rows[0]["seed"] is None:
        # not yet seeded: by rating, best first (then by name)
        rows = sorted(rows, key=lambda r: (-r["rating"], r["name"].lower()))
        return [Entrant(r["player_id"], i, bool(r["withdrawn"]), r["start_score"])
                for i, r in enumerate(rows, 1)]
    return [Entrant(r["player_id"], r["seed"], bool(r["withdrawn"]), r["start_score"]) for r in rows]


def played(conn: sqlite3.Connection, event_id: int) -> list[Played]:
    """Every match of the event so far, as the formats read them."""
    rows = conn.execute(
        "SELECT m.*, r.number AS round_number FROM matches m JOIN rounds r ON r.id = m.round_id"
        " WHERE m.event_id = ? ORDER BY m.id", (event_id,)).fetchall()
    return [Played(r["node"], r["flight"], r["round_number"], r["player_a"], r["player_b"],
                   r["winner"],
                   (r["score_a"], r["score_b"]) if r["score_a"] is not None else None,
                   r["status"] == FORFEIT) for r in rows]


def match_row(conn: sqlite3.Connection, event: sqlite3.Row, number: int | str) -> sqlite3.Row:
    """The event's match with the club-wide id ``number`` (one sentence if there is none)."""
    mid = match_id(number)
    row = None if mid > MAX_ID else conn.execute("SELECT * FROM matches WHERE id = ? AND event_id = ?",
                                                 (mid, event["id"])).fetchone()
    if row is None:
        raise InputError(f"event {event['name']!r} has no match {bounded_name(str(number).strip())}: "
                         f"'bgboard club round {shell_word(event['name'])} --json' lists its matches")
    return row


def node_match(conn: sqlite3.Connection, event: str, node: str) -> int:
    """The id of the event's match at bracket or pairing ``node`` (what the audit log names)."""
    ev = event_row(conn, event)
    row = conn.execute("SELECT id FROM matches WHERE event_id = ? AND node = ?", (ev["id"], node)).fetchone()
    if row is None:
        raise InputError(f"event {event!r} has no match {node}")
    return int(row[0])


def free_boards(conn: sqlite3.Connection) -> Iterator[int]:
    """The board numbers no pending match is using, from 1 up."""
    used = {r[0] for r in conn.execute("SELECT board FROM matches WHERE status = 'pending' AND board IS NOT NULL")}
    n = 1
    while True:
        if n not in used:
            yield n
        n += 1


def match_info(conn: sqlite3.Connection, row: sqlite3.Row, names: dict[int, str] | None = None,
               number: int | None = None, event: str | None = None) -> MatchInfo:
    """A match row as the view the service hands out (``names``, the round ``number`` and the
    ``event``'s name read when not given)."""
    names = names or player_names(conn)
    number = number if number is not None else int(conn.execute(
        "SELECT number FROM rounds WHERE id = ?", (row["round_id"],)).fetchone()[0])
    event = event if event is not None else str(conn.execute(
        "SELECT name FROM events WHERE id = ?", (row["event_id"],)).fetchone()[0])
    return MatchInfo(
        row["id"], row["uuid"], event, number, row["node"], row["flight"],
        [names[row["player_a"]], names.get(row["player_b"]) if row["player_b"] else None],
        row["length"], row["board"], row["status"],
        [row["score_a"], row["score_b"]] if row["score_a"] is not None else None,
        names.get(row["winner"]) if row["winner"] else None,
        row["forfeit_reason"], row["mat"] is not None, row["reported_at"], row["reported_by"],
        row["number"])


def match_snapshot(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    """A match's result as the audit log keeps it (before and after a change)."""
    winner = None
    if row["winner"]:
        winner = conn.execute("SELECT name FROM players WHERE id = ?", (row["winner"],)).fetchone()[0]
    return {"status": row["status"],
            "score": [row["score_a"], row["score_b"]] if row["score_a"] is not None else None,
            "winner": winner, "forfeit_reason": row["forfeit_reason"]}


__all__ = ["MIGRATIONS", "SCHEMA", "is_postgres", "club_location", "shown", "postgres_store", "schema_objects", "schema_of", "BUSY_TIMEOUT_ENV", "BUSY_TIMEOUT_S", "busy_timeout_s", "CLUB_TABLES", "ClubDatabaseError", "database_error",
           "holders_of", "Club", "player_id", "player_names", "event_row", "event_spec", "entrants", "played",
           "match_row", "node_match", "free_boards", "match_info", "match_snapshot"]
