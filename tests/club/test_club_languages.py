"""The club speaks its visitors' language (issue 38): the page's language from the switch's
cookie, else the browser's Accept-Language, else English; the switch on every page (a cookie,
back to the same page, never to another site, the security headers kept); the live
fragments, the printouts and match slips and the CLI's standings and pairings in the
chosen language; the club's catalogues complete (tests/language's checks, for the domain
``club``)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st
from starlette.testclient import TestClient

from bgboard.cli import main
from bgboard.club.announcements import pairing_lines
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.page_language import LANG_COOKIE, accepted, page_language, safe_next, switch_links
from bgboard.club.web.pages import event_url, standings_url
from bgboard.club.web.server import club_site
from bgboard.club.web.site import HEADERS, Site, create_app
from bgboard.language import LANGUAGES
from bgboard.language.catalogues import words_for
from tests.club.evening import Evening
from tests.club.webclub import DOUBLE, SWISS


@pytest.fixture
def client(db):
    with TestClient(create_app(club_site(db, LiveHub()))) as c:
        yield c


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)">', html)
    assert found, html[:200]
    return found.group(1)


# ---------------------------------------------------------------------- Accept-Language
def test_accept_language_is_ordered_by_quality_and_q0_is_left_out():
    assert accepted("nl-BE, nl;q=0.9, en;q=0.5") == ["nl-BE", "nl", "en"]
    assert accepted("en;q=0.2, de;q=0.8, fr") == ["fr", "de", "en"]
    assert accepted("de;q=0, nb") == ["nb"]
    assert accepted("*, da;q=0.1") == ["da"]
    assert accepted("") == accepted(None) == []
    assert accepted("de;q=abc, <script>, nl") == ["nl"]


tags = st.sampled_from(["nl", "de-AT", "nb", "no", "da-DK", "en-GB", "fr", "el", "*", "x-bad", "zz"])
qualities = st.sampled_from(["", ";q=1", ";q=0.9", ";q=0.5", ";q=0.001", ";q=0", ";q=x", ";Q=0.7"])


@given(st.lists(st.tuples(tags, qualities), max_size=8))
def test_accept_language_parses_any_list_best_first(entries):
    header = ", ".join(tag + q for tag, q in entries)
    got = accepted(header)

    def weight(q: str) -> float:
        try:
            return float(q.split("=")[1]) if q else 1.0
        except ValueError:
            return -1.0

    wanted = [(tag, weight(q)) for tag, q in entries if tag != "*" and 0 < weight(q) <= 1]
    assert got == [tag for tag, _ in sorted(wanted, key=lambda entry: -entry[1])]   # best first, stable
    language = page_language(None, header)
    assert language in LANGUAGES
    first = next((t for t in got if t.split("-")[0] in ("nl", "de", "nb", "no", "da", "en")), None)
    expected = {"no": "nb"}.get(first.split("-")[0], first.split("-")[0]) if first else "en"
    assert language == expected


@given(st.text(max_size=300))
def test_any_header_gives_a_language_without_an_error(header):
    assert page_language(None, header) in LANGUAGES
    assert page_language(header, None) in LANGUAGES


def test_the_cookie_wins_over_the_header_and_a_bad_cookie_is_ignored():
    assert page_language("de", "nl") == "de"
    assert page_language("xx", "nl;q=0.4, fr") == "nl"
    assert page_language("el", None) == "en"   # Greek names the tavli games only: no club pages


def test_the_switch_returns_only_to_a_page_of_this_site():
    assert safe_next("/standings/Friday%20night?tv") == "/standings/Friday%20night?tv"
    for bad in ("//evil.example/", "https://evil.example/", "/\\evil", "evil", "", None, "/\x00"):
        assert safe_next(bad) == "/"
    links = switch_links("/events?tv", "nl")
    assert [link["code"] for link in links] == list(LANGUAGES)
    assert links[1]["href"] == "/language/nl?next=/events%3Ftv" and links[1]["current"]


# ---------------------------------------------------------------------- the pages
def test_the_standings_speak_dutch_and_german_by_accept_language(client):
    english = client.get(standings_url(SWISS)).text
    assert lang_of(english) == "en" and "<th>Player</th>" in english
    nl = client.get(standings_url(SWISS), headers={"Accept-Language": "nl-NL,nl;q=0.9,en;q=0.8"})
    assert lang_of(nl.text) == "nl" and nl.headers["content-language"] == "nl"
    for word in ("Stand", "Speler", "Gewonnen", "Verloren", "onderling resultaat", "Toernooien"):
        assert word in nl.text, word
    de = client.get(standings_url(SWISS), headers={"Accept-Language": "de-DE"}).text
    for word in ("Tabelle", "Spieler", "Gewonnen", "Verloren", "direkter Vergleich", "Turniere"):
        assert word in de, word
    assert "Accept-Language" in nl.headers["vary"]


def test_the_event_pages_speak_the_language_of_the_switch(client):
    bracket = client.get(event_url(DOUBLE), headers={"Accept-Language": "de"}).text
    assert "Sieger: Gus" in bracket and "Finale" in bracket and "Hauptturnier" in bracket
    table = client.get(event_url(SWISS), headers={"Accept-Language": "nb"}).text
    assert "Runde 3" in table and re.search(r"[VT] \d+-\d+ mot ", table)
    assert "Spillere" in client.get("/events", headers={"Accept-Language": "nb"}).text
    assert "Wertungen" in client.get("/ratings", headers={"Accept-Language": "de"}).text
    assert "Stilling" in client.get(standings_url(SWISS), headers={"Accept-Language": "da"}).text


def test_the_switch_sets_a_cookie_and_returns_to_the_page(client):
    answer = client.get("/language/da?next=" + standings_url(SWISS).replace("%", "%25"), follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == standings_url(SWISS)
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{LANG_COOKIE}=da;") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    for name, value in HEADERS:   # the redirect keeps the site's security headers
        assert answer.headers[name.decode()] == value.decode()
    page = client.get(standings_url(SWISS), headers={"Accept-Language": "nl"}).text   # the cookie wins
    assert lang_of(page) == "da" and "Stilling" in page
    assert 'aria-current="true" class="current">da</a>' in page
    assert client.get("/language/en?next=//evil.example", follow_redirects=False).headers["location"] == "/"
    assert client.get("/language/xx", follow_redirects=False).status_code == 404


def test_every_public_page_carries_the_switch(client):
    for path in ("/", "/events", "/ratings", event_url(SWISS), standings_url(SWISS), "/match/1", "/players/Gus"):
        page = client.get(path).text
        assert '<nav class="languages"' in page, path
        assert all(f'href="/language/{code}?next=' in page for code in LANGUAGES), path


def test_the_room_and_its_live_fragments_speak_each_visitors_language():
    site = Site(LiveHub(), name="Riverside Backgammon Club")
    evening = Evening(site.hub, boards=2, seed=3)
    evening.advance(12)
    app = create_app(site)
    with TestClient(app) as c:
        room = c.get("/", headers={"Accept-Language": "de"}).text
        assert "Der Saal" in room and "Brett 1" in room and "Match auf 5" in room
        board = c.get("/board/1", headers={"Accept-Language": "nl"}).text
        assert "Bord 1" in board and "match tot 5" in board
        assert "<title>Bord 1: Ann (wit) tegen Bob (zwart)" in board   # the board picture's title
        assert c.get("/board/9", headers={"Accept-Language": "nl"}).text.count("Bord 9 heeft zich vanavond niet gemeld.") == 1
    live = site.hub.get(1)
    assert live is not None
    fragments = app.state.fragments
    assert "Brett 1" in fragments.html(live, "card", "de") and "Board 1" in fragments.html(live, "card")
    assert fragments.event(live, "card", "nb") != fragments.event(live, "card", "da")   # one per language


# ---------------------------------------------------------------------- printouts, CLI
def test_the_printouts_and_slips_speak_the_directors_language(client, db):
    sheet = client.get("/print/" + SWISS + "?sheet=standings", headers={"Accept-Language": "de"}).text
    assert '<html lang="de">' in sheet and "Tabelle" in sheet and "Spieler" in sheet
    draw = client.get("/print/" + DOUBLE, headers={"Accept-Language": "nl"}).text
    assert "Finale" in draw and "Hoofdtoernooi" in draw and "Troosttoernooi" in draw
    slips = client.get("/slips/" + SWISS, headers={"Accept-Language": "nb"}).text
    assert '<html lang="nb">' in slips


def test_the_export_speaks_its_lang(db, tmp_path, capsys):
    assert main(["club", "--db", str(db), "export", SWISS, "--out", str(tmp_path / "out"), "--lang", "da"]) == 0
    draw = (tmp_path / "out" / "draw.html").read_text()
    assert '<html lang="da">' in draw and "Stilling" in draw and "Spiller" in draw


def test_the_cli_standings_speak_the_players_language(db, capsys):
    assert main(["club", "--db", str(db), "standings", SWISS, "--lang", "nl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(re.match(r"\d+\. .+: \d+ gewonnen, \d+ verloren, punten \d+-\d+, onderling resultaat", x)
                         for x in lines)
    assert main(["club", "--db", str(db), "standings", SWISS]) == 0   # English unless asked (or LANG says)
    assert " won, " in capsys.readouterr().out
    assert main(["club", "--db", str(db), "ratings", "--lang", "de"]) == 0
    assert "(Erfahrung " in capsys.readouterr().out
    assert main(["club", "--db", str(db), "standings", SWISS, "--lang", "xx"]) == 2


def test_the_pairings_speak_the_players_language():
    class M:
        board, number, id, players, length, flight, winner = 3, 7, 7, ("Ann", "Bob"), 1, "main", "Ann"

    assert pairing_lines(2, [M()], ["Cy"], [M()], words_for("de", "club")) == [
        "Runde 2 Brett 3: Match 7 Ann gegen Bob, 1 Punkt (Hauptturnier)",
        "Runde 2: Cy hat ein Freilos",
        "Runde 2: Match 7 Ann gegen Bob geht an Ann (Gegner zurückgezogen)",
    ]


def test_a_match_and_a_players_page_speak_the_language(client, db):
    from bgboard.club.director import Director

    with Director.open(db) as d:
        final = [m for m in d.matches(DOUBLE) if m.has_mat][-1]
    page = client.get(f"/match/{final.id}", headers={"Accept-Language": "de"}).text
    assert "Spiel 1" in page and re.search(r"gewinnt \d+ Punkte? mit (ein einfaches Spiel|ein Gammon|ein Backgammon|"
                                           r"einer? aufgegebenen? Verdopplung|eine Aufgabe)", page)
    assert re.search(r'<td class="move">\d+/\d+', page)   # the plays stay in gnubg's notation
    player = client.get("/players/Gus", headers={"Accept-Language": "nl"}).text
    assert "Tegenstander" in player and re.search(r"<td>(gewonnen|verloren)</td>", player)


def test_a_board_that_named_nobody_shows_white_and_black_in_the_language():
    from bgboard.club.web.board_picture import title
    from bgboard.club.web.boardview import board_view

    nl = words_for("nl", "club")
    unnamed = board_view(1, {"phase": "play", "turn": 0})
    assert unnamed.phase_said(nl) == "Wit speelt" and unnamed.phase_line == "White to play"
    assert title(unnamed, nl) == "Bord 1: Wit (wit) tegen Zwart (zwart)"
    named = board_view(1, {"players": ["White", "Bob"], "phase": "doubled", "turn": 1})
    assert (named.name(0, nl), named.phase_said(words_for("de", "club"))) == ("White", "Bob hat verdoppelt")
