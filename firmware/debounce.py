"""Report a slot's new state only after it read the same for ``scans`` scans in a row.

At 10 ms per scan the default of 4 scans means 40 ms: longer than the wobble of a checker
being set down, far shorter than a player's hand.  Settling a whole play (a hand moving
several checkers) is the host's job.

Nothing here allocates after ``__init__``: the slots being watched and the slots that just
settled live in arrays made once (a garbage collection on the Pico would stall the 10 ms
scan), and the slots that changed come in as a list of slot numbers and a count.
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython (the host's tests import the firmware's pure modules)
    def const(__expr):  # (positional-only, as micropython's)
        return __expr

_FULL = const(4)  # more than count // _FULL slots moving: look at every slot


class Debouncer:
    def __init__(self, count: int, scans: int) -> None:
        self.count = count
        self.scans = scans
        self.reported = bytearray(count)
        self.pending = bytearray(count)
        self.runs = bytearray(count)
        # the slots whose state may differ from the reported one (``watched[:watching]``),
        # ``seen[s]`` marking them; a second array to build the next scan's list in
        self.watched = array("H", bytes(2 * count))
        self.next_watched = array("H", bytes(2 * count))
        self.watching = 0
        self.seen = bytearray(count)
        #: the slots that settled at the last :meth:`update`, ascending (``settled[:n]``)
        self.settled = array("H", bytes(2 * count))

    def prime(self, states: bytearray) -> None:
        """Take ``states`` as reported (at boot, before the first SNAPSHOT)."""
        for s in range(self.count):
            self.reported[s] = states[s]
            self.runs[s] = 0
            self.seen[s] = 0
        self.watching = 0

    def update(self, states: bytearray, changed=None, n_changed: int = 0) -> int:
        """Feed one scan's states; return how many slots just settled: ``settled[:n]``, in
        slot order, each now ``reported[slot]``.

        ``changed[:n_changed]`` (slot numbers, each once) name the slots whose state changed
        since the last call; with them only those and the slots still settling are looked at
        (the fast path: a still board costs nothing here).  Without them (``changed`` None),
        or when many slots are moving, every slot is looked at.
        """
        watching = self.watching
        if changed is not None and n_changed + watching <= self.count // _FULL:
            return self._some(states, changed, n_changed)
        seen = self.seen
        watched = self.watched
        for i in range(watching):
            seen[watched[i]] = 0
        self.watching = 0
        settled = 0
        for s in range(self.count):
            if self._step(s, states[s]):
                self.settled[settled] = s
                settled += 1
        return settled

    def _step(self, s: int, state: int) -> bool:
        """One scan of slot ``s`` reading ``state``: True if it just settled; a slot still
        settling is added to the watched list."""
        if state == self.reported[s]:
            self.runs[s] = 0
            return False
        runs = self.runs
        if state == self.pending[s] and runs[s]:
            n = runs[s] + 1
        else:
            self.pending[s] = state
            n = 1
        if n >= self.scans:
            self.reported[s] = state
            runs[s] = 0
            return True
        runs[s] = n
        if not self.seen[s]:
            self.seen[s] = 1
            self.watched[self.watching] = s
            self.watching += 1
        return False

    def _some(self, states: bytearray, changed, n_changed: int) -> int:
        """The fast path: the watched slots, then ``changed[:n_changed]``.  A changed slot
        that was watched too is either still watched (``seen``: skipped) or already reads
        as reported, and looking at it again then changes nothing."""
        old = self.watched
        old_n = self.watching
        seen = self.seen
        # the new watched list is built in the other array: swap them first
        self.watched = self.next_watched
        self.next_watched = old
        self.watching = 0
        for i in range(old_n):
            seen[old[i]] = 0
        settled = 0
        for i in range(old_n):
            s = old[i]
            if self._step(s, states[s]):
                settled = self._insert(settled, s)
        for i in range(n_changed):
            s = changed[i]
            if not seen[s] and self._step(s, states[s]):
                settled = self._insert(settled, s)
        return settled

    def _insert(self, n: int, s: int) -> int:
        """Put ``s`` into ``settled[:n]`` in order; the new count."""
        settled = self.settled
        j = n
        while j and settled[j - 1] > s:
            settled[j] = settled[j - 1]
            j -= 1
        settled[j] = s
        return n + 1

    def changes(self, n: int) -> list:
        """``[(slot, state), ...]`` of the ``n`` slots that just settled (for the wire: this
        allocates, once per report)."""
        return [(self.settled[i], self.reported[self.settled[i]]) for i in range(n)]
