"""Simple-delay match clocks (US rules)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgboard.control.clock import Clock, ClockRules, ClockSettingError


def test_reserve_is_two_minutes_a_point_less_one_per_point_scored() -> None:
    rules = ClockRules()
    assert rules.reserve(7, (0, 0)) == 14 * 60_000
    assert rules.reserve(7, (2, 3)) == 9 * 60_000
    assert Clock.set(rules, 5).reserve == (600_000, 600_000)


def test_the_delay_runs_before_the_reserve_and_unused_delay_is_lost() -> None:
    clock = Clock.set(ClockRules(), 1).start(0, 1_000)
    assert clock.remaining(0, 1_000 + 12_000) == 120_000
    assert clock.delay_left(1_000 + 5_000) == 7_000
    clock = clock.start(1, 1_000 + 5_000)  # pressed within the delay: nothing charged
    assert clock.reserve == (120_000, 120_000)
    clock = clock.start(0, 6_000 + 20_000)  # player 1 used 8 s beyond the delay
    assert clock.reserve == (120_000, 112_000)


def test_running_out_loses_unless_overtime_is_granted() -> None:
    clock = Clock.set(ClockRules(per_point_ms=1_000, delay_ms=0), 1).start(1, 0)
    assert clock.flagged(999) is None
    assert clock.flagged(1_000) == 1
    overtime = Clock.set(ClockRules(per_point_ms=1_000, delay_ms=0, overtime_ms=60_000), 1).start(1, 0)
    assert overtime.flagged(1_000) is None
    assert overtime.remaining(1, 31_000) == 30_000
    assert overtime.flagged(61_000) == 1


def test_negative_settings_are_refused_in_one_sentence() -> None:
    with pytest.raises(ClockSettingError, match="clock delay cannot be negative"):
        ClockRules(delay_ms=-1)


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 60_000)), max_size=20))
def test_a_clock_survives_the_journal_and_time_only_goes_down(presses: list[tuple[int, int]]) -> None:
    clock = Clock.set(ClockRules(overtime_ms=30_000), 3)
    now = 0
    for player, wait in presses:
        now += wait
        before = (clock.remaining(0, now), clock.remaining(1, now))
        clock = clock.start(player, now)
        assert (clock.remaining(0, now), clock.remaining(1, now)) == before
        assert Clock.from_dict(clock.to_dict()) == clock
    if clock.running is not None:
        resumed = Clock.from_dict(clock.to_dict()).resumed(now + 10**9)
        assert resumed.remaining(clock.running, now + 10**9) == clock.remaining(clock.running, now)
