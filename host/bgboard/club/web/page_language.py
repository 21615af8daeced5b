"""The language of a club page: the visitor's choice remembered in a cookie, else the
browser's ``Accept-Language``, else English.

The club's texts are the gettext domain ``club`` (``locale/<lang>/LC_MESSAGES/club.po``,
beside the board's ``bgboard`` domain; docs/languages.md).  The pages speak the five
languages with a complete catalogue (:data:`bgboard.language.LANGUAGES`).

``Accept-Language`` is parsed here by hand (RFC 9110 §12.5.4: ``nl-BE, nl;q=0.9, en;q=0.5``):
Starlette has no parser and Babel, which could negotiate the parsed list, is not needed on
the club's server; the parse is a dozen lines, bounded, and tested with hypothesis.
"""

from __future__ import annotations

from urllib.parse import quote

from typing import Any, Mapping

from bgboard.language import LANGUAGES, NAMES, Words, language_code
from bgboard.language.catalogues import words_for

#: The cookie that remembers a visitor's choice (a year; no secret in it).
LANG_COOKIE = "bgboard_lang"
LANG_COOKIE_DAYS = 365
#: The longest header read and the most entries weighed (a hostile header costs no more).
MAX_HEADER = 2000
MAX_ENTRIES = 40
#: The gettext domain of the club's pages and printouts.
CLUB_DOMAIN = "club"


def accepted(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (a higher
    ``q``; equal ``q`` keep their order); ``q=0`` (not wanted), malformed entries and the
    wildcard ``*`` left out."""
    weighed: list[tuple[float, int, str]] = []
    for i, entry in enumerate((header or "")[:MAX_HEADER].split(",")[:MAX_ENTRIES]):
        tag, _, params = entry.partition(";")
        tag = tag.strip()
        if not tag or tag == "*" or not all(c.isascii() and (c.isalnum() or c == "-") for c in tag):
            continue
        q = 1.0
        for param in params.split(";") if params else []:
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = -1.0
        if 0 < q <= 1:
            weighed.append((-q, i, tag))
    return [tag for _, _, tag in sorted(weighed)]


def page_language(cookie: str | None, header: str | None) -> str:
    """The page's language: the cookie's (a switch the visitor chose), else the first
    ``Accept-Language`` tag the club has a catalogue for (``de-AT`` → ``de``, ``no`` → ``nb``),
    else ``"en"``."""
    if cookie and cookie in LANGUAGES:
        return cookie
    for tag in accepted(header):
        code = language_code(tag)
        if code in LANGUAGES:
            return code
    return "en"


def request_language(cookies: Mapping[str, str], headers: Mapping[str, str]) -> str:
    """:func:`page_language` of a request's cookies and headers."""
    return page_language(cookies.get(LANG_COOKIE), headers.get("accept-language"))


def club_words(language: str) -> Words:
    """The club's words (the ``club`` catalogue) in ``language``."""
    return words_for(language, CLUB_DOMAIN)


def words_of(request: Any) -> Words:
    """The club's words in the language of a Starlette ``request``."""
    return club_words(request_language(request.cookies, request.headers))


def safe_next(path: str | None) -> str:
    """Where the language switch returns to: a path on this site (``/standings/x?tv``), never
    another site (``//evil``, ``https://...``, a backslash trick): else the room."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path \
            or any(not c.isprintable() for c in path) or len(path) > 1000:
        return "/"
    return path


def switch_links(here: str, current: str) -> list[dict[str, object]]:
    """The switch on every page: a link per language to ``/language/<code>?next=<here>``."""
    back = quote(safe_next(here), safe="/")
    return [{"code": code, "name": NAMES[code], "href": f"/language/{code}?next={back}", "current": code == current}
            for code in LANGUAGES]


__all__ = ["CLUB_DOMAIN", "LANG_COOKIE", "LANG_COOKIE_DAYS", "accepted", "club_words", "page_language",
           "request_language", "safe_next", "switch_links", "words_of"]
