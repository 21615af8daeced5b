"""The club's store on PostgreSQL (adapter): a connection that speaks what the club's code
asks of an SQLite connection, over psycopg 3.

The club's SQL is written once, for SQLite (:mod:`bgboard.club.db`); this module is the
PostgreSQL dialect of it:

* statements: ``?`` placeholders become psycopg's ``%s``; ``COLLATE NOCASE`` in an ORDER BY is
  dropped, because the names it orders are ``citext`` here (case-insensitive like SQLite's
  NOCASE column, so ``name = ?`` finds 'alice' for 'Alice' on both stores);
* the migrations' tables (:func:`table_sql`): ``INTEGER PRIMARY KEY`` an identity column,
  ``INTEGER`` a ``BIGINT`` (SQLite's integers are 64-bit), ``REAL`` a ``DOUBLE PRECISION``,
  ``TEXT`` compared byte by byte (``COLLATE "C"``, SQLite's BINARY), a NOCASE unique name a
  ``citext`` one;
* what SQLite keeps in PRAGMAs: the schema's version in a one-row table ``club_schema``, and
  the signal that another program changed a match or an event (SQLite's ``data_version``)
  a ``NOTIFY`` on channel :data:`CHANNEL` from a statement trigger;
* rows read by index or by column name (``sqlite3.Row``'s two ways); an integer sum (a
  ``numeric`` in PostgreSQL) an ``int``, a Python ``bool`` stored as 0/1 (the columns are
  integers, as in SQLite);
* errors: psycopg's are raised as the DB-API classes the club's code already handles
  (:mod:`sqlite3`'s ``IntegrityError``, ``OperationalError``), with PostgreSQL's message; a
  lock not granted in time says "database is locked", as SQLite does; a number past 64 bits is
  an :class:`OverflowError`, as in SQLite.

A change is one transaction holding the club's transaction-level advisory lock
(:data:`WRITE_LOCK`): writers take turns as under SQLite's ``BEGIN IMMEDIATE``, readers never
wait (MVCC), so a check-then-write (is this result's id stored yet?) is never raced by another
``club serve`` process on the same database.  psycopg is imported only here.
"""

from __future__ import annotations

import re
import sqlite3
import urllib.parse
from decimal import Decimal
from typing import Any, Callable, Iterator, Sequence

from bgboard.errors import InputError, MissingExtraError

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.adapt import Loader
    from psycopg.types.numeric import Int8Dumper
except ImportError:  # the postgres extra is not installed: said when a URL is given
    psycopg = None  # type: ignore[assignment]

#: What a PostgreSQL club database is given as (``--db``).
SCHEMES = ("postgresql://", "postgres://")
#: The channel a change to a match or an event is announced on (LISTEN/NOTIFY).
CHANNEL = "bgboard_club"
#: The advisory lock every change of the club holds until its COMMIT (any fixed 64-bit key:
#: advisory locks are per database).
WRITE_LOCK = 0x62676275_636C7562  # "bgbuclub"


def is_url(location: object) -> bool:
    """Whether ``location`` (a ``--db`` value) names a PostgreSQL database."""
    return isinstance(location, str) and location.strip().lower().startswith(SCHEMES)


def require_psycopg() -> None:
    if psycopg is None:
        raise MissingExtraError("a club on PostgreSQL needs psycopg, which is not installed: "
                                "pip install 'bgboard[postgres]'")


def check_url(url: str) -> str:
    """``url`` if psycopg can read it as a connection string (one sentence if not)."""
    require_psycopg()
    url = url.strip()
    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise InputError(f"--db {shown(url)} is not a PostgreSQL address psycopg can read "
                         f"({str(exc).splitlines()[0][:160]}): give it as postgresql://USER@HOST/DATABASE") from None
    if not parts.get("dbname"):
        raise InputError(f"--db {shown(url)} names no database: give it as postgresql://USER@HOST/DATABASE")
    return url


def shown(url: str) -> str:
    """``url`` with its password (if any) hidden, for messages and logs."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return "the PostgreSQL address given"
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def database_name(url: str) -> str:
    """The database's name in ``url`` (what names a backup of it)."""
    require_psycopg()
    return str(psycopg.conninfo.conninfo_to_dict(url).get("dbname") or "club")


# ---------------------------------------------------------------------- SQL in PostgreSQL's words

_PLACEHOLDER = re.compile(r"\?")
_NOCASE = re.compile(r"\s+COLLATE\s+NOCASE\b", re.IGNORECASE)


def statement_sql(sql: str) -> str:
    """A statement of the club's (SQLite) SQL as PostgreSQL runs it."""
    return _PLACEHOLDER.sub("%s", _NOCASE.sub("", sql.replace("%", "%%")))


_TYPES = [
    (re.compile(r"\bTEXT NOT NULL UNIQUE COLLATE NOCASE\b"), "CITEXT NOT NULL UNIQUE"),
    (re.compile(r"\bINTEGER PRIMARY KEY\b"), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\bTEXT\b"), 'TEXT COLLATE "C"'),
]


def table_sql(sql: str) -> str:
    """A migration's statement (CREATE TABLE, ALTER TABLE, indexes, updates) for PostgreSQL."""
    for pattern, replacement in _TYPES:
        sql = pattern.sub(replacement, sql)
    return sql


#: Made before the first migration: citext for the names, the schema's version.
SETUP = [
    "CREATE EXTENSION IF NOT EXISTS citext",
    "CREATE TABLE IF NOT EXISTS club_schema (version INTEGER NOT NULL)",
    "INSERT INTO club_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM club_schema)",
]
_NOW = """to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')"""
#: What PostgreSQL adds after a migration (1-based version): the change announcement after the
#: first schema (SQLite's data_version needs nothing made).
AFTER_MIGRATION: dict[int, list[str]] = {
    1: [
        f"""CREATE FUNCTION club_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('{CHANNEL}', ''); RETURN NULL; END $$""",
        "CREATE TRIGGER matches_changed AFTER INSERT OR UPDATE OR DELETE ON matches "
        "FOR EACH STATEMENT EXECUTE FUNCTION club_changed()",
        "CREATE TRIGGER events_changed AFTER INSERT OR UPDATE OR DELETE ON events "
        "FOR EACH STATEMENT EXECUTE FUNCTION club_changed()",
    ],
}

#: Migration 6 (the background analysis queue, :func:`bgboard.club.db._analyses`) in
#: PostgreSQL: the same table and the same three triggers as plpgsql functions.
ANALYSES = [
    """CREATE TABLE analyses (
        match_id BIGINT PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
        status TEXT COLLATE "C" NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
        queued_at TEXT COLLATE "C" NOT NULL,
        analysed_at TEXT COLLATE "C",
        engine TEXT COLLATE "C",
        plies BIGINT,
        figures TEXT COLLATE "C",
        problem TEXT COLLATE "C"
    )""",
    "CREATE INDEX analyses_status ON analyses(status, queued_at)",
    f"""CREATE FUNCTION analyses_queue() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        INSERT INTO analyses (match_id, status, queued_at) VALUES (NEW.id, 'queued', {_NOW})
        ON CONFLICT (match_id) DO UPDATE SET status = EXCLUDED.status, queued_at = EXCLUDED.queued_at,
            analysed_at = NULL, engine = NULL, plies = NULL, figures = NULL, problem = NULL;
        RETURN NULL; END $$""",
    """CREATE FUNCTION analyses_drop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        DELETE FROM analyses WHERE match_id = NEW.id; RETURN NULL; END $$""",
    """CREATE TRIGGER analyses_queue_stored AFTER UPDATE OF mat ON matches FOR EACH ROW
        WHEN (NEW.mat IS NOT NULL AND NEW.mat IS DISTINCT FROM OLD.mat) EXECUTE FUNCTION analyses_queue()""",
    """CREATE TRIGGER analyses_queue_inserted AFTER INSERT ON matches FOR EACH ROW
        WHEN (NEW.mat IS NOT NULL) EXECUTE FUNCTION analyses_queue()""",
    """CREATE TRIGGER analyses_drop AFTER UPDATE OF mat ON matches FOR EACH ROW
        WHEN (NEW.mat IS NULL) EXECUTE FUNCTION analyses_drop()""",
    f"INSERT INTO analyses (match_id, status, queued_at) SELECT id, 'queued', {_NOW} FROM matches WHERE mat IS NOT NULL",
]

#: Queue every stored .mat again (``club analyse --all``): SQLite's INSERT OR REPLACE.
REQUEUE = ("INSERT INTO analyses (match_id, status, queued_at) SELECT id, 'queued', ? FROM matches"
           " WHERE mat IS NOT NULL ON CONFLICT (match_id) DO UPDATE SET status = EXCLUDED.status,"
           " queued_at = EXCLUDED.queued_at, analysed_at = NULL, engine = NULL, plies = NULL,"
           " figures = NULL, problem = NULL")


# ---------------------------------------------------------------------- rows and values

class Row:
    """A row read by index or by column name (the first of that name), like ``sqlite3.Row``."""

    __slots__ = ("_values", "_names")

    def __init__(self, values: Sequence[Any], names: dict[str, int]) -> None:
        self._values = tuple(values)
        self._names = names

    def __getitem__(self, key: int | str | slice) -> Any:
        if isinstance(key, str):
            return self._values[self._names[key]]
        return self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Row) and self._values == other._values and self._names == other._names

    __hash__ = None  # type: ignore[assignment]

    def keys(self) -> list[str]:
        return list(self._names)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self._names, self._values))!r})"


def _rows(cursor: Any) -> Any:
    names: dict[str, int] = {}
    for i, column in enumerate(cursor.description or ()):
        names.setdefault(column.name, i)
    return lambda values: Row(values, names)


if psycopg is not None:
    class _BoolAsInteger(Int8Dumper):
        """A Python bool into the club's integer columns: 0 or 1, as SQLite stores it."""

        def dump(self, obj: Any) -> bytes:
            return b"1" if obj else b"0"

    class _Number(Loader):
        """A ``numeric`` (what SUM of integers gives): an int when whole, else a float."""

        def load(self, data: Any) -> Any:
            value = Decimal(bytes(data).decode())
            return int(value) if value == value.to_integral_value() else float(value)


# ---------------------------------------------------------------------- errors

def _sqlite_error(exc: Exception) -> Exception:
    """psycopg's error as the DB-API class the club's code handles (module doc)."""
    text = " ".join(str(exc).split())[:400] or type(exc).__name__
    if isinstance(exc, pg_errors.LockNotAvailable):
        return sqlite3.OperationalError(f"database is locked (PostgreSQL: {text})")
    if isinstance(exc, pg_errors.NumericValueOutOfRange):
        return OverflowError(f"PostgreSQL: {text}")
    if isinstance(exc, psycopg.IntegrityError):
        return sqlite3.IntegrityError(f"PostgreSQL: {text}")
    if isinstance(exc, pg_errors.DiskFull):
        return sqlite3.OperationalError(f"database or disk is full (PostgreSQL: {text})")
    return sqlite3.OperationalError(f"PostgreSQL: {text}")


def unreachable(exc: Exception) -> bool:
    """Whether ``exc`` (as :func:`_sqlite_error` made it) is a server not there or not answering."""
    return isinstance(exc, sqlite3.OperationalError) and str(exc).startswith("PostgreSQL: connection")


# ---------------------------------------------------------------------- the connection

class PostgresConnection:
    """What the club's code asks of its ``sqlite3.Connection`` (``execute``, ``close``), over
    one psycopg connection in autocommit mode: transactions are the club's own ``BEGIN`` ...
    ``COMMIT`` (:class:`bgboard.club.db.Club`)."""

    def __init__(self, url: str, *, connect_timeout_s: float = 10.0) -> None:
        require_psycopg()
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=max(1, int(connect_timeout_s)))
        except psycopg.Error as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise sqlite3.OperationalError(f"PostgreSQL: connection to {shown(url)} failed ({first[:300]})") from None
        self._conn.row_factory = _rows
        self._conn.adapters.register_dumper(bool, _BoolAsInteger)
        self._conn.adapters.register_loader("numeric", _Number)
        self._listening = False
        self.url = url

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement of the club's SQL; the cursor (``fetchone``, ``fetchall``,
        iteration, ``rowcount``)."""
        if any(isinstance(p, str) and "\x00" in p for p in params):
            # SQLite keeps a NUL in a text, PostgreSQL cannot: a name or record holding one
            # is no club's (nothing stored has one), so it is refused, never a server error
            raise InputError("a text holding a NUL character (\\x00) is not a name, a number or a record")
        try:
            return self._conn.execute(statement_sql(sql), tuple(params))  # type: ignore[arg-type]
        except psycopg.Error as exc:
            raise _sqlite_error(exc) from None

    def execute_plain(self, sql: str, params: Sequence[Any] | None = None) -> Any:
        """Run PostgreSQL's own SQL (no placeholder rewriting: a function body holds ``%``)."""
        try:
            return self._conn.execute(sql, params)  # type: ignore[arg-type]
        except psycopg.Error as exc:
            raise _sqlite_error(exc) from None

    def begin(self, busy_timeout_ms: int) -> None:
        """Start a change: ``BEGIN`` and wait (at most ``busy_timeout_ms``) for the club's
        write lock."""
        self.execute_plain("BEGIN")
        try:
            self.execute_plain(f"SET LOCAL lock_timeout = {int(busy_timeout_ms)}")
            self.execute_plain("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        except BaseException:
            self.execute_plain("ROLLBACK")
            raise

    def listen(self) -> None:
        """Hear every change to a match or an event from now on (:meth:`changes`)."""
        if not self._listening:
            self.execute_plain(f"LISTEN {CHANNEL}")
            self._listening = True

    def changes(self, ignore_pid: int | None = None) -> int:
        """How many changes were announced since the last call (those of connection
        ``ignore_pid`` left out), without waiting."""
        self.listen()
        try:
            return sum(1 for note in self._conn.notifies(timeout=0) if note.pid != ignore_pid)
        except psycopg.Error as exc:
            raise _sqlite_error(exc) from None

    @property
    def backend_pid(self) -> int:
        return int(self._conn.info.backend_pid)

    def close(self) -> None:
        self._conn.close()


def connect(url: str, **kwargs: Any) -> PostgresConnection:
    return PostgresConnection(url, **kwargs)


def migrate(conn: PostgresConnection, migrations: Sequence[Any], as_given: Any, *, create: bool,
            club_tables: set[str], busy_timeout_ms: int, refuse: Callable[[str], Exception]) -> None:
    """Check what the database holds (``refuse``: the sentence's error) and take it to the
    last of the club's ``migrations`` (SQL in SQLite's words, :func:`table_sql`, or a function
    given ``as_given``, the connection as the club holds it), all under the write lock: two
    processes opening a new club at once migrate it once.  A club already at the last version
    is only read: opening it never waits for a change under way (a page while the director
    writes), as with SQLite."""
    if not create and {"club_schema", *club_tables} <= tables_here(conn):
        if int(conn.execute("SELECT version FROM club_schema").fetchone()[0]) == len(migrations):
            return
    conn.begin(busy_timeout_ms)
    try:
        migrate_in(conn, migrations, as_given, create=create, club_tables=club_tables, refuse=refuse)
    except BaseException:
        conn.execute_plain("ROLLBACK")
        raise
    conn.execute_plain("COMMIT")


def migrate_in(conn: PostgresConnection, migrations: Sequence[Any], as_given: Any, *, create: bool,
               club_tables: set[str], refuse: Callable[[str], Exception]) -> None:
    """:func:`migrate` inside the caller's transaction."""
    where = shown(conn.url)
    tables = tables_here(conn)
    if create and tables & club_tables:
        raise refuse(f"{where} already holds a club: pick another database or use that club")
    if create and tables - {"club_schema"}:
        raise refuse(f"{where} holds other tables ({', '.join(sorted(tables)[:3])}): "
                     "create the club in an empty database")
    if not create and not tables:
        raise refuse(f"there is no club in the database {where}: create one with "
                     "'bgboard club --db URL init --name \"Club name\"'")
    if not create and not (club_tables | {"club_schema"}) <= tables:
        raise refuse(f"{where} is not a bgboard club database (it was left as it is): "
                     "give the club's database with --db, or an empty one to 'club init'")
    for statement in SETUP:
        conn.execute_plain(statement)
    version = int(conn.execute("SELECT version FROM club_schema").fetchone()[0])
    if version > len(migrations):
        raise refuse(f"{where} has club schema {version}, this bgboard reads up to "
                     f"{len(migrations)}: upgrade bgboard")
    for number in range(version, len(migrations)):
        step = migrations[number]
        if callable(step):
            step(as_given)
        for statement in step.split(";") if isinstance(step, str) else []:
            if statement.strip():
                conn.execute(table_sql(statement))
        for statement in AFTER_MIGRATION.get(number + 1, []):
            conn.execute_plain(statement)
        conn.execute("UPDATE club_schema SET version = ?", (number + 1,))


#: Everything a club made in its database, dropped before a restore replaces it.
CLUB_OBJECTS = ("DROP FUNCTION IF EXISTS club_changed(), analyses_queue(), analyses_drop() CASCADE",)


def drop_club(conn: PostgresConnection, tables: Sequence[str]) -> None:
    """Drop the club's ``tables``, its schema version and its trigger functions (inside the
    caller's transaction: a restore that fails leaves the club as it was)."""
    for table in [*tables, "club_schema"]:
        conn.execute_plain(f'DROP TABLE IF EXISTS "{table}" CASCADE')
    for statement in CLUB_OBJECTS:
        conn.execute_plain(statement)


def tables_here(conn: PostgresConnection) -> set[str]:
    """The tables of the database's current schema."""
    return {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}


def copy_in(conn: PostgresConnection, table: str, columns: Sequence[str], rows: Iterator[Sequence[Any]]) -> None:
    """Load ``rows`` into ``table`` with COPY (PostgreSQL's bulk load), then move an identity
    column's next value past the ids given."""
    names = ", ".join(f'"{c}"' for c in columns)
    try:
        with conn._conn.cursor().copy(f'COPY "{table}" ({names}) FROM STDIN') as copy:  # type: ignore[arg-type]
            for row in rows:
                copy.write_row(tuple(row))
        if "id" in columns:
            conn.execute_plain(f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
                               f'COALESCE((SELECT MAX(id) FROM "{table}"), 0) + 1, false) '
                               f"WHERE pg_get_serial_sequence('\"{table}\"', 'id') IS NOT NULL")
    except psycopg.Error as exc:
        raise _sqlite_error(exc) from None


def snapshot(conn: PostgresConnection) -> None:
    """Read what follows from one snapshot (a backup): a read-only repeatable-read transaction."""
    conn.execute_plain("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")


__all__ = ["SCHEMES", "CHANNEL", "WRITE_LOCK", "is_url", "require_psycopg", "check_url", "shown", "database_name",
           "statement_sql", "table_sql", "SETUP", "AFTER_MIGRATION", "ANALYSES", "REQUEUE", "Row", "unreachable",
           "PostgresConnection", "connect", "migrate",
           "migrate_in", "drop_club", "tables_here", "copy_in", "snapshot"]
