"""A :class:`Play`: the steps of one whole roll and the position they lead to, and its
canonical text in gnubg notation (``"13/7 8/7"``, ``"bar/22*"``, ``"6/off"``,
``"24/18(2)"``, ``"8/5*/1"``).

A play's text needs no board (the steps carry their hits), so :func:`format_play` lives
here beside the value; reading text needs the position and the dice and lives in
:mod:`bgboard.rules.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Sequence

from typing_extensions import TypeVar

from bgboard.rules.position import BAR, OFF, Position
from bgboard.rules.step import Step

#: The kind of position a play leads to: backgammon's :class:`Position`, or the tavli
#: games' :class:`~bgboard.rules.board.Board` (a Position with pins and a reserve).
P = TypeVar("P", bound=Position, default=Position, covariant=True)


@dataclass(frozen=True, slots=True)
class Play(Generic[P]):
    """One legal way to play a roll, identified by its resulting ``position``.

    ``position`` is the board after the play **before** the sides swap (the mover is still
    ``mine``); ``steps`` is one canonical sequence of single-die steps leading there.
    A pass is ``Play((), position)``.  In every game the same type: ``Play[Board]`` in the
    tavli games, whose ``position`` keeps the pins and the reserve; ``ended`` is True when
    the game ended on the last step (Plakoto's mother checker, every checker borne off).
    """

    steps: tuple[Step, ...]
    position: P
    ended: bool = False

    @property
    def notation(self) -> str:
        """Canonical gnubg-style text of the play (empty for a pass)."""
        return format_play(self.steps)

    def __str__(self) -> str:
        return self.notation or "no legal play"


def _point(index: int) -> str:
    if index == BAR:
        return "bar"
    if index == OFF:
        return "off"
    return str(index)


def format_play(steps: Sequence[Step]) -> str:
    """gnubg-style text of a sequence of steps.

    A checker's consecutive steps are joined (``13/7``), keeping a point where it hit on the
    way (``8/5*/1``); moves are listed from the highest starting point down; identical
    moves are counted (``24/18(2)``); 25 is written ``bar`` and 0 ``off``.

    >>> format_play([Step(8, 5, 3), Step(6, 5, 1)])
    '8/5 6/5'
    >>> format_play([Step(24, 18, 6), Step(24, 18, 6)])
    '24/18(2)'
    """
    # Each chain: list of points visited, and the set of those points where it hit.
    chains: list[tuple[list[int], set[int]]] = []
    for step in steps:
        for path, hits in chains:
            if path[-1] == step.frm and path[-1] != OFF:
                path.append(step.to)
                if step.hit:
                    hits.add(step.to)
                break
        else:
            chains.append(([step.frm, step.to], {step.to} if step.hit else set()))
    # Keep only the start, the end and the points where a hit happened on the way.
    moves: dict[tuple[int, ...], list[object]] = {}
    for path, hits in chains:
        kept = (path[0], *(p for p in path[1:-1] if p in hits), path[-1])
        entry = moves.setdefault(kept, [0, set()])
        entry[0] += 1  # type: ignore[operator]
        entry[1] |= hits  # type: ignore[operator]
    parts: list[str] = []
    for kept in sorted(moves, key=lambda k: (-k[0], -k[-1], k)):
        count, hits = moves[kept]
        text = _point(kept[0]) + "".join(
            f"/{_point(p)}{'*' if p in hits else ''}" for p in kept[1:]  # type: ignore[operator]
        )
        parts.append(text if count == 1 else f"{text}({count})")
    return " ".join(parts)
