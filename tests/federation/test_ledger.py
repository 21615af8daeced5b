"""The federation's database (federation/ledger.py) on a real PostgreSQL: a result stored once
by club and id, a club's correction (a later revision) replacing it, an older revision never
coming back, a club that has not joined refused, members registered from the results, and
the migrations run once however many open the database."""

from __future__ import annotations

from dataclasses import replace

from bgboard.federation.ledger import SCHEMA, Ledger
from bgboard.net.results_feed import ClubResult

FIRST = ClubResult("0b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f", "north", "Friday", 3, ("Ann", "Bob"), ("M1", "M2"), 5,
                   (5, 2), 0, True, 1, "2026-11-29T20:15:00+00:00", revision=1)


def test_once_by_id_and_a_correction_replaces_it(postgres_url):
    with Ledger(postgres_url) as ledger, Ledger(postgres_url) as second:
        assert ledger.meta("schema") == str(SCHEMA) == second.meta("schema")
        assert ledger.add_club("north") and not ledger.add_club("north")
        stranger = replace(FIRST, club="south")
        assert ledger.store([FIRST, FIRST, stranger]) == ["stored", "duplicate", "refused"]
        before = ledger.version()
        corrected = replace(FIRST, score=(2, 5), winner=1, revision=2)
        assert ledger.store([corrected, FIRST]) == ["stored", "duplicate"]
        assert ledger.version() != before and ledger.version()[0] == before[0]  # the pages see a correction
        [kept] = ledger.results()
        assert (kept.score, kept.winner, kept.winner_member) == ((2, 5), 1, "M2")
        assert ledger.count() == 1
        assert ledger.members() == [{"id": "M1", "name": "Ann", "club": "north"},
                                    {"id": "M2", "name": "Bob", "club": "north"}]


def test_the_portals_rating_list_follows_each_stored_result_and_correction_as_if_rated_from_scratch(postgres_url):
    from bgboard.federation.portal import Portal
    from bgboard.federation.rating_list import rating_list

    with Ledger(postgres_url) as ledger:
        ledger.add_club("north")
        ledger.add_club("south")
        portal = Portal(postgres_url, "League")
        assert portal.ratings() == ([], [])
        book = portal._book   # kept up to date from here on, never rated again from scratch
        results = [replace(FIRST, id=f"{n:08d}-8c1e-4c31-9a4e-2f6f1d2d3e4f", club=("north", "south")[n % 2], seq=n,
                           members=(f"M{n % 3}", f"M{(n + 1) % 3}"), winner=n % 2,
                           played_at=f"2026-11-29T20:{n:02d}:00+00:00") for n in range(1, 9)]
        # in the order played, then one played before the last two, then a club's correction
        for batch in (results[:3], results[3:6] + results[7:], results[6:7],
                      [replace(results[1], winner=1, score=(2, 5), revision=2)]):
            ledger.store(batch)
            assert portal.ratings() == rating_list(ledger.results())
        assert len(portal.ratings()[0]) == 3 and len(book) == 8 and portal._book is book and book.rated_again == 1 + 6
