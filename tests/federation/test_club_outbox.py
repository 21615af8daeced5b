"""The club's side of the feed (club/federation_feed.py) on a real club database: what it sends
for a played and a forfeited match, with the players' member ids, and that an answer from the
federation takes a result off the list (and an answer naming no match of the club is ignored);
a correction sends the result again as its next revision — on both of the club's stores
(SQLite and PostgreSQL: tests/club/stores.py)."""

from __future__ import annotations

from bgboard.club.director import Director
from bgboard.club.federation_feed import ClubOutbox
from bgboard.club.member_links import link_member, member_ids
from tests.club.stores import club_database, club_location, store  # noqa: F401  (fixtures)


def test_the_outbox_lists_each_result_until_the_federation_answers(club_location):
    path = club_location
    with Director.create(path, "North", at="2026-11-29T19:00:00+00:00") as d:
        for name in ("Ann", "Bob", "Cid", "Dan"):
            d.add_player(name)
        link_member(d.club, "Ann", "M1")
        link_member(d.club, "Bob", "M2")
        link_member(d.club, "Ann", "M9")  # linking again replaces the id
        assert member_ids(d.club) == {"Ann": "M9", "Bob": "M2"}
        d.new_event("Friday", "swiss", 5, rounds=1)
        d.enter("Friday", ["Ann", "Bob", "Cid", "Dan"])
        matches = d.pair_round("Friday").matches
        played, lost = matches
        d.record_result("Friday", played.id, (5, 2) if played.players[0] in ("Ann", "Bob") else (2, 5),
                        at="2026-11-29T20:15:00+00:00")
        d.forfeit("Friday", lost.id, lost.players[1], "no show", at="2026-11-29T20:16:00+00:00")
    outbox = ClubOutbox(path, "north")
    sent = {r.match: r for r in outbox.pending()}
    assert set(sent) == {played.id, lost.id}
    first = sent[played.id]
    assert first.id == played.uuid and first.club == "north" and first.event == "Friday"
    assert first.rated and first.seq == 1 and first.score is not None and first.length == 5
    assert first.played_at == "2026-11-29T20:15:00+00:00"
    assert {m for m in first.members if m} <= {"M9", "M2"}
    forfeit = sent[lost.id]
    assert forfeit.score is None and not forfeit.rated and forfeit.winner == 1 and forfeit.seq == 0
    assert first.revision == 1  # the result's own audit row
    assert outbox.answered(played.uuid, "stored", "", first.revision)
    assert outbox.answered(played.uuid, "duplicate", "", 0)  # an older answer changes nothing
    assert not outbox.answered("00000000-0000-4000-8000-000000000000", "stored", "", 1)
    assert [r.match for r in outbox.pending()] == [lost.id]
    # a correction after the federation's answer: the result goes again, as its next revision
    with Director.open(path) as d:
        d.correct_result("Friday", played.id, (5, 4) if first.winner == 0 else (4, 5), reason="misread")
    again = {r.match: r for r in outbox.pending()}[played.id]
    assert again.revision == 2 and again.score in ((5, 4), (4, 5)) and again.id == first.id
    assert outbox.answered(played.uuid, "stored", "", 2)
    assert [r.match for r in outbox.pending()] == [lost.id]
    outbox.close()
