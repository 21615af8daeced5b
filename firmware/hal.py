"""The hardware of the Pico, and the ONLY module that imports ``machine``.

Everything else (scanning, classification, debouncing, dice, LEDs, calibration, the link)
gets pins, ADCs, the clock, random bits, the LED writer and the serial port from a
:class:`Hal`, so it runs anywhere.  Under the MicroPython unix port ``firmware/sim/machine.py``
stands in for ``machine`` (see firmware/sim/README.md); it exposes a ``SIM`` object for the
few things a Pico does not have (a virtual clock, injected serial bytes, a flash directory).
"""

import select
import sys
import time

import machine
import micropython

import board

ROSC_RANDOMBIT = 0x4006001C  # RP2040 ring oscillator: one random bit in bit 0

_SIM = getattr(machine, "SIM", None)


class Hal:
    """The Pico: multiplexer pins, ADCs, dice button, LED strip, status LED, clock, random
    bits, flash and the USB serial port (stdin/stdout)."""

    def __init__(self) -> None:
        Pin = machine.Pin
        # the Pico's regulator in PWM mode: less ripple on the 3.3 V the ADC measures against
        self.smps = Pin(board.SMPS_MODE, Pin.OUT, value=1)
        # every line to the strips and the dice starts high-Z: driven only with the 5 V supply
        # present (supply()), or a Pico on USB alone would feed the unpowered strips through
        # their multiplexers' clamp diodes and the ESD arrays' diodes to +5V
        self.sense = Pin(board.SUPPLY_SENSE, Pin.IN)
        self.select = [Pin(n, Pin.IN) for n in board.MUX_SELECT]
        self.enable = [Pin(n, Pin.IN) for n in board.MUX_ENABLE]
        self.adcs = [machine.ADC(Pin(n)) for n in board.MUX_ADC]
        self.button = Pin(board.DICE_BUTTON, Pin.IN)
        self.status = Pin(board.STATUS_LED, Pin.OUT, value=0)
        self._data = Pin(board.LED_DATA, Pin.IN)
        import neopixel

        self._strip = neopixel.NeoPixel(self._data, board.LED_COUNT)
        # released first, whatever a constructor left (MicroPython's NeoPixel makes its pin an
        # output); supply() then drives them if the supply is there
        self._drive(False)
        self.supply()
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._closed = False
        self.flash = _SIM.flash_dir if _SIM is not None else ""
        # the scan waits for the multiplexers to settle 100 times a scan: the clock's own
        # sleep_us is handed over, not a method that chooses it on every call (under the unix
        # port that choice was half of a scan's time)
        self.sleep_us = _SIM.sleep_us if _SIM is not None else time.sleep_us

    # --- clock ---------------------------------------------------------------------
    def ticks_ms(self):
        """Milliseconds, wrapping: compare with :meth:`ticks_diff`."""
        return _SIM.ticks_ms() if _SIM is not None else time.ticks_ms()

    def ticks_diff(self, a, b) -> int:
        """``a - b`` across the wrap-around."""
        return time.ticks_diff(a, b)

    def ticks_add(self, a, delta: int):
        """``a + delta`` in ticks arithmetic (wraps like ``ticks_ms``)."""
        return time.ticks_add(a, delta)

    def sleep_ms(self, ms: int) -> None:
        if _SIM is not None:
            _SIM.sleep_ms(ms)
        else:
            time.sleep_ms(ms)

    def running(self) -> bool:
        """False when the simulation says stop; always True on a Pico."""
        return _SIM.running if _SIM is not None else True

    # --- the 5 V supply -------------------------------------------------------------
    def supply(self) -> bool:
        """True while the 5 V supply is present (pins.toml [pico.power] supply_sense); the
        lines to the strips and the dice follow it: driven (enables off, select 0, the LED
        data low, the button pulled up) when it comes, high-Z with no pull when it goes."""
        present = self.sense.value() == 1
        if present != self.powered:
            self._drive(present)
        return present

    def _drive(self, on: bool) -> None:
        Pin = machine.Pin
        if on:
            for pin in self.select:
                pin.init(Pin.OUT, value=0)
            for pin in self.enable:
                pin.init(Pin.OUT, value=1)
            self._data.init(Pin.OUT, value=0)
            self.button.init(Pin.IN, Pin.PULL_UP)
        else:  # no pull either: the rp2 port sets the pull on every init, none when not given
            for pin in self.select + self.enable + [self._data, self.button]:
                pin.init(Pin.IN)
        self.powered = on

    # --- inputs --------------------------------------------------------------------
    def button_pressed(self) -> bool:
        """True while the dice button is held (active low); never without the supply."""
        return self.powered and self.button.value() == 0

    def random_bits(self, n: int) -> int:
        """``n`` random bits from the ROSC random bit, whitened by von Neumann's rule
        (a pair 01 gives 0, 10 gives 1, 00 and 11 are dropped): no bias from a stuck-ish bit."""
        mem = machine.mem32
        value = 0
        got = 0
        while got < n:
            a = mem[ROSC_RANDOMBIT] & 1
            b = mem[ROSC_RANDOMBIT] & 1
            if a != b:
                value = (value << 1) | a
                got += 1
        return value

    # --- outputs -------------------------------------------------------------------
    def write_leds(self, pixels: list) -> None:
        """Send ``pixels`` ``[(r, g, b), ...]`` to the strip (not without the supply: the
        data line stays high-Z)."""
        if not self.powered:
            return
        strip = self._strip
        for i in range(len(pixels)):
            strip[i] = pixels[i]
        strip.write()

    def set_status(self, on: int) -> None:
        self.status.value(1 if on else 0)

    # --- serial --------------------------------------------------------------------
    def serial_read(self) -> "bytes | None":
        """Bytes the host sent (maybe empty), or None when the port closed."""
        data = b""
        if _SIM is not None:
            data = _SIM.take_injected()
            if _SIM.virtual:
                return data
        if self._closed:
            return None
        got = bytearray(data)
        try:
            while len(got) < 600 and self._poll.poll(0):
                byte = self._in.read(1)
                if not byte:
                    self._closed = True
                    break
                got += byte
        except OSError:  # the port went away (a closed pty under the unix port)
            self._closed = True
        if self._closed and not got:
            return None
        return bytes(got)

    def serial_write(self, data: bytes) -> None:
        self._out.write(data)

    # --- system --------------------------------------------------------------------
    def keyboard_interrupt(self, enabled: bool) -> None:
        """Ctrl-C (0x03) on the serial port interrupts only when ``enabled``."""
        micropython.kbd_intr(3 if enabled else -1)

    def reset(self) -> None:
        """Reset the Pico (the shim exits with code 75)."""
        machine.reset()
