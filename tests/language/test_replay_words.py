"""The replay room's narration (control/replay_room.py) in the board's language: every stop
of a file's replay — plays, rolls, cube actions, a game's end — is a Phrase said whole in each
language, the plays' notation as the world writes it, and English exactly as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.control.replay_room import replay_steps
from bgboard.language import LANGUAGES, Phrase, said
from bgboard.language.catalogues import words_for
from bgboard.match import import_mat

WORLD = Path(__file__).parents[1] / "data" / "match" / "world"
#: Words of the English narration that no translation may keep.
ENGLISH = (" rolls ", " doubles to ", " takes", " drops", " wins ", "Game ", "no play", "the only play")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_stop_of_a_replay_is_said_in_the_language(lang: str) -> None:
    steps = replay_steps(import_mat((WORLD / "hand_cube_columns.mat").read_bytes()))
    words = words_for(lang)
    for step in steps:
        assert isinstance(step.text, Phrase), step.text
        text = said(step.text, words)
        assert "%(" not in text and not any(word in text for word in ENGLISH), (lang, text)
    # the plays' notation stays as written
    plays = [s for s in steps if s.play is not None and s.play.kind == "move" and s.play.steps]
    assert plays and all(s.text.split(": ", 1)[1].split(" ", 2)[-1] in said(s.text, words) for s in plays[:5])


def test_english_reads_as_before() -> None:
    steps = replay_steps(import_mat((WORLD / "hand_cube_columns.mat").read_bytes()))
    assert steps[0].text.startswith("Game 1, 1: ")
    assert any(" doubles to " in s.text for s in steps) and steps[-1].text.startswith("Game ")
    assert said(steps[0].text, words_for("de")).startswith("Spiel 1, 1: ")
