"""The whole live path on real parts: a board's client (bgboard.net.boardlink.ClubLink, its
outbox in a real journal) publishes its match state to a real Mosquitto; the director's MQTT
side (bgboard.club.boards.DirectorLink) feeds the room's hub; the web server pushes the card; a
real headless Chromium shows the new score, pushed without a reload, and "offline" when the
board leaves.  The latency (issue 13: under 1 s) is measured by benchmarks/club_live_browser.py."""

from __future__ import annotations

import asyncio
import time

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from bgboard.club.board_tournament import ClubTournament
from bgboard.club.boards import DirectorLink
from bgboard.club.director import Director as Service
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.server import club_site
from bgboard.match import apply
from bgboard.match.selfplay import selfplay
from bgboard.net.boardlink import ClubLink
from bgboard.net.board_report import board_state
from bgboard.store.journal import Journal
from tests.club.test_room_browser import classes, texts
from tests.club.webrun import PAGE_WAIT_S, ServedSite, chromium
from tests.net.club_harness import board_settings, director_settings, new_club
from tests.net.conftest import start_broker


@pytest.fixture
def browser(tmp_path):
    driver = chromium()
    yield driver
    driver.quit()


@pytest.mark.slow
def test_a_board_on_a_real_broker_reaches_the_open_room_page_live(tmp_path, browser):
    broker = start_broker(tmp_path / "broker")
    db = tmp_path / "club.sqlite"
    [match, *_] = new_club(db, "swiss", length=3, rounds=1, players=4)
    served = ServedSite(club_site(db, LiveHub()))
    parts: dict = {}

    def start() -> None:     # in the server's loop, as 'bgboard club serve --broker --http' runs
        parts["service"] = Service.open(db)
        parts["director"] = DirectorLink(director_settings(broker), ClubTournament(parts["service"]),
                                     hub=served.site.hub)
        parts["director_task"] = asyncio.ensure_future(parts["director"].run())
        parts["journal"] = Journal(tmp_path / "board.sqlite")   # SQLite: opened in its thread
        parts["link"] = ClubLink(board_settings(broker, match.board), parts["journal"])
        parts["link_task"] = asyncio.ensure_future(parts["link"].run())

    def publish(state) -> None:
        parts["link"].publish_state(board_state(state, int(time.time() * 1000)))

    async def stop() -> None:
        parts["link"].stop()
        await parts["link_task"]
        parts["journal"].close()
        parts["director"].stop()
        await parts["director_task"]
        parts["service"].close()

    try:
        served.call(start)
        actions = selfplay(3, seed=21, players=tuple(match.players))
        state = apply(None, actions[0])
        done = 1
        served.call(publish, state)
        browser.get(served.url + "/")
        card = f"board-{match.board}"
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: texts(d, f"#{card} td.name") == list(match.players))
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.execute_script(
            "return window.bgboardLive && window.bgboardLive.readyState === 1"))
        marker = browser.execute_script("window.__notReloaded = 1; return window.__notReloaded")
        changes = 0
        while changes < 2 and done < len(actions):
            before = state.score
            state = apply(state, actions[done])
            done += 1
            if state.score == before:
                continue
            served.call(publish, state)
            want = [str(s) for s in state.score]
            WebDriverWait(browser, PAGE_WAIT_S).until(
                lambda d: texts(d, f"#{card} td.score") == want,
                f"the score {state.score} did not reach the open page")
            changes += 1
        assert changes == 2
        assert browser.execute_script("return window.__notReloaded") == marker   # pushed, not reloaded

        served.call(parts["link"].stop)     # the board leaves: its client says it is offline
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: "offline" in classes(d, card))
        assert texts(browser, f"#{card} td.score") == [str(s) for s in state.score]
    finally:
        if "link" in parts:
            stopping = served.call(lambda: asyncio.ensure_future(stop()))
            served.wait(stopping)
        served.close()
        broker.kill()


@pytest.mark.slow
def test_a_simulated_swiss_round_over_the_broker_fills_the_room_and_the_standings(tmp_path, browser):
    """Four simulated boards (bgboard.sim.clubboard, the model firmware) take their assignments
    from the director over Mosquitto and play them out; the room shows their cards while
    they play, the event's table and standings show every result at the end."""
    from tests.net.club_harness import Evening as ClubEvening

    broker = start_broker(tmp_path / "broker")
    db = tmp_path / "club.sqlite"
    matches = new_club(db, "swiss", length=3, rounds=1, players=8)
    served = ServedSite(club_site(db, LiveHub()))
    evening = ClubEvening(tmp_path, broker, db)
    evening.hub = served.site.hub

    def start() -> None:
        evening.start_director()
        for m in matches:
            evening.start_board(m.board, matches=1, pace_s=0.01)

    def finished() -> bool:
        for task in evening.board_tasks.values():
            if task.done():
                task.result()       # a board that crashed fails the test here
        return len(evening.board_tasks) == len(matches) and all(t.done() for t in evening.board_tasks.values())

    try:
        served.call(start)
        browser.get(served.url + "/")
        cards = [f"board-{b}" for b in sorted(m.board for m in matches)]   # in board order
        WebDriverWait(browser, PAGE_WAIT_S).until(
            lambda d: d.execute_script("return Array.from(document.querySelectorAll('article.card'), e => e.id)") == cards)
        for m in matches:  # a board's first state may come before its assignment's match starts
            WebDriverWait(browser, PAGE_WAIT_S).until(
                lambda d, m=m: texts(d, f"#board-{m.board} td.name") == list(m.players))
        deadline = time.monotonic() + 600    # a bound against a hang, not a speed claim
        while not served.call(finished):
            assert time.monotonic() < deadline, "the simulated round did not finish in 10 minutes"
            time.sleep(0.2)
        deadline = time.monotonic() + 120
        while served.call(evening.pending):
            assert time.monotonic() < deadline, "the director did not store every result"
            time.sleep(0.2)
        with Service.open(db) as s:
            results = {m.id: m for m in s.matches("Friday")}
            standings = s.standings("Friday")
        for m in matches:   # the room's last word on each board is its final score
            final = results[m.id]
            WebDriverWait(browser, PAGE_WAIT_S).until(
                lambda d: texts(d, f"#board-{m.board} td.score") == [str(x) for x in final.score])
        browser.get(served.url + "/standings/Friday")
        shown = dict(zip(texts(browser, "table.standings td.name"),
                         texts(browser, "table.standings td:nth-child(3)")))
        assert shown == {s.name: str(s.wins) for s in standings}
        assert sorted(shown.values()) == ["0"] * 4 + ["1"] * 4
    finally:
        if evening.director_task is not None:
            served.wait(served.call(lambda: asyncio.ensure_future(evening.stop_director())))
        served.close()
        broker.kill()
