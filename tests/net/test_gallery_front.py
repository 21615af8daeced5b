"""The gallery's front on the real parts: Debian's HAProxy (bgboard.net.gallery's
``gallery_front_conf``) before a real gallery Mosquitto bridged to a real club broker, with
paho-mqtt WebSocket spectators from two loopback addresses.  One address holds at most its
share of the gallery's seats, another still gets in and reads the live boards through the
front; the gallery alone (Mosquitto has no per-address limit) seats them all."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from bgboard.net.broker import DIRECTOR, acl_text
from bgboard.net.gallery import GALLERY, board_topic, gallery_front_conf, gallery_user, room_topic
from bgboard.net.mosquitto import PrivateBroker, free_port
from bgboard.net.protocol import ProtocolError
from tests.net.conftest import BOARDS, CLUB
from tests.net.test_gallery import WAIT_S, Client, bridged, club, until  # noqa: F401 (the fixture)

PER_ADDRESS = 4


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
    if found is None:
        pytest.fail("HAProxy is not installed: tools/test-services installs Debian's haproxy")
    return found


def start_front(root: Path, gallery_port: int | list[int]) -> tuple["subprocess.Popen[bytes]", int]:
    port = free_port()
    conf = root / "front.cfg"
    conf.write_text(gallery_front_conf(port, gallery_port, address="127.0.0.1", per_address=PER_ADDRESS,
                                       max_spectators=100))
    front = subprocess.Popen([haproxy_binary(), "-db", "-f", str(conf)], stdout=subprocess.DEVNULL,
                             stderr=open(root / "front.log", "wb"))
    deadline = time.monotonic() + WAIT_S
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return front, port
            except OSError:
                assert front.poll() is None, (root / "front.log").read_text()
                assert time.monotonic() < deadline, "the front never listened"
                time.sleep(0.05)
    except BaseException:
        front.kill()
        front.wait(10)
        raise


def seat(port: int, source: str) -> mqtt.Client | None:
    """A spectator from ``source`` connected to ``port`` (a WebSocket, MQTT's CONNACK), or None."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, transport="websockets", protocol=mqtt.MQTTv311)
    try:
        client.connect("127.0.0.1", port, keepalive=30, bind_address=source)
    except (OSError, ValueError, mqtt.WebsocketConnectionError):
        return None
    client.loop_start()
    deadline = time.monotonic() + 3
    while not client.is_connected() and time.monotonic() < deadline:
        time.sleep(0.02)
    if client.is_connected():
        return client
    client.loop_stop()
    return None


def leave(clients: list[mqtt.Client | None]) -> None:
    for client in clients:
        if client is not None:
            client.disconnect()
            client.loop_stop()


def test_one_address_cannot_take_the_gallerys_seats_behind_its_front(club, tmp_path):
    broker, gallery, director, connect = club
    bridged(gallery, director, connect)
    front, port = start_front(tmp_path, gallery.port)
    held: list[mqtt.Client | None] = []
    try:
        held = [seat(port, "127.0.0.1") for _ in range(PER_ADDRESS + 2)]
        assert [c is not None for c in held] == [True] * PER_ADDRESS + [False, False]
        # another address still gets in, and reads the live boards through the front
        got: list[bytes] = []
        neighbour = seat(port, "127.0.0.2")
        held.append(neighbour)
        assert neighbour is not None
        neighbour.on_message = lambda c, u, m: got.append(bytes(m.payload))
        neighbour.subscribe(room_topic(CLUB), qos=0)
        until(lambda: (director.publish(room_topic(CLUB), b"room"), got)[1])
        # a seat left is a seat free again for that address
        leave([held.pop(0)])
        time.sleep(0.2)   # the front sees it go
        again = seat(port, "127.0.0.1")
        held.append(again)
        assert again is not None
        # the gallery alone counts no one's connections: one address takes every seat it asks for
        direct = [seat(gallery.port, "127.0.0.1") for _ in range(PER_ADDRESS + 2)]
        held += direct
        assert all(c is not None for c in direct)
    finally:
        leave(held)
        front.terminate()
        front.wait(10)


def established(port: int) -> int:
    """TCP connections established to local ``port`` now (the kernel's /proc/net/tcp and tcp6:
    state 01)."""
    rows = [row for name in ("tcp", "tcp6") for row in Path(f"/proc/net/{name}").read_text().splitlines()[1:]]
    return sum(1 for row in rows if row.split()[1].endswith(f":{port:04X}") and row.split()[3] == "01")


def test_several_galleries_behind_one_front_each_serve_a_share_and_every_spectator_reads_the_room(tmp_path):
    broker = PrivateBroker(tmp_path / "broker", CLUB, BOARDS, galleries=2)
    broker.start(timeout=60)
    galleries = [broker.gallery(tmp_path / f"gallery{n}", n=n) for n in (1, 2)]
    held: list[mqtt.Client | None] = []
    front, director = None, Client(broker.port, user=DIRECTOR, password=broker.password(DIRECTOR))
    try:
        for gallery in galleries:
            gallery.start(timeout=60)
        director.ready()
        for gallery in galleries:   # each bridged as a user of its own
            probe = Client(gallery.port, websockets=True).ready().subscribe(board_topic(CLUB, 99))
            until(lambda: (director.publish(board_topic(CLUB, 99), b'{"board":99}', retain=True), probe.got)[1], 30)
            probe.close()
        front, port = start_front(tmp_path, [g.port for g in galleries])
        got: list[list[bytes]] = [[] for _ in range(PER_ADDRESS)]
        for k in range(PER_ADDRESS):
            spectator = seat(port, "127.0.0.1")
            held.append(spectator)
            assert spectator is not None
            spectator.on_message = lambda c, u, m, k=k: got[k].append(bytes(m.payload))
            spectator.subscribe(room_topic(CLUB), qos=0)
        # leastconn: each gallery holds half of the front's spectators
        until(lambda: [established(g.port) for g in galleries] == [PER_ADDRESS // 2] * 2)
        until(lambda: (director.publish(room_topic(CLUB), b"room"), all(got))[1])
    finally:
        director.close()
        leave(held)
        if front is not None:
            front.terminate()
            front.wait(10)
        for gallery in galleries:
            gallery.stop()
        broker.kill()


def test_a_gallery_bridges_as_a_user_of_its_own():
    assert [gallery_user(n) for n in (1, 2, 32)] == [GALLERY, "gallery-2", "gallery-32"]
    for wrong in (0, 33, True, "2"):
        with pytest.raises(ProtocolError):
            gallery_user(wrong)  # type: ignore[arg-type]
    acl = acl_text(CLUB, [1], galleries=2)
    assert f"user {GALLERY}\ntopic read bgboard/{CLUB}/live/#\n" in acl
    assert f"user gallery-2\ntopic read bgboard/{CLUB}/live/#\n" in acl and "gallery-3" not in acl
    conf = gallery_front_conf(9001, [9002, 9003])
    assert "balance leastconn" in conf and "127.0.0.1:9002" in conf and "127.0.0.1:9003" in conf
    assert "balance" not in gallery_front_conf(9001, 9002)


@pytest.mark.parametrize("options", [{"port": 0}, {"gallery_port": 70000}, {"per_address": 0},
                                     {"per_address": 101}, {"address": "0.0.0.0\n    bind *:80"},
                                     {"gallery_port": []}, {"gallery_port": [9002, 0]}, {"gallery_port": [9002] * 33}])
def test_a_front_is_written_only_from_sound_settings(options):
    settings = {"port": 9001, "gallery_port": 9002, "max_spectators": 100, **options}
    with pytest.raises(ProtocolError):
        gallery_front_conf(settings.pop("port"), settings.pop("gallery_port"), **settings)
