"""Every controller state of a simulated match, on every panel, keeps what it must show
(issue 14): the display states the controller built during a whole match on the modelled
board (illegal attempts, cube, Crawford, game ends, the learner's grades) are rendered on
every panel and the renderer's report of placed items is checked against the state's
required items."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgboard.display.panels import PANELS
from bgboard.display.renderer import render_report, required_items
from bgboard.sim.modelled_board import Options, Simulation


def _shape(state) -> tuple:
    """What decides the layout of a state (one of each is rendered in the fast test)."""
    return (state.phase, state.severity, bool(state.message), bool(state.put_back), bool(state.hint),
            bool(state.lesson), bool(state.title), state.cube_owner is not None, state.crawford,
            state.ending.how if state.ending else None, state.dice is not None)


@pytest.fixture(scope="session")  # made once per worker, not again each time a worker comes back to the file
def match_states(tmp_path_factory) -> list:
    shown: list = []
    sim = Simulation(Options(match_length=5, seed=4, illegal_rate=0.3, teach="learner", engine="gnubg-nn"),
                     tmp_path_factory.mktemp("states"), on_show=lambda state, now: shown.append(state))
    try:
        sim.run()
    finally:
        sim.close()
    return shown


@pytest.mark.slow
def test_the_match_shows_the_states_that_matter(match_states) -> None:
    phases = {s.phase for s in match_states}
    assert {"opening", "rolling", "moving", "cube-offered", "game-over", "match-over"} <= phases  # (set-up: the demos)
    assert any(s.put_back for s in match_states) and any(s.lesson for s in match_states)
    assert any(s.ending is not None for s in match_states)


@pytest.mark.slow
def test_every_kind_of_match_state_keeps_every_required_item_on_every_panel(match_states) -> None:
    seen: dict[tuple, object] = {}
    for state in match_states:
        seen.setdefault(_shape(state), state)
    assert len(seen) > 15
    for state in seen.values():
        for name, spec in PANELS.items():
            missing = required_items(state) - render_report(state, spec).placed
            assert not missing, f"{name} lost {sorted(missing)} of {state}"


@pytest.mark.slow
def test_the_same_states_with_clocks_keep_them_too(match_states) -> None:
    from bgboard.display.display_state import ClockState

    seen: dict[tuple, object] = {}
    for state in match_states:
        if state.phase in ("rolling", "moving", "cube-offered"):
            seen.setdefault(_shape(state), state)
    for state in seen.values():
        timed = replace(state, clock=ClockState((754_000, 41_000), 9_000, state.turn))
        for name, spec in PANELS.items():
            missing = required_items(timed) - render_report(timed, spec).placed
            assert not missing, f"{name} lost {sorted(missing)} of {timed}"


@pytest.mark.slow
def test_every_match_state_on_every_panel(match_states) -> None:
    for state in dict.fromkeys(match_states):  # each distinct state once (a state shown again is equal: 564 of 618)
        for name, spec in PANELS.items():
            missing = required_items(state) - render_report(state, spec).placed
            assert not missing, f"{name} lost {sorted(missing)} of {state}"
