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

from bgboard.net.gallery import gallery_front_conf, room_topic
from bgboard.net.mosquitto import free_port
from bgboard.net.protocol import ProtocolError
from tests.net.conftest import CLUB
from tests.net.test_gallery import WAIT_S, bridged, club, until  # noqa: F401 (the fixture)

PER_ADDRESS = 4


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
    if found is None:
        pytest.fail("HAProxy is not installed: tools/test-services installs Debian's haproxy")
    return found


def start_front(root: Path, gallery_port: int) -> tuple["subprocess.Popen[bytes]", int]:
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


@pytest.mark.parametrize("options", [{"port": 0}, {"gallery_port": 70000}, {"per_address": 0},
                                     {"per_address": 101}, {"address": "0.0.0.0\n    bind *:80"}])
def test_a_front_is_written_only_from_sound_settings(options):
    settings = {"port": 9001, "gallery_port": 9002, "max_spectators": 100, **options}
    with pytest.raises(ProtocolError):
        gallery_front_conf(settings.pop("port"), settings.pop("gallery_port"), **settings)
