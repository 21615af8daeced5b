"""The club's two stores for the tests (docs/club.md, "The club's store"): a test asking for
``club_location`` (or a fixture built on it: tests/club/conftest.py's ``club`` and ``db``)
runs once on an SQLite file and once on a PostgreSQL database of the test process's private
server.  A module outside tests/club imports the two fixtures to use them."""

from __future__ import annotations

import pytest

#: The club's two stores (docs/club.md): every test using the fixtures below runs on both.
STORES = ("sqlite", "postgresql")


@pytest.fixture(params=STORES)
def store(request) -> str:
    """The store this test's club is in (a test of SQLite's own - a damaged file - says
    ``@pytest.mark.parametrize("store", ["sqlite"])``)."""
    return request.param


@pytest.fixture
def club_location(store, tmp_path, request):
    """Where this test's new club goes (``--db``): an SQLite file, or a new, empty database on
    the test process's private PostgreSQL server (a missing server fails the test)."""
    if store == "sqlite":
        return tmp_path / "club.sqlite"
    return request.getfixturevalue("postgres_url")
