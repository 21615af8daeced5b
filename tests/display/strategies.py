"""Hypothesis strategies for display states (shared by the display tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from bgboard.display.display_state import (CRAWFORD_STAGES, ENDINGS, LEVELS, PHASES, SEVERITIES,
                                   BoardDiagram, ClockState, DisplayState, Ending)

names = st.text(
    alphabet=st.characters(codec="latin-1", categories=("L", "N", "Zs", "Pd")),
    min_size=1, max_size=24,
).filter(lambda s: s.strip())
texts = st.lists(
    st.text(alphabet=st.characters(codec="latin-1", categories=("L", "N", "Zs", "P")),
            min_size=1, max_size=90).filter(lambda s: s.strip()),
    max_size=3,
).map(tuple)


@st.composite
def display_states(draw) -> DisplayState:
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 9, 11, 25]))
    top = length + 6 if length else 99  # a gammon can overshoot the length
    phase = draw(st.sampled_from(PHASES))
    low = 0 if phase == "opening" else 1
    clock = draw(st.none() | st.builds(
        ClockState,
        reserve_ms=st.tuples(st.integers(0, 5 * 3600 * 1000), st.integers(0, 5 * 3600 * 1000)),
        delay_ms=st.integers(0, 18_000),
        running=st.sampled_from([None, 0, 1]),
    ))
    diagram = draw(st.none() | st.builds(
        BoardDiagram,
        points=st.lists(st.integers(-15, 15), min_size=24, max_size=24).map(tuple),
        bar=st.tuples(st.integers(0, 15), st.integers(0, 15)),
        off=st.tuples(st.integers(0, 15), st.integers(0, 15)),
        marked=st.lists(st.integers(0, 25), max_size=6).map(tuple),
    ))
    return DisplayState(
        names=(draw(names), draw(names)),
        match_length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        crawford=draw(st.sampled_from(CRAWFORD_STAGES)),
        cube=2 ** draw(st.integers(0, 12)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        turn=draw(st.sampled_from([None, 0, 1])),
        dice=draw(st.none() | st.tuples(st.integers(low, 6), st.integers(low, 6))),
        pips=draw(st.none() | st.tuples(st.integers(0, 375), st.integers(0, 375))),
        clock=clock,
        phase=phase,
        winner=draw(st.sampled_from([None, 0, 1])),
        hint=draw(texts),
        message=draw(texts),
        severity=draw(st.sampled_from(SEVERITIES)),
        diagram=diagram,
        title=draw(texts),
        put_back=draw(texts),
        lesson=draw(texts),
        ending=draw(st.none() | st.builds(
            Ending, winner=st.sampled_from([0, 1]), how=st.sampled_from(ENDINGS),
            points=st.integers(1, 24), cube=st.sampled_from([1, 2, 4, 64]),
            level=st.none() | st.sampled_from(LEVELS), sent=st.sampled_from([None, True, False]))),
    )
