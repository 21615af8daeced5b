"""Names people can tell apart (issue 35, defect 6): 'An\\u200bna' (a zero-width space) was
accepted beside 'Anna', and so was a right-to-left override.  A name is now NFKC, holds no
control or format character (Cc, Cf), and a new name confusable with a player's (Unicode
TR39 data, the ``confusables`` library) is refused with the name it resembles."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, strategies as st

from bgboard.cli import main
from bgboard.club.checks import clean_name
from bgboard.club.db import Club
from bgboard.errors import InputError


def _run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def _names(db) -> list[str]:
    with Club(db) as club:
        return [r[0] for r in club.conn.execute("SELECT name FROM players ORDER BY id")]


@pytest.mark.parametrize("name, words", [
    ("An\u200bna", ["U+200B", "ZERO WIDTH SPACE"]),
    ("Anna\u202e", ["U+202E", "RIGHT-TO-LEFT OVERRIDE"]),
    ("\u2066Anna\u2069", ["U+2066"]),
    ("An\u00adna", ["U+00AD"]),
    ("Anna\x07", ["U+0007"]),
    ("\u0410nna", ["looks like the player 'Anna'"]),    # a Cyrillic А
    ("ANNA", ["already a player called"]),           # names are unique whatever their case
    ("Ａｎｎａ", ["already a player called 'Anna'"]),   # full-width letters: NFKC makes them Anna
])
def test_a_name_that_hides_or_imitates_another_is_refused(club_location, capsys, name, words):
    db = club_location
    assert main(["club", "--db", str(db), "init", "--name", "Test"]) == 0
    assert main(["club", "--db", str(db), "player", "add", "Anna"]) == 0
    capsys.readouterr()
    code, err = _run(["club", "--db", str(db), "player", "add", name], capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    assert _names(db) == ["Anna"]


def test_a_rename_to_a_lookalike_is_refused_and_a_distinct_name_is_kept(club_location, capsys):
    db = club_location
    assert main(["club", "--db", str(db), "init", "--name", "Test"]) == 0
    for name in ("Bill", "Eva"):
        assert main(["club", "--db", str(db), "player", "add", name]) == 0
    capsys.readouterr()
    code, err = _run(["club", "--db", str(db), "player", "edit", "Eva", "--name", "BiII"], capsys)
    assert code == 2 and "looks like the player 'Bill'" in err, err
    assert main(["club", "--db", str(db), "player", "add", "Ｅｖｅ"]) == 0  # NFKC: stored as Eve
    assert _names(db) == ["Bill", "Eva", "Eve"]


@given(st.text(max_size=80))
def test_an_accepted_name_is_nfkc_and_shows_every_character(text):
    try:
        name = clean_name(text)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert name == unicodedata.normalize("NFKC", name) or name == " ".join(unicodedata.normalize("NFKC", name).split())
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name)
    assert 0 < len(name) <= 60
