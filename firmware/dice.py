"""The electronic dice: fair dice from random bits, numbered and logged for audit.

``die(bits)`` is the one rejection sampler, on the Pico and under the unix port alike: it
takes 3 random bits (0..7) and rejects 6 and 7, so each face has probability exactly 1/6
(no modulo bias).  ``bits(n)`` is ``Hal.random_bits``: the RP2040 ring-oscillator bit,
whitened, on the Pico; the shim backs that bit with ``os.urandom`` on the unix port.

Every roll gets the next number (continuing across reboots) and is appended to the roll
log in flash: ``number die1 die2 uptime_ms`` per line, rotated at LOG_LIMIT bytes.
"""

import os

LOG_LIMIT = 65536


def die(bits) -> int:
    """One die, 1..6, by rejection sampling of 3-bit values."""
    while True:
        value = bits(3)
        if value < 6:
            return value + 1


def _last_number(path: str):
    """The number of the last roll logged in ``path``; None if there is no such file."""
    try:
        with open(path) as f:
            last = 0
            for line in f:
                parts = line.split()
                if len(parts) >= 3:
                    try:
                        last = int(parts[0])
                    except ValueError:
                        pass
            return last
    except OSError:
        return None


class Dice:
    """Rolls numbered from the log in ``folder`` (the Pico's flash)."""

    def __init__(self, bits, folder: str) -> None:
        self.bits = bits
        self.path = folder + "rolls.log"
        self.old = folder + "rolls.1.log"
        last = _last_number(self.path)
        if last is None:
            last = _last_number(self.old) or 0
        self.number = last

    def roll(self, uptime_ms: int) -> tuple:
        """``(number, die1, die2)`` of a new roll, logged in flash (a full flash only
        loses the log line, never the roll)."""
        d1 = die(self.bits)
        d2 = die(self.bits)
        self.number += 1
        line = "%d %d %d %d\n" % (self.number, d1, d2, uptime_ms)
        try:
            try:
                size = os.stat(self.path)[6]
            except OSError:
                size = 0
            if size + len(line) > LOG_LIMIT:
                try:
                    os.remove(self.old)
                except OSError:
                    pass
                os.rename(self.path, self.old)
            with open(self.path, "a") as f:
                f.write(line)
        except OSError:
            pass
        return self.number, d1, d2
