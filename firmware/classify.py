"""Raw ADC counts -> slot states (empty / white / black + magnet level / fault).

A slot's state is one byte ``level << 2 | colour`` (docs/protocol.md).  The field of a
sensor in *checker units* is ``u = white_sign * (counts - empty) / swing - crowd``: about +1
for one white checker, -1 for one black, and ``1 + gain * (k - 1)`` for a stack of k magnets;
``crowd`` is the field the checkers on the other slots give the sensor (firmware/crowd.py keeps
it from the slot states: on a crowded board it is up to a quarter of a checker, enough to make a
stack read as one checker or one checker as a stack).
Thresholds, with hysteresis so a reading on a boundary does not flicker:

* occupied from |u| >= 0.5 + 0.08, empty again below 0.5 - 0.08;
* level L (2..7) from the midpoint between the fields of L-1 and L stacked magnets, +- 0.04:
  ``1 + gain * STACK_SHAPE_MILLI[L-2] / 1000`` (board.py, from the sensing physics: each
  further magnet sits 7 mm higher and adds less); a level the physics cannot tell from the one
  below has shape 0 and is never reached, so the top level reached means "that many or more";
* a reading within 512 counts of either rail is FAULT (an open or shorted sensor: the
  sensor itself never drives that close to its supply).

A slot whose COLOUR (empty / white / black / fault) changes FLICKER times or more within
WINDOW scans reads FAULT until a window passes with at most one change.  Level changes do
not count: a reading near a level boundary wobbles with noise, and the debouncer already
waits for 4 identical scans before reporting one.  The fast path is one range check per slot: the
band of counts in which the slot keeps its state.
"""

from array import array

import board
from calibration import Calibration

EMPTY = 0
WHITE = 1
BLACK = 2
FAULT = 3
MAX_LEVEL = 7

RAIL = 512
PRESENT = 0.5
PRESENT_HYSTERESIS = 0.08
LEVEL_HYSTERESIS = 0.04
UNREACHED = 1e9  # the threshold of a level the physics cannot tell
WINDOW = 50
FLICKER = 6


class Classifier:
    def __init__(self, cal: Calibration, count: int) -> None:
        self.count = count
        self.states = bytearray(count)  # classified, before the flicker override
        self.out = bytearray(count)  # what the debouncer sees
        self.flips = bytearray(count)
        self.flicker = bytearray(count)
        # the band of counts keeping each sensor's state; lo > hi forces the slow path
        self.lo = array("H", bytes(2 * count))
        self.hi = array("H", bytes(2 * count))
        self.changed = set()  # slots whose ``out`` changed since the debouncer last looked
        self.crowd = array("h", bytes(2 * count))  # the other slots' field, 1/CROWD_SCALE of a checker
        self.fresh = bytearray(count)  # the crowd changed: the next level is decided afresh
        self.scans = 0
        self.set_calibration(cal)

    def set_calibration(self, cal: Calibration) -> None:
        """Use ``cal`` from the next scan on (every slot takes the slow path once)."""
        self.cal = cal
        gain = cal.stack_gain_milli / 1000
        # threshold[L], hysteresis[L] for L = 1..MAX_LEVEL (index 0 unused)
        shape = board.STACK_SHAPE_MILLI
        self.threshold = [0.0, PRESENT] + [1 + gain * shape[level - 2] / 1000 if shape[level - 2] else UNREACHED
                                           for level in range(2, MAX_LEVEL + 1)]
        self.hysteresis = [0.0, PRESENT_HYSTERESIS] + [LEVEL_HYSTERESIS] * (MAX_LEVEL - 1)
        self.afresh = [0.0, PRESENT_HYSTERESIS] + [0.0] * (MAX_LEVEL - 1)  # levels from the midpoints
        for s in range(self.count):
            self.lo[s], self.hi[s] = 1, 0  # force the slow path once

    def add_crowd(self, s: int, field: int) -> None:
        """Sensor ``s`` gets ``field`` (1/CROWD_SCALE of a checker, white positive) more from
        the checkers around it; it is classified afresh at the next scan, its stack level from the
        midpoints (a level held by hysteresis was decided on the field before)."""
        self.crowd[s] += field
        self.fresh[s] = 1
        self.lo[s], self.hi[s] = 1, 0

    def level_of(self, units: float, previous: int, h=None) -> int:
        """The level for a field of ``units`` (>= 0) coming from level ``previous`` (``h``:
        the hysteresis of each level, the classifier's by default)."""
        t = self.threshold
        if h is None:
            h = self.hysteresis
        level = previous
        while level < MAX_LEVEL and units >= t[level + 1] + h[level + 1]:
            level += 1
        while level > 0 and units < t[level] - h[level]:
            level -= 1
        return level

    def classify(self, s: int, counts: int) -> int:
        """The state of slot ``s`` for ``counts``, from its current state (slow path)."""
        if counts <= RAIL or counts >= 65535 - RAIL:
            return FAULT
        cal = self.cal
        u = cal.white_sign * (counts - cal.empty[s]) / cal.swing[s] - self.crowd[s] / board.CROWD_SCALE
        colour = WHITE if u > 0 else BLACK
        previous = self.states[s]
        level = previous >> 2 if previous & 3 == colour else 0
        if self.fresh[s]:
            self.fresh[s] = 0
            level = self.level_of(abs(u), level, self.afresh)
        else:
            level = self.level_of(abs(u), level)
        return level << 2 | colour if level else EMPTY

    def _band(self, s: int, state: int, counts: int) -> tuple:
        """The counts (lo, hi) within which slot ``s`` keeps ``state`` (conservative)."""
        if state == FAULT:
            return (0, RAIL) if counts <= RAIL else (65535 - RAIL, 65535)
        cal = self.cal
        w = cal.swing[s]
        e = cal.empty[s] + cal.white_sign * self.crowd[s] * w / board.CROWD_SCALE
        level = state >> 2
        t = self.threshold
        h = self.hysteresis
        if level == 0:
            a = (t[1] + h[1]) * w
            lo, hi = int(e - a) + 2, int(e + a) - 2
        else:
            xlo = (t[level] - h[level]) * w
            xhi = (t[level + 1] + h[level + 1]) * w if level < MAX_LEVEL and t[level + 1] < UNREACHED else 70000
            d = cal.white_sign if state & 3 == WHITE else -cal.white_sign
            if d > 0:
                lo, hi = int(e + xlo) + 2, int(e + xhi) - 2
            else:
                lo, hi = int(e - xhi) + 2, int(e - xlo) - 2
        if lo <= RAIL:
            lo = RAIL + 1
        if hi >= 65535 - RAIL:
            hi = 65534 - RAIL
        return lo, hi

    def classify_all(self, raw) -> bytearray:
        """Classify one scan (``raw[s]`` counts); returns ``out``, the states to debounce."""
        lo = self.lo
        hi = self.hi
        states = self.states
        out = self.out
        for s in range(self.count):
            r = raw[s]
            if lo[s] <= r <= hi[s]:
                continue
            new = self.classify(s, r)
            old = states[s]
            if new != old:
                states[s] = new
                if (new ^ old) & 3 and self.flips[s] < 255:
                    self.flips[s] += 1
                if not self.flicker[s]:
                    out[s] = new
                    self.changed.add(s)
            lo[s], hi[s] = self._band(s, new, r)
        self.scans += 1
        if self.scans % WINDOW == 0:
            self._check_flicker()
        return out

    def _check_flicker(self) -> None:
        """At the end of a window: flag slots that flickered, release calm ones."""
        flips = self.flips
        for s in range(self.count):
            n = flips[s]
            if n >= FLICKER and not self.flicker[s]:
                self.flicker[s] = 1
                self.out[s] = FAULT
                self.changed.add(s)
            elif n <= 1 and self.flicker[s]:
                self.flicker[s] = 0
                self.out[s] = self.states[s]
                self.changed.add(s)
            flips[s] = 0
