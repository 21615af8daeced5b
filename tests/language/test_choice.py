"""Which language the board speaks: --lang, the config, the locale, English."""

from __future__ import annotations

import pytest

from bgboard.language import (ENGLISH, Phrase, UnknownLanguageError, choose_language, language_code,
                              said)
from bgboard.language.catalogues import words_for


@pytest.mark.parametrize("text,code", [
    ("de_DE.UTF-8", "de"), ("nl_NL", "nl"), ("nb-NO", "nb"), ("no_NO.UTF-8", "nb"), ("da", "da"),
    ("el_GR.UTF-8", "el"), ("en_GB.UTF-8", "en"), ("C", None), ("POSIX", None), ("fr_FR.UTF-8", None),
])
def test_locale_names(text, code):
    assert language_code(text) == code


def test_the_order_of_the_choice():
    env = {"LANG": "de_DE.UTF-8", "LC_MESSAGES": "nl_NL.UTF-8"}
    assert choose_language("da", "nb", env) == "da"          # --lang first
    assert choose_language(None, "nb", env) == "nb"          # then the config
    assert choose_language(None, "", env) == "nl"            # then LC_MESSAGES before LANG
    assert choose_language(None, "", {"LANG": "de_DE.UTF-8"}) == "de"
    assert choose_language(None, "", {"LANGUAGE": "fr:nb", "LANG": "de_DE"}) == "nb"
    assert choose_language(None, "", {"LC_ALL": "C", "LANG": "de_DE"}) == "en"  # a set locale wins
    assert choose_language(None, "", {}) == "en"


def test_an_unknown_language_is_one_sentence():
    with pytest.raises(UnknownLanguageError, match=r"^--lang: no language 'xx'; choose one of en, nl"):
        choose_language("xx", "", {})


def test_a_phrase_is_its_english_text_and_says_itself_in_a_language():
    p = Phrase("point %(point)d is blocked", point=5)
    assert p == "point 5 is blocked" and said(p, ENGLISH) == p
    assert said(p, words_for("de")) == "Punkt 5 ist blockiert"
    one, two = (Phrase.counted("%(n)d pip", "%(n)d pips", n) for n in (1, 2))
    assert (one, two) == ("1 pip", "2 pips")
    assert said(plain := "13/7 8/7", words_for("nl")) is plain  # notation stays as written
