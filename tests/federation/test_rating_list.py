"""The federation's rating list is the club's FIBS formula over every club's results in the
order played: equal to what one club computes from the union of the results."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.club.ratings import Rating, fibs_change
from bgboard.federation.local_rig import union_ratings
from bgboard.federation.rating_list import RatingBook, rating_list
from bgboard.federation.season import season_standings
from bgboard.federation.stored_result import StoredResult


def result(club: str, n: int, a: str | None, b: str | None, winner: int, length: int = 7, rated: bool = True,
           at: str = "2026-11-29T20:00:00+00:00", event: str = "Club night") -> StoredResult:
    return StoredResult(club, f"{n:08d}-0000-4000-8000-000000000000", event, (f"p{a}", f"p{b}"), (a, b), length,
                        (length, 0) if winner == 0 else (0, length), winner, rated, n, at)


def test_one_result_moves_both_members_as_fibs_says():
    lines, steps = rating_list([result("north", 1, "A", "B", 0)])
    gain, loss = fibs_change(Rating(), Rating(), 7)
    assert {line.member: line.rating for line in lines} == {"A": 1500 + gain, "B": 1500 - loss}
    assert [(s.member, s.won, s.opponent) for s in steps] == [("A", True, "B"), ("B", False, "A")]
    assert gain == pytest.approx(5 * 5.29, abs=0.01)  # K = 5 for newcomers; 5.29 at K = 1 (REFERENCE.md)


def test_unlinked_players_and_unrated_results_are_kept_out_of_the_list():
    lines, _ = rating_list([result("north", 1, "A", None, 0), result("north", 2, "A", "B", 1, rated=False),
                            result("north", 3, "A", "A", 0)])
    assert lines == []


def test_the_list_equals_one_club_rating_the_union_of_every_club_s_results(tmp_path):
    rng = random.Random(2036)
    members = [f"M{i:03d}" for i in range(12)]
    results = []
    for n in range(120):  # three clubs, members playing at several of them, times interleaved
        a, b = rng.sample(members, 2)
        at = f"2026-11-29T{18 + n // 60:02d}:{n % 60:02d}:00+00:00"
        results.append(result(rng.choice(["north", "south", "east"]), n + 1, a, b, rng.randrange(2),
                              rng.choice([1, 3, 5, 7, 9, 11]), at=at))
    lines, _ = rating_list(results)
    union = union_ratings(tmp_path / "union.sqlite", results)
    assert {line.member: line.rating for line in lines} == pytest.approx(union, abs=1e-9)
    assert len(lines) == 12
    assert [line.rating for line in lines] == sorted((line.rating for line in lines), reverse=True)
    # the order played matters, not the order handed over: the same results played in another
    # order give another list, handed over in another order the same
    shuffled = results[:]
    rng.shuffle(shuffled)
    assert rating_list(shuffled) == rating_list(results)
    replayed = [replace(r, played_at=other.played_at) for r, other in zip(results, shuffled)]
    assert {line.member: line.rating for line in rating_list(replayed)[0]} != \
        {line.member: line.rating for line in lines}


def test_a_season_counts_only_its_events():
    results = [result("north", 1, "A", "B", 0, event="League"), result("south", 2, "B", "C", 0, event="League"),
               result("south", 3, "C", "A", 0, event="Friday"), result("north", 4, "C", "A", 0, event="League")]
    counted = {("north", "League"), ("south", "League")}
    lines = season_standings(results, counted, {"A": 1510.0, "B": 1500.0, "C": 1490.0})
    assert [(x.rank, x.member, x.points, x.lost) for x in lines] == [
        (1, "A", 1, 1), (2, "B", 1, 1), (3, "C", 1, 1)]  # tied on points and losses: by rating
    assert season_standings(results, set(), {}) == []


# --- the rating list kept up to date one result at a time (RatingBook) -------------------------

MEMBERS = ["A", "B", "C", "D", "E", None]


@st.composite
def evenings(draw):
    """Results of three clubs (some between unlinked players, unrated, or a member against
    himself; several stored in the same second), the order they reach the federation, and
    corrections of some of them arriving after the results they correct."""
    count = draw(st.integers(1, 40))
    results = []
    for n in range(count):
        a, b = draw(st.sampled_from(MEMBERS)), draw(st.sampled_from(MEMBERS))
        at = f"2026-11-29T20:{draw(st.integers(0, 5)):02d}:{draw(st.sampled_from([0, 30])):02d}+00:00"
        results.append(result(draw(st.sampled_from(["north", "south", "east"])), n + 1, a, b, draw(st.integers(0, 1)),
                              draw(st.sampled_from([1, 3, 5, 7, 11])), rated=draw(st.booleans()) or n % 3 > 0, at=at))
    arrival = draw(st.permutations(range(count)))
    corrected = draw(st.lists(st.integers(0, count - 1), max_size=4))
    return results, list(arrival), corrected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings())
def test_the_list_kept_one_result_at_a_time_equals_the_list_from_scratch_whatever_the_arrival_order(evening):
    results, arrival, corrected = evening
    book = RatingBook()
    held: dict[tuple[str, str], StoredResult] = {}
    for i in arrival:
        assert book.add(results[i])
        held[(results[i].club, results[i].id)] = results[i]
        lines, steps = rating_list(held.values())
        assert book.lines() == lines and book.steps() == steps   # exactly: the same formula in the same order
    assert not book.add(results[arrival[0]])   # the same result again changes nothing
    for i in corrected:   # the club corrects a result: the other player won after all
        fixed = replace(held[(results[i].club, results[i].id)], winner=1 - held[(results[i].club, results[i].id)].winner)
        book.add(fixed)
        held[(fixed.club, fixed.id)] = fixed
    assert (book.lines(), book.steps()) == rating_list(held.values()) and len(book) == len(held)


def test_a_result_in_order_is_rated_alone_and_a_late_one_rates_only_the_results_after_it_again():
    results = [result("north", n, "A", "B", n % 2, at=f"2026-11-29T20:{n:02d}:00+00:00") for n in range(1, 11)]
    book = RatingBook()
    for r in results[:6] + results[7:]:
        book.add(r)
    assert book.rated_again == 0
    book.add(results[6])   # played before the last three already rated
    assert book.rated_again == 3
    assert (book.lines(), book.steps()) == rating_list(results)
