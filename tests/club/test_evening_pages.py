"""The evening's pages through Starlette's test client over a real club database: a
player's own page, the room's QR code, payouts on a final event's page, board numbers on the
bracket, the sheets to print with names escaped, the director's set-up forms (a .mat attached,
refused when it does not replay, a late entry) and their CSRF guard."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from bgboard.club import evening
from bgboard.club.director import Director
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.site import create_app
from bgboard.club.web.server import club_site
from tests.club.conftest import selfplay_mat
from tests.club.webclub import DOUBLE, HOSTILE, PASSWORD, SWISS, csrf, director_token


@pytest.fixture
def client(db):
    with TestClient(create_app(club_site(db, LiveHub()))) as c:
        yield c


def log_in(client) -> str:
    return director_token(client)


def said(html: str) -> list[str]:
    return re.findall(r'class="(?:flash|refused)"[^>]*>([^<]*)', html)


def test_a_players_own_page_lists_events_matches_and_rating_history(client, db):
    with Director.open(db) as d:
        history = d.rating_history("Ann")
        ann = next(p for p in d.players() if p.name == "Ann")
        played = [m for e in (DOUBLE, SWISS) for m in d.matches(e) if "Ann" in m.players and m.status != "bye"]
    page = client.get("/players/Ann").text
    assert f"{ann.rating:.2f}" in page
    assert page.count('href="/events/') >= 2 and DOUBLE in page and SWISS in page
    assert page.count("<tr>") - 3 == len(played) + 2 + len(history)   # minus the three headers
    for h in history:
        assert f"{h['rating_after']:.2f}" in page
    assert client.get("/players/Nobody").status_code == 404
    hostile = client.get("/players/" + HOSTILE.replace(" ", "%20")).text
    assert HOSTILE not in hostile and "&lt;img src=x" in hostile
    ratings = client.get("/ratings").text
    assert 'href="/players/Ann"' in ratings


def test_the_room_and_the_players_pages_carry_a_qr_code_of_their_address(client):
    assert '<img src="/qr.svg?path=/"' in client.get("/").text
    svg = client.get("/qr.svg?path=/players/Ann")
    assert svg.headers["content-type"] == "image/svg+xml"
    assert "<title>http://testserver/players/Ann</title>" in svg.text and "<path" in svg.text
    assert "<title>http://testserver/</title>" in client.get("/qr.svg?path=//evil.example/").text


def test_payouts_show_on_a_final_events_page_and_the_bracket_has_board_numbers(client, db):
    with Director.open(db) as d:
        # the event is finished, its money frozen (issue 35): the settings it would have had
        d.db.execute("UPDATE events SET settings = ? WHERE name = ?", (json.dumps(
            {"fee_cents": 1000, "payout": [50.0, 20.0], "consolation_payout": [20.0, 10.0]}), DOUBLE))
        paid = evening.payouts(d, DOUBLE)["paid"]
        d.new_event("Open Cup", "single-elimination", 3)
        d.enter("Open Cup", ["Ann", "Bob", "Cleo", "Dev"])
        boards = [m.board for m in d.pair_round("Open Cup").matches]
    page = client.get("/events/Friday%20Double").text
    assert 'id="payouts"' in page and "Pot 80 (80 in entry fees, rake 0)" in page
    assert [int(a) for a in re.findall(r'<td class="num">(\d+)</td></tr>', page.split('id="payouts"')[1])[:4]] \
        == [p["amount"] for p in paid]
    assert 'id="payouts"' not in client.get("/events/Tuesday%20Swiss").text      # no entry fee
    cup = client.get("/events/Open%20Cup").text
    assert [int(b) for b in re.findall(r'<small class="table">board (\d+)</small>', cup)] == boards


def test_the_sheets_to_print_escape_names(client, db):
    for url in ("/print/Friday%20Double", "/print/Tuesday%20Swiss", "/print/Friday%20Double?sheet=standings",
                "/slips/Tuesday%20Swiss"):
        page = client.get(url)
        assert page.status_code == 200 and HOSTILE not in page.text, url
    assert "&lt;img src=x onerror=alert(1)&gt;" in client.get("/print/Friday%20Double").text
    assert client.get("/print/Nope").status_code == 404
    assert "@page { size: landscape" in client.get("/print.css").text


def test_the_director_attaches_a_mat_and_a_wrong_one_is_refused(client, db):
    with Director.open(db) as d:
        d.new_event("Mat Night", "single-elimination", 1)
        d.enter("Mat Night", ["Ann", "Bob"])
        m = d.pair_round("Mat Night").matches[0]
    mat, score = selfplay_mat(1, 5, players=m.players)  # the match's own players (a .mat must name them)
    token = log_in(client)
    with Director.open(db) as d:
        d.record_result("Mat Night", m.id, score)
    wrong = client.post("/director/evening/mat", data={"csrf": token, "event": "Mat Night", "match": "1"},
                        files={"mat": ("m.mat", b"not a match")})
    assert wrong.status_code == 400 and "cannot be replayed" in said(wrong.text)[0]
    done = client.post("/director/evening/mat", data={"csrf": token, "event": "Mat Night", "match": "1"},
                       files={"mat": ("m.mat", mat.encode())}, follow_redirects=False)
    assert done.status_code == 303, said(done.text)
    with Director.open(db) as d:
        assert d.match_record(m.id) == mat
    forged = client.post("/director/evening/mat", data={"csrf": "x" * 43, "event": "Mat Night", "match": "1"},
                         files={"mat": ("m.mat", mat.encode())})
    assert forged.status_code == 403


def test_the_set_up_forms_need_the_director(client, db):
    assert client.get("/director/setup", follow_redirects=False).headers["location"] == "/director/login"
    token = csrf(client.get("/director/login").text)
    refused = client.post("/director/evening/player", data={"csrf": token, "name": "Zed"})
    assert refused.status_code == 403
    token = log_in(client)
    bad = client.post("/director/evening/event", data={"csrf": token, "name": "X", "format": "chess", "length": "3"})
    assert bad.status_code == 400 and "unknown format" in said(bad.text)[0]
    late = client.post("/director/evening/late", data={"csrf": token, "event": SWISS, "player": "Gus"})
    assert late.status_code == 400 and "finished" in said(late.text)[0]
    late = client.post("/director/evening/late", data={"csrf": token, "event": SWISS, "player": "Gus",
                                                       "score": "lots"})
    assert late.status_code == 400 and "0 or 0.5" in said(late.text)[0]
    for action, data in (("event", {"name": "Y", "format": "swiss", "length": "x"}),
                         ("event", {"name": "Y", "format": "swiss", "length": "3", "rake": "lots"}),
                         ("player", {"name": "Q", "rating": "high"}),
                         ("enter", {"event": "Nope", "p:1": "Ann"}),
                         ("mat", {"event": SWISS, "match": "1"}),
                         ("checkin", {"event": SWISS, "player": "Ann"}),
                         ("close", {"event": "Nope"}),
                         ("nothing", {})):
        answer = client.post(f"/director/evening/{action}", data={"csrf": token, **data})
        assert answer.status_code in (400, 404) and len(said(answer.text)) == 1, (action, answer.text[:300])


def test_the_setup_page_makes_an_event_whose_board_results_both_players_confirm(client, db):
    from bgboard.club import confirmations

    assert client.get("/director/held/1/mat").status_code == 403  # a held .mat is the director's
    token = log_in(client)
    assert client.get("/director/held/1/mat").status_code == 404
    assert 'name="confirm_results"' in client.get("/director/setup").text
    made = client.post("/director/evening/event", data={"csrf": token, "name": "Boards Night", "format": "swiss",
                                                         "length": "3", "confirm_results": "1"}, follow_redirects=False)
    assert made.status_code == 303
    client.post("/director/evening/event", data={"csrf": token, "name": "Paper Night", "format": "swiss", "length": "3"})
    with Director.open(db) as d:
        assert confirmations.wants_confirmation(d, "Boards Night") and not confirmations.wants_confirmation(d, "Paper Night")
    for bad in ("x", "99999", ""):  # a held result that is not there: one sentence on the director's page
        refused = client.post("/director/accept", data={"csrf": token, "held": bad})
        assert refused.status_code == 400 and "no held result" in refused.text


def test_the_director_corrects_a_finished_events_money_with_a_reason(client, db):
    with Director.open(db) as d:
        d.db.execute("UPDATE events SET settings = ? WHERE name = ?",
                     (json.dumps({"fee_cents": 1000, "payout": [100.0]}), SWISS))
        before = evening.payouts(d, SWISS)
    token = log_in(client)
    setup = client.get("/director/setup").text
    assert 'action="/director/evening/money"' in setup and f'value="{SWISS}"' in setup
    bare = client.post("/director/evening/money", data={"csrf": token, "event": SWISS, "entry_fee": "20"})
    assert bare.status_code == 400 and "--reason" in said(bare.text)[0]
    done = client.post("/director/evening/money", data={"csrf": token, "event": SWISS, "entry_fee": "20",
                                                       "payout": "60,40", "reason": "the poster said 20"},
                       follow_redirects=False)
    assert done.status_code == 303, said(done.text)
    assert "the money is corrected" in said(client.get("/director/setup").text)[0]
    with Director.open(db) as d:
        after = evening.payouts(d, SWISS)
        (row,) = [e for e in d.audit() if e.action == "money_correct"]
    assert after["pot"] == 2 * before["pot"] and len(after["paid"]) >= 2
    assert row.actor == "director (web)" and row.args["reason"] == "the poster said 20"
    assert row.before["pot"] == before["pot"] and row.after["paid"] == after["paid"]
    forged = client.post("/director/evening/money", data={"csrf": "x" * 43, "event": SWISS, "entry_fee": "1",
                                                         "reason": "x"})
    assert forged.status_code == 403
