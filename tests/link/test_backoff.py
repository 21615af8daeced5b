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


def test_the_club_network_uses_the_same_class() -> None:
    from bgboard.link import Backoff as from_link
    from bgboard.net import Backoff as from_net
    from bgboard.net.session import Backoff as from_session

    assert from_link is from_net is from_session is Backoff
