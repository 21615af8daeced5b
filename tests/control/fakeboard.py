"""The device end of a real pty speaking the real wire protocol (test helper).

Frames are built and parsed with the shared codec (``bgboard.link.frames``/``messages``),
exactly as the firmware's golden frames are.  Only the sensors and dice are scripted:
``states`` is what the slots read, ``roll()`` sends a ROLL.  Faults on demand: raw bytes,
skipped sequence numbers, silence, reboots, unplugging (closing the pty) and replugging.
"""

from __future__ import annotations

import asyncio
import os
import tty
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bgboard.sense.slots import SlotMap

from bgboard.link.frames import Frame, FrameDecoder, SequenceCounter, encode_frame
from bgboard.link.messages import (
    Ack,
    Changes,
    Heartbeat,
    Hello,
    Reboot,
    RequestSnapshot,
    Roll,
    SetLeds,
    SetRolling,
    SlotChange,
    Snapshot,
    decode,
    encode,
    to_frame,
)


class FakeBoard:
    """A board on a pty (see the module docstring).  ``path`` is a symlink that points at the
    current pty, like udev's /dev/bgboard; it is missing while the board is unplugged."""

    def __init__(self, path: Path, slots: int = 138, protocol: int = 1) -> None:
        self.path = path
        self.states = [0] * slots
        self.protocol = protocol
        self.received: list[object] = []
        self.ack = True
        self.answer_snapshots = True
        self.boot_on_reset = True
        self.rolling = False
        self.leds: tuple = ()
        self.roll_number = 0
        self._seq = SequenceCounter()
        self._decoder = FrameDecoder()
        self._master: int | None = None
        self._slave: int | None = None

    # ------------------------------------------------------------------ cable
    def plug(self) -> None:
        """Create a pty and point ``path`` at it."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: a serial line
        self._master, self._slave = master, slave
        os.set_blocking(master, False)
        if self.path.is_symlink():
            self.path.unlink()
        self.path.symlink_to(os.ttyname(slave))
        self._decoder = FrameDecoder()
        asyncio.get_running_loop().add_reader(master, self._readable)

    def unplug(self) -> None:
        """Remove the device: the host's port fails and ``path`` disappears."""
        if self._master is None:
            return
        asyncio.get_running_loop().remove_reader(self._master)
        if self.path.is_symlink():
            self.path.unlink()
        os.close(self._master)
        assert self._slave is not None
        os.close(self._slave)
        self._master = self._slave = None

    # ------------------------------------------------------------------ sending
    def send(self, message: object, *, skip: int = 0) -> None:
        """Send a message (``skip`` sequence numbers first: frames lost on the way)."""
        for _ in range(skip):
            self._seq.next()
        self.raw(encode(message, self._seq.next()))  # type: ignore[arg-type]

    def raw(self, data: bytes) -> None:
        """Write bytes as they are."""
        if self._master is not None:
            os.write(self._master, data)

    def corrupt(self, message: object) -> None:
        """Send a frame with one payload byte flipped (its checksum no longer matches)."""
        frame = encode_frame(to_frame(message, self._seq.next()))  # type: ignore[arg-type]
        broken = bytearray(frame)
        broken[8] ^= 0x40
        self.raw(bytes(broken))

    def boot(self) -> None:
        """Power on / reboot: HELLO (sequence restarts) and a boot SNAPSHOT."""
        self._seq = SequenceCounter()
        self.send(Hello(self.protocol, len(self.states), 0, "fake 1.0"))
        self.send(Snapshot(0, tuple(self.states)))

    def change(self, slot: int, state: int, **kw: int) -> None:
        """A slot settles on a new state."""
        self.states[slot] = state
        self.send(Changes((SlotChange(slot, state),)), **kw)

    def roll(self, dice: tuple[int, int]) -> None:
        """The dice button rolls."""
        self.roll_number += 1
        self.send(Roll(self.roll_number, dice))

    def heartbeat(self) -> None:
        """One heartbeat."""
        self.send(Heartbeat(0, 0, self.roll_number, self.rolling))

    # ------------------------------------------------------------------ receiving
    def _readable(self) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, 4096)
        except OSError:
            return
        for item in self._decoder.feed(data):
            if not isinstance(item, Frame):
                continue
            message = decode(item)
            self.received.append(message)
            if isinstance(message, Reboot):
                if self.boot_on_reset:
                    self.boot()
                continue
            if self.ack:
                self.send(Ack(item.seq, item.kind))
            if isinstance(message, RequestSnapshot) and self.answer_snapshots:
                self.send(Snapshot(1, tuple(self.states)))
            elif isinstance(message, SetRolling):
                self.rolling = message.enabled
            elif isinstance(message, SetLeds):
                self.leds = message.leds


def slot_states(board: tuple[int, ...] | list[int], grid: "SlotMap") -> list[int]:
    """The slot states a physical board (28 signed counts) produces on ``grid``: one checker
    per slot from the base, a taller stack on the last slot (its level = magnets, max 7)."""
    from bgboard.link.messages import slot_state

    states = [0] * grid.count
    for place, wires in enumerate(grid.places, start=1):
        n = board[place - 1]
        colour = 1 if n > 0 else 2
        for i, wire in enumerate(wires):
            if i < abs(n):
                level = 1 if i < len(wires) - 1 else min(7, abs(n) - i)
                states[wire] = slot_state(colour, level)
    return states
