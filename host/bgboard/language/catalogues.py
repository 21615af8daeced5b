"""The catalogues (an edge: reads the compiled ``.mo`` files shipped in the package).

``locale/<lang>/LC_MESSAGES/bgboard.po`` is the translation, ``bgboard.mo`` beside it the
compiled catalogue that the standard library's :mod:`gettext` reads at run time (no Babel on
the board: the ``.mo`` files are committed and tests/language checks they match their
``.po``; docs/languages.md has the extraction and compilation commands).
"""

from __future__ import annotations

import argparse
import functools
import gettext
import os
from pathlib import Path

from bgboard.language import ENGLISH, LANGUAGES, PARTIAL, Words, checked_language, choose_language

DOMAIN = "bgboard"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"


@functools.lru_cache(maxsize=None)
def words_for(language: str, domain: str = DOMAIN) -> Words:
    """The translation for ``language`` (a code or a locale name) in ``domain`` (the board's
    ``bgboard``; the club's pages and printouts have their own, ``club``); English is the
    code's own text, and a text missing from a catalogue falls back to English."""
    code = checked_language(language, "language")
    if code == "en":
        return ENGLISH
    found = gettext.translation(domain, localedir=LOCALE_DIR, languages=[code], fallback=True)
    return found


def players_words(asked: str | None, configured: str = "") -> Words:
    """The players' language for a command: ``--lang``, else the config's ``[display]
    language``, else this process's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``), else English."""
    return words_for(choose_language(asked, configured, os.environ))


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """``--lang L`` on a command that speaks to players."""
    parser.add_argument("--lang", metavar="L", default=None,
                        help=f"the players' language: {', '.join(LANGUAGES + PARTIAL)} "
                             "(default: the config's display.language, else LANG/LC_MESSAGES, else en)")


__all__ = ["DOMAIN", "LOCALE_DIR", "add_lang_argument", "players_words", "words_for"]
