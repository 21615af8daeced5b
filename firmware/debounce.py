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

    def prime(self, states: bytearray) -> None:
        """Take ``states`` as reported (at boot, before the first SNAPSHOT)."""
        for s in range(self.count):
            self.reported[s] = states[s]
            self.runs[s] = 0

    def update(self, states: bytearray) -> list:
        """Feed one scan's states; return ``[(slot, state), ...]`` that just settled."""
        reported = self.reported
        pending = self.pending
        runs = self.runs
        changes = []
        for s in range(self.count):
            state = states[s]
            if state == reported[s]:
                if runs[s]:
                    runs[s] = 0
                continue
            if state == pending[s] and runs[s]:
                n = runs[s] + 1
            else:
                pending[s] = state
                n = 1
            if n >= self.scans:
                reported[s] = state
                runs[s] = 0
                changes.append((s, state))
            else:
                runs[s] = n
        return changes
