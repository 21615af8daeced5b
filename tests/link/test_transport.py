"""The serial transport over a real pty: bytes both ways, a vanished port, one-sentence errors."""

from __future__ import annotations

import asyncio
import os
import tty
from pathlib import Path

import pytest

from bgboard.link.transport import PortLostError, PortUnavailableError, open_serial
from tests.control.guard import no_leftover_tasks  # noqa: F401  (autouse)


def test_bytes_go_both_ways_unchanged_and_a_vanished_port_is_reported() -> None:
    async def main() -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        port = await open_serial(os.ttyname(slave))
        every_byte = bytes(range(256))  # 0x03, 0x0d, 0x11 ... must pass untouched
        os.write(master, every_byte)
        got = b""
        while len(got) < 256:
            got += await asyncio.wait_for(port.read(), 30)
        assert got == every_byte
        port.write(every_byte)
        echoed = b""
        while len(echoed) < 256:
            await asyncio.sleep(0.01)
            echoed += os.read(master, 4096)
        assert echoed == every_byte
        os.close(master)  # the cable is pulled
        os.close(slave)
        with pytest.raises(PortLostError, match="was disconnected"):
            for _ in range(10):
                await asyncio.wait_for(port.read(), 30)
        port.write(b"dropped")  # writing to a lost port is harmless
        await port.close()
        await port.close()
        with pytest.raises(PortLostError, match="is closed"):
            await port.read()

    asyncio.run(main())


def test_a_missing_port_is_one_sentence(tmp_path: Path) -> None:
    async def main() -> None:
        with pytest.raises(PortUnavailableError) as caught:
            await open_serial(str(tmp_path / "ttyACM9"))
        assert str(caught.value) == f"the board port {tmp_path / 'ttyACM9'} cannot be opened (No such file or directory)"

    asyncio.run(main())
