"""Every explanation of an illegal play, on random positions, says itself in every language:
it is a Phrase (so the edge can translate it), each catalogue has it, and no placeholder is
left unfilled — backgammon's (rules/explain.py) and the seed variants' (rules/refusal.py),
in the mover's own numbering and flipped to the other player's."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgboard.language import LANGUAGES, Phrase, said
from bgboard.language.catalogues import words_for
from bgboard.rules import BAR, OFF, apply_step, explain
from bgboard.rules.games import GAMES, SEED_GAMES
from bgboard.rules.notation import flip_points
from bgboard.rules.step import Step
from tests.rules.test_every_die import plays_to_try
from tests.rules.test_properties import dice, positions
from tests.rules.test_refusals import _hand_play  # pyright: ignore[reportPrivateUsage]
from tests.rules.variant_boards import random_game

WORDS = {lang: words_for(lang) for lang in LANGUAGES}
LEFT_OVER = re.compile(r"%\(|%[sd]")


def check_every_language(why: str) -> None:
    assert isinstance(why, Phrase), f"not marked for translation: {why!r}"
    for text in (why, flip_points(why)):
        assert isinstance(text, Phrase)
        for lang, words in WORDS.items():
            said_text = said(text, words)
            assert said_text and not LEFT_OVER.search(said_text), (lang, text.msgid, said_text)
            if lang != "en":
                assert said_text != str(text), f"{lang} has no translation of {text.msgid!r}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), dice, st.data())
def test_every_backgammon_explanation_says_itself_in_every_language(position, roll, data):
    steps = data.draw(plays_to_try(position, roll))
    result = position
    for frm, to in steps:  # as a hand would: onto blocked points too
        if not result.mine[frm]:
            return
        if to != OFF and result.theirs[BAR - to] > 1:
            mine = list(result.mine)
            mine[frm] -= 1
            mine[to] += 1
            result = type(result)(tuple(mine), result.theirs)
        else:
            result = apply_step(result, Step(frm, to, frm - to))
    for colours in (None, ("white", "black")):
        why = explain(position, roll, result, colours)
        if why is not None:
            check_every_language(why)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SEED_GAMES)), seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 120))
def test_every_variant_refusal_says_itself_in_every_language(name, seed, turns):
    game = GAMES[name]
    rng = random.Random(seed)
    for i, (board, roll, plays, _chosen) in enumerate(random_game(game, rng, limit=turns + 1)):
        if i < turns or not plays:
            continue
        legal = {(p.position.mine, p.position.theirs, p.position.reserve[0]) for p in plays}
        for _ in range(4):
            result, _moves = _hand_play(game, board, roll, rng)
            if (result.mine, result.theirs, result.reserve[0]) not in legal:
                check_every_language(game.explain(board, roll, result))
