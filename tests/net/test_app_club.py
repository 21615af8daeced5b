"""`bgboard run` at a club evening: the real app (pty board, MockFactory buttons, file panel,
SQLite journal) with its club link on a real Mosquitto — the display says when the club is not
reachable, the director's assignment becomes the match (names, length, clock) shown and
recorded, the result is reported and kept until acked, match.mat/match.sgf are written
beside the journal."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from bgboard.app import App
from bgboard.config import config_from_dict
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.match.mat import export_mat
from bgboard.net.broker import DIRECTOR
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.board_report import mat_info
from bgboard.net.protocol import Ack, Assignment, ClockSettings, decode, encode, parse_broker_url
from bgboard.net.mqtt_client import open_client
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, board_of
from bgboard.store.journal import Journal
from tests.control.fakeboard import FakeBoard, slot_states
from tests.control.test_app import FAST, GRID, press, until
from tests.net.conftest import CLUB

BASE = f"bgboard/{CLUB}/board"


@pytest.mark.slow
def test_a_board_plays_the_directors_assignment_and_reports_it(tmp_path: Path, broker: PrivateBroker) -> None:
    broker.kill()  # the club is not reachable when the board starts
    config = config_from_dict(
        {
            "board": {"port": str(tmp_path / "bgboard"), "settle_ms": 60},
            "buttons": {"bounce_ms": 0},
            "journal": {"path": str(tmp_path / "journal.db")},
            "club": {"broker": broker.url, "club": CLUB, "board": 2, "password_file": str(broker.password_file("board2"))},
        }
    )
    # the clock of the assignment is 0.3 s a point with no delay: white's time runs out after the opening roll
    assignment = Assignment("Friday", 11, 2, ("Ann", "Bob"), 1, "standard", 1, ClockSettings(300, 0, 0))

    async def main() -> tuple[App, list]:
        board = FakeBoard(tmp_path / "bgboard", slots=GRID.count)
        board.states = slot_states(board_of(start_position(), WHITE), GRID)
        board.plug()
        board.boot()
        factory = MockFactory()
        app = App(config, pin_factory=factory, panel=FilePanel(panel_spec("waveshare-4in2"), tmp_path / "f"), timing=FAST)
        task = asyncio.create_task(app.run())
        await until(lambda: app.match is not None and app.match.observation is not None)  # (the room: the match seated)
        await until(lambda: any("club not reachable" in m or "club offline" in m for m in app.shown[-1].message))
        broker.start()
        results = []
        async with open_client(parse_broker_url(broker.url), username=DIRECTOR, password=broker.password(DIRECTOR), identifier="t-director") as d:
            await d.subscribe([(f"{BASE}/2/result", 1), (f"{BASE}/2/state", 1)])
            await d.publish(f"{BASE}/2/assign", encode(assignment), qos=1, retain=True)
            c = app.match
            assert c is not None
            await until(lambda: c.state is not None and c.state.players == ("Ann", "Bob"), 30)
            assert app.shown[-1].names == ("Ann", "Bob") and app.shown[-1].match_length == 1
            press(factory, 5)  # white: roll (the players are ready)
            await until(lambda: board.rolling)
            board.roll((3, 1))
            await until(lambda: c.over, 30)  # white's 0.3 s run out
            await until(lambda: c.result_sent is False)  # reported, not yet acked: "sending"
            assert app.shown[-1].ending is not None and app.shown[-1].ending.sent is False
            async with asyncio.timeout(60):
                async for m in d.messages:
                    if str(m.topic).endswith("/result"):
                        results.append(decode("result", m.payload))
                        await d.publish(f"{BASE}/2/ack", encode(Ack(results[-1].uuid, "stored")), qos=1)
                        break
        await until(lambda: app.club_link is not None and not app.club_link.outbox.outbox_pending(), 30)
        await until(lambda: c.result_sent is True)  # the ack reached the match-end screen
        assert app.shown[-1].ending is not None and app.shown[-1].ending.sent is True
        actions = list(c.actions)
        app.stop()
        await asyncio.wait_for(task, 30)
        board.unplug()
        return app, [results, actions]

    app, (results, actions) = asyncio.run(main())
    [r] = results
    assert (r.event, r.match, r.board, r.players, r.length) == ("Friday", 11, 2, ("Ann", "Bob"), 1)
    assert r.forfeit == 0 and r.winner == 1
    assert "Ann" in r.mat and "Bob" in r.mat
    mat = (tmp_path / "match.mat").read_text()
    assert mat == export_mat(actions, mat_info(assignment)) == r.mat  # beside the journal, as reported
    assert "Friday" in mat and "Ann" in mat
    assert (tmp_path / "match.sgf").read_text().startswith("(;FF[4]")
    from bgboard.cli import main as bgboard

    assert bgboard(["export", "--journal", str(tmp_path / "journal.db"), "--out", str(tmp_path / "again")]) == 0
    for name in ("match.mat", "match.sgf"):  # rebuilt from the journal alone: the same records
        assert (tmp_path / "again" / name).read_text() == (tmp_path / name).read_text()
    with Journal(tmp_path / "journal.db") as journal:
        rows = [e.body["what"] for e in journal.entries() if e.kind == "club"]
        assert rows == ["take", "started", "reported"]
        assert [(o.uuid, o.status) for o in journal.outbox()] == [(r.uuid, "stored")]
