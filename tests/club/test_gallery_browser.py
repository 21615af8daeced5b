"""The room from the spectators' gallery in a real headless Chromium: the page draws each board
from the director's compact state (static/gallery.js) exactly as the server draws it (the same
SVG, the same words), and follows a board live over MQTT-over-WebSocket from a real gallery
Mosquitto bridged to the club's, the page never reloaded and the director's pages serving no
stream."""

from __future__ import annotations

import asyncio
import json
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from selenium.webdriver.support.ui import WebDriverWait

from bgboard.club.live_boards import LiveHub
from bgboard.club.web.gallery_feed import GalleryFeed
from bgboard.club.web.live_wire import change, compact, encode, in_room, inflate, room_messages
from bgboard.club.web.site import Site
from bgboard.match import apply
from bgboard.match.selfplay import selfplay
from bgboard.net.broker import DIRECTOR
from bgboard.net.gallery import board_topic, room_topic
from tests.club.evening import payload
from tests.club.test_room_browser import HOSTILE, texts
from tests.club.webrun import PAGE_WAIT_S, ServedSite, chromium
from tests.net.conftest import CLUB, start_broker_and_gallery

COMPARE = """
var server = document.getElementById(arguments[0]), view = arguments[1], large = arguments[2];
var mine = large ? window.bgboardDraw.large(view, true) : window.bgboardDraw.card(view);
function shape(node) {   // every element's name and classes, outside the picture
  return Array.from(node.querySelectorAll("*"), e => e.closest("svg") ? "" : e.tagName + "." + e.getAttribute("class"))
    .filter(Boolean).join(" ");
}
function words(node) {   // every text, in order (the server's template has white space between elements)
  var walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT), out = [];
  while (walker.nextNode()) { var text = walker.currentNode.data.replace(/\\s+/g, " ").trim(); if (text) out.push(text); }
  return out.join(" | ");
}
return {svg: server.querySelector("svg").isEqualNode(mine.querySelector("svg")),
        words: [words(server), words(mine)], shape: [shape(server), shape(mine)],
        top: [server.tagName + "." + server.className + "#" + server.id, mine.tagName + "." + mine.className + "#" + mine.id]};
"""


@pytest.fixture
def browser(tmp_path):
    driver = chromium()
    yield driver
    driver.quit()


def states() -> list[dict]:
    """Board states that exercise the whole picture: the opening, doubles, a cube owned by
    each side, checkers on the bar and borne off, tall stacks, Crawford, money play, clocks,
    a hostile name and a Position ID that does not decode."""
    out = []
    for seed, length in ((3, 5), (8, 1), (13, 7)):
        actions = selfplay(length, seed=seed, players=("Anna", HOSTILE))
        state = None
        for k, action in enumerate(actions):
            state = apply(state, action)
            if k % 37 == 1:
                out.append(payload(state, clocks=(61_000 + k, 3_000), clock_running=k % 2))
    out.append(dict(out[3], crawford=True, cube=4, cube_owner=1))
    out.append(dict(out[4], cube=8, cube_owner=0, score=None, event="Friday <night>"))
    out.append(dict(out[5], position_id="junk!", dice=[6, 6], length=0))
    return out


@pytest.mark.parametrize("language", ["en", "de", "nl"])
def test_the_page_draws_each_board_as_the_server_does(tmp_path, browser, language):
    """... in the page's language too (the board message is one for every spectator: the
    script says its phase, title and unnamed sides with the page's gallery-words)."""
    browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": language}})
    hub = LiveHub()
    served = ServedSite(Site(hub, name="Riverside", gallery=("ws://127.0.0.1:9/", CLUB)))
    try:
        boards = states()
        for n, state in enumerate(boards, start=1):
            served.call(hub.update, n, state)
        served.call(hub.offline, 2)
        browser.get(served.url + "/")
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.execute_script("return !!window.bgboardDraw"))
        assert len(boards) > 12
        for n in range(1, len(boards) + 1):
            whole = served.call(lambda: compact(hub.get(n)))
            for item in (whole, in_room(whole)):   # the board's own message, and as the room's carry it
                got = browser.execute_script(COMPARE, f"board-{n}", item, False)
                assert got["svg"], f"board {n}: the picture differs"
                assert got["words"][0] == got["words"][1] and got["shape"][0] == got["shape"][1] and got["top"][0] == got["top"][1]
        for n in (1, 2, len(boards)):
            browser.get(served.url + f"/board/{n}")
            WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.execute_script("return !!window.bgboardDraw"))
            got = browser.execute_script(COMPARE, f"board-{n}", served.call(lambda: compact(hub.get(n))), True)
            assert got["svg"] and got["words"][0] == got["words"][1] and got["shape"][0] == got["shape"][1]
    finally:
        served.close()


def payload_score(served: ServedSite, hub: LiveHub, board: int) -> tuple[int, int]:
    return tuple(served.call(lambda: hub.get(board)).state["score"])


def test_the_room_follows_a_board_live_from_the_gallery(tmp_path, browser):
    broker, gallery = start_broker_and_gallery(tmp_path)
    director = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=DIRECTOR, protocol=mqtt.MQTTv311)
    director.username_pw_set(DIRECTOR, broker.password(DIRECTOR))
    director.connect("127.0.0.1", broker.port)
    director.loop_start()
    hub = LiveHub()
    served = ServedSite(Site(hub, name="Riverside", gallery=(gallery.url, CLUB)))
    feed = GalleryFeed(hub, CLUB, tick_s=0.2)
    publish = lambda topic, data, retain: director.publish(topic, data, qos=0, retain=retain)  # noqa: E731
    feeding = served.call(lambda: asyncio.ensure_future(feed.run(publish, director.is_connected)))
    streams = []
    try:
        actions = selfplay(5, seed=3, players=("Anna", "Eva"))
        state = apply(None, actions[0])
        served.call(hub.update, 4, payload(state))       # before the page: the retained newest
        time.sleep(0.5)
        browser.get(served.url + "/")
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.execute_script(
            "return window.bgboardGallery && window.bgboardGallery.connected"))
        marker = browser.execute_script("window.__notReloaded = 1; return window.__notReloaded")
        for action in actions[1:]:
            state = apply(state, action)
            if state.score != (0, 0):
                break
        served.call(hub.update, 4, payload(state))
        served.call(hub.update, 9, payload(state))       # a board that was not there
        WebDriverWait(browser, PAGE_WAIT_S).until(
            lambda d: texts(d, "#board-4 td.score") == [str(s) for s in state.score],
            "the board's new score did not reach the open page")
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: texts(d, "#board-9 td.name") == ["Anna", "Eva"])
        served.call(hub.offline, 4)
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: "offline" in texts(d, "#board-4 .badge"))
        assert browser.execute_script("return window.__notReloaded") == marker
        assert browser.execute_script("return window.bgboardLive") is None   # no stream from the director
        streams = served.call(lambda: hub.subscribers)
        browser.get(served.url + "/board/9")       # one board large: its own topic only
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.execute_script(
            "return window.bgboardGallery && window.bgboardGallery.connected"))
        for action in actions[actions.index(action) + 1:]:
            state = apply(state, action)
            if state.score != payload_score(served, hub, 9):
                break
        served.call(hub.update, 9, payload(state))
        WebDriverWait(browser, PAGE_WAIT_S).until(
            lambda d: texts(d, "section.large td.score") == [str(s) for s in state.score])
        # a room message lost on its way: the next change is based on a state the page never
        # had, so the page takes the board's retained message (whole, newest) instead
        browser.get(served.url + "/")
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.execute_script(
            "return window.bgboardGallery && window.bgboardGallery.watching"))   # the retained states taken
        had = served.call(lambda: compact(hub.get(9)))
        lost = dict(had, version=had["version"] + 1, score=[7, 0])
        newest = dict(had, version=had["version"] + 2, score=[7, 8])
        director.publish(board_topic(CLUB, 9), encode(lost), qos=0, retain=True)
        [message] = room_messages([change(lost, newest)], 1)
        assert json.loads(inflate(message))["boards"][0]["base"] == lost["version"]
        director.publish(room_topic(CLUB), message, qos=0, retain=False)
        director.publish(board_topic(CLUB, 9), encode(newest), qos=0, retain=True)
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: texts(d, "#board-9 td.score") == ["7", "8"],
                                                  "the page did not take the board's retained state")
        assert browser.execute_script("return window.bgboardGallery.fetched") == 1
    finally:
        served.call(feeding.cancel)
        served.close()
        director.disconnect()
        director.loop_stop()
        gallery.stop()
        broker.kill()
    assert streams == 1   # the feed's own: no page held a stream on the director's pages
