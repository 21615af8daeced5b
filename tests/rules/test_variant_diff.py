"""The differential test of the seed variants against independent implementations.

tools/variant_diff.py ran another project's engine (not part of bgboard) on random boards
and recorded its legal plays in tests/data/rules/diff-<owner>-<variant>.jsonl.gz (a header
line names the repository, file, commit and command; each play is a resulting board with
the other engine's steps ``from/to:die``).  Here bgboard's engine must give the same set of
resulting boards on every row, except the rows listed in tests/data/rules/diff-explained.json.
Each listed row names its causes; each cause is described with its rule source in
docs/rules.md ("Differential test"), and every play on which the two engines differ must
show one of the row's causes (a check per cause below), so a listed row cannot hide
another fault.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Callable

import pytest

from bgboard.rules.board import Board, board_text
from bgboard.rules.play import Play
from bgboard.rules.games import GAMES, Game
from bgboard.rules.position import BAR, OFF

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "rules"
FILES = sorted(DATA.glob("diff-*.jsonl.gz"))
EXPLAINED = json.loads((DATA / "diff-explained.json").read_text())

Key = tuple[str, str, tuple[int, int]]


def _read(path: Path) -> tuple[dict, list[dict]]:
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    return json.loads(lines[0])["header"], [json.loads(line) for line in lines[1:]]


def _key(row: dict) -> Key:
    return row["kind"], row["position"], (row["dice"][0], row["dice"][1])


class Differ:
    """One row on which the engines differ: bgboard's plays only it allows (by board text)
    and the other engine's steps for the boards only it allows."""

    def __init__(self, game: Game, row: dict, ours: dict[str, Play]):
        self.game, self.row = game, row
        self.board = game.parse_board(row["position"])
        self.dice: tuple[int, int] = (row["dice"][0], row["dice"][1])
        self.ours_only = {b: p for b, p in ours.items() if b not in row["plays"]}
        self.theirs_only = {b: s for b, s in row["plays"].items() if b not in ours}

    @property
    def rolled(self) -> int:
        return 4 if self.dice[0] == self.dice[1] else 2


@cache
def _compare(path: Path) -> tuple[str, int, dict[Key, Differ]]:
    """(variant, rows, the rows that differ)."""
    header, rows = _read(path)
    game = GAMES[header["variant"]]
    differ: dict[Key, Differ] = {}
    for row in rows:
        board = game.parse_board(row["position"])
        ours = {board_text(p.position): p for p in game.plays(board, (row["dice"][0], row["dice"][1]))}
        if set(ours) != set(row["plays"]):
            differ[_key(row)] = Differ(game, row, ours)
    return header["variant"], len(rows), differ


# ------------------------------------------------------------------ the other engine's steps
def _steps(text: str) -> list[tuple[int, int, int]]:
    out = []
    for token in text.split():
        move, die = token.split(":")
        a, b = move.split("/")
        out.append((int(a), OFF if b == "off" else int(b), int(die)))
    return out


def _counts(start: Board, text: str) -> list[tuple[list[int], tuple[int, int, int]]]:
    """The mover's counts before each of the other engine's steps (pins aside)."""
    mine = list(start.mine)
    out = []
    for step in _steps(text):
        out.append((mine.copy(), step))
        mine[step[0]] -= 1
        mine[step[1]] += 1
    return out


def _ends_before_its_last_step(d: Differ, text: str) -> bool:
    """Played by bgboard's rules step by step, the play ends the game before its last step."""
    board = d.board
    steps = _steps(text)
    for i, (frm, to, die) in enumerate(steps):
        found = [after for step, after in d.game.steps_from(board, die) if (step.frm, step.to) == (frm, to)]
        if not found:
            return False
        board = found[0]
        if d.game.outcome(board) is not None:
            return i < len(steps) - 1
    return False


# ------------------------------------------------------------------ causes
# Each cause: (does it explain a play only bgboard allows?, does it explain a play only the
# other engine allows?), both given the row and the play.
Cause = tuple[Callable[[Differ, Play], bool], Callable[[Differ, str], bool]]


def _never(*_: object) -> bool:
    return False


def _through_full_quarter(d: Differ, text: str) -> bool:
    return any(all(mine[19:BAR]) for mine, _ in _counts(d.board, text)[1:])


def _fewer_dice_than_passing_through(d: Differ, play: Play) -> bool:
    if not d.row["plays"]:
        return False
    longest = max(len(_steps(t)) for t in d.row["plays"].values())
    return len(play.steps) < longest and any(_through_full_quarter(d, t) for t in d.row["plays"].values())


def _larger_die_not_from_the_highest(d: Differ, text: str) -> bool:
    return any(
        to == OFF and die > frm and any(mine[frm + 1 : BAR]) for mine, (frm, to, die) in _counts(d.board, text)
    )


def _bears_off_while_pinned(d: Differ, text: str) -> bool:
    return bool(d.board.pins[0]) and any(to == OFF for _, (_, to, _) in _counts(d.board, text))


def _uses_fewer_dice(d: Differ, play: Play) -> bool:
    """Fewer dice than rolled, without the mother ending it (bearing off the last checker
    with the first die may)."""
    return len(play.steps) < d.rolled and not _mother_ends_it(d, play)


def _mother_ends_it(d: Differ, play: Play) -> bool:
    outcome = d.game.outcome(play.position)
    return play.ended and outcome is not None and outcome[1] in ("mother", "draw") and len(play.steps) < d.rolled


def _bears_off_after_coming_home(d: Differ, play: Play) -> bool:
    return any(d.board.mine[7:BAR]) and any(step.to == OFF for step in play.steps)


CAUSES: dict[str, Cause] = {
    # Fevga, mvichosfm/fevga
    "quarter-judged-at-the-end": (_fewer_dice_than_passing_through, _through_full_quarter),
    # Plakoto, ziyi0218/plakoto-python-ai
    "only-plays-using-every-die": (_uses_fewer_dice, _never),
    "mother-does-not-end-the-play": (_mother_ends_it, _ends_before_its_last_step),
    "larger-die-bears-off-any-checker": (_never, _larger_die_not_from_the_highest),
    "home-judged-at-the-start-of-the-roll": (_bears_off_after_coming_home, _never),
    "bears-off-while-pinned": (_never, _bears_off_while_pinned),
}


def explained(d: Differ, causes: list[str]) -> list[str]:
    """What is wrong with explaining ``d`` by ``causes``: plays no cause explains, and
    causes that explain none of its plays (empty when the explanation holds)."""
    used: set[str] = set()
    wrong: list[str] = []
    for text, play in d.ours_only.items():
        by = [c for c in causes if CAUSES[c][0](d, play)]
        used.update(by)
        if not by:
            wrong.append(f"bgboard's {play.notation} ({text}) is not explained")
    for text, steps in d.theirs_only.items():
        by = [c for c in causes if CAUSES[c][1](d, steps)]
        used.update(by)
        if not by:
            wrong.append(f"their {steps} ({text}) is not explained")
    wrong += [f"{c} explains nothing here" for c in causes if c not in used]
    return wrong


# ------------------------------------------------------------------ tests
def test_every_recorded_file_names_where_it_came_from():
    assert {path.name for path in FILES} == {"diff-mvichosfm-fevga.jsonl.gz", "diff-ziyi0218-plakoto.jsonl.gz"}
    for path in FILES:
        header, rows = _read(path)
        assert {"repository", "file", "commit", "command", "variant"} <= set(header), path.name
        assert len(header["commit"]) == 40 and header["rows"] == len(rows) > 0
        assert path.name == f"diff-{header['repository'].split('/')[0]}-{header['variant']}.jsonl.gz"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_bgboard_agrees_with_the_other_engine_except_explained_rows(path):
    _, rows, differ = _compare(path)
    listed = {
        (e["kind"], e["position"], (e["dice"][0], e["dice"][1])): e["causes"] for e in EXPLAINED if e["file"] == path.name
    }
    unexplained = sorted(set(differ) - set(listed))
    assert not unexplained, f"{len(unexplained)} rows differ without an explanation, first: {unexplained[0]}"
    stale = sorted(set(listed) - set(differ))
    assert not stale, f"listed as disagreements but the engines agree: {stale[:3]}"
    for key, causes in listed.items():
        assert not explained(differ[key], causes), (key, explained(differ[key], causes)[:3])
    assert rows > len(differ)


def test_the_figures_in_docs_rules_are_the_measured_ones():
    """docs/rules.md gives, per file, the rows compared, the agreements and the rows per
    cause; they are measured here."""
    rules = (ROOT / "docs" / "rules.md").read_text()
    for path in FILES:
        _, rows, differ = _compare(path)
        assert f"`{path.name}`: {rows:,} rows, {rows - len(differ):,} agree" in rules, path.name
        causes = Counter(c for e in EXPLAINED if e["file"] == path.name for c in e["causes"])
        for cause, n in causes.items():
            assert f"`{cause}` ({n:,} row{'' if n == 1 else 's'})" in rules, (path.name, cause, n)


def test_every_cause_is_one_the_checks_know():
    assert {c for e in EXPLAINED for c in e["causes"]} == set(CAUSES)


def test_a_cause_does_not_explain_a_disagreement_of_another_kind():
    """The checks refuse what their cause does not produce: the Fevga start's only play
    given as the other engine's, and a full play of bgboard's."""
    game = GAMES["fevga"]
    row = {"position": board_text(game.start()), "dice": [6, 5], "plays": {"X": "24/18:6 18/13:5"}}
    d = Differ(game, row, {"Y": game.plays(game.start(), (6, 5))[0]})
    assert d.theirs_only == {"X": "24/18:6 18/13:5"} and set(d.ours_only) == {"Y"}
    for cause in CAUSES:
        assert explained(d, [cause]), cause
