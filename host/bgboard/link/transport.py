"""The serial transport of the board link (an adapter): bytes in and out of the Pico's USB
serial port, on asyncio with pyserial-asyncio-fast.

:func:`open_serial` opens a port (a device path such as ``/dev/bgboard`` or ``/dev/ttyACM0``,
a pty in tests, or any pyserial URL that works with asyncio such as ``socket://``) and
returns a :class:`SerialPort`.  Anything with the same three methods (:class:`Port`) can
stand in for it: the board simulator passes its own.

Failures are one sentence for the players: :class:`PortUnavailableError` when the port
cannot be opened (unplugged, no permission), :class:`PortLostError` when it vanishes.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Protocol

from bgboard.errors import EnvironmentFailure, shown

log = logging.getLogger(__name__)

BAUDRATE = 115_200
READ_SIZE = 4096


class PortUnavailableError(EnvironmentFailure):
    """The serial port cannot be opened (the message says which and why)."""


class PortLostError(EnvironmentFailure):
    """The serial port went away while in use (the board was unplugged or reset)."""


class Port(Protocol):
    """A byte stream to the board."""

    async def read(self) -> bytes:
        """The next bytes (at least one); raises :class:`PortLostError` when the port is gone."""
        ...

    def write(self, data: bytes) -> None:
        """Queue ``data`` for sending (never blocks)."""
        ...

    async def close(self) -> None:
        """Close the port (idempotent)."""
        ...


class SerialPort:
    """A :class:`Port` over an asyncio stream pair from pyserial-asyncio-fast."""

    def __init__(self, name: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.name = name
        self._reader = reader
        self._writer = writer
        self._closed = False

    async def read(self) -> bytes:
        """The next bytes; :class:`PortLostError` when the port is gone."""
        if self._closed:
            raise PortLostError(f"the board port {self.name} is closed")
        try:
            data = await self._reader.read(READ_SIZE)
        except OSError as exc:  # pyserial's SerialException is an OSError
            log.debug("the board port %s was lost: %s", self.name, shown(exc))  # the link warns once
            raise PortLostError(f"the board on {self.name} was disconnected") from None
        if not data:
            log.debug("the board port %s was lost: it reached its end (unplugged or reset)", self.name)
            raise PortLostError(f"the board on {self.name} was disconnected")
        return data

    def write(self, data: bytes) -> None:
        """Queue ``data``; a write to a vanished port is dropped (the reader reports the loss)."""
        if self._closed or self._writer.is_closing():
            return
        try:
            self._writer.write(data)
        except (OSError, RuntimeError) as exc:
            log.debug("a write of %d bytes to %s was dropped: %s", len(data), self.name, shown(exc))

    async def close(self) -> None:
        """Close the port (idempotent)."""
        if self._closed:
            return
        self._closed = True
        log.debug("the board port %s is closed", self.name)
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except OSError:  # the port may already be gone
            pass


async def open_serial(name: str, baudrate: int = BAUDRATE) -> SerialPort:
    """Open the board's serial port ``name``; :class:`PortUnavailableError` if it cannot be."""
    import serial
    import serial_asyncio_fast

    try:
        reader, writer = await serial_asyncio_fast.open_serial_connection(url=name, baudrate=baudrate)
    except (OSError, serial.SerialException, ValueError) as exc:
        code = getattr(exc, "errno", None)
        reason = os.strerror(code) if isinstance(code, int) else (str(exc) or type(exc).__name__)
        log.debug("the board port %s cannot be opened: %s", name, shown(exc))
        raise PortUnavailableError(f"the board port {name} cannot be opened ({reason})") from None
    log.debug("the board port %s is open at %d baud", name, baudrate)
    return SerialPort(name, reader, writer)
