"""Report a slot's new state only after it read the same for ``scans`` scans in a row.

At 10 ms per scan the default of 4 scans means 40 ms: longer than the wobble of a checker
being set down, far shorter than a player's hand.  Settling a whole play (a hand moving
several checkers) is the host's job.
"""


class Debouncer:
    def __init__(self, count: int, scans: int) -> None:
        self.count = count
        self.scans = scans
        self.reported = bytearray(count)
        self.pending = bytearray(count)
        self.runs = bytearray(count)
        self.active = set()  # slots whose state may differ from the reported one

    def prime(self, states: bytearray) -> None:
        """Take ``states`` as reported (at boot, before the first SNAPSHOT)."""
        for s in range(self.count):
            self.reported[s] = states[s]
            self.runs[s] = 0
        self.active = set()

    def update(self, states: bytearray, changed=None) -> list:
        """Feed one scan's states; return ``[(slot, state), ...]`` that just settled, by slot.

        ``changed`` (a set, emptied here) names the slots whose state changed since the last
        call; with it only those and the slots still settling are looked at (the fast path:
        a still board costs nothing here).  Without it, or when many slots are moving, every
        slot is looked at.
        """
        reported = self.reported
        pending = self.pending
        runs = self.runs
        active = self.active
        if changed is not None and len(changed) + len(active) <= self.count // 4:
            full = False
            active.update(changed)
            candidates = tuple(active)
        else:
            full = True
            candidates = range(self.count)
            active = self.active = set()
        if changed is not None:
            changed.clear()
        changes = []
        for s in candidates:
            state = states[s]
            if state == reported[s]:
                runs[s] = 0
                if not full:
                    active.discard(s)
                continue
            if state == pending[s] and runs[s]:
                n = runs[s] + 1
            else:
                pending[s] = state
                n = 1
            if n >= self.scans:
                reported[s] = state
                runs[s] = 0
                if not full:
                    active.discard(s)
                changes.append((s, state))
            else:
                runs[s] = n
                active.add(s)
        changes.sort()
        return changes
