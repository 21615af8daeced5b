"""The private PostgreSQL server the club's PostgreSQL store, the federation, their tests and
benchmarks run on: a real server, reached by psycopg through its Unix socket only."""

from __future__ import annotations

import psycopg

from bgboard.store.private_postgres import PrivatePostgres


def test_a_new_database_takes_writes_and_reads_them_back(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        conn.execute("CREATE TABLE results (id TEXT PRIMARY KEY, score TEXT NOT NULL)")
        conn.execute("INSERT INTO results VALUES ('r1', '7-3') ON CONFLICT (id) DO NOTHING")
        conn.execute("INSERT INTO results VALUES ('r1', '7-5') ON CONFLICT (id) DO NOTHING")
        assert conn.execute("SELECT id, score FROM results").fetchall() == [("r1", "7-3")]
        assert conn.execute("SHOW listen_addresses").fetchone() == ("",)  # no TCP port at all


def test_committed_rows_survive_a_killed_server() -> None:
    server = PrivatePostgres()
    server.start()
    try:
        url = server.create_database("club")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE t (n INTEGER)")
            conn.execute("INSERT INTO t SELECT generate_series(1, 20)")
        server.kill()
        server.start()
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT count(*) FROM t").fetchone() == (20,)
    finally:
        server.__exit__(None, None, None)
    assert not server.folder.exists()
