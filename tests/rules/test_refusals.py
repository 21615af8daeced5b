"""Every refused seed-variant play names the rule that forbids it (issue 16's follow-up).

The table (tests/data/rules/refusals.json) gives, per variant, wrong plays with the exact
sentence and the source of the rule; each is refused as text (``Game.parse_play``, the
CLI's path) and, where the play can be put on a board by hand, as a board
(``Game.explain``, the board's path).  The property: wrong plays a hand makes on random
positions of random games — single steps of the dice whatever the rules say — always get a
sentence naming a rule, never a generic one (benchmarks/variant_refusals.py counts them).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.rules.games import GAMES, SEED_GAMES
from bgboard.rules.notation import IllegalPlayError, parse_moves
from bgboard.rules.refusal import GENERIC_STEP, hand_move

from .variant_boards import board_of, random_game

TABLE = json.loads((Path(__file__).parent.parent / "data" / "rules" / "refusals.json").read_text())
GENERIC = (GENERIC_STEP, "that is not a play of", "in this order")


def _row_id(row: dict) -> str:
    return f"{row['variant']}: {row['rule']}"


def test_every_variant_has_refusals():
    assert {row["variant"] for row in TABLE} == set(SEED_GAMES)


@pytest.mark.parametrize("row", TABLE, ids=_row_id)
def test_refusal_row_names_the_rule(row):
    game = GAMES[row["variant"]]
    board = game.validate(board_of(row))
    dice = tuple(row["dice"])
    with pytest.raises(IllegalPlayError) as refused:
        game.parse_play(row["play"], board, dice)
    assert str(refused.value).endswith(row["reason"]), str(refused.value)
    if row.get("board", True):
        hand = board
        for points, _ in parse_moves(row["play"]):
            for frm, to in zip(points, points[1:]):
                hand = hand_move(game, hand, frm, to)
        assert game.explain(board, dice, hand) == row["reason"]


def _hand_play(game, board, dice, rng):
    rolled = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    rng.shuffle(rolled)
    moves = []
    for die in rolled[: rng.randint(1, len(rolled))]:
        sources = [p for p in range(1, 25) if board.mine[p]] + ([25] if board.mine[25] or board.reserve[0] else [])
        if not sources:  # the hand has borne off its last checker: the play ends there
            break
        frm = rng.choice(sources)
        to = max(frm - die, 0)
        board = hand_move(game, board, frm, to)
        moves.append((frm, to))
    return board, moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SEED_GAMES)), seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 120))
def test_every_wrong_hand_play_names_a_rule(name, seed, turns):
    game = GAMES[name]
    rng = random.Random(seed)
    for i, (board, dice, plays, _chosen) in enumerate(random_game(game, rng, limit=turns + 1)):
        if i < turns or not plays:
            continue
        legal = {(p.position.mine, p.position.theirs, p.position.reserve[0]) for p in plays}
        for _ in range(4):
            result, moves = _hand_play(game, board, dice, rng)
            if (result.mine, result.theirs, result.reserve[0]) in legal:
                continue
            why = game.explain(board, dice, result)
            assert not any(g in why for g in GENERIC), (game.board_text(board), dice, moves, why)
            text = " ".join(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}" for a, b in moves)
            with pytest.raises(IllegalPlayError) as refused:
                game.parse_play(text, board, dice)
            assert not any(g in str(refused.value) for g in GENERIC), (game.board_text(board), dice, text, str(refused.value))
