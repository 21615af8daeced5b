"""A fake SSD1680 controller on the far side of the SPI wires (which cannot run here).

It reproduces what the real chip does with the bytes the driver sends: the DC line
(read from gpiozero's MockFactory pin) splits command bytes from data bytes; a low pulse
on RST wakes the chip; ``0x12`` and ``0x20`` raise BUSY for the time the chip needs
(software reset 10 ms, refresh: the panel's full/partial time picked by the ``0x22``
option); ``0x10 0x01`` puts it into deep sleep, where it ignores everything until the
next reset; writes to ``0x24``/``0x26`` fill the two RAM banks.  Anything the real chip
would ignore or mishandle is recorded in ``violations``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class FakeClock:
    """Simulated time: ``sleep`` advances it and lets the controller update BUSY."""

    def __init__(self) -> None:
        self.now = 0.0
        self.listeners: list = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        for listener in self.listeners:
            listener(self.now)


@dataclass
class Command:
    code: int
    data: bytearray = field(default_factory=bytearray)
    at: float = 0.0


class FakeSSD1680:
    """Records the command stream and models RST, BUSY, deep sleep and the RAM banks."""

    SW_RESET_S = 0.010

    def __init__(self, factory, clock: FakeClock, *, rst: int = 17, dc: int = 25,
                 busy: int = 24, full_s: float = 2.0, partial_s: float = 0.3) -> None:
        self.factory, self.clock = factory, clock
        self.rst_pin, self.dc_pin, self.busy_pin = (factory.pin(rst), factory.pin(dc),
                                                    factory.pin(busy))
        self.full_s, self.partial_s = full_s, partial_s
        self.commands: list[Command] = []
        self.violations: list[str] = []
        self.ram: dict[int, bytes] = {}
        self.resets = 0
        self.asleep = True  # powered up: needs a reset before use
        self.busy_until: float | None = None
        self.stuck = False
        self.refreshes: list[tuple[int, bytes, bytes]] = []  # (0x22 option, RAM24, RAM26)
        self._rst_seen = 0
        self._in_reset = False
        self._update_option = None
        clock.listeners.append(self._tick)

    # the SPI side ---------------------------------------------------------
    def writebytes2(self, data) -> None:
        self._check_reset()
        data = bytes(data)
        if self.busy_pin.state:
            self.violations.append(f"bytes {data[:4].hex()} sent while BUSY")
        if self.dc_pin.state is False or self.dc_pin.state == 0:
            for code in data:
                self._command(code)
        else:
            if not self.commands:
                self.violations.append("data before any command")
                return
            self.commands[-1].data.extend(data)
            self._data(self.commands[-1])

    def close(self) -> None:
        self.closed = True

    # behaviour -------------------------------------------------------------
    def _check_reset(self) -> None:
        states = self.rst_pin.states
        for prev, cur in zip(states[self._rst_seen:], states[self._rst_seen + 1:]):
            if prev.state and not cur.state:  # RST pulled low: the reset pulse starts
                self._in_reset = True
            elif self._in_reset and not prev.state and cur.state:  # and ends
                self._in_reset = False
                self.resets += 1
                self.asleep = False
        self._rst_seen = max(len(states) - 1, 0)

    def _command(self, code: int) -> None:
        if self.asleep:
            self.violations.append(f"command 0x{code:02X} while in deep sleep (ignored)")
        self.commands.append(Command(code, at=self.clock.now))
        self._finish_ram_write()
        if code == 0x12:
            self._busy(self.SW_RESET_S)
        elif code == 0x20:
            option = self._update_option
            if option is None:
                self.violations.append("0x20 without a 0x22 update option")
            took = self.partial_s if option == 0xFF else self.full_s
            self.refreshes.append((option, self.ram.get(0x24, b""), self.ram.get(0x26, b"")))
            self._busy(took)

    def _data(self, cmd: Command) -> None:
        if cmd.code == 0x22 and cmd.data:
            self._update_option = cmd.data[0]
        elif cmd.code == 0x10 and cmd.data and cmd.data[0] & 0x03:
            self.asleep = True

    def _finish_ram_write(self) -> None:
        for cmd in self.commands[-2::-1][:1]:
            if cmd.code in (0x24, 0x26):
                self.ram[cmd.code] = bytes(cmd.data)

    def _busy(self, seconds: float) -> None:
        self.busy_until = self.clock.now + seconds
        self.busy_pin.drive_high()

    def _tick(self, now: float) -> None:
        if self.stuck:
            self.busy_pin.drive_high()
            return
        if self.busy_until is not None and now >= self.busy_until:
            self.busy_until = None
            self.busy_pin.drive_low()

    # helpers for tests -----------------------------------------------------
    def codes(self) -> list[int]:
        return [c.code for c in self.commands]

    def data_of(self, code: int) -> list[bytes]:
        return [bytes(c.data) for c in self.commands if c.code == code]

    def clear(self) -> None:
        self.commands.clear()


class FakeUC8179(FakeSSD1680):
    """The UC8179 of the 7.5" V2: BUSY is *low* while working; ``0x04`` power on and
    ``0x02`` power off take a moment, ``0x12`` refreshes (full or, between ``0x91`` and
    ``0x92``, partial), ``0x07 0xA5`` is deep sleep; ``0x10``/``0x13`` fill old/new RAM."""

    POWER_S = 0.05

    def __init__(self, factory, clock: FakeClock, **kw) -> None:
        super().__init__(factory, clock, **kw)
        self.partial_mode = False
        self.busy_pin.drive_high()  # idle

    def writebytes2(self, data) -> None:
        self._check_reset()
        data = bytes(data)
        if not self.busy_pin.state:
            self.violations.append(f"bytes {data[:4].hex()} sent while BUSY")
        if not self.dc_pin.state:
            for code in data:
                self._command(code)
        else:
            self.commands[-1].data.extend(data)
            cmd = self.commands[-1]
            if cmd.code == 0x07 and cmd.data[:1] == b"\xa5":
                self.asleep = True

    def _command(self, code: int) -> None:
        if self.asleep:
            self.violations.append(f"command 0x{code:02X} while in deep sleep (ignored)")
        self.commands.append(Command(code, at=self.clock.now))
        for cmd in self.commands[-2::-1][:1]:
            if cmd.code in (0x10, 0x13):
                self.ram[cmd.code] = bytes(cmd.data)
        if code in (0x04, 0x02):
            self._busy(self.POWER_S)
        elif code == 0x91:
            self.partial_mode = True
        elif code == 0x92:
            self.partial_mode = False
        elif code == 0x12:
            kind = 0xFF if self.partial_mode else 0xF7
            self.refreshes.append((kind, self.ram.get(0x13, b""), self.ram.get(0x10, b"")))
            self._busy(self.partial_s if self.partial_mode else self.full_s)

    def _busy(self, seconds: float) -> None:
        self.busy_until = self.clock.now + seconds
        self.busy_pin.drive_low()

    def _tick(self, now: float) -> None:
        if self.stuck:
            self.busy_pin.drive_low()
            return
        if self.busy_until is not None and now >= self.busy_until:
            self.busy_until = None
            self.busy_pin.drive_high()
