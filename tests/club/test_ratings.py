"""FIBS ratings against hand-worked figures (REFERENCE.md, FIBS ``help formula``)."""

import math

import pytest

from bgboard.club.ratings import (
    RatedResult, Rating, fibs_change, k_factor, rate, upset_probability,
)

SEASONED = Rating(1500.0, 400)   # K = 1


@pytest.mark.parametrize("length, change", [(1, 2.0), (7, 5.29), (9, 6.0)])
def test_equal_ratings_with_k_1(length, change):
    # D = 0: P_upset = 1/(10^0 + 1) = 1/2, so the change is 4 * 1 * sqrt(n) * 1/2 = 2 sqrt(n)
    gain, loss = fibs_change(SEASONED, SEASONED, length)
    assert round(gain, 2) == change and round(loss, 2) == change
    assert gain == pytest.approx(2 * math.sqrt(length))


def test_k_falls_by_one_per_hundred_points_of_experience_to_one():
    assert [k_factor(e) for e in (0, 50, 100, 399, 400, 10_000)] == pytest.approx([5.0, 4.5, 4.0, 1.01, 1.0, 1.0])


def test_each_player_has_his_own_k():
    newcomer, veteran = Rating(1500.0, 0), Rating(1500.0, 400)
    gain, loss = fibs_change(newcomer, veteran, 1)
    assert (gain, loss) == (10.0, 2.0)          # 4*5*1*0.5 and 4*1*1*0.5


def test_underdog_and_favourite_by_hand():
    # D = 200, n = 4: P_upset = 1/(10^(200*2/2000)+1) = 1/(10^0.2+1) = 0.386863...
    p_upset = upset_probability(1600, 1400, 4)
    assert p_upset == pytest.approx(1 / (10 ** 0.2 + 1))
    assert p_upset == pytest.approx(0.386863, abs=1e-6)
    strong, weak = Rating(1600.0, 1000), Rating(1400.0, 1000)
    # the favourite wins: P = P_upset -> 4*1*2*0.386863 = 3.0949
    assert fibs_change(strong, weak, 4)[0] == pytest.approx(3.0949, abs=1e-4)
    # the underdog wins: P = 1 - P_upset -> 4*1*2*0.613137 = 4.9051
    assert fibs_change(weak, strong, 4)[0] == pytest.approx(4.9051, abs=1e-4)


def test_experience_grows_by_the_match_length_and_k_is_taken_before_the_match():
    start = {1: Rating(1500.0, 95), 2: Rating(1500.0, 95)}
    final, history = rate(start, [RatedResult(10, 1, 2, 7)])
    # K = 5 - 95/100 = 4.05 from the experience before the match (not 5 - 102/100)
    assert final[1].rating == pytest.approx(1500 + 4 * 4.05 * math.sqrt(7) * 0.5)
    assert final[1].experience == final[2].experience == 102
    assert [(c.player, c.before.rating) for c in history] == [(1, 1500.0), (2, 1500.0)]


def test_a_corrected_result_is_undone_exactly():
    start = {p: Rating() for p in (1, 2, 3)}
    played = [RatedResult(1, 1, 2, 5), RatedResult(2, 2, 3, 7), RatedResult(3, 3, 1, 3)]
    original, _ = rate(start, played)
    corrected = [RatedResult(1, 2, 1, 5), *played[1:]]        # match 1 went the other way
    changed, _ = rate(start, corrected)
    assert changed != original
    back, _ = rate(start, played)                              # corrected back again
    assert back == original                                    # exactly, not approximately


def test_the_worked_example_of_docs_club():
    # Anna 1600 (experience 50, K 4.5) beats Bram 1500 (experience 400, K 1), 7 points:
    # D*sqrt(n)/2000 = 100*2.6458/2000 = 0.13229; P_upset = 1/(1.3561+1) = 0.42443
    anna, bram = Rating(1600.0, 50), Rating(1500.0, 400)
    gain, loss = fibs_change(anna, bram, 7)
    assert (round(gain, 2), round(loss, 2)) == (20.21, 4.49)
    gain, loss = fibs_change(bram, anna, 7)            # had Bram won: P = 0.57557
    assert (round(gain, 2), round(loss, 2)) == (6.09, 27.41)
