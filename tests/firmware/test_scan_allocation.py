"""The firmware's scan allocates nothing, under the real MicroPython unix port: a garbage
collection on the Pico would stall the 10 ms scan (issue 33).

The real :class:`controller.Controller` scans through pins and ADCs that allocate nothing
themselves (the machine shim in firmware/sim keeps a simulated field and allocates as it
goes, so it would hide the firmware's own figure): ``gc.mem_alloc()`` is read around 1,000
steady scans and 1,000 scans of whole-board changes (every sensor between empty, one white
checker and a black stack, every 12 scans: each change settles, moves the crowd's field and
takes the classifier's slow path).

The bound for changes is 0 bytes as well: the classifier's slow path is integer arithmetic,
the run rule, the crowd and the debouncer work in arrays made at start-up, and the settled
slots are left in ``Debouncer.settled``.  Only *reporting* a change allocates (the CHANGES
frames for the serial port are new bytes): that is outside the scan, once per report, and
its bound is checked here too — at most 96 bytes a reported slot (see REPORT_BOUND).
"""

from __future__ import annotations

from pathlib import Path

from fwrun import run_script

SCRIPT = r'''
import gc
from array import array

import board
from controller import Controller

LEVEL = array("H", [32768])


class Pin:
    def __init__(self):
        self.level = 0

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


class Adc:
    """Every sensor reads ``LEVEL[0]`` (the positions below are whole-board ones)."""
    def read_u16(self):
        return LEVEL[0]


class Hal:
    """What Controller needs, allocating nothing on the scan's path."""
    def __init__(self):
        self.select = [Pin() for _ in board.MUX_SELECT]
        self.enable = [Pin() for _ in board.MUX_ENABLE]
        self.adcs = [Adc() for _ in board.MUX_ADC]
        self.flash = "/nonexistent-bgboard-flash/"  # no calibration file: the defaults; no roll is made
        self.sent = 0

    def sleep_us(self, us):
        pass

    def sleep_ms(self, ms):
        pass

    def supply(self):
        return True

    def ticks_ms(self):
        return 0

    def ticks_diff(self, a, b):
        return a - b

    def random_bits(self, n):
        return 0

    def write_leds(self, data):
        pass

    def serial_write(self, data):
        self.sent += len(data)


hal = Hal()
controller = Controller(hal)
scan = controller.scan
controller.boot()
EMPTY = 32768
WHITE = 32768 + board.SWING
STACK = 32768 - 2 * board.SWING  # a black stack
LEVELS = (EMPTY, WHITE, STACK)  # made here: a tuple built in the loop would be counted
PERIOD = 12  # scans between changes: fewer than FLICKER colour changes in a WINDOW of scans


def feed(level):
    LEVEL[0] = level


def steady():
    feed(EMPTY)
    for _ in range(10):
        scan()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(1000):
        scan()
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def changing(report):
    feed(EMPTY)
    for _ in range(10):
        scan()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    settled = 0
    for i in range(1000):
        if i % PERIOD == 0:
            feed(LEVELS[(i // PERIOD) % 3])
        n = scan()
        settled += n
        if report and n:
            for data in controller.encoder.changes(controller.debouncer.changes(n)):
                hal.serial_write(data)
    used = gc.mem_alloc() - before
    gc.enable()
    return used, settled


print("steady", steady())
used, settled = changing(False)
print("changing", used, settled)
used, settled = changing(True)
print("reported", used, settled)
'''

#: bytes allocated per reported slot when a scan's settled changes are encoded for the wire
#: (outside the scan): its (slot, state) pair (a 2-tuple, 32 bytes on this 64-bit port) and
#: list entry (8), its 3 bytes in the CHANGES body, the body's copy into bytes and the framed
#: copy with its CRC (3 bytes each, in 16-byte heap blocks shared by the frame's slots).
#: Measured: 75 bytes a slot over 11,454 reported slots; objects are about half as big on the
#: RP2040's 32-bit port.
REPORT_BOUND = 96


def test_scans_allocate_nothing_steady_or_changing(tmp_path: Path) -> None:
    done = run_script(SCRIPT, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.strip().splitlines())
    assert lines["steady"] == "0", done.stdout
    used, settled = (int(w) for w in lines["changing"].split())
    assert settled > 1000, done.stdout  # the changes did settle: every slot, many times
    assert used == 0, done.stdout
    used, settled = (int(w) for w in lines["reported"].split())
    assert settled > 1000
    assert 0 < used <= REPORT_BOUND * settled, done.stdout
