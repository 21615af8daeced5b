"""The backgammon position: both sides' checkers on 24 points, the bar and off.

A :class:`Position` is always seen from the **player on roll** ("mine").  Each side is a
26-tuple counted from that side's own point of view::

    index 0       checkers borne off
    index 1..24   points 1..24 (point 1 is the side's own ace point, 24 its back point)
    index 25      checkers on the bar

so that indices equal the numbers of move notation (25 = bar, 0 = off).  The opponent's
checkers on *my* point ``p`` are ``theirs[25 - p]``.

Positions are immutable and hashable; every method that "changes" one returns a new
position.  The constructor does **no** checking (it is the fast inner path used by move
generation); :meth:`Position.validate` checks a position that came from outside and raises
:class:`InvalidPositionError` naming the first problem, and :meth:`Position.problems`
lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import sub
from typing import Sequence

from bgboard.errors import InputError

OFF = 0
BAR = 25
CHECKERS = 15


class InvalidPositionError(InputError):
    """A position that cannot occur on a backgammon board (the message says why)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__(self.problems[0] if self.problems else "invalid position")


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers of the player on roll (``mine``) and of the opponent (``theirs``).

    Both are 26-tuples from their owner's view: ``[off, point 1 .. point 24, bar]``.
    """

    mine: tuple[int, ...]
    theirs: tuple[int, ...]

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_points(
        cls,
        points: Sequence[int],
        bar: tuple[int, int] = (0, 0),
        off: tuple[int, int] | None = None,
        checkers: int = CHECKERS,
    ) -> "Position":
        """Build from 24 signed counts seen by the player on roll.

        ``points[i]`` is point ``i + 1``: positive = mine, negative = the opponent's.
        ``bar`` and ``off`` are ``(mine, theirs)``; when ``off`` is omitted it is whatever
        makes ``checkers`` per side.  The result is validated.
        """
        if len(points) != 24:
            raise InvalidPositionError([f"a board has 24 points, {len(points)} given"])
        mine = [0] * 26
        theirs = [0] * 26
        for i, n in enumerate(points):
            p = i + 1
            if n > 0:
                mine[p] = n
            elif n < 0:
                theirs[BAR - p] = -n
        mine[BAR], theirs[BAR] = bar
        if off is None:
            off = (checkers - sum(mine), checkers - sum(theirs))
        mine[OFF], theirs[OFF] = off
        position = cls(tuple(mine), tuple(theirs))
        position.validate(checkers)
        return position

    @classmethod
    def from_gnubg(cls, board: Sequence[Sequence[int]], checkers: int = CHECKERS) -> "Position":
        """From gnubg's ``(board[0], board[1])``: ``board[1]`` is on roll, ``board[0]`` the
        opponent; each 25 counts from its own side, index 24 = bar; off = ``checkers`` − sum.
        The result is validated."""
        if len(board) != 2 or any(len(side) != 25 for side in board):
            raise InvalidPositionError(["a gnubg board is two lists of 25 counts"])
        opp, me = board
        mine = (checkers - sum(me), *me)
        theirs = (checkers - sum(opp), *opp)
        position = cls(tuple(mine), tuple(theirs))
        position.validate(checkers)
        return position

    # ----------------------------------------------------------------- conversions
    def to_gnubg(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """gnubg's board: ``(opponent, player on roll)``, 25 counts each, index 24 = bar."""
        return self.theirs[1:], self.mine[1:]

    def to_bgsage(self) -> list[int]:
        """bgsage's 26-int board from the on-roll view: ``[their bar, p1..p24, my bar]``;
        on points positive = mine, negative = theirs; both bars hold **positive** counts
        (bgsage's ``possible_moves`` puts a hit checker at ``+1`` in index 0 and
        ``flip_board`` swaps the two bars as they are)."""
        return [self.theirs[BAR], *map(sub, self.mine[1:BAR], self.theirs[BAR - 1:0:-1]), self.mine[BAR]]

    def points(self) -> tuple[int, ...]:
        """24 signed counts from the on-roll view (positive mine, negative theirs)."""
        return tuple(map(sub, self.mine[1:BAR], self.theirs[BAR - 1:0:-1]))

    def swap(self) -> "Position":
        """The same board seen by the other player (who becomes the player on roll)."""
        return Position(self.theirs, self.mine)

    # ----------------------------------------------------------------- facts
    def checkers(self) -> tuple[int, int]:
        """Total checkers (points + bar + off) of ``(mine, theirs)``."""
        return sum(self.mine), sum(self.theirs)

    def pips(self) -> tuple[int, int]:
        """Pip counts of ``(mine, theirs)``; a checker on the bar counts 25."""
        return (
            sum(p * n for p, n in enumerate(self.mine)),
            sum(p * n for p, n in enumerate(self.theirs)),
        )

    # ----------------------------------------------------------------- validation
    def problems(self, checkers: int | None = CHECKERS) -> list[str]:
        """Every reason this position cannot occur, in plain words (empty if none).

        ``checkers`` is the number each side must have (15; 3 in Hypergammon);
        ``None`` skips the count check.
        """
        found: list[str] = []
        for name, side in (("mine", self.mine), ("theirs", self.theirs)):
            if len(side) != 26:
                return [f"each side needs 26 counts (off, 24 points, bar); {name} has {len(side)}"]
        sides = (("the player on roll", self.mine), ("the opponent", self.theirs))
        for who, side in sides:
            for place, n in enumerate(side):
                if not isinstance(n, int) or isinstance(n, bool):  # pyright: ignore[reportUnnecessaryIsInstance] - input from outside is checked at run time
                    found.append(f"{who} has a count that is not a whole number at {_place(place)}")
                elif n < 0:
                    found.append(f"{who} has a negative count ({n}) at {_place(place)}")
        if found:
            return found
        for who, side in sides:
            total = sum(side)
            if checkers is not None and total != checkers:
                found.append(f"{checkers} checkers expected for {who}, {total} seen")
        for p in range(1, 25):
            if self.mine[p] and self.theirs[BAR - p]:
                found.append(f"point {p} holds checkers of both colours")
        return found

    def validate(self, checkers: int | None = CHECKERS) -> "Position":
        """Return ``self`` if the position can occur, else raise :class:`InvalidPositionError`.

        Borne-off checkers beside a checker outside the home board are fine: a checker hit
        while bearing off goes back.
        """
        found = self.problems(checkers)
        if found:
            raise InvalidPositionError(found)
        return self


def _place(index: int) -> str:
    if index == OFF:
        return "off"
    if index == BAR:
        return "the bar"
    return f"point {index}"

