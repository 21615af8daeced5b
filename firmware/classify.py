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
  further magnet sits 7 mm higher and adds less; the midpoint of the most field L-1 give and
  the least L give, set down a player's few millimetres off the sensor: the host's
  bgboard.hardware.physics.level_shape); a level the physics cannot tell from the one below
  has shape 0 and is never reached, so the top level reached means "that many or more";
* a reading within 512 counts of either rail is FAULT (an open or shorted sensor: the
  sensor itself never drives that close to its supply).

A slot whose COLOUR (empty / white / black / fault) changes FLICKER times or more within
WINDOW scans reads FAULT until a window passes with at most one change.  Level changes do
not count: a reading near a level boundary wobbles with noise, and the debouncer already
waits for 4 identical scans before reporting one.  The fast path is one range check per slot: the
band of counts in which the slot keeps its state.

The slow path is integer arithmetic too (a float is an allocation on the Pico, and a garbage
collection would stall the scan): fields are held in ``q``, 1/CROWD_SCALE of a checker (the
crowd's unit), ``u_q = floor(white_sign * (counts - empty) * CROWD_SCALE / swing) - crowd``, and
the thresholds are rounded to whole ``q`` (1/8000 of a checker: under a tenth of an ADC count
at the default swing).  Every product stays below 2**30, a small int on the RP2040.  Nothing is
allocated after ``__init__`` / ``set_calibration``: the slots that changed are kept in an array.
"""

from array import array

import board
from calibration import Calibration

try:
    from micropython import const
except ImportError:  # CPython (the host's tests run the classifier too)
    def const(__expr):  # (positional-only, as micropython's)
        return __expr

EMPTY = const(0)
WHITE = const(1)
BLACK = const(2)
FAULT = const(3)
MAX_LEVEL = const(7)

RAIL = const(512)
# the thresholds in checker units (hardware/physics.py has the same: a test compares them)
PRESENT = 0.5
PRESENT_HYSTERESIS = 0.08
LEVEL_HYSTERESIS = 0.04
_UNREACHED = const(1 << 24)  # the threshold (q) of a level the physics cannot tell
WINDOW = const(50)
FLICKER = const(6)


def _q(units: float) -> int:
    """``units`` of a checker in q (1/CROWD_SCALE of a checker), rounded."""
    return int(units * board.CROWD_SCALE + 0.5)


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
        # the sensors whose ``out`` changed since the last clear_changed(): changed[:n_changed]
        self.changed = array("H", bytes(2 * count))
        self.n_changed = 0
        self.marked = bytearray(count)
        self.crowd = array("h", bytes(2 * count))  # the other slots' field, 1/CROWD_SCALE of a checker
        self.fresh = bytearray(count)  # the crowd changed: the next level is decided afresh
        self.scans = 0
        self.set_calibration(cal)

    def set_calibration(self, cal: Calibration) -> None:
        """Use ``cal`` from the next scan on (every slot takes the slow path once)."""
        self.cal = cal
        scale = board.CROWD_SCALE
        # threshold[L], hysteresis[L] for L = 1..MAX_LEVEL (index 0 unused), in q:
        # 1 + gain * shape / 1000 checkers, gain = stack_gain_milli / 1000 (rounded to a q)
        shape = board.STACK_SHAPE_MILLI
        self.threshold = [0, _q(PRESENT)] + [
            (scale * (1000000 + cal.stack_gain_milli * shape[level - 2]) + 500000) // 1000000
            if shape[level - 2] else _UNREACHED
            for level in range(2, MAX_LEVEL + 1)
        ]
        self.hysteresis = [0, _q(PRESENT_HYSTERESIS)] + [_q(LEVEL_HYSTERESIS)] * (MAX_LEVEL - 1)
        self.afresh = [0, _q(PRESENT_HYSTERESIS)] + [0] * (MAX_LEVEL - 1)  # levels from the midpoints
        for s in range(self.count):
            self.lo[s], self.hi[s] = 1, 0  # force the slow path once

    def _mark(self, s: int) -> None:
        if not self.marked[s]:
            self.marked[s] = 1
            self.changed[self.n_changed] = s
            self.n_changed += 1

    def clear_changed(self) -> None:
        """Forget the changed sensors (once the run rule has seen them)."""
        for i in range(self.n_changed):
            self.marked[self.changed[i]] = 0
        self.n_changed = 0

    def add_crowd(self, s: int, field: int) -> None:
        """Sensor ``s`` gets ``field`` (1/CROWD_SCALE of a checker, white positive) more from
        the checkers around it; it is classified afresh at the next scan, its stack level from the
        midpoints (a level held by hysteresis was decided on the field before)."""
        self.crowd[s] += field
        self.fresh[s] = 1
        self.lo[s], self.hi[s] = 1, 0

    def level_of(self, units: int, previous: int, h=None) -> int:
        """The level for a field of ``units`` q (>= 0) coming from level ``previous`` (``h``:
        the hysteresis of each level in q, the classifier's by default)."""
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
        u = cal.white_sign * (counts - cal.empty[s]) * board.CROWD_SCALE // cal.swing[s] - self.crowd[s]
        colour = WHITE if u > 0 else BLACK
        previous = self.states[s]
        level = previous >> 2 if previous & 3 == colour else 0
        if self.fresh[s]:
            self.fresh[s] = 0
            level = self.level_of(u if u > 0 else -u, level, self.afresh)
        else:
            level = self.level_of(u if u > 0 else -u, level)
        return level << 2 | colour if level else EMPTY

    def _band(self, s: int, state: int, counts: int) -> None:
        """Set ``lo[s]``, ``hi[s]``: the counts within which slot ``s`` keeps ``state``
        (conservative: two counts inside the thresholds)."""
        if state == FAULT:
            if counts <= RAIL:
                self.lo[s], self.hi[s] = 0, RAIL
            else:
                self.lo[s], self.hi[s] = 65535 - RAIL, 65535
            return
        cal = self.cal
        scale = board.CROWD_SCALE
        w = cal.swing[s]
        # e / scale: the counts of the crowd's field alone (below 2**30: counts * scale)
        e = cal.empty[s] * scale + cal.white_sign * self.crowd[s] * w
        level = state >> 2
        t = self.threshold
        h = self.hysteresis
        if level == 0:
            a = (t[1] + h[1]) * w
            lo, hi = (e - a) // scale + 2, (e + a) // scale - 2
        else:
            xlo = (t[level] - h[level]) * w
            top = level == MAX_LEVEL or t[level + 1] >= _UNREACHED  # no level above: to the rail
            xhi = 0 if top else (t[level + 1] + h[level + 1]) * w
            d = cal.white_sign if state & 3 == WHITE else -cal.white_sign
            if d > 0:
                lo, hi = (e + xlo) // scale + 2, 65535 if top else (e + xhi) // scale - 2
            else:
                lo, hi = 0 if top else (e - xhi) // scale + 2, (e - xlo) // scale - 2
        if lo <= RAIL:
            lo = RAIL + 1
        if hi >= 65535 - RAIL:
            hi = 65534 - RAIL
        self.lo[s], self.hi[s] = lo, hi

    def classify_all(self, raw) -> bytearray:
        """Classify one scan (``raw[s]`` counts); returns ``out``, the states to debounce
        (the sensors whose ``out`` changed are added to ``changed[:n_changed]``)."""
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
                    self._mark(s)
            self._band(s, new, r)
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
                self._mark(s)
            elif n <= 1 and self.flicker[s]:
                self.flicker[s] = 0
                self.out[s] = self.states[s]
                self._mark(s)
            flips[s] = 0
