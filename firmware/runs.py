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

EMPTY = 0
FAULT = 3


class Runs:
    def __init__(self, per_slot: int, slot_place: bytes, slot_index: bytes) -> None:
        self.per_slot = per_slot
        self.count = len(slot_place)
        self.out = bytearray(self.count)
        self.changed = set()  # slots whose ``out`` changed since the debouncer last looked
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

    def combine(self, sensors: bytearray, changed=None, flicker=None) -> bytearray:
        """The slot states for sensor states ``sensors``; ``changed`` (a set of sensors, emptied
        here) names the sensors that changed since the last call (None: every place);
        ``flicker[s]`` is true where a FAULT is the classifier's flicker verdict (not a rail)."""
        self.flicker = flicker
        if self.per_slot == 1:
            out = self.out
            for s in (range(self.count) if changed is None else changed):
                if out[s] != sensors[s]:
                    out[s] = sensors[s]
                    self.changed.add(s)
        else:
            todo = range(len(self.places)) if changed is None else {self.place_of[s] for s in changed}
            for p in todo:
                self.place(p, sensors)
        if changed is not None:
            changed.clear()
        return self.out

    def place(self, p: int, sensors: bytearray) -> None:
        """Recompute the slot states of place ``p``."""
        per = self.per_slot
        slots = self.places[p]
        states = []
        ids = []
        for slot in slots:
            for k in range(per):
                ids.append(slot * per + k)
                states.append(sensors[slot * per + k])
        # a sensor between two lit sensors of one colour that reads otherwise reads the return
        # field just outside their magnets' rims (two checkers half a pitch either side give it
        # -0.43 of a checker, the other colour): no checker fits there, so it is dark (a
        # flickering one too; a FAULT at a rail stays)
        flicker = self.flicker
        for j in range(1, len(states) - 1):
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
            for state in states:
                if state & 3 and state & 3 != FAULT:
                    lit = True
                    break
            if lit:
                for j in range(len(states)):
                    if states[j] & 3 == FAULT and flicker[ids[j]]:
                        states[j] = EMPTY
        faults = set()
        for j in range(len(states)):
            if states[j] & 3 == FAULT:
                faults.add(ids[j] // per)
        new = []
        if not faults:
            colour = 0
            run = 0
            top = 0
            for state in states + [EMPTY]:
                c = state & 3
                if run and c != colour:  # the run ends: ceil(run / 2) checkers
                    n = (run + 1) // 2
                    new.extend([1 << 2 | colour] * (n - 1))
                    new.append((top if top > 1 else 1) << 2 | colour)
                    run = 0
                if c:
                    if not run:
                        colour, top = c, 0
                    run += 1
                    level = state >> 2
                    if level > top:
                        top = level
        out = self.out
        for i, slot in enumerate(slots):
            if faults:
                state = FAULT if slot in faults else EMPTY
            else:
                state = new[i] if i < len(new) else EMPTY
            if out[slot] != state:
                out[slot] = state
                self.changed.add(slot)
