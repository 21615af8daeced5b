"""A real Mosquitto for the club network tests: a private broker on a free localhost port of
the test's own xdist worker (tests.support.worker_port),
configured as the club's broker is (password file hashed by mosquitto_passwd, the ACL of
bgboard.net.broker).  A test that needs it FAILS when Mosquitto is not installed
(tools/test-services installs it)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from bgboard.net.mosquitto import BrokerMissingError, PrivateBroker, PrivateGallery
from tests.support import worker_port

CLUB = "testclub"
BOARDS = tuple(range(1, 9))


def start_broker(root: Path, boards: tuple[int, ...] = BOARDS) -> PrivateBroker:
    try:
        broker = PrivateBroker(root, CLUB, boards, port=worker_port())
    except BrokerMissingError as exc:
        pytest.fail(f"{exc} — these tests run the real broker")
    broker.start(timeout=60)   # at once; the bound only against a loaded machine
    return broker


def start_broker_and_gallery(root: Path) -> tuple[PrivateBroker, PrivateGallery]:
    """A club broker (``root/broker``) and its spectators' gallery bridged to it
    (``root/gallery``), both started; the caller stops the gallery and kills the broker."""
    broker = start_broker(root / "broker")
    gallery = broker.gallery(root / "gallery")
    try:
        gallery.start(timeout=60)
    except BaseException:
        broker.kill()
        raise
    return broker, gallery


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[PrivateBroker]:
    b = start_broker(tmp_path / "broker")
    yield b
    b.kill()
