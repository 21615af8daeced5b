"""One way to read a roll for every game (issue 33): one set of verdicts in sense/ (the seed
games' reading had its own Unchanged/Played/Ambiguous/Unexplained beside recognise.py's),
every game the registry's entry in the match state (``game_rules`` was None for backgammon
and tested in 23 places), and the reading of a roll built for any game answers with the
same verdicts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bgboard.match import StartMatch, apply
from bgboard.match.state import match_rules
from bgboard.rules.games import GAMES, VARIANTS
from bgboard.sense import recognise
from bgboard.sense.places import WHITE, Observation
from bgboard.sense.tavli import physical, reader

ROOT = Path(__file__).resolve().parents[2] / "host" / "bgboard"
VERDICTS = {"Unchanged", "Played", "Ambiguous", "Unexplained", "Moving", "Takeback", "Illegal", "Miscount"}


def test_the_verdicts_are_defined_once_where_rolls_are_read() -> None:
    """In sense/ and the layers that read rolls (control, sim): sense/recognise.py's only
    (club/model.py's ``Played`` is a club match, another thing)."""
    where = sorted(str(path.relative_to(ROOT)) for layer in ("sense", "control", "sim")
                   for path in (ROOT / layer).rglob("*.py")
                   for node in ast.walk(ast.parse(path.read_text()))
                   if isinstance(node, ast.ClassDef) and node.name in VERDICTS)
    assert set(where) == {"sense/recognise.py"} and len(where) == 7


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_game_is_its_registry_entry_in_the_match_state(name: str) -> None:
    rules, played = match_rules(name)
    state = apply(None, StartMatch(length=5 if name == "tavli" else 3, rules=rules, variant=played))
    assert state.playing is VARIANTS[name].games[0]
    assert not hasattr(state, "game_rules")


@pytest.mark.parametrize("name", ["standard", "hypergammon3", "plakoto", "fevga", "anti", "race"])
def test_a_roll_of_any_game_is_read_with_the_same_verdicts(name: str) -> None:
    """The board before the roll, then after its first legal play, as the sensors read them:
    Unchanged, then Played with that play, whichever game."""
    game = GAMES[name]
    board = game.start()
    plays = game.plays(board, (3, 1))
    turn = reader(game, board, WHITE, (3, 1), checkers=game.checkers)
    before = Observation(physical(name, board, WHITE).expected().codes)
    assert isinstance(turn.recognise(before), recognise.Unchanged)
    after = Observation(physical(name, plays[0].position, WHITE).expected().codes)
    verdict = turn.recognise(after)
    assert isinstance(verdict, (recognise.Played, recognise.Ambiguous))
    shown = (verdict.play,) if isinstance(verdict, recognise.Played) else verdict.plays
    assert (plays[0].position.mine, plays[0].position.theirs) in {(p.position.mine, p.position.theirs) for p in shown}
