"""DisplayState: JSON round trip and one-sentence errors for bad files."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from bgboard.display.demos import DEMOS
from bgboard.display.display_state import (DisplayState, InvalidDisplayStateError, state_from_dict,
                                   state_from_json)
from bgboard.errors import InputError

from strategies import display_states


@settings(max_examples=100, deadline=None)
@given(display_states())
def test_json_round_trip(state):
    assert state_from_json(state.to_json()) == state


@pytest.mark.parametrize("name", list(DEMOS))
def test_demos_round_trip(name):
    assert state_from_json(DEMOS[name].to_json()) == DEMOS[name]


def test_defaults_and_a_single_string_text():
    state = state_from_json('{"names": ["Ann", "Ben"], "message": "hello"}')
    assert state.message == ("hello",) and state.match_length == 0
    assert state_from_json("{}") == DisplayState()


@pytest.mark.parametrize("text,words", [
    ("[1, 2]", "JSON object"),
    ("{bad", "not valid JSON (line 1"),
    ('{"colour": 1}', "unknown display state field 'colour'"),
    ('{"score": [1]}', "score must be a list of 2 whole numbers"),
    ('{"score": [1, true]}', "score must be a whole number"),
    ('{"match_length": 5, "score": [-1, 0]}', "score must be two counts from 0 to 9999"),
    ('{"cube": 3}', "power of two"),
    ('{"turn": 2}', "turn must be 0, 1 or null"),
    ('{"phase": "dancing"}', "phase must be one of opening"),
    ('{"severity": "fatal"}', "severity must be one of"),
    ('{"dice": [0, 3], "phase": "moving"}', "dice must be two numbers from 1 to 6"),
    ('{"crawford": "yes"}', "crawford must be one of none"),
    ('{"names": ["A"]}', "names must be a list of two strings"),
    ('{"names": ["A", " "]}', "names must be two non-empty strings"),
    ('{"hint": 5}', "hint must be a string or a list of strings"),
    ('{"clock": {"delay_ms": 1}}', "clock needs reserve_ms"),
    ('{"clock": {"reserve_ms": [1, 2], "tick": 1}}', "unknown clock field 'tick'"),
    ('{"clock": {"reserve_ms": [-1, 2]}}', "reserve_ms must be two times"),
    ('{"diagram": {"points": [1]}}', "diagram points must be a list of 24"),
    ('{"ending": {"winner": 0, "how": "gammon"}}', "ending needs points"),
    ('{"ending": {"winner": 0, "how": "dance", "points": 2}}', "ending how must be one of single"),
    ('{"ending": {"winner": 0, "how": "resignation", "points": 2, "level": "huge"}}',
     "ending level must be one of single"),
    ('{"ending": {"winner": 0, "how": "time", "points": 1, "sent": "yes"}}', "ending sent must be"),
    ('{"put_back": 3}', "put_back must be a string or a list of strings"),
    ('{"diagram": {"points": ' + json.dumps([0] * 24) + ', "marked": [30]}}',
     "marked points must be from 0 to 25"),
])
def test_bad_state_is_one_sentence(text, words):
    with pytest.raises(InvalidDisplayStateError) as err:
        state_from_json(text)
    assert isinstance(err.value, InputError)
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_a_match_may_end_above_its_length():
    state = state_from_json('{"match_length": 5, "score": [6, 3], "phase": "match-over"}')
    assert state.score == (6, 3)


def test_opening_dice_may_be_unrolled():
    assert state_from_dict({"phase": "opening", "dice": [0, 4]}).dice == (0, 4)
