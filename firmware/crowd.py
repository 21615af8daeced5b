"""The field of the checkers around each sensor, kept from the slot states.

A checker's magnet also reaches the sensors of the neighbouring slots and points, where its
rim's return field (hardware/README.md, "Crowds") takes up to a quarter of a checker from a
sensor among crowded neighbours of its own colour and adds as much among the other colour's:
enough to make a stack set down off its sensor read as one checker, or one checker as a
stack.  From 30 mm on that field changes slowly with where a checker lies, so the checker a
slot reports stands for a magnet on the slot's centre: board.py lists, for every slot, the
sensors it reaches from there and its field at each (hardware/make_board.py, from the
sensing physics).  ``Crowd.update`` adds or takes away a slot's field at those sensors when
the slot's colour changes; the classifier subtracts it (classify.py), from the next scan on.

Pure: no ``machine``, no clock.
"""

import board

try:
    from micropython import const
except ImportError:  # CPython (the host's tests run the crowd correction too)
    def const(__expr):  # (positional-only, as micropython's)
        return __expr

WHITE = const(1)
BLACK = const(2)
SIGN = (0, 1, -1, 0)  # the field's sign of a slot state's colour: empty, white, black, fault


class Crowd:
    def __init__(self, classifier, slots: int, table=None) -> None:
        """``table``: (first, sensor, field) as board.CROWD_FIRST, CROWD_SENSOR, CROWD_FIELD,
        raw bytes (the default; another grid's from hardware/make_board.py's crowd_bytes)."""
        self.classifier = classifier
        self.colour = bytearray(slots)  # the colour each slot's field was last counted with
        self.table = table or (board.CROWD_FIRST, board.CROWD_SENSOR, board.CROWD_FIELD)

    def update(self, states, changed=None, n_changed: int = 0) -> bool:
        """Count the slots ``changed[:n_changed]`` (``changed`` None: every slot) with their
        colour in ``states``; True if a sensor's crowd changed (it is classified afresh at the
        next scan).  Allocates nothing."""
        moved = False
        if changed is None:
            for j in range(len(self.colour)):
                if self._count(j, states[j] & 3):
                    moved = True
        else:
            for i in range(n_changed):
                j = changed[i]
                if self._count(j, states[j] & 3):
                    moved = True
        return moved

    def _count(self, j: int, c: int) -> bool:
        """Slot ``j`` now has colour ``c``: move its field; True if it moved."""
        step = SIGN[c] - SIGN[self.colour[j]]
        self.colour[j] = c
        if not step:
            return False
        classifier = self.classifier  # (not its bound method: that would be an allocation)
        first, sensor, field = self.table
        # the field is negative (a neighbour's rim return) and kept as its size
        for k in range(first[2 * j] | first[2 * j + 1] << 8, first[2 * j + 2] | first[2 * j + 3] << 8):
            classifier.add_crowd(sensor[2 * k] | sensor[2 * k + 1] << 8, -step * field[k])
        return True


def settle(classifier, runs, crowd, raw, rounds: int = 4):
    """Classify one still scan ``raw`` until the crowd it reports no longer changes (a board
    read afresh: each round's slot states set the next round's crowd); the slot states (the
    changed lists of ``classifier`` and ``runs`` are cleared)."""
    states = runs.combine(classifier.classify_all(raw), None, classifier.flicker)
    for _ in range(rounds):
        if not crowd.update(states):
            break
        states = runs.combine(classifier.classify_all(raw), None, classifier.flicker)
    classifier.clear_changed()
    runs.clear_changed()
    return states
