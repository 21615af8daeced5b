"""The serial link's log over a real pty: a lost port is one warning (its OS detail at
DEBUG from the transport), the reconnect is said at INFO."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bgboard.link.connection import Connected, LinkEvent, Lost
from bgboard.link.backoff import Backoff
from bgboard.link.reconnect import Link
from bgboard.link.transport import open_serial
from tests.control.fakeboard import FakeBoard
from tests.control.guard import no_leftover_tasks  # noqa: F401  (autouse)
from tests.link.test_connection import FAST
from tests.support import until


def test_a_lost_port_is_one_warning_and_the_reconnect_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        board = FakeBoard(tmp_path / "bgboard")
        events: list[LinkEvent] = []
        link = Link(lambda: open_serial(str(board.path)), events.append, backoff=Backoff(0.05, 0.2, jitter=0), timing=FAST,
                    port=str(board.path))
        task = asyncio.create_task(link.run())
        board.plug()
        board.boot()
        await until(lambda: link.connection is not None and link.connection.in_sync)
        board.unplug()  # the cable is pulled
        await until(lambda: isinstance(events[-1], Lost))
        board.plug()
        board.boot()
        await until(lambda: sum(isinstance(e, Connected) for e in events) == 2)
        link.stop()
        await asyncio.wait_for(task, 30)
        board.unplug()

    with caplog.at_level(logging.DEBUG, logger="bgboard.link"):
        asyncio.run(main())
    port = str(tmp_path / "bgboard")
    records = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    lost = [m for name, level, m in records if level >= logging.WARNING and "lost" in m]
    assert len(lost) == 1 and lost[0].startswith(f"board lost: the board on {port} was disconnected"), records
    assert ("bgboard.link.transport", logging.DEBUG) in {(n, lv) for n, lv, m in records if f"the board port {port} was lost" in m}
    said = [m for name, level, m in records if name == "bgboard.link.reconnect" and level == logging.INFO]
    assert said[0] == f"opened {port}" and f"reconnected to {port}" in said
    assert any(m.startswith(f"reconnecting to the board on {port} in ") for m in said)
    assert all("\n" not in m for _, _, m in records)
