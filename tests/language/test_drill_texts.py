"""The drills' names and notes (hints/drills.toml) in the learner's language: Babel extracts
them (bgboard/language/drill_texts.py), the practice room shows them through the words of the
board's language, and a drill file of the learner's own keeps its names as written."""

from __future__ import annotations

import pytest

from bgboard.control.events import BoardRead
from bgboard.control.practice_room import PracticeRoom
from bgboard.hints.drills import builtin_drills, parse_drills
from bgboard.language import LANGUAGES, said, said_all
from bgboard.language.catalogues import words_for
from bgboard.sense.places import Observation

GERMAN_TITLES = {"Opening 3-1": "Eröffnung 3-1", "Bear off with a gap": "Abtragen mit einer Lücke",
                 "Enter two checkers": "Zwei Steine einwürfeln"}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_shipped_drill_name_and_note_is_said_in_the_language(lang: str) -> None:
    words = words_for(lang)
    translated = 0
    for drill in builtin_drills():
        for text in (drill.name, drill.note):
            if not text:
                continue
            assert words.gettext(text) != "" and "%(" not in said(text, words)
            translated += said(text, words) != text
    # only the away-notation names ("Prime, 5-away 3-away" …) may read as in English
    assert translated >= 40 - 3


def test_the_practice_room_titles_a_drill_in_german() -> None:
    drills = tuple(d for d in builtin_drills() if d.name in GERMAN_TITLES)
    shown: list = []
    room = PracticeRoom(list(drills), grade=lambda *a: None, send=lambda m: None, show=shown.append,
                        summarise=lambda lessons: ())
    room.handle(BoardRead(Observation.of_board((0,) * 28), 1))
    title = said_all(tuple(shown[-1].title), words_for("de"))
    german = GERMAN_TITLES[drills[0].name]
    assert any(german in t for t in title), title
    assert not any(drills[0].name in t for t in title)


def test_a_learners_own_drill_file_keeps_its_names() -> None:
    own = parse_drills('[[drill]]\nname = "Mijn 100%% oefening"\nkind = "opening"\n'
                       'position = "4HPwATDgc/ABMA"\nnote = "eigen tekst"\n')
    assert said(own[0].name, words_for("nl")) == "Mijn 100%% oefening"
    assert said(own[0].note, words_for("de")) == "eigen tekst"
