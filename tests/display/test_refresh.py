"""The refresh policy over simulated sequences of updates (time passed in, real frames)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.display.demos import DEMOS
from bgboard.display.panel import FilePanel
from bgboard.display.panels import PANELS
from bgboard.display.refresh import (RefreshConfig, RefreshPolicy, RefreshState,
                                     changed_fraction)
from bgboard.display.renderer import render
from bgboard.display.screen import Screen

SPEC = PANELS["waveshare-2in13"]  # full 2000 ms, partial 300 ms
BASE = DEMOS["hint"]


def frame(pips: int, spec=SPEC):
    """A real frame; different pip counts are a small change."""
    return render(replace(BASE, pips=(pips, 150)), spec)


def run(policy, state, now):
    state, decision = policy.poll(state, now)
    return state, decision


def test_a_burst_becomes_one_refresh_of_the_last_frame():
    policy = RefreshPolicy(SPEC, RefreshConfig(coalesce_ms=250, max_hold_ms=1000))
    state = RefreshState()
    for t, pips in ((0, 160), (50, 161), (100, 162), (150, 163)):
        state = policy.submit(state, frame(pips), t)
    assert policy.due_ms(state) == 400
    state, decision = policy.poll(state, 399)
    assert decision is None
    state, decision = policy.poll(state, 400)
    assert decision is not None and decision.full and decision.reason == "first frame"
    assert decision.image.tobytes() == frame(163).tobytes()
    assert decision.sleep_after
    assert policy.due_ms(state) is None


def test_a_long_burst_is_shown_after_max_hold():
    policy = RefreshPolicy(SPEC, RefreshConfig(coalesce_ms=250, max_hold_ms=1000))
    state = RefreshState()
    for i, t in enumerate(range(0, 1200, 100)):
        state = policy.submit(state, frame(100 + i), t)
        if t >= 1000:
            break
        state, decision = policy.poll(state, t)
        assert decision is None
    assert policy.due_ms(state) == 1000


def test_partials_then_a_full_refresh_after_n():
    policy = RefreshPolicy(SPEC, RefreshConfig(partials_before_full=6))
    state, kinds, now = RefreshState(), [], 0
    for i in range(15):
        state = policy.submit(state, frame(120 + i), now)
        now = policy.due_ms(state)
        state, decision = policy.poll(state, now)
        kinds.append("F" if decision.full else "p")
    assert "".join(kinds) == "Fpppppp" + "F" + "pppppp" + "F"


def test_game_end_and_large_changes_are_full():
    policy = RefreshPolicy(SPEC)
    state = policy.submit(RefreshState(), frame(120), 0)
    state, first = policy.poll(state, policy.due_ms(state))
    state = policy.submit(state, frame(121), 5000, full=True)
    state, end = policy.poll(state, policy.due_ms(state))
    assert end.full and "game end" in end.reason
    big = frame(121).point(lambda v: 255 - v)  # every pixel inverted
    assert changed_fraction(frame(121), big) == 1.0
    assert 0.2 < changed_fraction(frame(121), render(DEMOS["match-over"], SPEC)) < 0.35
    state = policy.submit(state, big, 9000)
    state, decision = policy.poll(state, policy.due_ms(state))
    assert decision.full and decision.reason == "large change"


def test_never_faster_than_the_panel():
    policy = RefreshPolicy(SPEC, RefreshConfig(coalesce_ms=0, max_hold_ms=0))
    state = policy.submit(RefreshState(), frame(120), 0)
    state, first = policy.poll(state, 0)
    assert first.full
    state = policy.submit(state, frame(121), 10)
    assert policy.due_ms(state) == SPEC.full_ms  # waits for the full refresh to finish
    state, decision = policy.poll(state, SPEC.full_ms)
    assert not decision.full
    state = policy.submit(state, frame(122), SPEC.full_ms + 1)
    assert policy.due_ms(state) == SPEC.full_ms + SPEC.partial_ms


def test_panels_without_partial_refresh_always_full():
    spec = PANELS["inky-phat"]
    policy = RefreshPolicy(spec)
    state, now = RefreshState(), 0
    for i in range(4):
        state = policy.submit(state, frame(120 + i, spec), now)
        now = policy.due_ms(state)
        state, decision = policy.poll(state, now)
        assert decision.full
    assert now >= 3 * spec.full_ms


def test_a_change_undone_within_the_burst_is_not_drawn():
    policy = RefreshPolicy(SPEC)
    state = policy.submit(RefreshState(), frame(120), 0)
    state, _ = policy.poll(state, policy.due_ms(state))
    state = policy.submit(state, frame(121), 3000)
    state = policy.submit(state, frame(120), 3100)
    state, decision = policy.poll(state, policy.due_ms(state))
    assert decision is None and policy.due_ms(state) is None


def test_config_limits():
    for bad in ({"partials_before_full": 4}, {"partials_before_full": 9},
                {"coalesce_ms": 500, "max_hold_ms": 100}, {"partial_max_changed": 1.5}):
        with pytest.raises(ValueError):
            RefreshConfig(**bad)


@settings(max_examples=30, deadline=None)
@given(
    gaps=st.lists(st.integers(0, 3000), min_size=1, max_size=40),
    ends=st.sets(st.integers(0, 39)),
    n=st.integers(5, 8),
)
def test_simulated_game_invariants(gaps, ends, n):
    """Random update times: refreshes never overlap, never more than N partials in a row,
    game ends are full, and the panel ends up showing the last frame."""
    policy = RefreshPolicy(SPEC, RefreshConfig(partials_before_full=n))
    state, now, busy_until, run_of_partials = RefreshState(), 0, 0, 0
    frames = [frame(100 + (i % 7)) for i in range(len(gaps))]
    submitted_full = False
    last = None
    for i, gap in enumerate(gaps):
        due = policy.due_ms(state)
        # the loop: tick whenever something is due before the next update
        while due is not None and due <= now + gap:
            state, decision = policy.poll(state, due)
            if decision is not None:
                assert due >= busy_until
                took = SPEC.full_ms if decision.full else SPEC.partial_ms
                busy_until = due + took
                run_of_partials = 0 if decision.full else run_of_partials + 1
                assert run_of_partials <= n
                if submitted_full:
                    assert decision.full
                submitted_full = False
                last = decision.image
            due = policy.due_ms(state)
        now += gap
        full = i in ends
        submitted_full = submitted_full or full
        state = policy.submit(state, frames[i], now, full=full)
    while (due := policy.due_ms(state)) is not None:
        state, decision = policy.poll(state, due)
        if decision is not None:
            last = decision.image
    assert last is not None
    assert state.shown.tobytes() == frames[-1].tobytes() or (
        changed_fraction(state.shown, frames[-1]) == 0.0
    )


def test_screen_renders_refreshes_and_sleeps_the_panel(tmp_path):
    panel = FilePanel(SPEC, tmp_path / "frames")
    screen = Screen(panel)
    due = screen.update(BASE, 0)
    assert screen.tick(due - 1) == due and panel.frames == []
    assert screen.tick(due) is None
    assert panel.asleep and len(panel.frames) == 1 and panel.frames[0][1] is True
    due = screen.update(replace(BASE, pips=(160, 167)), 5000)
    screen.tick(due)
    assert [full for _, full in panel.frames] == [True, False]
    due = screen.update(DEMOS["match-over"], 9000)  # match over: always full
    screen.tick(due)
    assert [full for _, full in panel.frames] == [True, False, True]
    assert screen.last_shown == DEMOS["match-over"]
    names = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert names == ["frame-0001-full.png", "frame-0002-partial.png", "frame-0003-full.png"]
    gif = panel.write_gif(tmp_path / "game.gif")
    from PIL import Image

    with Image.open(gif) as im:
        assert im.n_frames == 3 and im.size == (SPEC.width, SPEC.height)
