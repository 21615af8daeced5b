"""The club's two stores for the tests (docs/club.md, "The club's store"): a test asking for
``club_location`` (or a fixture built on it: tests/club/conftest.py's ``club`` and ``db``)
runs once on an SQLite file and once on a PostgreSQL database of the test process's private
server.  A module outside tests/club imports the two fixtures to use them."""

from __future__ import annotations

import itertools
import urllib.parse
import uuid
from typing import Iterator

import psycopg
import pytest

#: The club's two stores (docs/club.md): every test using the fixtures below runs on both.
STORES = ("sqlite", "postgresql")


@pytest.fixture(params=STORES)
def store(request) -> str:
    """The store this test's club is in (a test of SQLite's own - a damaged file - says
    ``@pytest.mark.parametrize("store", ["sqlite"])``)."""
    return request.param


@pytest.fixture(scope="session")
def club_database(private_postgres) -> tuple[str, Iterator[int]]:
    """The database of the test process's private PostgreSQL server that its clubs share,
    one schema each (a new database per test cost 0.3 s to make and as much again to stop the
    server with: 113 of them doubled the PostgreSQL half of the suite), with citext in
    ``public`` for all of them."""
    # a name of its own: a module importing these fixtures has its own session-wide copy
    url = private_postgres.create_database(f"clubs_{uuid.uuid4().hex[:12]}")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION citext SCHEMA public")
    return url, itertools.count(1)


def new_club_schema(club_database: tuple[str, Iterator[int]], request: pytest.FixtureRequest) -> str:
    """The address of a new, empty club: a schema of its own first on the search path, dropped
    after the test (a dropped table's pages are never written: the server's stop at the end
    of the process, its checkpoint, took 35 s here with every test's club left in place)."""
    url, numbers = club_database
    schema = f"club_{next(numbers)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")

    def drop() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET lock_timeout = '10s'")
            conn.execute(f"DROP SCHEMA {schema} CASCADE")

    request.addfinalizer(drop)
    # commits not waiting for the disk: as the SQLite clubs live in /dev/shm (tests/conftest.py),
    # what the tests prove does not change - no test kills this server
    options = f"-csearch_path={schema},public -csynchronous_commit=off"
    return f"{url}&options={urllib.parse.quote(options)}"


@pytest.fixture
def club_location(store, tmp_path, request):
    """Where this test's new club goes (``--db``): an SQLite file, or a new, empty schema of a
    database on the test process's private PostgreSQL server (a missing server fails the
    test)."""
    if store == "sqlite":
        return tmp_path / "club.sqlite"
    return new_club_schema(request.getfixturevalue("club_database"), request)
