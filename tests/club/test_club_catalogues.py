"""The club's catalogues (the gettext domain ``club``): complete for the five languages (no
untranslated or fuzzy entry), every placeholder of a translation its original's, the template
up to date with the club's code and its pages' templates (a fresh extraction, as
docs/languages.md's command makes it), and each compiled ``.mo`` the same as its ``.po`` —
tests/language's checks of the board's catalogues, for this domain."""

from __future__ import annotations


import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bgboard.club.web.page_language import CLUB_DOMAIN
from bgboard.language import LANGUAGES
from bgboard.language.catalogues import LOCALE_DIR
from tests.language.test_catalogues import REPO, assert_compiled_is_the_po, assert_placeholders_match, forms

TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: The extraction's keywords and options, as docs/languages.md's pybabel command for the club.
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "say": (2,), "say_n": (2, 3)}
TEMPLATE_OPTIONS = {"trim_blocks": "true", "lstrip_blocks": "true", "newstyle_gettext": "true"}


def catalogue(lang: str) -> Catalog:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{CLUB_DOMAIN}.po", "rb") as f:
        return read_po(f)


def template() -> Catalog:
    with open(LOCALE_DIR / f"{CLUB_DOMAIN}.pot", "rb") as f:
        return read_po(f)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_club_catalogue_is_complete(lang):
    cat = catalogue(lang)
    ids = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template() if m.id}
    assert {m.id if isinstance(m.id, str) else tuple(m.id) for m in cat if m.id} == ids, \
        "run the club's update command of docs/languages.md"
    assert [m.id for m in cat if m.id and not all(forms(m))] == []
    assert [m.id for m in cat if m.id and m.fuzzy] == []
    assert cat.num_plurals == 2 and str(cat.locale) == lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_placeholder_of_a_club_translation_matches_its_original(lang):
    assert_placeholders_match(lang, catalogue(lang))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_club_catalogue_is_the_po(lang):
    assert_compiled_is_the_po(LOCALE_DIR / lang / "LC_MESSAGES" / f"{CLUB_DOMAIN}.mo", catalogue(lang), lang)


def test_the_club_template_holds_every_marked_text_of_the_club():
    found = set()
    for _, _, message, _, _ in extract_from_dir(
        str(REPO / "host" / "bgboard" / "club"),
        method_map=[("web/templates/**.html", "jinja2"), ("**.py", "python")],
        options_map={"web/templates/**.html": TEMPLATE_OPTIONS},
        keywords=KEYWORDS, comment_tags=("source:",), strip_comment_tags=False,
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    ids = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template() if m.id}
    assert found == ids, "run the club's extraction command of docs/languages.md"
