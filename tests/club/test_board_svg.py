"""The board drawing: golden SVG files, escaping, and a well-formed picture of any board.

Regenerate the golden files after an intended change of the drawing with
``BGBOARD_REGENERATE=1 .venv/bin/python -m pytest tests/club/test_board_svg.py`` and look
at them in a browser before committing.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bgboard.boardsvg import STACK
from bgboard.club.web.board_picture import board_svg
from bgboard.club.web.boardview import MAX_NAME, board_view
from bgboard.match import replay
from bgboard.match.selfplay import selfplay
from bgboard.rules import Position, position_id
from tests.club.evening import payload

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "club"
SVG = "{http://www.w3.org/2000/svg}"


def _messy() -> dict:
    """Black on roll (6-4) with 2 white and 1 black on the bar, tall stacks, checkers off,
    a 4-cube owned by white."""
    white = [0] * 26
    black = [0] * 26
    white[0], white[6], white[13], white[25] = 3, 8, 2, 2
    black[0], black[1], black[24], black[25] = 6, 1, 7, 1
    return {"players": ["Ann", "Bob"], "turn": 1, "dice": [6, 4], "cube": 4, "cube_owner": 0,
            "position_id": position_id(Position(tuple(black), tuple(white))),
            "score": [1, 2], "length": 7, "phase": "play"}


def _opening() -> dict:
    actions = selfplay(5, seed=3, players=("Ann", "Bob"))
    return payload(replay(actions[:2]))


CASES = {
    "opening-roll": _opening,
    "bar-off-stacks-cube": _messy,
    "black-owns-8-cube": lambda: {**_messy(), "cube": 8, "cube_owner": 1, "turn": None,
                                  "dice": None, "position_id": "4HPwATDgc/ABMA"},
    "no-position": lambda: {"players": ["Ann", "Bob"]},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_svg(name):
    svg = board_svg(board_view(3, CASES[name]()))
    path = GOLDEN / f"board-{name}.svg"
    if os.environ.get("BGBOARD_REGENERATE"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg + "\n")
    assert svg + "\n" == path.read_text(), f"the drawing of {name} changed; see the module docstring"


def _checkers(svg: str) -> list[ET.Element]:
    return [c for c in ET.fromstring(svg).iter(f"{SVG}circle") if c.get("r") == "7.5"]


def test_tall_stack_shows_its_count_on_the_top_checker():
    root = ET.fromstring(board_svg(board_view(3, _messy())))
    labels = sorted(t.text for t in root.iter(f"{SVG}text") if t.text)
    # 8 white on the 6-point and 7 black on their 24-point; 3 white off and 6 black off
    assert labels == ["3", "4", "6", "7", "8"]  # "4" is the cube
    assert len(_checkers(board_svg(board_view(3, _messy())))) == 2 * STACK + 2 + 2 + 1 + 1  # stacks cut at STACK; 13-point, bars, black 1-point


def test_a_hostile_name_is_escaped_in_the_title():
    state = {**_messy(), "players": ["<img src=x onerror=alert(1)>", 'Bob "&" Co']}
    svg = board_svg(board_view(3, state))
    assert "<img" not in svg and "&lt;img src=x onerror=alert(1)&gt;" in svg
    assert ET.fromstring(svg).find(f"{SVG}title").text.startswith("Board 3: <img src=x")


def test_a_bad_position_id_draws_an_empty_board_and_says_why():
    view = board_view(3, {**_messy(), "position_id": "not an id!!"})
    assert view.sides is None and view.problem
    assert _checkers(board_svg(view)) == []


names = st.text(max_size=200)
ints = st.one_of(st.integers(-5, 70000), st.none(), st.booleans(), st.text(max_size=3))


@settings(max_examples=150, deadline=None)
@pytest.mark.slow
@given(seed=st.integers(0, 10_000), cut=st.integers(1, 400), a=names, b=names,
       junk=st.dictionaries(st.sampled_from(["cube", "cube_owner", "turn", "length", "match", "clocks", "dice", "score"]),
                            st.one_of(ints, st.lists(ints, max_size=3))))
def test_any_board_draws_a_well_formed_picture(seed, cut, a, b, junk):
    actions = selfplay(3, seed=seed)
    state = payload(replay(actions[: min(cut, len(actions))]))
    state.update(players=[a, b])
    good = board_view(1, state)
    assert len(_checkers(board_svg(good))) <= 30
    state.update(junk)
    view = board_view(1, state)
    assert all(len(name) <= MAX_NAME for name in view.players)
    ET.fromstring(board_svg(view))
