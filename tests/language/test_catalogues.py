"""The catalogues: complete for the five languages (no untranslated or fuzzy entry), every
placeholder of a translation the same as its original's, the template up to date with the
code, and the compiled ``.mo`` files (what the board reads) the same as their ``.po``."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.checkers import python_format
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bgboard.language import LANGUAGES, PARTIAL
from bgboard.language.catalogues import LOCALE_DIR

REPO = Path(__file__).resolve().parents[2]
#: The extraction's options, as docs/languages.md's pybabel command gives them.
KEYWORDS = {"say": (2,), "say_n": (2, 3), "Phrase": (1,), "counted": (1, 2), "gettext": None,
            "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "_": None, "N_": None}
_PLACEHOLDER = re.compile(r"%\((\w+)\)([-#0 +]?\d*(?:\.\d+)?[sdifr])|%%")


def catalogue(lang: str) -> Catalog:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "bgboard.po", "rb") as f:
        return read_po(f)


def template() -> Catalog:
    with open(LOCALE_DIR / "bgboard.pot", "rb") as f:
        return read_po(f)


def placeholders(text: str) -> list[tuple[str, str]]:
    return sorted((m.group(1) or "%", m.group(2) or "") for m in _PLACEHOLDER.finditer(text))


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def assert_placeholders_match(lang: str, cat: Catalog) -> None:
    """Every translation of ``cat`` uses exactly its original's placeholders (names and types,
    each at least once) and passes Babel's own format check — for either domain's catalogues."""
    for m in cat:
        if not m.id or not any(forms(m)):
            continue
        if m.python_format:
            python_format(cat, m)  # Babel's own check: raises TranslationError
        originals = list(m.id) if isinstance(m.id, (list, tuple)) else [m.id]
        for i, text in enumerate(forms(m)):
            original = originals[min(i, len(originals) - 1)]
            assert sorted(set(placeholders(text))) == sorted(set(placeholders(original))), (lang, m.id, text)


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_catalogue_is_complete(lang):
    cat = catalogue(lang)
    ids = {m.id for m in template() if m.id}
    assert {m.id for m in cat if m.id} == ids, "run the update command of docs/languages.md"
    untranslated = [m.id for m in cat if m.id and not all(forms(m))]
    fuzzy = [m.id for m in cat if m.id and m.fuzzy]
    assert untranslated == [] and fuzzy == []
    assert cat.num_plurals == 2 and cat.language_team and str(cat.locale) == lang


@pytest.mark.parametrize("lang", [code for code in LANGUAGES + PARTIAL if code != "en"])
def test_every_placeholder_of_a_translation_matches_its_original(lang):
    assert_placeholders_match(lang, catalogue(lang))


def test_greek_names_the_tavli_games_only():
    cat = catalogue("el")
    translated = {m.id: m.string for m in cat if m.id and any(forms(m))}
    assert translated == {"Portes": "Πόρτες", "Plakoto": "Πλακωτό", "Fevga": "Φεύγα", "Tavli": "Τάβλι"}


def assert_compiled_is_the_po(mo: Path, messages: Iterable[Message], lang: str) -> None:
    """The compiled catalogue ``mo`` answers each of ``messages`` (a .po's) as the .po does,
    plural forms too, and says it is ``lang`` (the board's and the club's catalogues)."""
    with open(mo, "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for m in messages:
        if not m.id:
            continue
        if isinstance(m.id, (list, tuple)):
            for n, form in ((1, m.string[0]), (2, m.string[1])):
                assert compiled.ngettext(m.id[0], m.id[1], n) == form, (lang, m.id)
        else:
            assert compiled.gettext(m.id) == m.string, (lang, m.id)
    assert compiled.info()["language"] == lang


@pytest.mark.parametrize("lang", [code for code in LANGUAGES + PARTIAL if code != "en"])
def test_the_compiled_catalogue_is_the_po(lang):
    assert_compiled_is_the_po(LOCALE_DIR / lang / "LC_MESSAGES" / "bgboard.mo",
                              [m for m in catalogue(lang) if any(forms(m))], lang)


def test_the_template_holds_every_marked_text_of_the_board():
    found = set()
    for _, _, message, _, _ in extract_from_dir(
        str(REPO / "host" / "bgboard"), method_map=[("club/**", "ignore"), ("hints/drills.toml", "bgboard.language.drill_texts:extract"),
                    ("**.py", "python")],
        keywords=KEYWORDS, comment_tags=("source:",), strip_comment_tags=False,
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    ids = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template() if m.id}
    assert found == ids, "run the extraction command of docs/languages.md"
