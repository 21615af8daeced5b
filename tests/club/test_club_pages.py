"""The club's pages over a real club database, through Starlette's test client (fast; the
same flows run in a real Chromium in test_club_browser.py): brackets, tables, standings,
ratings, match records, the director's login, CSRF and every director operation."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from bgboard.club.director import Director
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.site import create_app
from bgboard.club.web.server import club_site
from bgboard.club.web.pages import ACTOR, event_url, standings_url
from tests.club.webclub import DOUBLE, HOSTILE, PASSWORD, SWISS, csrf, director_token, make_club


@pytest.fixture
def client(db):
    with TestClient(create_app(club_site(db, LiveHub()))) as c:
        yield c


def log_in(client) -> str:
    return director_token(client)


@pytest.mark.slow
def test_events_bracket_with_champion_and_both_flights(client):
    events = client.get("/events").text
    assert DOUBLE in events and SWISS in events
    page = client.get(event_url(DOUBLE)).text
    assert '<p class="champion" id="champion">Champion: Gus</p>' in page
    assert 'data-flight="main"' in page and 'data-flight="consolation"' in page
    assert "Final" in page and "/match/1" in page


def test_swiss_table_and_standings_with_tie_breaks(client):
    page = client.get(event_url(SWISS)).text
    assert "Round 3" in page and re.search(r"[WL] \d+-\d+ v ", page)
    standings = client.get(standings_url(SWISS)).text
    for key in ("head to head", "buchholz", "median buchholz", "points difference"):
        assert key in standings
    assert client.get(standings_url("No such event")).status_code == 404


def test_ratings_page_shows_two_decimals(client, db):
    page = client.get("/ratings").text
    with Director.open(db) as d:
        best = d.ratings()[0]
    assert f"{best.rating:.2f}" in page and best.name in page


def test_match_record_game_by_game_and_mat_download(client, db):
    with Director.open(db) as d:
        final = [m for m in d.matches(DOUBLE) if m.has_mat][-1]
        mat = d.match_record(final.id)
    page = client.get(f"/match/{final.id}").text
    assert "Game 1" in page and "opening roll" in page and "Download the .mat record" in page
    assert re.search(r'<td class="move">\d+/\d+', page)
    download = client.get(f"/match/{final.id}/mat")
    assert download.text == mat
    assert download.headers["content-disposition"] == f'attachment; filename="match-{final.id}.mat"'
    assert client.get("/match/9999").status_code == 404


def test_a_hostile_name_is_escaped_on_every_page(client):
    log_in(client)
    for url in (event_url(DOUBLE), standings_url(DOUBLE), "/ratings", "/match/1", "/director"):
        page = client.get(url).text
        assert HOSTILE not in page, url
        assert "&lt;img src=x onerror=alert(1)&gt;" in page, url
    assert "script-src 'self'" in client.get("/ratings").headers["content-security-policy"]


def test_a_wrong_password_is_refused(client):
    token = csrf(client.get("/director/login").text)
    response = client.post("/director/login", data={"csrf": token, "password": "not it at all"})
    assert response.status_code == 401 and "That password is not the director" in response.text
    assert client.get("/director", follow_redirects=False).status_code == 303


def test_forms_without_their_csrf_token_are_refused(client, db):
    response = client.post("/director/login", data={"password": PASSWORD})
    assert response.status_code == 403 and "reload the page" in response.text
    token = log_in(client)
    with Director.open(db) as d:
        before = d.standings(SWISS)
        match = d.matches(SWISS)[0]
    for fields in ({}, {"csrf": "forged"}, {"csrf": token[:-1] + "x"}):
        response = client.post("/director/correct", data={
            **fields, "event": SWISS, "match": str(match.id), "score": "0-3", "reason": "x"})
        assert response.status_code == 403
    with Director.open(db) as d:
        assert d.standings(SWISS) == before


def test_a_director_action_needs_the_login(client, db):
    token = csrf(client.get("/director/login").text)   # a real token, but no login
    response = client.post("/director/pair", data={"csrf": token, "event": SWISS})
    assert response.status_code == 403 and "Log in" in response.text


def test_the_director_corrects_a_result_and_standings_and_ratings_change(client, db):
    token = log_in(client)
    with Director.open(db) as d:
        match = d.matches(SWISS)[0]
        loser = match.players[1] if match.winner == match.players[0] else match.players[0]
        wins = {s.name: s.wins for s in d.standings(SWISS)}
        ratings = {p.name: p.rating for p in d.ratings()}
    flipped = "0-3" if match.winner == match.players[0] else "3-0"
    response = client.post("/director/correct", data={
        "csrf": token, "event": SWISS, "match": str(match.id), "score": flipped,
        "reason": "players reported it the wrong way round"})
    assert response.status_code == 200 and f"Match {match.id}: result corrected to {flipped}" in response.text
    with Director.open(db) as d:
        after = {s.name: s.wins for s in d.standings(SWISS)}
        new_ratings = {p.name: p.rating for p in d.ratings()}
        audit = d.audit(SWISS)[-1]
    assert after[loser] == wins[loser] + 1 and after[match.winner] == wins[match.winner] - 1
    assert new_ratings[loser] > ratings[loser] and new_ratings[match.winner] < ratings[match.winner]
    assert (audit.action, audit.actor, audit.match_id) == ("correct", ACTOR, match.id)


def test_pair_enter_forfeit_withdraw_and_penalty_from_the_web(club_location):
    path = make_club(club_location, finish_double=False, swiss_rounds=0)
    with TestClient(create_app(club_site(path, LiveHub()))) as client:
        token = log_in(client)
        page = client.post("/director/pair", data={"csrf": token, "event": SWISS}).text
        assert "Round 1 of Tuesday Swiss: 3 matches paired." in page
        with Director.open(path) as d:
            first, second, third = d.matches(SWISS)
        assert "Match %d: result 3-1 recorded." % first.id in client.post("/director/result", data={
            "csrf": token, "event": SWISS, "match": str(first.id), "score": "3-1"}).text
        winner = second.players[1]
        assert f"awarded to {winner}" in client.post("/director/forfeit", data={
            "csrf": token, "event": SWISS, "match": str(second.id), "winner": winner,
            "reason": "no-show"}).text
        quitter = third.players[0]
        assert "withdrawn" in client.post("/director/withdraw", data={
            "csrf": token, "event": SWISS, "player": quitter, "reason": "went home"}).text
        assert "2 penalty points" in client.post("/director/penalty", data={
            "csrf": token, "event": SWISS, "player": first.players[0], "points": "2",
            "reason": "slow play"}).text
        bad = client.post("/director/result", data={"csrf": token, "event": SWISS,
                                                    "match": str(first.id), "score": "three"})
        assert bad.status_code == 400 and "A-B" in bad.text
    with Director.open(path) as d:
        actions = [(a.action, a.actor) for a in d.audit(SWISS)][-5:]
    assert actions == [("pair_round", ACTOR), ("result", ACTOR), ("forfeit", ACTOR),
                       ("withdraw", ACTOR), ("penalty", ACTOR)]


@pytest.mark.parametrize("fmt", ["single-elimination", "round-robin"])
def test_single_elimination_bracket_and_round_robin_table(club_location, fmt):
    from tests.club.webclub import play_round

    path = club_location
    names = ["Ann", "Bob", "Cleo", "Dev", "Eli"]
    with Director.create(path, "Riverside") as club:
        for name in names:
            club.add_player(name)
        club.new_event("Cup", fmt, 3)
        club.enter("Cup", names)
        seed = 1
        while club.event("Cup").status != "finished":
            seed += 10
            assert play_round(club, "Cup", seed), "the event stalled"
        standings = club.standings("Cup")
    with TestClient(create_app(club_site(path, LiveHub()))) as client:
        page = client.get(event_url("Cup")).text
    if fmt == "single-elimination":
        champion = next(s.name for s in standings if s.status == "champion")
        assert f'id="champion">Champion: {champion}</p>' in page
        assert 'data-flight="main"' in page and 'data-flight="consolation"' not in page
        assert ">bye<" in page                   # five players: byes in round 1
    else:
        rows = re.findall(r'<tr><td class="num">(\d+)</td><td>(\w+)</td>', page)
        assert [name for _, name in rows] == [s.name for s in standings]
        assert page.count("v ") >= 10 * 2 and "bye" in page   # 10 matches, each seen twice


def test_the_room_card_marks_the_running_clock_and_shows_a_dash_for_what_it_cannot_read():
    from bgboard.club.web.site import Site

    hub = LiveHub()
    hub.update(4, {"players": ["Ann", "Bob"], "clocks": [61_000, 5_000], "clock_running": 1,
                   "turn": 1, "phase": "play", "score": [1, 2], "length": 5, "crawford": True})
    hub.update(5, {"players": "not a list", "clocks": "x", "score": [-1, 2], "cube": 3,
                   "position_id": 12, "turn": 7})
    with TestClient(create_app(Site(hub))) as room:
        page = room.get("/").text
    card4 = page[page.index('id="board-4"'):page.index('id="board-5"')]
    assert '<td class="clock running">0:05</td>' in card4 and '<td class="clock">1:01</td>' in card4
    assert "Crawford" in card4 and "Bob to play" in card4 and "5-point match" in card4
    card5 = page[page.index('id="board-5"'):]
    assert "White" in card5 and "Black" in card5 and "no readable Position ID" in card5
    assert card5.count('<td class="score" data-player="0">-</td>') == 1
