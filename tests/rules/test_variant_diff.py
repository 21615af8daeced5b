"""The differential test of the seed variants against an independent implementation.

tools/variant_diff.py ran another project's engine (not part of bgboard) on random boards
and recorded its legal plays in tests/data/rules/diff-<impl>-<variant>.jsonl (a header line
names the repository, file, commit and command).  Here bgboard's engine must give the same
set of resulting boards on every row, except the rows listed in
tests/data/rules/diff-explained.json; each listed row names a cause, the cause is
described with its rule source in docs/rules.md ("Differential test"), and the row must
show that cause (a check per cause below), so an explanation cannot hide another fault.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from bgboard.rules.board import board_text
from bgboard.rules.games import GAMES
from bgboard.rules.position import BAR, OFF

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "rules"
FILES = sorted(DATA.glob("diff-*.jsonl"))
EXPLAINED = json.loads((DATA / "diff-explained.json").read_text())


def _read(path: Path) -> tuple[dict, list[dict]]:
    lines = path.read_text().splitlines()
    return json.loads(lines[0])["header"], [json.loads(line) for line in lines[1:]]


def _key(row: dict) -> tuple[str, str, tuple[int, int]]:
    return row["kind"], row["position"], (row["dice"][0], row["dice"][1])


@cache
def _compare(path: Path) -> tuple[int, dict[tuple, tuple[dict, set[str], set[str]]]]:
    """(rows, {row key: (row, boards only bgboard allows, boards only the other allows)})."""
    header, rows = _read(path)
    game = GAMES[header["variant"]]
    differ = {}
    for row in rows:
        board = game.parse_board(row["position"])
        ours = {board_text(p.board) for p in game.plays(board, tuple(row["dice"]))}
        theirs = set(row["plays"])
        if ours != theirs:
            differ[_key(row)] = (row, ours - theirs, theirs - ours)
    return len(rows), differ


# ------------------------------------------------------------------ causes
def _touches_full_quarter(position: str, steps: str) -> bool:
    """Whether the other engine's steps (``from/to``, mover's numbering) pass, before their
    last one, through a board where the mover holds all six points 19-24."""
    mine = list(GAMES["fevga"].parse_board(position).mine)
    moves = [part.split("/") for part in steps.split()]
    for a, b in moves[:-1]:
        mine[int(a)] -= 1
        mine[OFF if b == "off" else int(b)] += 1
        if all(mine[19:BAR]):
            return True
    return False


def _quarter_judged_at_the_end(row: dict, ours_only: set[str], theirs_only: set[str]) -> bool:
    """Cause ``quarter-judged-at-the-end``: the other engine lets a checker touch down on the
    last open point of the starting quarter in the middle of a play (it judges the quarter
    on the board a play ends on); bgboard forbids every touch-down that fills it.  Every play
    only the other allows passes through a full quarter; a play only bgboard allows uses
    fewer dice than the other's plays (it is ruled out there because passing through the
    full quarter plays more dice)."""
    if not all(_touches_full_quarter(row["position"], row["plays"][b]) for b in theirs_only):
        return False
    if ours_only:
        game = GAMES["fevga"]
        board = game.parse_board(row["position"])
        ours = max(len(p.steps) for p in game.plays(board, tuple(row["dice"])))
        theirs = max(len(steps.split()) for steps in row["plays"].values())
        return theirs > ours and any(_touches_full_quarter(row["position"], s) for s in row["plays"].values())
    return bool(theirs_only)


CAUSES = {"quarter-judged-at-the-end": _quarter_judged_at_the_end}


# ------------------------------------------------------------------ tests
def test_every_recorded_file_names_where_it_came_from():
    assert FILES, "no differential data recorded"
    for path in FILES:
        header, rows = _read(path)
        assert {"repository", "file", "commit", "command", "variant"} <= set(header), path.name
        assert len(header["commit"]) == 40 and header["rows"] == len(rows) > 0
        assert path.name == f"diff-{header['repository'].split('/')[0]}-{header['variant']}.jsonl"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_bgboard_agrees_with_the_other_engine_except_explained_rows(path):
    rows, differ = _compare(path)
    listed = {
        (e["kind"], e["position"], (e["dice"][0], e["dice"][1])): e["cause"] for e in EXPLAINED if e["file"] == path.name
    }
    unexplained = sorted(set(differ) - set(listed))
    assert not unexplained, f"{len(unexplained)} rows differ without an explanation, first: {differ[unexplained[0]]}"
    stale = sorted(set(listed) - set(differ))
    assert not stale, f"listed as disagreements but the engines agree: {stale[:3]}"
    for key, cause in listed.items():
        row, ours_only, theirs_only = differ[key]
        assert CAUSES[cause](row, ours_only, theirs_only), (cause, key, sorted(ours_only)[:3], sorted(theirs_only)[:3])
    # the figures docs/rules.md gives
    assert rows - len(differ) > 0.95 * rows


def test_every_cause_is_documented_with_its_source():
    rules = (ROOT / "docs" / "rules.md").read_text()
    causes = Counter(e["cause"] for e in EXPLAINED)
    assert set(causes) <= set(CAUSES)
    for cause in causes:
        assert f"`{cause}`" in rules, f"docs/rules.md does not explain {cause}"


def test_the_cause_check_fails_on_a_disagreement_of_another_kind():
    """A play only the other engine allows that does not pass through a full quarter is not
    explained by ``quarter-judged-at-the-end``."""
    row = {"position": board_text(GAMES["fevga"].start()), "dice": [6, 5], "plays": {"X": "24/18 18/13"}}
    assert not _quarter_judged_at_the_end(row, set(), {"X"})
    assert not _quarter_judged_at_the_end(row, {"Y"}, set())
