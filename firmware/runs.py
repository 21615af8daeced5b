"""Sensor states -> the slot states of the wire protocol (docs/protocol.md).

With one sensor per slot a slot's state is its sensor's.  With two (hardware/README.md, "A
lone checker anywhere": one under each slot's centre and one half a pitch further, so no spot
along a place is more than a quarter pitch from a sensor) a checker lights one sensor when it
lies near it and two when it lies between them, and a row of checkers on the slots lights the
slots' sensors with a dark one between each two (a checker's field half a pitch off is
reversed): along a place, **a run of k lit sensors of one colour holds ceil(k / 2) checkers**
(benchmarks/lone_checker.py and tests/hardware/test_two_sensors.py check it against the
physics field).  The place's checkers are then reported as its slots from the base: the runs
in order from the base, each its colour, level 1, the run's highest sensor level (a stack) on
its last checker.  So the wire protocol and the host's reading stay as they were, and a lone
checker reads as one checker on its place wherever along the place it lies; the "checker
beyond a gap" the host looks for no longer reaches it (a row is always reported from the
base).  A sensor between two lit sensors of one colour never starts a run of its own: it
reads their rims' return field (no checker fits there).  A sensor the classifier calls
flickering, in a place where another sensor reads a checker steadily, is dark (a pin's spot
hovering at the threshold: see :meth:`Runs.place`).  A place with a FAULT sensor reports
FAULT on that sensor's slot (each such slot) and empty on its other slots: the host names the
place.

Pure: no ``machine``, no clock.
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython: the host loads this file too (one copy of the run rule)
    def const(__expr):  # (positional-only, as micropython's)
        return __expr

EMPTY = const(0)
FAULT = const(3)


class Runs:
    def __init__(self, per_slot: int, slot_place: bytes, slot_index: bytes) -> None:
        self.per_slot = per_slot
        self.count = len(slot_place)
        self.out = bytearray(self.count)
        # the slots whose ``out`` changed since the last clear_changed(): changed[:n_changed]
        self.changed = array("H", bytes(2 * self.count))
        self.n_changed = 0
        self.marked = bytearray(self.count)
        self.flicker = None
        rows = {}
        for slot in range(self.count):
            rows.setdefault(slot_place[slot], []).append((slot_index[slot], slot))
        # per place: its slots from the base; the place of every sensor
        self.places = [tuple(s for _, s in sorted(rows[p])) for p in sorted(rows)]
        self.place_of = bytearray(self.count * per_slot)
        for p, slots in enumerate(self.places):
            for slot in slots:
                for k in range(per_slot):
                    self.place_of[slot * per_slot + k] = p
        # work space of :meth:`combine` and :meth:`place`, made once (nothing is allocated
        # while scanning: a garbage collection on the Pico would stall the scan)
        longest = max(len(slots) for slots in self.places)
        self.todo = array("H", bytes(2 * len(self.places)))
        self.todo_marked = bytearray(len(self.places))
        self.states = bytearray(longest * per_slot)
        self.ids = array("H", bytes(2 * longest * per_slot))
        self.faults = bytearray(longest)
        self.new = bytearray(longest * per_slot)  # a checker lights one sensor or more

    def _mark(self, slot: int) -> None:
        if not self.marked[slot]:
            self.marked[slot] = 1
            self.changed[self.n_changed] = slot
            self.n_changed += 1

    def clear_changed(self) -> None:
        """Forget the changed slots (once the crowd and the debouncer have seen them)."""
        for i in range(self.n_changed):
            self.marked[self.changed[i]] = 0
        self.n_changed = 0

    def combine(self, sensors: bytearray, changed=None, flicker=None, n_changed: int = 0) -> bytearray:
        """The slot states for sensor states ``sensors``; ``changed[:n_changed]`` (sensor
        numbers) name the sensors that changed since the last call (``changed`` None: every
        place); ``flicker[s]`` is true where a FAULT is the classifier's flicker verdict (not a
        rail).  The slots whose state changed are added to ``changed[:n_changed]`` of this
        object."""
        self.flicker = flicker
        out = self.out
        if self.per_slot == 1:
            if changed is None:
                for s in range(self.count):
                    if out[s] != sensors[s]:
                        out[s] = sensors[s]
                        self._mark(s)
            else:
                for i in range(n_changed):
                    s = changed[i]
                    if out[s] != sensors[s]:
                        out[s] = sensors[s]
                        self._mark(s)
        elif changed is None:
            for p in range(len(self.places)):
                self.place(p, sensors)
        else:
            todo = self.todo
            marked = self.todo_marked
            n = 0
            for i in range(n_changed):
                p = self.place_of[changed[i]]
                if not marked[p]:
                    marked[p] = 1
                    todo[n] = p
                    n += 1
            for i in range(n):
                marked[todo[i]] = 0
                self.place(todo[i], sensors)
        return out

    def place(self, p: int, sensors: bytearray) -> None:
        """Recompute the slot states of place ``p``."""
        per = self.per_slot
        slots = self.places[p]
        states = self.states
        ids = self.ids
        size = len(slots) * per
        j = 0
        for slot in slots:
            for k in range(per):
                ids[j] = slot * per + k
                states[j] = sensors[slot * per + k]
                j += 1
        # a sensor between two lit sensors of one colour that reads otherwise reads the return
        # field just outside their magnets' rims (two checkers half a pitch either side give it
        # -0.43 of a checker, the other colour): no checker fits there, so it is dark (a
        # flickering one too; a FAULT at a rail stays)
        flicker = self.flicker
        for j in range(1, size - 1):
            c = states[j - 1] & 3
            if c and c != FAULT and states[j + 1] & 3 == c and states[j] & 3 != c:
                if states[j] & 3 != FAULT or (flicker is not None and flicker[ids[j]]):
                    states[j] = EMPTY
        # a flickering sensor (the classifier's verdict, not a rail) in a place where another
        # sensor reads a checker steadily is dark too: it hovers at the threshold beside
        # them — a Plakoto pin's spot, whose two magnets leave 0.46 of a checker (hardware/
        # README.md, "Plakoto pins") — and dark or lit it leaves the count right (the host
        # reads a pin's spot either way); alone in its place it stays a FAULT
        if flicker is not None:
            lit = False
            for j in range(size):
                if states[j] & 3 and states[j] & 3 != FAULT:
                    lit = True
                    break
            if lit:
                for j in range(size):
                    if states[j] & 3 == FAULT and flicker[ids[j]]:
                        states[j] = EMPTY
        # faults[i]: slot i of the place (from the base) has a FAULT sensor
        faults = self.faults
        any_fault = False
        for i in range(len(slots)):
            faults[i] = 0
        for j in range(size):
            if states[j] & 3 == FAULT:
                faults[j // per] = 1
                any_fault = True
        new = self.new
        k = 0  # checkers so far: new[:k]
        if not any_fault:
            colour = 0
            run = 0
            top = 0
            for j in range(size + 1):
                state = states[j] if j < size else EMPTY
                c = state & 3
                if run and c != colour:  # the run ends: ceil(run / 2) checkers
                    n = (run + 1) // 2
                    for _ in range(n - 1):
                        new[k] = 1 << 2 | colour
                        k += 1
                    new[k] = (top if top > 1 else 1) << 2 | colour
                    k += 1
                    run = 0
                if c:
                    if not run:
                        colour, top = c, 0
                    run += 1
                    level = state >> 2
                    if level > top:
                        top = level
        out = self.out
        for i in range(len(slots)):
            if any_fault:
                state = FAULT if faults[i] else EMPTY
            else:
                state = new[i] if i < k else EMPTY
            slot = slots[i]
            if out[slot] != state:
                out[slot] = state
                self._mark(slot)
