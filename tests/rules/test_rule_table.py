"""Data-driven rule table (tests/data/rules/rule_table.json): each row is a position that
really contains one of REFERENCE.md's rule traps (the detector proves it from single-die
moves), with the full list of expected plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgboard.rules import legal_plays, position_from_id, position_id

from .oracle import gnubg_ids, require_gnubg_nn
from .traps import TRAPS

ROWS = json.loads((Path(__file__).resolve().parents[1] / "data" / "rules" / "rule_table.json").read_text())


def test_every_trap_has_rows():
    assert {row["rule"] for row in ROWS} == set(TRAPS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['rule']}:{r['position_id']}:{r['dice'][0]}{r['dice'][1]}")
def test_rule_table_row(row):
    position = position_from_id(row["position_id"], row["checkers"])
    dice = tuple(row["dice"])
    assert TRAPS[row["rule"]](position, dice), "the position no longer shows the trap"
    plays = legal_plays(position, dice)
    assert sorted(p.notation for p in plays) == row["plays"]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['position_id']}:{r['dice'][0]}{r['dice'][1]}")
def test_rule_table_agrees_with_gnubg(row):
    require_gnubg_nn()
    position = position_from_id(row["position_id"], row["checkers"])
    dice = tuple(row["dice"])
    assert {position_id(p.position) for p in legal_plays(position, dice)} == gnubg_ids(position, dice)
