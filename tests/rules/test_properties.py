"""Property tests (hypothesis) over random positions and rolls: checkers are conserved, no
point holds both colours, the opponent only changes by hits, every play is reachable step
by step through ``legal_steps``, every offered step leads to a legal play, notation and
``explain`` agree with ``legal_plays``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.rules import BAR, Position, apply_step, explain, legal_plays, legal_steps, parse_play, position_from_id, position_id


@st.composite
def positions(draw) -> Position:
    """Random legal positions: any number of checkers per side (1..15), biased towards
    bear-offs, bar checkers and crowded boards."""
    n = draw(st.integers(1, 15))
    home = draw(st.booleans())
    top = 6 if home else 24

    def side() -> list[int]:
        counts = [0] * 26
        for _ in range(n):
            where = draw(st.one_of(st.integers(1, top), st.just(BAR), st.just(0)) if not home else st.integers(0, top))
            counts[where] += 1
        return counts

    mine, theirs = side(), side()
    if home and mine[0] and draw(st.booleans()):  # hit while bearing off
        mine[0] -= 1
        mine[BAR] += 1
    for p in range(1, 25):
        if mine[p] and theirs[BAR - p]:  # one colour per point: the opponent's go to its bar
            theirs[BAR] += theirs[BAR - p]
            theirs[BAR - p] = 0
    total = max(sum(mine), sum(theirs))
    mine[0] += total - sum(mine)
    theirs[0] += total - sum(theirs)
    return Position(tuple(mine), tuple(theirs)).validate(total)


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_plays_conserve_checkers_and_colours(position, roll):
    plays = legal_plays(position, roll)
    assert len({p.position for p in plays}) == len(plays)
    for play in plays:
        after = play.position
        assert after.checkers() == position.checkers()
        assert all(not (after.mine[p] and after.theirs[BAR - p]) for p in range(1, 25))
        hits = sum(s.hit for s in play.steps)
        assert after.theirs[BAR] == position.theirs[BAR] + hits
        assert after.pips()[0] <= position.pips()[0]
        assert explain(position, roll, after) is None
        assert parse_play(play.notation, position, roll) == play
        assert position_from_id(position_id(after), sum(after.mine)) == after


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(positions(), dice)
def test_every_play_is_reachable_step_by_step(position, roll):
    for play in legal_plays(position, roll)[:40]:
        for i, step in enumerate(play.steps):
            assert step in legal_steps(position, roll, play.steps[:i])


@settings(max_examples=150, deadline=None)
@given(positions(), dice, st.randoms(use_true_random=False))
def test_every_offered_step_leads_to_a_legal_play(position, roll, rng):
    results = {p.position for p in legal_plays(position, roll)}
    done = []
    current = position
    while True:
        offered = legal_steps(position, roll, done)
        if not offered:
            break
        step = rng.choice(offered)
        done.append(step)
        current = apply_step(current, step)
    if results:
        assert current in results
    else:
        assert done == [] and current == position


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(positions(), dice, st.data())
def test_explain_is_none_exactly_for_legal_results(position, roll, data):
    plays = legal_plays(position, roll)
    results = {p.position for p in plays}
    if not plays:
        assert explain(position, roll, position) is None
        return
    play = data.draw(st.sampled_from(plays))
    cut = data.draw(st.integers(0, len(play.steps)))
    partial = position
    for step in play.steps[:cut]:
        partial = apply_step(partial, step)
    reason = explain(position, roll, partial)
    if partial in results:
        assert reason is None
    else:
        assert isinstance(reason, str) and reason and "\n" not in reason
