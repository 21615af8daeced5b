import pytest

from tests.club.webclub import copy_club, make_club
from tests.support import shared_run
from tests.club.stores import STORES, club_database, club_location, new_club_schema, store  # noqa: F401  (fixtures)

from bgboard.club.director import Director
from bgboard.match import export_mat
from bgboard.match.selfplay import selfplay


@pytest.fixture(scope="session")
def finished_club(tmp_path_factory):
    """A club with a finished evening (tests.club.webclub.make_club), made once per test run
    and only read: a test that changes it takes its own copy (the ``db`` fixture)."""
    _, out = shared_run(tmp_path_factory, "finished-club", lambda out: str(make_club(out / "club.sqlite")))
    return out / "club.sqlite"


@pytest.fixture
def db(finished_club, tmp_path, store, request):
    """This test's own copy of the finished club: a copy of the file, or the file restored
    into a new PostgreSQL database (``club restore``'s path)."""
    if store == "sqlite":
        return copy_club(finished_club, tmp_path)
    from bgboard.club.backup import restore

    url = new_club_schema(request.getfixturevalue("club_database"), request)
    restore(finished_club, url)
    return url


@pytest.fixture
def club(club_location):
    with Director.create(club_location, "Test Club", at="2026-11-23T19:00:00+00:00") as d:
        yield d


def selfplay_mat(length: int, seed: int, players: tuple[str, str] = ("White", "Black")) -> tuple[str, tuple[int, int]]:
    """A real self-played match record between ``players`` and its final score (player 0 first)."""
    from bgboard.match import replay

    actions = selfplay(length, seed, "standard", players=tuple(players))
    return export_mat(actions), tuple(replay(actions).score)
