"""A message for the players: what the display says, how serious it is, and what it is about."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bgboard.display.display_state import Severity

__all__ = ["Notice", "Severity", "Topic"]


class Topic(StrEnum):
    """What a notice is about, when the display shows more than its words for it."""

    GENERAL = "general"
    SETUP = "setup"  # the checkers must be set up: the display draws the diagram of what is wrong
    SENSOR = "sensor"  # a sensor or a place of the board must be checked (the text names it)
    RESULT = "result"  # a club result the players confirm (shown also after a loss on time)


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the players and how serious it is (info, warning, error)."""

    text: str
    severity: Severity = Severity.INFO
    short: str = ""  # a shorter variant for small panels ("" = none)
    topic: Topic = Topic.GENERAL
    tiny: str = ""  # the shortest variant, for a small panel with little room left ("" = none)
