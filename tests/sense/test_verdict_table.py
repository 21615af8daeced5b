"""Recognition cases from a hand-written table (tests/data/sense/verdicts.toml)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from bgboard import rules
from bgboard.rules import Position
from bgboard.rules.starts import start_position
from bgboard.sense.places import BLACK, WHITE, Observation, board_of, position_of
from bgboard.sense.recognise import Illegal, Miscount, Moving, Played, Turn, Unchanged

CASES = tomllib.loads((Path(__file__).parents[1] / "data" / "sense" / "verdicts.toml").read_text())["case"]


def _board(case: dict[str, Any]) -> tuple[Position, int, tuple[int, ...]]:
    mover = WHITE if case["mover"] == "white" else BLACK
    if "points" in case:
        position = Position.from_points(case["points"], bar=tuple(case.get("bar", (0, 0))))
    else:
        position = start_position()
    board = list(board_of(position, mover))
    for frm, to in case["edits"]:
        sign = 1 if board[frm - 1] > 0 else -1
        board[frm - 1] -= sign
        if to != "hand":
            board[to - 1] += sign
    return position, mover, tuple(board)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_table(case: dict[str, Any]) -> None:
    position, mover, board = _board(case)
    dice = tuple(case["dice"])
    verdict = Turn(position, dice, mover).recognise(Observation.of_board(board))
    expect = case["expect"]
    if expect == "played":
        assert isinstance(verdict, Played), verdict
        assert sorted((s.frm, s.to) for s in verdict.play.steps) == sorted(map(tuple, case["steps"]))
        assert board_of(verdict.play.position, mover) == board
    elif expect == "moving":
        assert isinstance(verdict, Moving), verdict
        if "lifted" in case:
            assert verdict.lifted == case["lifted"]
        if "destinations" in case:
            assert list(verdict.destinations) == case["destinations"]
    elif expect == "illegal":
        assert isinstance(verdict, Illegal), verdict
        assert verdict.reason == rules.explain(position, dice, position_of(board, mover))
    elif expect == "miscount":
        assert isinstance(verdict, Miscount) and verdict.reason == case["reason"]
    else:
        assert expect == "unchanged" and verdict == Unchanged()
