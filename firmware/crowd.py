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

WHITE = 1
BLACK = 2
SIGN = (0, 1, -1, 0)  # the field's sign of a slot state's colour: empty, white, black, fault


class Crowd:
    def __init__(self, classifier, slots: int, table=None) -> None:
        """``table``: (first, sensor, field) as board.CROWD_FIRST, CROWD_SENSOR, CROWD_FIELD,
        raw bytes (the default; another grid's from hardware/make_board.py's crowd_bytes)."""
        self.classifier = classifier
        self.colour = bytearray(slots)  # the colour each slot's field was last counted with
        self.table = table or (board.CROWD_FIRST, board.CROWD_SENSOR, board.CROWD_FIELD)

    def update(self, states, changed=None) -> bool:
        """Count the slots in ``changed`` (None: every slot) with their colour in ``states``;
        True if a sensor's crowd changed (it is classified afresh at the next scan)."""
        colour = self.colour
        add = self.classifier.add_crowd
        first, sensor, field = self.table
        moved = False
        for j in range(len(colour)) if changed is None else changed:
            c = states[j] & 3
            step = SIGN[c] - SIGN[colour[j]]
            colour[j] = c
            if step:
                # the field is negative (a neighbour's rim return) and kept as its size
                for k in range(first[2 * j] | first[2 * j + 1] << 8, first[2 * j + 2] | first[2 * j + 3] << 8):
                    add(sensor[2 * k] | sensor[2 * k + 1] << 8, -step * field[k])
                moved = True
        return moved


def settle(classifier, runs, crowd, raw, rounds: int = 4):
    """Classify one still scan ``raw`` until the crowd it reports no longer changes (a board
    read afresh: each round's slot states set the next round's crowd); the slot states."""
    states = runs.combine(classifier.classify_all(raw), None, classifier.flicker)
    for _ in range(rounds):
        if not crowd.update(states):
            break
        states = runs.combine(classifier.classify_all(raw), None, classifier.flicker)
    return states
