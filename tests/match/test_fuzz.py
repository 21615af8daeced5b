"""Fuzzing: bad actions never corrupt a match; damaged .mat files and JSON only ever raise
the one-sentence errors."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.errors import InputError
from bgboard.match import (
    AcceptResign,
    Beaver,
    Double,
    Drop,
    MatchRecordError,
    Move,
    NextGame,
    OpeningRoll,
    Pass,
    RejectResign,
    Resign,
    Roll,
    Take,
    apply,
    from_json,
    states,
    to_json,
)
from bgboard.match.mat import export_mat, read_mat
from bgboard.match.selfplay import selfplay


@lru_cache(maxsize=None)
def _match_states():
    return [after for _a, after, _b in states(selfplay(5, 21))]


@lru_cache(maxsize=None)
def _match_steps():
    """(state, the action the match played next, the state it led to) along a whole match."""
    log = selfplay(5, 21)
    walked = list(states(log))
    return [(walked[i][1], log[i + 1], walked[i + 1][1]) for i in range(len(walked) - 1)]


@lru_cache(maxsize=None)
def _mat_text() -> str:
    return export_mat(selfplay(3, 15))


dice = st.tuples(st.integers(-1, 8), st.integers(-1, 8))
players = st.one_of(st.none(), st.integers(-1, 2))
points = st.integers(-2, 27)
actions = st.one_of(
    st.builds(OpeningRoll, dice),
    st.builds(Roll, dice),
    st.builds(Move, st.lists(st.tuples(points, points), max_size=5).map(tuple)),
    st.just(Pass()),
    st.builds(Double, players),
    st.builds(Take, players),
    st.builds(Drop, players),
    st.builds(Beaver, players),
    st.builds(Resign, st.integers(-1, 4), players),
    st.builds(AcceptResign, players),
    st.builds(RejectResign, players),
    st.just(NextGame()),
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 10_000), action=actions)
def test_any_action_is_applied_or_refused_and_the_match_stays_whole(index: int, action) -> None:
    steps = _match_steps()
    state, played, expected = steps[index % len(steps)]
    try:
        after = apply(state, action)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc)
        # the match goes on from the refused action's state exactly as it went without it
        assert apply(state, played) == expected
        assert to_json(apply(from_json(to_json(state)), played)) == to_json(expected)
        return
    for side in after.board:
        assert len(side) == 26 and min(side) >= 0 and sum(side) == after.checkers
    assert after.cube >= 1 and after.cube & (after.cube - 1) == 0
    assert after.score[0] >= state.score[0] and after.score[1] >= state.score[1]
    assert from_json(to_json(after)) == after


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_mat_files_only_raise_record_errors(data) -> None:
    text = _mat_text()
    cut = data.draw(st.integers(0, len(text)))
    length = data.draw(st.integers(0, 12))
    junk = data.draw(st.text(alphabet=" 0123456789/*:)\nabDTWgtkr", max_size=12))
    damaged = text[:cut] + junk + text[cut + length:]
    try:
        read_mat(damaged)
    except MatchRecordError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_damaged_json_only_raises_record_errors(text: str) -> None:
    for candidate in (text, to_json(_match_states()[10])[: len(text)]):
        try:
            from_json(candidate)
        except MatchRecordError:
            pass


def test_impossible_saved_states_are_refused() -> None:
    import json

    good = json.loads(to_json(_match_states()[10]))
    for key, value, message in [
        ("cube", 3, "a cube of 3"),
        ("turn", 2, "players are 0 and 1"),
        ("dice", [0, 7], "dice"),
        ("board", [[15] + [0] * 25, [14] + [0] * 25], "player 1 does not have 15 checkers"),
        ("board", "abc", "malformed"),
        ("players", 5, "malformed"),
    ]:
        bad = dict(good, **{key: value})
        try:
            from_json(json.dumps(bad))
        except MatchRecordError as exc:
            assert message in str(exc), (key, str(exc))
        else:
            raise AssertionError(f"{key}={value!r} was accepted")
