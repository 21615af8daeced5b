"""The prompt before a roll says "or double" only when the player on roll may double: not in
a game without a cube (Plakoto, Fevga, a tavli match), not in the Crawford game, not with
the cube on the other side, not with a dead cube.  From real match states through the
presenters to the text the renderer draws."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgboard.control import presenter
from bgboard.display.display_state import DisplayState, state_from_dict
from bgboard.display.texts import prompt
from bgboard.match.actions import Move, OpeningRoll, StartMatch
from bgboard.match.state import MatchState, Phase, apply
from bgboard.rules.games import GAMES, SEED_GAMES


def _after_opening(length: int = 5, **start) -> MatchState:
    """Black on roll after White's opening 3-1 (the first play of the variant's engine)."""
    state = apply(None, StartMatch(length, players=("Alice", "Bob"), **start))
    state = apply(state, OpeningRoll((3, 1)))
    game = GAMES[state.rules.variant] if state.rules.variant in SEED_GAMES else None
    move = Move.of(game.plays(state.board_view, state.dice)[0]) if game else Move(((8, 5), (6, 5)))
    state = apply(state, move)
    assert state.phase == Phase.TURN and state.turn == 1
    return state


def _prompt(state: MatchState) -> str:
    return prompt(presenter.display_state(presenter.View(state=state, now_ms=0)))[0]


def test_a_centred_cube_in_a_match_game_may_be_doubled():
    state = _after_opening()
    assert state.may_double
    assert _prompt(state) == "Bob to roll or double"


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_games_without_a_cube_say_only_to_roll(variant):
    state = _after_opening(variant=variant)
    assert not state.may_double
    assert _prompt(state) == "Bob to roll"


def test_a_tavli_match_has_no_cube_even_in_its_backgammon_game():
    state = _after_opening(rules="tavli")
    assert not state.may_double
    assert _prompt(state) == "Bob to roll"


def test_the_crawford_game_the_cube_on_the_other_side_and_a_dead_cube_say_only_to_roll():
    state = _after_opening()
    crawford = replace(state, score=(4, 0), crawford=True)
    owned = replace(state, cube=2, cube_owner=0)
    dead = replace(_after_opening(rules="brainking"), score=(0, 3), cube=2, cube_owner=1)
    for case in (crawford, owned, dead):
        assert not case.may_double, case.double_refusal()
        assert _prompt(case) == "Bob to roll"
    assert replace(state, cube=2, cube_owner=1).may_double  # his own cube: he may redouble
    assert _prompt(replace(state, cube=2, cube_owner=1)) == "Bob to roll or double"


def test_the_texts_follow_may_double_and_it_survives_json():
    base = DisplayState(names=("Alice", "Bob"), match_length=5, turn=1, phase="rolling")
    assert prompt(base) == ("Bob to roll or double", "Bob: roll or double", "Bob: roll")
    shut = replace(base, may_double=False)
    assert prompt(shut) == ("Bob to roll", "Bob: roll")
    assert state_from_dict({"names": ["Alice", "Bob"], "turn": 1, "may_double": False}).may_double is False
    from bgboard.display.display_state import InvalidDisplayStateError, state_from_json

    assert state_from_json(shut.to_json()) == shut
    with pytest.raises(InvalidDisplayStateError, match="may_double must be true or false"):
        state_from_dict({"may_double": "no"})
