"""The director's feed of the spectators' gallery: the compact, checked states it publishes
(bgboard.club.web.live_wire), its coalescing (bgboard.club.web.gallery_feed), and a board's move
reaching an anonymous WebSocket spectator over the real path — the board's club link, the club's
Mosquitto, the director's MQTT side and hub, the feed, the bridge, the gallery's Mosquitto."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
import json
import random
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from hypothesis import given, settings, strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from bgboard.club.board_tournament import ClubTournament
from bgboard.club.boards import DirectorLink
from bgboard.club.director import Director as Service
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.boardview import MAX_NAME, board_view
from bgboard.club.web.gallery_feed import GalleryFeed
from bgboard.club.web.live_wire import BOARD_BYTES, ROOM_BYTES, applied, change, compact, encode, inflate, room_messages
from bgboard.match import apply
from bgboard.match.selfplay import selfplay
from bgboard.net.board_report import board_state
from bgboard.net.boardlink import ClubLink
from bgboard.net.gallery import MAX_PACKET, board_topic, room_topic
from bgboard.store.journal import Journal
from tests.net.club_harness import board_settings, director_settings, new_club
from tests.net.conftest import CLUB, start_broker_and_gallery

STATE = {"players": ["Anna", "Eva"], "length": 5, "score": [1, 2], "cube": 2, "cube_owner": 1, "turn": 0,
         "dice": [3, 5], "position_id": "4HPwATDgc/ABMA", "phase": "play", "clocks": [61000, 58000],
         "clock_running": 0, "event": "Friday", "match": 12, "updated_ms": 1_795_929_692_000}


def test_a_board_is_sent_as_the_pages_checked_view_never_as_the_board_wrote_it():
    hostile = dict(STATE, players=["<b>" + "A\u202e" * 100, 7], position_id="not an id", cube=3, extra="x" * 10_000,
                   dice=[0, 9], updated_ms="soon")
    item = compact(LiveHub().update(4, hostile))
    assert item["players"][0].startswith("<b>") and len(item["players"][0]) <= MAX_NAME
    assert item["players"][1] == "Black" and item["cube"] == 1 and "dice" not in item and "extra" not in item
    assert "sides" not in item and item["problem"] and "updated_ms" not in item
    widest = dict(STATE, players=["🎲" * 200] * 2, event="🎲" * 200, position_id="🎲" * 20)
    assert len(encode(compact(LiveHub().update(9999, widest)))) < 2048 == BOARD_BYTES
    rooms = list(room_messages([compact(LiveHub().update(9999, widest))] * 100, 1_795_929_692_000))
    assert all(len(room) <= ROOM_BYTES < MAX_PACKET for room in rooms)   # the gallery takes it
    assert sum(len(json.loads(inflate(room))["boards"]) for room in rooms) == 100
    good = compact(LiveHub().update(4, STATE))
    view = board_view(4, STATE)
    assert good["sides"] == ["".join("%x" % n for n in side) for side in view.sides]
    assert good["phase"] == "Anna to play" and good["clocks"] == ["1:01", "0:58"] and good["owner"] == 1
    assert good["title"] == "Board 4: Anna (white) v Eva (black) 1-2" and good["updated_ms"] == STATE["updated_ms"]


def test_a_board_that_left_is_gone_and_a_large_room_goes_compressed_in_messages_of_one_websocket_write():
    hub = LiveHub()
    hub.offline(9)
    assert compact(hub.get(9)) == {"board": 9, "version": 1, "gone": True}
    # 200 boards mid-match, each its own players and position: every board once, in order, in
    # messages within one write of the gallery's WebSocket (Mosquitto 2.0.11 sends 4,096 bytes
    # a turn, the rest about 100 ms later), and far fewer bytes than the boards' JSON
    items = []
    for n in range(1, 201):
        actions = selfplay(1, seed=n, players=(f"Anna Lindqvist {n}", f"Eva Marquardt {n}"))
        state = None
        for action in actions[:5 + n % 20]:
            state = apply(state, action)
        items.append(compact(hub.update(n, asdict(board_state(state, 1_795_929_692_000 + n)))))
    messages = list(room_messages(items, 1_795_929_692_400))
    rooms = [json.loads(inflate(m)) for m in messages]
    assert sum((room["boards"] for room in rooms), []) == items and {room["sent_ms"] for room in rooms} == {1_795_929_692_400}
    assert all(len(m) <= ROOM_BYTES for m in messages) and ROOM_BYTES + 100 < 4096
    assert 1 < len(messages) <= 6 and sum(map(len, messages)) * 4 < sum(len(encode(item)) for item in items)
    # a board too large to share a message goes alone, and what is not a room message is refused
    assert [len(json.loads(inflate(m))["boards"]) for m in room_messages([{"board": 1, "x": random.Random(n).randbytes(2000).hex()} for n in (1, 2)])] == [1, 1]
    for junk in (b"{}", encode(items[0]), b"\x00" * 10):
        with pytest.raises(ValueError):
            inflate(junk)


def test_the_feed_sends_each_changed_board_once_a_tick_with_its_newest_state():
    hub = LiveHub()
    feed = GalleryFeed(hub, CLUB)
    sent: list[tuple[str, bytes, bool]] = []
    publish = lambda topic, payload, retain: sent.append((topic, payload, retain))  # noqa: E731
    assert feed.publish_changes(publish) == 0 and sent == []
    for score in ([0, 0], [1, 0], [2, 0]):
        hub.update(7, dict(STATE, score=score))
    hub.update(3, STATE)
    assert feed.publish_changes(publish) == 2
    # the room first: behind a tick's board messages Mosquitto 2.0.11's gallery held it ~0.2 s
    assert [(t, r) for t, _, r in sent] == [(room_topic(CLUB), False), (board_topic(CLUB, 7), True), (board_topic(CLUB, 3), True)]
    room = json.loads(inflate(sent[0][1]))["boards"]
    assert [(b["board"], b["score"]) for b in room] == [(7, [2, 0]), (3, [1, 2])]
    sent.clear()
    assert feed.publish_changes(publish) == 0 and sent == []


FIELD = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=3), st.lists(st.integers(0, 3), max_size=2))
KEYS = st.sampled_from(["online", "players", "score", "dice", "turn", "phase", "sides", "updated_ms", "event"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, FIELD), st.dictionaries(KEYS, FIELD), st.integers(1, 5), st.booleans(), st.booleans())
def test_a_change_applied_to_the_state_it_is_based_on_gives_the_new_state_and_nothing_else(
        old, new, step, old_gone, new_gone):
    last = {"board": 7, "version": 10, **({"gone": True} if old_gone else old)}
    item = {"board": 7, "version": 10 + step, **({"gone": True} if new_gone else new)}
    entry = change(last, item)
    assert applied(last, entry) == item
    assert len(encode(entry)) <= len(encode(item))                 # never longer than the state
    if "base" in entry:
        assert entry["base"] == 10 and not old_gone and not new_gone
        assert applied(dict(last, version=9), entry) is None       # based on another: the retained message instead
        assert applied(None, entry) is None
    assert change(None, item) == item and change(item, last) == last   # no last, or an older version: whole


def test_the_room_sends_a_board_it_has_as_its_change_and_a_board_going_offline_in_a_few_bytes():
    hub = LiveHub()
    feed = GalleryFeed(hub, CLUB)
    sent: list[tuple[str, bytes, bool]] = []
    publish = lambda topic, payload, retain: sent.append((topic, payload, retain))  # noqa: E731
    states = {}
    for n in range(1, 201):
        actions = selfplay(1, seed=n, players=(f"Anna Lindqvist {n}", f"Eva Marquardt {n}"))
        states[n] = [apply(None, actions[0])]
        for action in actions[1:8]:
            states[n].append(apply(states[n][-1], action))
        hub.update(n, asdict(board_state(states[n][5], 1_795_929_692_000 + n)))
    feed.publish_changes(publish)
    first = [payload for topic, payload, _ in sent if topic == room_topic(CLUB)]
    sent.clear()
    for n in range(1, 201):   # every board one move on
        hub.update(n, asdict(board_state(states[n][6], 1_795_929_693_000 + n)))
    feed.publish_changes(publish)
    moved = [payload for topic, payload, _ in sent if topic == room_topic(CLUB)]
    retained = {topic: json.loads(payload) for topic, payload, retain in sent if retain}
    sent.clear()
    for n in range(1, 201):
        hub.offline(n)
    feed.publish_changes(publish)
    offline = [payload for topic, payload, _ in sent if topic == room_topic(CLUB)]
    entries = [b for m in moved for b in json.loads(inflate(m))["boards"]]
    before = {b["board"]: b["version"] for m in first for b in json.loads(inflate(m))["boards"]}
    assert all(entry["base"] == before[entry["board"]] for entry in entries) and len(entries) == 200
    # each board's retained message stays whole: what a spectator who cannot apply a change takes
    for entry in entries:
        whole = retained[board_topic(CLUB, entry["board"])]
        assert "base" not in whole and whole["players"] and whole["version"] == entry["version"]
    for entry in [b for m in first for b in json.loads(inflate(m))["boards"]] + entries:
        assert "title" not in entry and "phase" not in entry   # the pages say them in their own words
    assert all("title" in whole and "phase" in whole for whole in retained.values())
    gone = [b for m in offline for b in json.loads(inflate(m))["boards"]]
    assert {tuple(sorted(b)) for b in gone} == {("base", "board", "online", "version")}
    assert len(offline) == 1 < len(moved) <= len(first) == 2 and sum(map(len, moved)) * 5 < sum(map(len, first)) * 4
    print(f"200 boards: whole {len(first)} messages {sum(map(len, first))} B, one move on {len(moved)} messages "
          f"{sum(map(len, moved))} B, offline {len(offline)} message {sum(map(len, offline))} B")


def test_a_boards_move_reaches_an_anonymous_spectator_on_the_gallery(tmp_path):
    broker, gallery = start_broker_and_gallery(tmp_path)
    db = tmp_path / "club.sqlite"
    [match, *_] = new_club(db, "swiss", length=3, rounds=1, players=4)
    got: list[tuple[float, dict]] = []
    finals: list = []
    subscribed = threading.Event()
    spectator = mqtt.Client(CallbackAPIVersion.VERSION2, transport="websockets", protocol=mqtt.MQTTv311)
    spectator.on_connect = lambda c, u, f, r, p: c.subscribe(room_topic(CLUB))
    spectator.on_subscribe = lambda *a: subscribed.set()
    spectator.on_message = lambda c, u, m: got.append((time.time(), json.loads(inflate(m.payload))))
    spectator.connect("127.0.0.1", gallery.port)
    spectator.loop_start()

    async def evening() -> None:
        hub = LiveHub()
        with Service.open(db) as service:
            director = DirectorLink(director_settings(broker), ClubTournament(service), hub=hub)
            feed = GalleryFeed(hub, CLUB, tick_s=0.2)
            tasks = [asyncio.ensure_future(director.run()),
                     asyncio.ensure_future(feed.run(director.send, lambda: director.online))]
            journal = Journal(tmp_path / "board.sqlite")
            link = ClubLink(board_settings(broker, match.board), journal)
            tasks.append(asyncio.ensure_future(link.run()))
            try:
                actions = selfplay(3, seed=21, players=tuple(match.players))
                state = apply(None, actions[0])
                deadline = time.monotonic() + 30
                while not any(b["board"] == match.board for _, m in got for b in m["boards"]):  # the bridge comes up
                    assert time.monotonic() < deadline, "the board's state never reached the spectator"
                    link.publish_state(board_state(state, int(time.time() * 1000)))
                    await asyncio.sleep(0.3)
                for action in actions[1:6]:
                    state = apply(state, action)
                    link.publish_state(board_state(state, int(time.time() * 1000)))
                    await asyncio.sleep(0.05)
                last = board_state(state, int(time.time() * 1000))
                finals.append(last)
                link.publish_state(last)
                deadline = time.monotonic() + 10
                while not any(b.get("updated_ms") == last.updated_ms for _, m in got for b in m["boards"]):
                    assert time.monotonic() < deadline, "the board's last state never reached the spectator"
                    await asyncio.sleep(0.05)
            finally:
                link.stop()
                director.stop()
                await asyncio.sleep(0.1)
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                journal.close()

    try:
        assert subscribed.wait(10)
        asyncio.run(evening())
    finally:
        spectator.disconnect()
        spectator.loop_stop()
        gallery.stop()
        broker.kill()
    boards = [b for _, m in got for b in m["boards"]]
    assert {b["board"] for b in boards} == {match.board}
    whole = None
    for entry in boards:   # the first whole, then changes based each on the one before
        whole = applied(whole, entry)
        assert whole is not None and whole["players"] == list(match.players)
    assert any("base" in entry for entry in boards) and whole["updated_ms"] == finals[0].updated_ms
    assert len(got) < 12   # coalesced: far fewer messages than the board's states


def test_club_serve_refuses_a_gallery_without_a_broker_or_with_a_bad_address(tmp_path, capsys):
    from bgboard.cli import main

    db = tmp_path / "club.sqlite"
    Service.create(db, "Riverside").close()
    assert main(["club", "--db", str(db), "serve", "--http", "127.0.0.1:0", "--gallery", "ws://club.local:9001/"]) == 2
    assert "--gallery needs --broker" in capsys.readouterr().err
    password = tmp_path / "password"
    password.write_text("x\n")
    assert main(["club", "--db", str(db), "serve", "--broker", "mqtt://127.0.0.1:1", "--password-file", str(password),
                 "--gallery", "ws://x/\"><script>alert(1)</script>"]) == 2
    err = capsys.readouterr().err
    assert "a gallery is a WebSocket address" in err and "Traceback" not in err
