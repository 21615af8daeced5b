"""Matches of the seed variants: scoring as VARIANTS.md gives it, no cube where the rules
say so, the tavli rotation, draws, records (.mat/SGF/JSON) and the selfplay command."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from bgboard.cli import main
from bgboard.match import (
    Double,
    IllegalPlayError,
    MatchRuleError,
    Move,
    NextGame,
    OpeningRoll,
    StartMatch,
    apply,
    from_json,
    replay,
    states,
    to_json,
)
from bgboard.match.mat import export_mat, read_mat
from bgboard.match.selfplay import selfplay
from bgboard.match.sgf import export_sgf
from bgboard.match.state import PLAY, game_variant
from bgboard.rules.games import TAVLI
from bgboard.rules.games import GAMES, SEED_GAMES

from tests.rules.variant_boards import board_of

KINDS = {
    "plakoto": {"single", "gammon", "mother", "draw"},
    "fevga": {"single", "gammon"},
    "anti": {"single"},
    "race": {"single", "gammon", "backgammon"},
}


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(SEED_GAMES))
def test_whole_matches_score_as_the_variant_says(variant):
    seen = Counter()
    for seed in range(3):
        actions = selfplay(3, seed, "standard", variant=variant)
        state = replay(actions)
        assert max(state.score) >= 3
        for game in state.games:
            assert game.result in KINDS[variant]
            assert game.points == {"single": 1, "gammon": 2, "mother": 2, "backgammon": 3, "draw": 0}[game.result]
            seen[game.result] += 1
        for action, after, before in states(actions):
            if isinstance(action, Move):
                assert after.board_view.checkers() == (15, 15) or after.phase != PLAY
        # every state survives the journal's JSON
        assert from_json(to_json(state)) == state
    assert seen["single"]


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_no_cube_in_plakoto_and_fevga(variant):
    state = apply(None, StartMatch(5, variant=variant))
    state = apply(state, OpeningRoll((3, 1)))
    plays = GAMES[variant].plays(state.board_view, state.dice)
    state = apply(state, Move.of(plays[0]))
    assert not state.may_double
    assert "no doubling cube" in (state.double_refusal() or "")
    with pytest.raises(MatchRuleError, match="no doubling cube") as caught:
        apply(state, Double())
    assert caught.value.rule == "no-cube"


def test_race_and_anti_keep_the_cube():
    for variant in ("race", "anti"):
        state = apply(None, StartMatch(5, variant=variant))
        state = apply(state, OpeningRoll((3, 1)))
        state = apply(state, Move.of(GAMES[variant].plays(state.board_view, state.dice)[0]))
        assert state.may_double
        assert apply(state, Double()).phase == "doubled"


@pytest.mark.slow
def test_tavli_rotates_portes_plakoto_fevga_without_cube_to_5_or_7():
    assert [game_variant("tavli", n) for n in range(1, 7)] == [g.name for g in TAVLI.games] * 2 == ["standard", "plakoto", "fevga"] * 2
    from bgboard.match import UnknownRuleSetError

    with pytest.raises(UnknownRuleSetError, match="5, 7"):
        apply(None, StartMatch(3, rules="tavli"))
    actions = selfplay(7, 3, "tavli")
    state = replay(actions)
    played = [game_variant("tavli", g.number) for g in state.games]
    assert played[:3] == ["standard", "plakoto", "fevga"]
    assert all(g.cube == 1 for g in state.games)
    assert not any(isinstance(a, Double) for a in actions)
    # the start of each game is its variant's start
    for action, after, before in states(actions):
        if isinstance(action, NextGame):
            assert after.variant == game_variant("tavli", after.game)
            if after.variant == "plakoto":
                assert after.board[0][24] == 15 and after.board[1][24] == 15


def _playing(variant: str, row: dict, dice: tuple[int, int]):
    """A match state with player 0 on roll on the board of a rule-table row."""
    state = apply(None, StartMatch(5, variant=variant))
    state = apply(state, OpeningRoll((dice[0], dice[1]) if dice[0] > dice[1] else (dice[1], dice[0])))
    board = board_of(row)
    return replace(state, board=(board.mine, board.theirs), pins=board.pins, reserve=board.reserve, dice=dice)


def test_plakoto_draw_scores_nothing_and_the_match_goes_on():
    row = {"mine": {"24": 1, "4": 1}, "theirs": {"1": 1, "24": 1}, "pinned": [[24], []]}
    state = _playing("plakoto", row, (3, 2))
    after = apply(state, Move(((4, 1),)))
    assert after.phase == "game_over" and after.score == (0, 0)
    record = after.games[-1]
    assert (record.winner, record.result, record.points) == (None, "draw", 0)
    assert apply(after, NextGame()).game == 2
    assert from_json(to_json(after)) == after


def test_plakoto_mother_wins_two_in_the_middle_of_the_roll():
    row = {"mine": {"13": 1, "4": 1}, "theirs": {"24": 1, "6": 1}}
    state = _playing("plakoto", row, (3, 2))
    after = apply(state, Move(((4, 1),)))
    assert after.score == (2, 0) and after.games[-1].result == "mother"


def test_anti_the_player_who_bears_off_all_loses():
    row = {"mine": {"2": 1}, "theirs": {"13": 15}}
    state = _playing("anti", row, (6, 5))
    after = apply(state, Move(((2, 0),)))
    assert after.games[-1].winner == 1 and after.score == (0, 1)


def test_illegal_variant_plays_say_why():
    row = {"mine": {"13": 1, "10": 1}, "theirs": {"15": 1}, "pinned": [[10], []]}
    state = _playing("plakoto", row, (3, 1))
    with pytest.raises(IllegalPlayError, match="your checker on point 10 is pinned: it cannot move"):
        apply(state, Move(((10, 7), (13, 12))))
    fevga = apply(apply(None, StartMatch(5, variant="fevga")), OpeningRoll((6, 5)))
    with pytest.raises(IllegalPlayError, match="your first checker must pass the opponent's starting point"):
        apply(fevga, Move(((24, 18), (24, 19))))  # the first-checker rule
    assert apply(fevga, Move(((24, 18), (18, 13)))).turn == 1


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "rules"), [("plakoto", "standard"), ("fevga", "standard"), ("anti", "standard"), ("race", "standard"), (None, "tavli")])
def test_mat_records_read_back_into_the_same_match(variant, rules):
    length = 5 if rules == "tavli" else 3
    actions = selfplay(length, 2, rules, variant=variant)
    text = export_mat(actions)
    name = {"plakoto": "Plakoto", "fevga": "Fevga", "anti": "Anti Backgammon", "race": "Backgammon Race", None: "Tavli"}[variant]
    assert f'; [Variation "{name}"]' in text
    back = replay(read_mat(text, rules))
    state = replay(actions)
    assert back.games == state.games and back.score == state.score
    sgf = export_sgf(actions)
    assert sgf.count("(;FF[4]GM[6]") == len(state.games)


def test_mat_and_sgf_of_a_draw():
    row = {"mine": {"24": 1, "4": 1}, "theirs": {"1": 1, "24": 1}, "pinned": [[24], []]}
    state = _playing("plakoto", row, (3, 2))
    after = apply(state, Move(((4, 1),)))
    from bgboard.match.mat import MatCursor, mat_chunk

    chunk, _ = mat_chunk(MatCursor(), Move(((4, 1),)), state, after)
    assert "Wins" not in chunk and chunk.endswith("\n\n")


def test_fevga_sgf_letters_put_black_on_the_far_side():
    actions = selfplay(1, 5, "standard", variant="fevga")
    sgf = export_sgf(actions)
    # Black's first checker leaves Black's 24-point, which is White's 12-point: letter 'l'
    first_black = next(line for line in sgf.splitlines() if line.startswith(";B["))
    assert first_black[5] == "l"


@pytest.mark.slow
def test_selfplay_command_plays_each_variant(tmp_path, capsys):
    for variant in SEED_GAMES:
        out = tmp_path / f"{variant}.mat"
        assert main(["selfplay", "--variant", variant, "--match-length", "1", "--seed", "3", "--out", str(out), "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["games"] and all(g["result"] in KINDS[variant] for g in summary["games"])
        assert f'[Variation' in out.read_text()
    assert main(["selfplay", "--rules", "tavli", "--match-length", "5", "--seed", "1", "--out", str(tmp_path / "t.mat")]) == 0
    assert "record written" in capsys.readouterr().out


def test_variant_notes_for_the_display():
    from bgboard.control.seed_notes import hints_known, variant_notes

    row = {"mine": {"24": 1, "4": 1}, "theirs": {"1": 1, "24": 1}, "pinned": [[24], []]}
    state = _playing("plakoto", row, (3, 2))
    notes = variant_notes(state)
    assert "no hints: no engine knows Plakoto" in notes
    assert "white pinned on 24" in notes and "white's mother checker is pinned on 24" in notes
    assert "black's mother checker is alone on 1: in danger" in notes
    assert not hints_known(state)
    tavli = apply(None, StartMatch(5, rules="tavli"))
    assert variant_notes(tavli) == ("tavli game 1: Portes (next Plakoto)",) and hints_known(tavli)
    race = apply(None, StartMatch(3, variant="race"))
    assert "to enter: white 15, black 15" in variant_notes(race)


def test_a_variant_game_on_the_display_says_no_engine_knows_it_and_names_its_pins():
    from bgboard.control.presenter import View, display_state
    from bgboard.control.seed_notes import variant_notes
    from bgboard.display.panels import panel_spec
    from bgboard.display.renderer import render_report

    state = apply(None, StartMatch(3, variant="plakoto"))
    shown = display_state(View(state=state, now_ms=0, variant=variant_notes(state)))
    assert shown.hint == ("no engine knows Plakoto",)
    report = render_report(shown, panel_spec("waveshare-4in2"))
    assert report.image.size == (400, 300)
    row = {"mine": {"24": 1, "4": 1}, "theirs": {"1": 1, "24": 1}, "pinned": [[24], []]}
    playing = _playing("plakoto", row, (3, 2))
    shown = display_state(View(state=playing, now_ms=0, variant=variant_notes(playing)))
    assert any("white's mother checker is pinned on 24" in line for line in shown.lesson) and shown.dice == (3, 2)
