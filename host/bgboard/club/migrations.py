"""The club database's migrations (data): each entry of :data:`MIGRATIONS` takes the schema one
version up, written once in SQLite's SQL — :mod:`bgboard.club.db` applies them to an SQLite file,
:mod:`bgboard.club.postgres_store` rewrites them for PostgreSQL.  Append-only: a released
version's statements never change (a restored file is checked against exactly these)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable


def _analyses(conn: sqlite3.Connection) -> None:
    """The background analysis of results (issue 24, :mod:`bgboard.club.analysis_queue`): one
    row per match whose result has a .mat record — ``queued`` until the worker has analysed it,
    then ``done`` with each player's figures (JSON) or ``failed`` with the sentence why.  The
    triggers queue a match whenever its .mat is stored or corrected (in the result's own
    transaction, whichever path stores it) and drop the row when the .mat is taken away;
    every result already stored with a .mat is queued now.  A function, not a string: a
    trigger's body holds semicolons."""
    if not isinstance(conn, sqlite3.Connection):  # PostgreSQL: the same, in its words
        from bgboard.club.postgres_store import ANALYSES

        for statement in ANALYSES:
            getattr(conn, "execute_plain")(statement)
        return
    conn.execute("""
        CREATE TABLE analyses (
            match_id INTEGER PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
            status TEXT NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
            queued_at TEXT NOT NULL,
            analysed_at TEXT,
            engine TEXT,
            plies INTEGER,
            figures TEXT,
            problem TEXT
        )""")
    conn.execute("CREATE INDEX analyses_status ON analyses(status, queued_at)")
    queue = ("INSERT OR REPLACE INTO analyses (match_id, status, queued_at) "
             "VALUES (NEW.id, 'queued', strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now'))")
    conn.execute(f"""CREATE TRIGGER analyses_queue_stored AFTER UPDATE OF mat ON matches
        WHEN NEW.mat IS NOT NULL AND NEW.mat IS NOT OLD.mat BEGIN {queue}; END""")
    conn.execute(f"""CREATE TRIGGER analyses_queue_inserted AFTER INSERT ON matches
        WHEN NEW.mat IS NOT NULL BEGIN {queue}; END""")
    conn.execute("""CREATE TRIGGER analyses_drop AFTER UPDATE OF mat ON matches
        WHEN NEW.mat IS NULL BEGIN DELETE FROM analyses WHERE match_id = NEW.id; END""")
    conn.execute("INSERT INTO analyses (match_id, status, queued_at) SELECT id, 'queued', "
                 "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now') FROM matches WHERE mat IS NOT NULL")


#: Each entry takes the database one version up: SQL statements (split at semicolons) or a
#: function given the connection.
MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    # 1: the whole first schema
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        start_rating REAL NOT NULL,
        start_experience INTEGER NOT NULL,
        rating REAL NOT NULL,
        experience INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        format TEXT NOT NULL,
        length INTEGER NOT NULL,
        consolation_length INTEGER,
        rounds INTEGER,
        rules TEXT NOT NULL,
        clock TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        created_at TEXT NOT NULL
    );
    CREATE TABLE entries (
        event_id INTEGER NOT NULL REFERENCES events(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        seed INTEGER,
        withdrawn INTEGER NOT NULL DEFAULT 0,
        entered_at TEXT NOT NULL,
        PRIMARY KEY (event_id, player_id)
    );
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        number INTEGER NOT NULL,
        paired_at TEXT NOT NULL,
        UNIQUE (event_id, number)
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        uuid TEXT NOT NULL UNIQUE,
        event_id INTEGER NOT NULL REFERENCES events(id),
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        node TEXT NOT NULL,
        flight TEXT NOT NULL,
        player_a INTEGER NOT NULL REFERENCES players(id),
        player_b INTEGER REFERENCES players(id),
        length INTEGER NOT NULL,
        board INTEGER,
        status TEXT NOT NULL,
        score_a INTEGER,
        score_b INTEGER,
        winner INTEGER REFERENCES players(id),
        forfeit_reason TEXT,
        mat TEXT,
        result_key TEXT UNIQUE,
        rated_seq INTEGER UNIQUE,
        reported_at TEXT,
        reported_by TEXT,
        UNIQUE (event_id, node)
    );
    CREATE INDEX matches_event ON matches(event_id);
    CREATE TABLE penalties (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        points INTEGER NOT NULL,
        reason TEXT NOT NULL,
        at TEXT NOT NULL,
        actor TEXT NOT NULL
    );
    CREATE TABLE rating_history (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        match_id INTEGER NOT NULL REFERENCES matches(id),
        rating_before REAL NOT NULL,
        rating_after REAL NOT NULL,
        experience_before INTEGER NOT NULL,
        experience_after INTEGER NOT NULL
    );
    CREATE INDEX rating_history_player ON rating_history(player_id);
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        event_id INTEGER,
        match_id INTEGER,
        args TEXT NOT NULL,
        before TEXT,
        after TEXT
    );
    """,
    # 2: "is anything still being played?" is asked after every result
    """
    CREATE INDEX matches_event_status ON matches(event_id, status);
    """,
    # 3: the optional last-chance flight of a double elimination
    """
    ALTER TABLE events ADD COLUMN last_chance INTEGER NOT NULL DEFAULT 0;
    """,
    # 4: the director's evening (club/evening.py): check-in, a late entrant's starting score,
    # an event's settings (check-in, entry fee and payouts) as JSON, each match's number in its event
    """
    ALTER TABLE entries ADD COLUMN checked_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE entries ADD COLUMN start_score REAL NOT NULL DEFAULT 0;
    ALTER TABLE events ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE matches ADD COLUMN number INTEGER;
    UPDATE matches SET number = (SELECT COUNT(*) FROM matches m2 WHERE m2.event_id = matches.event_id
        AND m2.id <= matches.id AND m2.status != 'bye') WHERE status != 'bye';
    CREATE UNIQUE INDEX matches_event_number ON matches(event_id, number);
    """,
    # 5: results held for the director (club/confirmations.py): disputed, or not confirmed, at a board
    """
    CREATE TABLE held_results (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        result_key TEXT NOT NULL UNIQUE,
        board INTEGER,
        score_a INTEGER NOT NULL,
        score_b INTEGER NOT NULL,
        mat TEXT,
        why TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        at TEXT NOT NULL,
        settled_at TEXT,
        settled_by TEXT
    );
    CREATE INDEX held_results_match ON held_results(match_id);
    """,
    # 6: the background analysis of results with a .mat (issue 24)
    _analyses,
    # 7: the federation (issue 36): a player's federation member id ('club player link'), the
    # federation's answer to each result the club sent it and the result's revision it answered
    # (club/federation_feed.py: a result's revision is the number of its match's audit rows, so
    # a correction is sent again), and the index that counts them
    """
    ALTER TABLE players ADD COLUMN member_id TEXT;
    CREATE UNIQUE INDEX players_member ON players(member_id);
    CREATE TABLE federation_acks (
        match_uuid TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        revision INTEGER NOT NULL DEFAULT 0,
        acked_at TEXT NOT NULL
    );
    CREATE INDEX audit_match ON audit(match_id);
    """,
)
SCHEMA = len(MIGRATIONS)
