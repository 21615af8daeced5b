"""What a game supports is the registry's answer, never a comparison with its name (issue 33).

An eleventh game — Longgammon, backgammon with all fifteen checkers on the 24 point — is
registered here for the test only (no other module changes) and plays: self-play, the
simulator with the engine as the other side, the engine opponent's and remote play's
config, two boards of a remote match; the analysis refuses it in one sentence, since the
test does not declare that the analysis covers it."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from bgboard.config import ConfigError, config_from_dict
from bgboard.rules.games import GAMES, VARIANTS, Variant, backgammon_start, game, supporting, variant

LONGGAMMON = backgammon_start("longgammon", "Longgammon", {24: 15}, "LongGammon", "Longgammon",
                              engine_play=True, remote_play=True)


@pytest.fixture
def longgammon(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Longgammon in the registry for one test."""
    g = LONGGAMMON
    monkeypatch.setitem(GAMES, g.name, g)
    monkeypatch.setitem(VARIANTS, g.name, Variant(g.name, g.title, (g,), (g.title,), g.mat_name))
    yield g.name


def test_each_game_declares_what_it_supports() -> None:
    assert supporting("engine_play") == supporting("remote_play") == ("standard", "nackgammon")
    assert supporting("analysis") == ("standard",)
    assert supporting("hints") == ("standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3")
    assert not variant("tavli").hints and not variant("tavli").engine_play  # a rotation: what all its games support
    assert game("plakoto").pins and not game("plakoto").hints


def test_the_engine_opponent_and_remote_play_ask_the_registry(longgammon: str) -> None:
    assert config_from_dict({"match": {"variant": longgammon, "opponent": "engine"}}).match.opponent == "engine"
    remote = {"broker": "mqtt://localhost:1883", "match": "m1", "side": "white",
              "username": "w", "password_file": "pw"}
    assert config_from_dict({"match": {"variant": longgammon}, "remote": remote}).remote.enabled
    with pytest.raises(ConfigError, match=r"variant standard or nackgammon or longgammon\), not practice"):
        config_from_dict({"match": {"variant": "plakoto", "opponent": "engine"}})
    with pytest.raises(ConfigError, match=r"^\[remote\] plays .* \(variant standard or nackgammon or longgammon\)"):
        config_from_dict({"match": {"variant": "fevga"}, "remote": remote})


def test_a_registered_game_plays_self_play_and_its_record(longgammon: str) -> None:
    from bgboard.match import replay
    from bgboard.match.mat import export_mat, import_mat
    from bgboard.match.selfplay import selfplay
    from bgboard.match.state import MATCH_OVER

    actions = selfplay(1, seed=3, variant=longgammon)
    state = replay(actions)
    assert state.phase == MATCH_OVER and state.variant == longgammon
    text = export_mat(actions)
    assert '[Variation "LongGammon"]' in text and import_mat(text).variant == longgammon


def test_a_registered_game_plays_the_engine_in_the_simulator(longgammon: str, tmp_path: Path) -> None:
    from bgboard.sim.driver import Options
    from bgboard.sim.match_run import run_match

    summary = run_match(Options(1, seed=3, variant=longgammon, opponent="pubeval"), tmp_path)
    assert max(summary["score"]) >= 1 and summary["legal_rejected"] == 0
    assert summary["engine_plays"] > 0 and summary["engine_rejected"] == 0
    assert '[Variation "LongGammon"]' in (tmp_path / "match.mat").read_text()


def test_a_registered_game_plays_between_two_remote_boards(longgammon: str) -> None:
    from bgboard.control.controller import Controller, Settings
    from bgboard.control.events import ROLL, BoardRead, ButtonPressed, DiceRolled, OpponentMoved
    from bgboard.control.remote import RemotePeer, RemotePlayer
    from bgboard.match import Move
    from bgboard.match.actions import action_to_dict
    from bgboard.match.state import Phase
    from bgboard.sense.places import BLACK, WHITE, Observation, board_of
    from bgboard.store.journal import MemoryJournal

    start = LONGGAMMON.start().plain()

    def board(local: int) -> tuple[Controller, RemotePeer]:
        peer = RemotePeer(("White", "Black")[1 - local], online=True)
        room = Controller.resume(MemoryJournal(), Settings(length=1, variant=longgammon), 0,
                                 other=RemotePlayer(peer, 1 - local), send=lambda _m: None, show=lambda _v: None)
        room.handle(BoardRead(Observation.of_board(board_of(start, WHITE)), 1))
        return room, peer

    def hand(source: Controller, target: Controller, peer: RemotePeer, at: int) -> None:
        for seq, action in enumerate(source.actions):
            if seq:
                peer.inbox.setdefault(seq, action_to_dict(action))
        target.handle(OpponentMoved(("remote", len(source.actions)), None, at))

    (white, white_peer), (black, black_peer) = board(WHITE), board(BLACK)
    white.handle(ButtonPressed(WHITE, ROLL, 2))
    white.handle(DiceRolled((1, 3), 1, 3))  # Black plays the opening 3-1 at their board
    hand(white, black, black_peer, 4)
    assert black.state is not None and black.state.phase == Phase.PLAY and black.state.variant == longgammon
    play = next(p for p in LONGGAMMON.plays(LONGGAMMON.start(), (3, 1)) if p.notation == "24/20")
    black.handle(BoardRead(Observation.of_board(board_of(play.position.plain(), BLACK)), 5))
    black.handle(ButtonPressed(BLACK, ROLL, 6))
    assert black.actions[-1] == Move(((24, 21), (21, 20)))
    hand(black, white, white_peer, 7)
    white.handle(BoardRead(Observation.of_board(board_of(play.position.plain(), BLACK)), 8))
    assert white.actions == black.actions and white.state is not None and white.state.turn == WHITE


def test_the_analysis_refuses_a_game_it_does_not_cover_in_one_sentence(longgammon: str, tmp_path: Path) -> None:
    from bgboard.analysis.evaluators import open_evaluator
    from bgboard.analysis.file_batch import analyse_file
    from bgboard.errors import InputError
    from bgboard.match.mat import export_mat
    from bgboard.match.selfplay import selfplay

    path = tmp_path / "long.mat"
    path.write_text(export_mat(selfplay(1, seed=3, variant=longgammon)))
    with pytest.raises(InputError, match=r"long\.mat is a longgammon match: only backgammon is analysed$"):
        analyse_file(path, open_evaluator("gnubg-nn"))


def test_no_module_outside_the_rules_compares_a_games_name() -> None:
    """What a game is or supports is asked of the registry: no ``== "nackgammon"``,
    ``!= "standard"`` or ``in ("standard", "nackgammon")`` outside rules/ (the rule sets'
    own names, such as the "standard" rule set, are not games' names in a comparison here)."""
    import ast

    root = Path(__file__).resolve().parents[1] / "host" / "bgboard"
    names = set(GAMES) | set(VARIANTS)
    # gnubg's class of a position ("race": no contact) is compared there, not the game Race
    position_class = {"analysis/cubeful.py", "hints/gnubg_engine.py"}

    def compared(node: ast.Compare) -> set[str]:
        found = set()
        for side in (node.left, *node.comparators):
            values = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
            found |= {v.value for v in values if isinstance(v, ast.Constant) and v.value in names}
        return found

    def wrong(path: Path, node: ast.Compare) -> set[str]:
        found = compared(node)
        return found - {"race"} if str(path.relative_to(root)) in position_class else found

    where = sorted(f"{path.relative_to(root)}:{node.lineno} {sorted(wrong(path, node))}"
                   for path in root.rglob("*.py") if path.relative_to(root).parts[0] != "rules"
                   for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Compare) and wrong(path, node))
    assert where == []



def _game_seeds(path: Path) -> set[str]:
    """Each ``X.seed`` read in a function of ``path`` (the function, the expression) but a
    run's random seed (its options, ``Options.seed`` itself)."""
    import ast

    root = Path(__file__).resolve().parents[1] / "host" / "bgboard"
    run_seed = {"o", "options", "self.options", "sim.options", "args", "self"}
    tree = ast.parse(path.read_text())
    found = set()
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = {n for f in ast.walk(func) if f is not func
                     and isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(f)}
            found |= {f"{path.relative_to(root)} {func.name}: {ast.unparse(node)}" for node in ast.walk(func)
                      if node not in inner and isinstance(node, ast.Attribute) and node.attr == "seed"
                      and ast.unparse(node.value) not in run_seed}
    return found


def test_the_simulator_asks_a_games_seed_in_one_place_only() -> None:
    """The simulated players and driver follow the one reading of a roll: how a person plays
    a game (its play heuristic, the wrong plays a learner tries) is the game's habits, chosen
    from its registry entry by ``sim.players.habits_of`` alone, as sense/roll.py alone picks
    how a roll is read.  Every other ``.seed`` in sim/ is the run's random seed (its options,
    ``Options.seed`` itself)."""
    root = Path(__file__).resolve().parents[1] / "host" / "bgboard"
    files = [*sorted((root / "sim").glob("*.py")), root / "commands" / "sim.py"]
    assert set().union(*(_game_seeds(path) for path in files)) == {"sim/players.py habits_of: game.seed"}


def test_self_play_asks_a_games_seed_in_one_place_only() -> None:
    """Self-play's built-in players of a game (backgammon's cube, resignations and play on its
    Position; the seed games' play on a Board) are chosen from its registry entry by
    ``match.selfplay.players_of`` alone, as the simulator's by ``habits_of``.  The other
    reads of match/ are the match state's and the .mat records' own path for backgammon's
    Position (listed: a new one fails, and so does one taken away without this list)."""
    root = Path(__file__).resolve().parents[1] / "host" / "bgboard"
    found = set().union(*(_game_seeds(path) for path in sorted((root / "match").glob("*.py"))))
    assert {f for f in found if f.startswith("match/selfplay.py")} == {"match/selfplay.py players_of: game.seed"}
    assert found - {"match/selfplay.py players_of: game.seed"} == {
        "match/mat_turns.py _roll: st.playing.seed",  # a seed game's illegal play: left out
        "match/mat_write.py _play_chunk: before.playing.seed",  # a seed game's steps as written
        "match/state.py _condone: state.playing.seed",  # condoning is backgammon's
        "match/state.py _move: state.playing.seed",  # backgammon's fast path of a move
    }
