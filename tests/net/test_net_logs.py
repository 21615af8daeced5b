"""The club network's log through a real Mosquitto: the broker's start and stop, a board's
connect, and a refused message as one bounded warning line."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bgboard.net.boardlink import ClubLink
from bgboard.net.mosquitto import PrivateBroker
from bgboard.store.journal import MemoryJournal
from tests.net.conftest import start_broker
from tests.net.test_boardlink import BASE, director, settings
from tests.support import until


def test_the_private_broker_says_where_it_listens_and_when_it_stops(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="bgboard.net.mosquitto"):
        broker = start_broker(tmp_path / "broker")
        broker.stop()
    said = [r.getMessage() for r in caplog.records]
    assert said[0].startswith(f"the private broker listens on {broker.url} (mosquitto pid ")
    assert said[1:] == [f"the private broker on port {broker.port} is stopped"]


def test_a_board_logs_its_connect_and_a_refused_message_in_one_bounded_line(
        tmp_path: Path, broker: PrivateBroker, caplog: pytest.LogCaptureFixture) -> None:
    junk = b"\x1b[2J\nnot json " + b"A" * 20_000  # a terminal escape, a line break, 20 KB

    async def go() -> None:
        link = ClubLink(settings(broker), MemoryJournal())
        task = asyncio.create_task(link.run())
        await until(lambda: link.online)
        async with director(broker) as d:
            await d.publish(f"{BASE}/1/assign", junk, qos=1)
        await until(lambda: any(r.levelno == logging.WARNING for r in caplog.records))
        link.stop()
        await task

    with caplog.at_level(logging.INFO, logger="bgboard.net.boardlink"):
        asyncio.run(go())
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert (logging.INFO, f"board 1 is connected to the club broker {parse(broker)}") in said
    [refused] = [m for level, m in said if level == logging.WARNING]
    assert refused.startswith(f"ignored a message on '{BASE}/1/assign': the assign message")
    assert "\n" not in refused and "\x1b" not in refused and len(refused) < 400


def parse(broker: PrivateBroker) -> str:
    from bgboard.net.protocol import parse_broker_url

    return str(parse_broker_url(broker.url))
