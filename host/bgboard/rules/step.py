"""One checker moved by one die: the :class:`Step`, and applying it to a position.

A step is what a player does with one hand on a physical board: lift one checker, put it
down one die further on (possibly hitting a blot, possibly bearing it off).  Points are
numbered from the mover's view: ``frm`` 25 is the bar, ``to`` 0 is off.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.rules.position import BAR, OFF, Position


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die.

    ``frm`` 1..25 (25 = the bar), ``to`` 0..24 (0 = off), ``die`` 1..6, ``hit`` whether an
    opponent's blot on ``to`` was sent to the bar.
    """

    frm: int
    to: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        frm = "bar" if self.frm == BAR else str(self.frm)
        to = "off" if self.to == OFF else str(self.to)
        return f"{frm}/{to}{'*' if self.hit else ''}"


def _step_table() -> dict[tuple[int, int, int, bool], Step]:
    table: dict[tuple[int, int, int, bool], Step] = {}
    for frm in range(1, 26):
        for die in range(1, 7):
            to = max(frm - die, 0)
            for hit in (False, True):
                table[frm, to, die, hit] = Step(frm, to, die, hit)
    return table


#: Every possible step, built once: move generation reuses these values.
STEPS: dict[tuple[int, int, int, bool], Step] = _step_table()


def apply_step(position: Position, step: Step) -> Position:
    """The position after ``step`` (unchecked: the mover is still ``mine``).

    Moves one of my checkers from ``step.frm`` to ``step.to``; when the destination holds
    exactly one opponent checker it goes to the opponent's bar (whatever ``step.hit`` says,
    the board decides).  Use :func:`bgboard.rules.legal_steps` to know which steps are legal.
    """
    mine = list(position.mine)
    mine[step.frm] -= 1
    mine[step.to] += 1
    theirs = position.theirs
    if step.to != OFF and theirs[BAR - step.to] == 1:
        hit = list(theirs)
        hit[BAR - step.to] = 0
        hit[BAR] += 1
        theirs = tuple(hit)
    return Position(tuple(mine), theirs)
