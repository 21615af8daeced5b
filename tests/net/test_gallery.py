"""The spectators' gallery on real Mosquittos (bgboard.net.gallery): the club's broker and a
gallery bridged to it, its WebSocket listener open to anonymous clients (real paho-mqtt
WebSocket clients).  An anonymous spectator reads the club's live boards and nothing else: it
cannot publish, cannot read a board's own topics, a result or the director's, and never reaches
the club's broker; the bridge's user cannot write the live topics or read the boards'.  A
gallery held full of connections does not slow the club's broker."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from bgboard.net.broker import DIRECTOR, board_user
from bgboard.net.gallery import GALLERY, board_topic, check_gallery_url, room_topic
from bgboard.net.mosquitto import PrivateGallery
from bgboard.net.protocol import ProtocolError
from tests.net.conftest import CLUB, start_broker, start_broker_and_gallery

WAIT_S = 10


class Client:
    """A paho-mqtt client (its own network thread) that keeps what it receives."""

    def __init__(self, port: int, *, websockets: bool = False, user: str | None = None, password: str = "") -> None:
        self.got: list[tuple[str, bytes, bool]] = []
        self.granted: list[list[int]] = []
        self.connected = threading.Event()
        self.refused: list[str] = []
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, transport="websockets" if websockets else "tcp",
                             protocol=mqtt.MQTTv311, client_id=user or "")
        if user:
            self.c.username_pw_set(user, password)
        self.c.on_message = lambda c, u, m: self.got.append((m.topic, bytes(m.payload), bool(m.retain)))
        self.c.on_subscribe = lambda c, u, mid, codes, p: self.granted.append([code.value for code in codes])
        self.c.on_connect = self._connected
        self.c.connect("127.0.0.1", port, keepalive=30)
        self.c.loop_start()

    def _connected(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            self.refused.append(str(reason))
        else:
            self.connected.set()

    def ready(self) -> "Client":
        assert self.connected.wait(WAIT_S), f"not connected: {self.refused}"
        return self

    def subscribe(self, *filters: str) -> "Client":
        before = len(self.granted)
        for f in filters:
            self.c.subscribe(f, qos=0)
        until(lambda: len(self.granted) >= before + len(filters))
        return self

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.c.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT_S)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def until(predicate, seconds: float = WAIT_S) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture
def club(tmp_path: Path):
    broker, gallery = start_broker_and_gallery(tmp_path)
    clients: list[Client] = []

    def connect(port: int, **options) -> Client:
        client = Client(port, **options)
        clients.append(client)
        return client.ready()

    director = connect(broker.port, user=DIRECTOR, password=broker.password(DIRECTOR))
    yield broker, gallery, director, connect
    for client in clients:
        client.close()
    gallery.stop()
    broker.kill()


def bridged(gallery: PrivateGallery, director: Client, connect) -> None:
    """Wait until the bridge carries the director's live messages to the gallery."""
    probe = connect(gallery.port, websockets=True).subscribe(board_topic(CLUB, 99))
    until(lambda: (director.publish(board_topic(CLUB, 99), b'{"board":99}', retain=True), probe.got)[1], 30)


def test_an_anonymous_spectator_reads_the_live_boards_over_websocket(club):
    broker, gallery, director, connect = club
    bridged(gallery, director, connect)
    director.publish(board_topic(CLUB, 7), b'{"board":7,"version":1}', retain=True)
    late = connect(gallery.port, websockets=True)
    until(lambda: (late.subscribe(board_topic(CLUB, 7)), late.got)[1])   # the retained newest
    assert late.got[0] == (board_topic(CLUB, 7), b'{"board":7,"version":1}', True)
    late.subscribe(room_topic(CLUB))
    director.publish(room_topic(CLUB), b'{"boards":[{"board":7,"version":2}]}')
    director.publish(board_topic(CLUB, 7), b'{"board":7,"version":2}', retain=True)
    until(lambda: len(late.got) >= 3)
    assert [payload for _, payload, _ in late.got[1:]] == [b'{"boards":[{"board":7,"version":2}]}', b'{"board":7,"version":2}']
    fresh = connect(gallery.port, websockets=True).subscribe(board_topic(CLUB, 7))
    until(lambda: fresh.got)
    assert fresh.got == [(board_topic(CLUB, 7), b'{"board":7,"version":2}', True)]   # the gallery kept the newest


def test_an_anonymous_spectator_can_neither_publish_nor_read_anything_else(club):
    broker, gallery, director, connect = club
    bridged(gallery, director, connect)
    board = connect(broker.port, user=board_user(1), password=broker.password(board_user(1)))
    watcher = director.subscribe("bgboard/#")   # (one session per user: the director's own)
    snoop = connect(gallery.port, websockets=True).subscribe(
        "#", "$SYS/#", f"bgboard/{CLUB}/board/+/result", f"bgboard/{CLUB}/board/+/state", f"bgboard/{CLUB}/board/+/assign")
    spectator = connect(gallery.port, websockets=True).subscribe(f"bgboard/{CLUB}/live/#")
    spectator.publish(board_topic(CLUB, 1), b"forged", retain=True)
    spectator.publish(room_topic(CLUB), b"forged")
    spectator.publish(f"bgboard/{CLUB}/board/1/result", b"forged")
    board.publish(f"bgboard/{CLUB}/board/1/state", b'{"secret":"the board\'s own"}', retain=True)
    director.publish(f"bgboard/{CLUB}/board/1/assign", b'{"secret":"the director\'s"}', retain=True)
    director.publish(board_topic(CLUB, 1), b'{"board":1}', retain=True)   # markers after all of them
    board.publish(f"bgboard/{CLUB}/board/1/result", b"marker")
    until(lambda: any(t == board_topic(CLUB, 1) for t, _, _ in snoop.got))
    until(lambda: any(p == b"marker" for _, p, _ in watcher.got))
    time.sleep(0.3)
    assert {t for t, _, _ in snoop.got} <= {board_topic(CLUB, 1), board_topic(CLUB, 99)}   # live topics only
    assert all(b"forged" not in p and b"secret" not in p for _, p, _ in snoop.got + spectator.got)
    assert all(b"forged" not in p for _, p, _ in watcher.got)   # nothing reached the club's broker
    later = connect(gallery.port, websockets=True).subscribe(board_topic(CLUB, 1))
    until(lambda: later.got)
    assert later.got == [(board_topic(CLUB, 1), b'{"board":1}', True)]


def test_the_club_broker_still_refuses_anonymous_clients_and_the_bridge_user_only_reads_live_topics(club):
    broker, gallery, director, connect = club
    anonymous = Client(broker.port)
    until(lambda: anonymous.refused or anonymous.connected.is_set())
    anonymous.close()
    assert anonymous.refused and not anonymous.connected.is_set()
    gallery_user = Client(broker.port, user=GALLERY, password=broker.password(GALLERY)).ready()
    try:
        gallery_user.subscribe(f"bgboard/{CLUB}/board/+/result", f"bgboard/{CLUB}/board/+/state")
        gallery_user.publish(board_topic(CLUB, 3), b"forged by the bridge's user", retain=True)
        director.publish(f"bgboard/{CLUB}/board/3/state", b"{}", retain=True)
        reader = director.subscribe(board_topic(CLUB, 3))
        time.sleep(0.5)
        assert gallery_user.got == [] and reader.got == []
    finally:
        gallery_user.close()


def test_a_gallery_held_full_does_not_slow_the_club_broker(tmp_path: Path):
    broker = start_broker(tmp_path / "broker")
    gallery = broker.gallery(tmp_path / "gallery", max_spectators=16)
    held: list[socket.socket] = []
    try:
        gallery.start(timeout=60)
        for _ in range(120):   # TCP connections beyond its descriptors, never finishing a handshake
            try:
                held.append(socket.create_connection(("127.0.0.1", gallery.port), timeout=2))
            except OSError:
                break
        board = Client(broker.port, user=board_user(2), password=broker.password(board_user(2))).ready()
        director = Client(broker.port, user=DIRECTOR, password=broker.password(DIRECTOR)).ready()
        try:
            director.subscribe(f"bgboard/{CLUB}/board/2/result")
            t = time.monotonic()
            board.publish(f"bgboard/{CLUB}/board/2/result", b"{}")
            until(lambda: director.got)
            assert time.monotonic() - t < 1.0
            assert gallery.process is not None and gallery.process.poll() is None   # the gallery lives on
        finally:
            board.close()
            director.close()
    finally:
        for s in held:
            s.close()
        gallery.stop()
        broker.kill()


@pytest.mark.parametrize("url", ["http://club:9001/", "ws://club:9001/\"><script>", "ws://", "wss://a b/", "ws://x/" + "a" * 200])
def test_a_gallery_address_is_a_plain_websocket_url(url):
    with pytest.raises(ProtocolError):
        check_gallery_url(url)
    assert check_gallery_url("wss://club.example:9001/mqtt") == "wss://club.example:9001/mqtt"



def test_a_late_spectator_gets_every_board_of_a_large_room_at_once(club):
    broker, gallery, director, connect = club
    bridged(gallery, director, connect)
    for n in range(1, 301):
        director.c.publish(board_topic(CLUB, n), b'{"board":%d}' % n, qos=0, retain=True)
    director.publish(board_topic(CLUB, 301), b'{"board":301}', retain=True)   # after all of them
    watcher = connect(gallery.port, websockets=True).subscribe(board_topic(CLUB, 301))
    until(lambda: watcher.got)
    late = connect(gallery.port, websockets=True).subscribe(f"bgboard/{CLUB}/live/board/+")
    until(lambda: len({t for t, _, _ in late.got}) >= 301)   # boards 1 to 301 (99 was the probe's too)
    assert all(retained for _, _, retained in late.got)
