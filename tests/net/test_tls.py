"""mqtts://: a board reaches the club broker over TLS with the club's own CA certificate, and
does not connect to it without (the certificate is checked)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from bgboard.net.boardlink import ClubLink, LinkSettings
from bgboard.net.broker import board_user
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.protocol import parse_broker_url
from bgboard.store.journal import MemoryJournal
from tests.net.conftest import CLUB
from tests.support import until, worker_port


@pytest.mark.slow
def test_a_board_connects_over_tls_only_with_the_clubs_certificate(tmp_path: Path) -> None:
    cert, key = tmp_path / "broker.crt", tmp_path / "broker.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    broker = PrivateBroker(tmp_path / "broker", CLUB, [1], tls=(cert, key), port=worker_port())
    broker.start()
    assert broker.url.startswith("mqtts://")

    async def online(ca_file: str) -> tuple[bool, str]:
        """Whether the link's first attempt brings it online, and its error when it fails."""
        s = LinkSettings(parse_broker_url(broker.url), CLUB, 1, board_user(1), broker.password(board_user(1)),
                         ca_file=ca_file, backoff_first_s=0.1, backoff_most_s=0.3)
        link = ClubLink(s, MemoryJournal())
        task = asyncio.create_task(link.run())
        try:
            await until(lambda: link.online or bool(link.last_error), 60)  # at once; 60 s against a loaded machine
            return link.online, link.last_error
        finally:
            link.stop()
            await task

    try:
        assert asyncio.run(online(str(cert)))[0]
        up, error = asyncio.run(online(""))  # the system's CAs do not vouch for the club's own certificate
        assert not up and "certificate" in error.lower(), error
    finally:
        broker.kill()
