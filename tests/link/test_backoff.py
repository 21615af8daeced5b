"""The one Backoff of the serial link and the club network's sessions."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bgboard.link.backoff import Backoff


def test_without_jitter_the_waits_double_up_to_the_most_and_reset_starts_again() -> None:
    b = Backoff(0.2, 5.0, jitter=0)
    assert [b.delay() for _ in range(7)] == [0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0]
    b.reset()
    assert b.delay() == 0.2


@given(st.integers(0, 2**32 - 1), st.integers(1, 30))
def test_with_jitter_each_wait_is_within_a_quarter_of_its_step(seed: int, attempts: int) -> None:
    b, exact = Backoff(0.5, 10.0, rng=random.Random(seed)), Backoff(0.5, 10.0, jitter=0)
    for _ in range(attempts):
        step, wait = exact.delay(), b.delay()
        assert 0.75 * step <= wait <= 1.25 * step


def test_the_serial_link_and_the_club_network_use_the_one_class() -> None:
    import bgboard.club.boards
    import bgboard.link
    import bgboard.link.reconnect
    import bgboard.net
    import bgboard.net.boardlink

    homes = (bgboard.link, bgboard.link.reconnect, bgboard.net, bgboard.net.boardlink, bgboard.club.boards)
    assert all(home.Backoff is Backoff for home in homes)
