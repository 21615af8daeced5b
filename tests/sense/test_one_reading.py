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
from bgboard.sense.roll import RollReading
from bgboard.sense.tavli import physical

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
    turn = RollReading(game, board, WHITE, (3, 1))
    before = Observation(physical(name, board, WHITE).expected().codes)
    assert isinstance(turn.recognise(before), recognise.Unchanged)
    after = Observation(physical(name, plays[0].position, WHITE).expected().codes)
    verdict = turn.recognise(after)
    assert isinstance(verdict, (recognise.Played, recognise.Ambiguous))
    shown = (verdict.play,) if isinstance(verdict, recognise.Played) else verdict.plays
    assert (plays[0].position.mine, plays[0].position.theirs) in {(p.position.mine, p.position.theirs) for p in shown}


def _calls(path: Path, names: set[str]) -> list[str]:
    """The names of ``names`` that ``path`` calls (a name or an attribute)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in names:
                found.append(name)
    return found


def _reader_imports(path: Path) -> set[str]:
    """The roll readers ``path`` imports from sense/: backgammon's Turn, the seed games'."""
    return {alias.name for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ImportFrom)
            and node.module in ("bgboard.sense.recognise", "bgboard.sense.tavli", "bgboard.sense")
            for alias in node.names if alias.name in ("Turn", "VariantTurn")}


def test_callers_read_a_roll_with_the_one_reading_and_never_pick_one_by_seed() -> None:
    """Outside sense/ no code builds backgammon's ``Turn`` or the seed games'
    ``VariantTurn``: the judge, the practice room and the simulator's players build
    :class:`RollReading` from the game (the simulator's wrong-play maker walks a seed game's
    boards on the way, :meth:`VariantTurn.partials`: not a reading of the board); and the
    one test of ``seed`` that picks how a roll is read is in sense/roll.py."""
    builders = {str(path.relative_to(ROOT)) for path in ROOT.rglob("*.py")
                if path.parts[-2] != "sense" and _reader_imports(path)}
    assert builders <= {"sim/tavli_habits.py"}, builders
    assert _calls(ROOT / "control" / "judge.py", {"RollReading"})
    assert _calls(ROOT / "control" / "practice_room.py", {"RollReading"})
    seed_in_sense = {str(path.relative_to(ROOT)) for path in (ROOT / "sense").glob("*.py")
                     if any(isinstance(n, ast.Attribute) and n.attr == "seed" for n in ast.walk(ast.parse(path.read_text())))}
    assert seed_in_sense == {"sense/roll.py"}, seed_in_sense


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_board_is_read_the_same_way_in_every_game(name: str) -> None:
    """app.BoardInput.read and the simulator read the slots with sense.tavli.read_board in
    every game (no branch on ``seed``): without pins that is the plain reading of the grid,
    with the slot states kept."""
    from bgboard.hardware import load_grid
    from bgboard.sense.slots import SlotMap
    from bgboard.sense.tavli import read_board

    grid = SlotMap.from_slots(load_grid().slots)
    states = [0] * grid.count
    reading = read_board(grid, states, pins=VARIANTS[name].pins)
    assert reading == grid.observation(states) and reading.states == tuple(states)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_start_is_laid_out_by_one_function(name: str) -> None:
    """sense.tavli.start_counts lays every game's start out with ``physical`` (backgammon's
    starts had their own branch through ``board_of``): for backgammon the same counts."""
    from bgboard.sense.places import board_of
    from bgboard.sense.tavli import start_counts

    game = GAMES[name]
    counts = start_counts(name)
    assert counts == physical(name, game.start(), WHITE).counts
    if not game.seed:
        assert counts == tuple(board_of(game.start().plain(), WHITE))
    assert sum(c for c in counts if c > 0) == sum(-c for c in counts if c < 0) == game.checkers


def test_takebacks_and_condoning_are_asked_of_the_one_reading() -> None:
    """The controller and the session ask RollReading.takes_back(game) whether a reading
    may be a takeback or condoned (the position look-up reads both, the board with pins
    neither), not the game's ``seed``."""
    for name in ("controller.py", "session.py"):
        tree = ast.parse((ROOT / "control" / name).read_text())
        assert not any(isinstance(n, ast.Attribute) and n.attr == "seed" for n in ast.walk(tree)), name
        assert any(isinstance(n, ast.Attribute) and n.attr == "takes_back" for n in ast.walk(tree)), name
    assert [name for name, g in GAMES.items() if RollReading.takes_back(g)] == [
        "standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3"]
