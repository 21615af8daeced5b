"""Every game of the registry plays a whole match through the same code path (issue 21).

Parametrised over the registry itself (:data:`bgboard.rules.games.VARIANTS`: backgammon with
each start, the seed games, tavli's rotation), so a game added there is covered here with
no change: a self-play match (:func:`bgboard.match.selfplay.selfplay`, replayed by the match
layer to its end) and a simulated match on the modelled back end (``bgboard.sim``'s
:func:`~bgboard.sim.match_run.run_match`: the real host controller recognising every play from
the modelled board's slot states).  One function each, no per-game branch: the rule set and
the shortest match come from the registry and the rule set."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.match import Move, Pass, replay
from bgboard.match.mat import read_mat
from bgboard.match.ruleset import rule_set
from bgboard.match.selfplay import selfplay
from bgboard.match.state import MATCH_OVER, match_rules
from bgboard.rules.games import VARIANTS, variant

NAMES = list(VARIANTS)


def _shortest(rules: str) -> int:
    return min(rule_set(rules).match_lengths or (1,))


def test_the_registry_names_every_game_once_with_one_error_for_an_unknown_name() -> None:
    assert NAMES[:5] == ["standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3"]
    assert {g.name for v in VARIANTS.values() for g in v.games} == {n for n in NAMES if not variant(n).rotates}
    from bgboard.rules.starts import UnknownVariantError

    with pytest.raises(UnknownVariantError, match="unknown variant 'chess': choose one of standard, "):
        variant("chess")


@pytest.mark.parametrize("name", NAMES)
def test_every_game_plays_a_whole_self_play_match(name: str) -> None:
    rules, played = match_rules(name)
    length = _shortest(rules)
    actions = selfplay(length, seed=21, rules_name=rules, variant=played)
    state = replay(actions)
    assert state.phase == MATCH_OVER and max(state.score) >= length
    assert state.rules.variant == name
    assert sum(isinstance(a, Move) for a in actions) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_game_plays_a_simulated_match_on_the_modelled_board(name: str, tmp_path: Path) -> None:
    from bgboard.sim.driver import Options
    from bgboard.sim.match_run import run_match

    rules, played = match_rules(name)
    length = _shortest(rules)
    summary = run_match(Options(match_length=length, seed=21, rules=rules, variant=played), tmp_path)
    actions = read_mat((tmp_path / "match.mat").read_text(), rules)
    state = replay(actions)
    assert state.phase == MATCH_OVER and max(state.score) >= length
    assert state.rules.variant == name
    assert list(state.score) == summary["score"]
    assert summary["plays_recognised"] == sum(isinstance(a, (Move, Pass)) for a in actions) > 0
    assert summary["legal_rejected"] == 0


def test_a_seed_board_is_a_position_and_its_plays_are_plays() -> None:
    """One type each: a Plakoto board is a Position whose swap keeps the pins, and its
    plays are Play values that say when the game ended on the last step."""
    from bgboard.rules import Play, Position
    from bgboard.rules.board import Board

    plakoto = variant("plakoto").games[0]
    pinned = Board((0,) * 26, (0,) * 26, (1 << 5, 1 << 7), (0, 0))
    assert isinstance(pinned, Position) and pinned.swap().pins == (1 << 7, 1 << 5)
    assert pinned.swap().swap() == pinned and pinned != pinned.plain()
    plays = plakoto.plays(plakoto.start(), (3, 1))
    assert plays and all(isinstance(p, Play) and isinstance(p.position, Board) and not p.ended for p in plays)


def test_the_records_names_and_the_cli_choices_come_from_the_registry() -> None:
    import argparse

    from bgboard.commands import legal, sim
    from bgboard.match.mat_write import VARIATIONS
    from bgboard.rules.games import GAMES, SEED_VARIANTS

    assert VARIATIONS == {n: v.mat_name for n, v in VARIANTS.items() if v.mat_name}
    assert VARIATIONS["tavli"] == "Tavli" and "standard" not in VARIATIONS
    assert SEED_VARIANTS == tuple(n for n in NAMES if any(g.seed for g in variant(n).games))
    assert [n for n, g in GAMES.items() if g.pins] == ["plakoto"]
    assert [n for n, v in VARIANTS.items() if not v.cube] == ["plakoto", "fevga", "tavli"]
    for command, want in ((sim, SEED_VARIANTS), (legal, tuple(GAMES))):
        parser = command.add_parser(argparse.ArgumentParser().add_subparsers())
        [choices] = [a.choices for a in parser._actions if "--variant" in a.option_strings]
        assert tuple(choices) == want
