"""The languages the board speaks to its players (pure: no environment, no files).

Every text a player reads is written in English in the code, marked for translation, and
looked up at the edge in a :class:`Words` object: the standard library's
:class:`gettext.GNUTranslations` for a catalogue, :data:`ENGLISH` (a
:class:`gettext.NullTranslations`) for English.  Pure code (the rules' explanations, the
display's renderer) takes a ``Words`` argument; the adapters make it from the chosen
language (:mod:`bgboard.language.catalogues`).  Developer logs stay English.

Code that does not hold a ``Words`` (the rules' explanations, the controller's messages)
returns a :class:`Phrase`: an English ``str`` that remembers its message id and parameters,
so the edge that shows it says it in the players' language (:func:`said`); used as a plain
string it is the English sentence, as before.

Placeholders are Python's named ``%(name)s`` formats, so a translation may reorder them
and Babel's checker compares them with the English (tests/language).  Point numbers and
notation (``13/7 8/7``, ``bar``, ``off``) stay as written in every language.
"""

from __future__ import annotations

import gettext
from typing import Iterable, Mapping, Protocol

from bgboard.errors import InputError


class Words(Protocol):
    """What pure code needs of a translation: :class:`gettext.NullTranslations` has it."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


#: English: the texts as written in the code.
ENGLISH: Words = gettext.NullTranslations()

#: The languages with a complete catalogue: English, Dutch, German, Norwegian Bokmål, Danish.
LANGUAGES = ("en", "nl", "de", "nb", "da")
#: Languages with a partial catalogue: Greek for the tavli games' names and terms only
#: (everything else in English).
PARTIAL = ("el",)
#: Language names as the players know them (the ``--lang`` help, docs/languages.md).
NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "nb": "Norsk bokmål",
         "da": "Dansk", "el": "Ελληνικά (tavli names only)"}
#: Other spellings a locale may carry: Norwegian without the written standard is Bokmål.
_ALIASES = {"no": "nb", "nn": "nb", "gr": "el"}


class UnknownLanguageError(InputError):
    """A language bgboard has no catalogue for (the message lists the ones it has)."""


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined (a constant); it is looked up
    in a :class:`Words` where it is shown."""
    return message


class Phrase(str):
    """An English text that remembers its message id and its parameters (Babel extracts
    ``-k Phrase:1``); :func:`said` says it in a language.  Parameters that are phrases
    themselves are said in the same language."""

    msgid: str
    plural: str | None
    params: dict[str, object]

    def __new__(cls, msgid: str, /, **params: object) -> "Phrase":
        self = super().__new__(cls, msgid % params if params else msgid)
        self.msgid, self.plural, self.params = msgid, None, params
        return self

    @classmethod
    def counted(cls, singular: str, plural: str, n: int, /, **params: object) -> "Phrase":
        """The singular or the plural form for ``n`` (``%(n)d``), in each language by its own
        plural rule (Babel extracts ``-k counted:1,2``)."""
        params = {"n": n, **params}
        self = super().__new__(cls, (singular if n == 1 else plural) % params)
        self.msgid, self.plural, self.params = singular, plural, params
        return self


    def with_params(self, params: dict[str, object]) -> "Phrase":
        """The same message with other parameters (a point number flipped, say)."""
        if self.plural is not None:
            rest = {k: v for k, v in params.items() if k != "n"}
            return Phrase.counted(self.msgid, self.plural, int(params["n"]), **rest)  # type: ignore[call-overload]
        return Phrase(self.msgid, **params)


class Joined(str):
    """Texts joined by a separator (a list of phrases and notation: "13→8, clear 4"), each
    part said in the language on its own."""

    sep: str
    parts: tuple[str, ...]

    def __new__(cls, sep: str, parts: "Iterable[str]") -> "Joined":
        parts = tuple(parts)
        self = super().__new__(cls, sep.join(parts))
        self.sep, self.parts = sep, parts
        return self


def said(text: str, words: Words) -> str:
    """``text`` in ``words``' language: a :class:`Phrase` is looked up and filled, the parts
    of a :class:`Joined` said one by one, any other text (a name, notation) stays as it is."""
    if isinstance(text, Joined):
        return text.sep.join(said(part, words) for part in text.parts)
    if not isinstance(text, Phrase):
        return text
    params = {k: said(v, words) if isinstance(v, str) else v for k, v in text.params.items()}
    if text.plural is not None:
        return words.ngettext(text.msgid, text.plural, int(params["n"])) % params  # type: ignore[call-overload]
    found = words.gettext(text.msgid)
    return found % params if params else found


def sentence_of(exc: BaseException) -> str:
    """An error's one sentence as raised: a :class:`Phrase` stays one (``str(exc)`` would make it
    plain English), so a fault shown on the display is said in the players' language."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def said_all(texts: tuple[str, ...], words: Words) -> tuple[str, ...]:
    """Every form of a display text (longest first) in ``words``' language."""
    return tuple(said(t, words) for t in texts)


def say(words: Words, message: str, /, **params: object) -> str:
    """``message`` in ``words``' language with its ``%(name)s`` placeholders filled
    (Babel extracts the second argument: ``-k say:2``)."""
    text = words.gettext(message)
    return text % params if params else text


def say_n(words: Words, singular: str, plural: str, n: int, /, **params: object) -> str:
    """The singular or plural form for ``n`` in ``words``' language (its own plural rule),
    with ``%(n)d`` and the other placeholders filled (``-k say_n:2,3``)."""
    return words.ngettext(singular, plural, n) % {"n": n, **params}


def language_code(text: str) -> str | None:
    """The catalogue for a locale name (``de_DE.UTF-8``, ``nb-NO``, ``no``, ``C``):
    ``"de"``, ``"nb"``, or None when bgboard has none for it."""
    code = text.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    code = _ALIASES.get(code, code)
    return code if code in LANGUAGES or code in PARTIAL else None


def checked_language(text: str, where: str) -> str:
    """``text`` as a catalogue code, or :class:`UnknownLanguageError` naming ``where``."""
    code = language_code(text)
    if code is None:
        raise UnknownLanguageError(
            f"{where}: no language {text!r}; choose one of {', '.join(LANGUAGES + PARTIAL)}")
    return code


def choose_language(asked: str | None, configured: str, environ: Mapping[str, str]) -> str:
    """The language to speak: ``--lang`` (``asked``), else the board's ``[display]
    language`` (``configured``, ``""`` = not set), else the environment's ``LANGUAGE``
    list, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (gettext's order; the first one bgboard
    has a catalogue for), else English.  ``environ`` is passed in: this module reads no
    environment."""
    if asked:
        return checked_language(asked, "--lang")
    if configured:
        return checked_language(configured, "display.language")
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(key, "")
        for part in value.split(":") if key == "LANGUAGE" else [value]:
            code = language_code(part) if part else None
            if code is not None:
                return code
        if value and key != "LANGUAGE":
            return "en"  # a locale is set (C, POSIX, fr_FR): bgboard speaks English there
    return "en"


__all__ = ["ENGLISH", "Joined", "LANGUAGES", "NAMES", "N_", "PARTIAL", "Phrase", "sentence_of", "UnknownLanguageError", "Words",
           "checked_language", "choose_language", "language_code", "said", "said_all", "say", "say_n"]
