"""The club's checks of what a director or a board types (pure): names, free text, match
ids, scores, and the words a suggested shell command quotes.

Each check returns the cleaned value or raises :class:`bgboard.errors.InputError` with one
sentence; nothing here reads the database or the clock.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from collections.abc import Iterable
from typing import cast

from bgboard.digits import is_whole, whole_number
from bgboard.errors import EnvironmentFailure, InputError

RULES = ("standard", "brainking")
DEFAULT_CLOCK = {"reserve_per_point_s": 120, "delay_s": 12}
MAX_NAME = 60
MAX_ROUNDS = 999  # a Swiss event's rounds (a club evening plays a handful)
MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger match id names no match
MAX_TEXT = 500
MAX_MAT = 4_000_000


def clean_name(text: str, what: str = "a player's name") -> str:
    """A name in Unicode's NFKC form (a full-width 'Ａ' is 'A', a ligature its letters) with
    its spaces collapsed; one sentence if it is empty, too long, or holds a control or format
    character (Unicode categories Cc and Cf: a zero-width space, a right-to-left override),
    which would make two names look alike or a page read backwards."""
    name = " ".join(unicodedata.normalize("NFKC", str(text)).split())
    if not name:
        raise InputError(f"{what} cannot be empty")
    if len(name) > MAX_NAME:
        raise InputError(f"{what} has at most {MAX_NAME} characters, {name[:20]!r}... has {len(name)}")
    hidden = next((c for c in name if unicodedata.category(c).startswith("C")), None)
    if hidden is not None:
        raise InputError(f"{what} cannot hold control or invisible characters (it holds U+{ord(hidden):04X} "
                         f"{unicodedata.name(hidden, 'a control character')})")
    return name


def resembles(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` a person could not tell from ``name`` on a page or a slip: the
    same letters in another case, or the same TR39 skeleton ('Аnna' with a Cyrillic 'А',
    'BiII' for 'Bill', 'rn' for 'm'); None if none."""
    key = skeleton(name)
    for other in others:
        if other != name and (other.casefold() == name.casefold() or skeleton(other) == key):
            return other
    return None


def skeleton(text: str) -> str:
    """``text`` with every character replaced by the one representative of the characters
    Unicode's TR39 confusables data says look alike (the data of the ``confusable_homoglyphs``
    library: 'А' Cyrillic, 'A' and 'Ａ' share one, so do 'l', 'I', '1' and '|')."""
    table = _confusable_classes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


_classes: dict[str, str] = {}


def _confusable_classes() -> dict[str, str]:
    """Each confusable character's representative: the characters linked by the library's data
    joined into classes (union-find), each represented by its ASCII member if it has one (the
    longest: 'm' looks like 'rn'), else its smallest."""
    if _classes:
        return _classes
    try:
        from confusable_homoglyphs.confusables import confusables_data  # pyright: ignore
    except ImportError:
        raise EnvironmentFailure("comparing names needs the 'confusable-homoglyphs' library: "
                                 "pip install 'bgboard[club]'") from None
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    data = cast("dict[str, list[dict[str, str]]]", confusables_data)
    for char, looks in data.items():
        for other in looks:
            glyph = other["c"].strip("\u200e\u200f")
            if glyph:
                parent[root(glyph)] = root(char)
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(root(x), []).append(x)
    for group in members.values():
        ascii_ones = [x for x in group if x.isascii()]
        best = (max(ascii_ones, key=lambda x: (len(x), [-ord(c) for c in x])) if ascii_ones else min(group))
        for x in group:
            if len(x) == 1:
                _classes[x] = best
    return _classes


def clean_text(text: str, what: str) -> str:
    """Free text (a reason, a result key) with its spaces collapsed, at most :data:`MAX_TEXT`."""
    text = " ".join(str(text).split())
    if len(text) > MAX_TEXT:
        raise InputError(f"{what} has at most {MAX_TEXT} characters")
    return text


def match_id(value: object) -> int:
    """A match id as a whole number from 0 (one sentence if it is not one); a number beyond
    SQLite's integers (:data:`MAX_ID`) is no match, never an overflow."""
    text = str(value).strip()
    if isinstance(value, bool) or not is_whole(text):
        raise InputError(f"a match id is a whole number (as 'bgboard club round' prints it), "
                         f"not {bounded_name(text)!r}")
    return int(text) if len(text) <= 19 else MAX_ID + 1


def mat_key(name: str) -> str:
    """A player's name as a .mat record can hold it, for comparing: spaces collapsed, case
    folded, cut at a colon (a .mat names line ends a name at its first colon)."""
    return " ".join(str(name).split(":", 1)[0].split()).casefold()


def bounded_name(name: str) -> str:
    """A name from a file, for a sentence: printable and at most :data:`MAX_NAME` characters."""
    name = "".join(c if c.isprintable() else "?" for c in str(name))
    return name if len(name) <= MAX_NAME else name[:MAX_NAME] + "..."


def parse_score(text: str) -> tuple[int, int]:
    """'7-3' -> (7, 3) (one sentence if it is not two whole numbers)."""
    parts = str(text).replace(" ", "").split("-")
    if len(parts) != 2 or not all(is_whole(p) for p in parts):
        raise InputError(f"a score is written A-B with two whole numbers (like 7-3), not {bounded_name(str(text))[:20]!r}")
    a, b = (whole_number(p, "a score", 0, 10**6) for p in parts)
    return a, b


def shell_word(name: str) -> str:
    """``name`` as one word of a shell command inside a quoted suggestion: as it is when it
    needs no quoting, else in double quotes (Friday DE2 -> "Friday DE2")."""
    if name and re.fullmatch(r"[A-Za-z0-9_.,:+@%/=-]+", name):
        return name
    return '"' + re.sub(r'(["\\$`])', r"\\\1", name) + '"'


def without_password(url: str) -> str:
    """A database's ``postgresql://`` address as messages and logs may show it: its password
    (``user:password@`` or ``?password=``) hidden."""
    try:
        parts = urllib.parse.urlsplit(url)
        password = parts.password
    except ValueError:
        return "the PostgreSQL address given"
    if password is not None:
        parts = parts._replace(netloc=parts.netloc.replace(f":{password}@", ":***@", 1))
    query = [(k, "***" if k.lower() == "password" else v) for k, v in urllib.parse.parse_qsl(parts.query, True)]
    if any(k.lower() == "password" for k, _ in query):
        parts = parts._replace(query=urllib.parse.urlencode(query, safe="*/"))
    return urllib.parse.urlunsplit(parts)


__all__ = ["RULES", "DEFAULT_CLOCK", "MAX_NAME", "MAX_ROUNDS", "MAX_ID", "MAX_TEXT", "MAX_MAT",
           "clean_name", "resembles", "skeleton", "clean_text", "match_id", "mat_key", "bounded_name", "parse_score", "shell_word",
           "without_password"]
