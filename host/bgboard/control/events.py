"""The events that drive the controller: frozen values, each with exactly one handler.

Every event carries ``at_ms``, the wall time (ms since the epoch) at which it happened; the
controller never reads a clock.  Players are 0 (white) and 1 (black).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from bgboard.rules.position import Position
from bgboard.sense.places import Observation

if TYPE_CHECKING:
    from bgboard.hints.lesson import Lesson



class Button(StrEnum):
    """A player's buttons (hardware/pins.toml)."""

    ROLL = "roll"  # roll the dice / done: end the turn (press the clock)
    DOUBLE = "double"  # offer a double; take when one is offered; next candidate play
    DROP = "drop"  # drop (pass) an offered double


ROLL, DOUBLE, DROP = Button.ROLL, Button.DOUBLE, Button.DROP
BUTTONS = tuple(Button)


@dataclass(frozen=True, slots=True)
class BoardRead:
    """A settled reading of the whole board."""

    observation: Observation
    at_ms: int


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """The dice module rolled ``dice`` (roll ``number`` of the board's life)."""

    dice: tuple[int, int]
    number: int
    at_ms: int


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """``player`` pressed ``button`` (one of :data:`BUTTONS`)."""

    player: int
    button: Button
    at_ms: int


@dataclass(frozen=True, slots=True)
class LinkChanged:
    """The board link went up or down; ``text`` says what happened, for the players."""

    up: bool
    text: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class BoardFault:
    """The board reports a problem the players must fix (a faulty sensor, a device error);
    ``sensor``: a sensor or a place of the board must be checked (the text names it)."""

    text: str
    at_ms: int
    sensor: bool = False


@dataclass(frozen=True, slots=True)
class HintReady:
    """The hint asked for the roll ``dice`` in ``position`` has come (computed off the loop)."""

    position: Position
    dice: tuple[int, int]
    text: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class LessonReady:
    """Teaching mode: the grade of ``player``'s last play (or cube decision) has come
    (computed off the loop): a :class:`bgboard.hints.lesson.PlayLesson` or ``CubeLesson``."""

    player: int
    lesson: Lesson
    at_ms: int


@dataclass(frozen=True, slots=True)
class OpponentMoved:
    """The other side's decision has come (an engine computed it off the loop, or a remote
    board sent it): ``key`` names the question it answers (stale answers are dropped),
    ``decision`` is an engine's :class:`bgboard.control.decisions.Answer` (a remote board's
    message carries none: its actions wait in the peer's inbox)."""

    key: tuple[object, ...]
    decision: object
    at_ms: int


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes (the clocks are checked)."""

    at_ms: int


__all__ = [
    "BUTTONS",
    "DOUBLE",
    "DROP",
    "ROLL",
    "BoardFault",
    "BoardRead",
    "Button",
    "ButtonPressed",
    "DiceRolled",
    "Event",
    "HintReady",
    "LessonReady",
    "LinkChanged",
    "OpponentMoved",
    "Tick",
]

Event = (BoardRead | DiceRolled | ButtonPressed | LinkChanged | BoardFault | HintReady | LessonReady | OpponentMoved
         | Tick)
