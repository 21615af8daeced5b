"""Results both players confirm (issue 26), end to end on a real Mosquitto: an event made
with --confirm-results; on board 1 both players confirm and the result counts at once, on
board 2 one player disputes and the result waits for the director — held, counting for
nothing — shown on the director's page with its .mat until the director accepts it there."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgboard.club import confirmations, evening
from bgboard.club.director import Director as Service
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.site import create_app
from bgboard.club.web.password import hash_password
from bgboard.club.web.server import club_site
from bgboard.control.confirm import CONFIRM, DISPUTE
from bgboard.match import read_mat, replay
from bgboard.net.mosquitto import PrivateBroker
from bgboard.store.journal import Journal
from tests.club.stores import club_database, club_location, store  # noqa: F401  (the club's two stores)
from tests.net.club_harness import Evening, new_club

PASSWORD = "correct horse battery"


def csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


@pytest.mark.slow
def test_both_players_confirm_and_a_dispute_waits_for_the_director(tmp_path: Path, broker: PrivateBroker,
                                                                     club_location) -> None:
    db = club_location  # on both stores
    matches = new_club(db, players=4)
    with Service.open(db) as s:
        evening.configure(s, "Friday", confirm_results=True)
        s.set_director_password_hash(hash_password(PASSWORD))
    by_board = {m.board: m for m in matches}
    assert sorted(by_board) == [1, 2]
    answers = {1: (CONFIRM, CONFIRM), 2: (CONFIRM, DISPUTE)}

    async def go() -> Evening:
        e = Evening(tmp_path, broker, db)
        e.start_director()
        for n in (1, 2):
            e.start_board(n, matches=1, answers=lambda a, n=n: answers[n])
        await e.until(lambda: all(t.done() for t in e.board_tasks.values()))  # both results acked
        for t in e.board_tasks.values():
            t.result()
        await e.stop_director()
        return e

    e = asyncio.run(go())
    for n in (1, 2):
        with Journal(tmp_path / f"board{n}" / "journal.sqlite") as journal:
            rows = [r.body for r in journal.entries() if r.kind == "club" and r.body["what"] == "answer"]
            kinds = [(r.kind, r.body.get("what")) for r in journal.entries() if r.kind in ("club", "new")]
        assert [(r["player"], r["answer"]) for r in rows] == list(enumerate(answers[n]))
        # the board's real seat (net.seat.ClubSeat) took the assignment, started the match on
        # the controller, took both answers and reported, in that order
        assert kinds == [("club", "take"), ("new", None), ("club", "started"), ("club", "answer"), ("club", "answer"),
                         ("club", "reported")]
    with Service.open(db) as s:
        confirmed, disputed = s.match(by_board[1].id), s.match(by_board[2].id)
        assert confirmed.status == "finished" and confirmed.has_mat  # both confirmed: it counts now
        assert disputed.status == "pending" and disputed.score is None  # disputed: it waits
        [held] = confirmations.held(s)
        assert (held.match_id, held.board, held.why) == (disputed.id, 2, confirmations.DISPUTED_WHY)
        standings = {st.name: (st.wins, st.losses) for st in s.standings("Friday")}
        assert sum(w for w, _ in standings.values()) == 1  # only the confirmed match counts
        mat = confirmations.held_mat(s, held.id)
    assert mat is not None and tuple(replay(read_mat(mat)).score) in {tuple(held.score), tuple(held.score[::-1])}

    # the director's page shows it with its .mat; accepted there, it counts
    with TestClient(create_app(club_site(db, LiveHub()))) as client:
        token = csrf(client.get("/director/login").text)
        client.post("/director/login", data={"csrf": token, "password": PASSWORD}, follow_redirects=False)
        page = client.get("/director").text
        assert f'id="held-{held.id}"' in page and "disputed at the board" in page
        assert f'href="/director/held/{held.id}/mat"' in page
        assert client.get(f"/director/held/{held.id}/mat").text == mat
        token = csrf(page)
        done = client.post("/director/accept", data={"csrf": token, "held": str(held.id)})
        assert done.status_code == 200 and "recorded" in done.text and f'id="held-{held.id}"' not in done.text
    with Service.open(db) as s:
        accepted = s.match(disputed.id)
        assert accepted.status == "finished" and accepted.score == held.score and accepted.has_mat
        assert confirmations.held(s) == []
        assert sum(st.wins for st in s.standings("Friday")) == 2


@pytest.mark.slow
@pytest.mark.parametrize(("pins", "confirmed"), [((5, 5, 13), True), ((5, 26), False)], ids=["both-confirm", "black-disputes"])
def test_the_board_asks_both_players_and_reports_their_answer(tmp_path: Path, broker: PrivateBroker,
                                                             pins: tuple[int, ...], confirmed: bool) -> None:
    """`bgboard run` (pty board, MockFactory buttons) with its club link on a real Mosquitto:
    the match's end asks both players; the result is not sent before they answer, their
    buttons do not start a new match meanwhile, and it goes confirmed or disputed."""
    from gpiozero.pins.mock import MockFactory

    from bgboard.app import App
    from bgboard.config import config_from_dict
    from bgboard.display.panel import FilePanel
    from bgboard.display.panels import panel_spec
    from bgboard.net.broker import DIRECTOR
    from bgboard.net.protocol import Ack, Assignment, ClockSettings, decode, encode, parse_broker_url
    from bgboard.net.mqtt_client import open_client
    from bgboard.rules.starts import start_position
    from bgboard.sense.places import WHITE, board_of
    from tests.control.fakeboard import FakeBoard, slot_states
    from tests.control.test_app import FAST, GRID, press, until
    from tests.net.conftest import CLUB

    base = f"bgboard/{CLUB}/board"
    config = config_from_dict({
        "board": {"port": str(tmp_path / "bgboard"), "settle_ms": 60},
        "buttons": {"bounce_ms": 0},
        "journal": {"path": str(tmp_path / "journal.db")},
        "club": {"broker": broker.url, "club": CLUB, "board": 2, "password_file": str(broker.password_file("board2"))},
    })
    # 0.3 s a point and no delay: white (Ann) loses on time after the opening roll; Bob wins
    assignment = Assignment("Friday", 11, 2, ("Ann", "Bob"), 1, "standard", 1, ClockSettings(300, 0, 0), confirm=True)

    async def main() -> list:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        factory = MockFactory()
        app = App(config, pin_factory=factory, panel=FilePanel(panel_spec("waveshare-4in2"), tmp_path / "f"), timing=FAST)
        task = asyncio.create_task(app.run())
        results = []
        async with open_client(parse_broker_url(broker.url), username=DIRECTOR, password=broker.password(DIRECTOR),
                               identifier="t-director") as d:
            await d.subscribe([(f"{base}/2/result", 1)])
            await d.publish(f"{base}/2/assign", encode(assignment), qos=1, retain=True)
            # the board read too (as tests/control/test_app.py's _running waits): the app opens the
            # board's link after its buttons are made (in a thread), and the club's assignment can
            # come before that; a press on a button still being made raised inside gpiozero
            await until(lambda: app.match is not None and app.match.state is not None
                        and app.match.state.players == ("Ann", "Bob")
                        and app.match.observation is not None, 30)
            c = app.match
            assert c is not None
            press(factory, 5)  # white: roll
            await until(lambda: board.rolling)
            board.roll((3, 1))
            await until(lambda: c.over, 30)
            # shown although white lost on time (the match-end screen says so too)
            await until(lambda: "both players press done to confirm" in " ".join(app.shown[-1].message))
            assert app.club_link is not None and not app.club_link.outbox.outbox_pending()  # not sent yet
            actions = len(c.actions)
            press(factory, pins[0])  # Ann (white) presses done
            await until(lambda: "Bob, press done to confirm" in " ".join(app.shown[-1].message))
            for pin in pins[1:]:
                press(factory, pin)  # Ann again (no change), then Bob: done, or drop to dispute
            async with asyncio.timeout(60):
                async for m in d.messages:
                    results.append(decode("result", m.payload))
                    await d.publish(f"{base}/2/ack", encode(Ack(results[-1].uuid, "stored")), qos=1)
                    break
            await until(lambda: c.result_sent is True, 30)
            said = " ".join(app.shown[-1].message)
            assert ("confirmed by both players" in said) if confirmed else ("Bob disputed the result" in said)
            assert c.over and len(c.actions) == actions  # the answers started no new match
        app.stop()
        await asyncio.wait_for(task, 30)
        board.unplug()
        return results

    [r] = asyncio.run(main())
    assert (r.match, r.winner, r.confirmed, r.disputed) == (11, 1, confirmed, not confirmed)
    with Journal(tmp_path / "journal.db") as journal:
        rows = [e.body for e in journal.entries() if e.kind == "club"]
    answers = [(b["player"], b["answer"]) for b in rows if b["what"] == "answer"]
    assert answers == ([(0, "confirm"), (1, "confirm")] if confirmed else [(0, "confirm"), (1, "dispute")])
    assert [b["what"] for b in rows][-1] == "reported"
