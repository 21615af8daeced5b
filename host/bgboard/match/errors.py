"""Errors of match play: an action the rules of the match forbid.

Each message is one sentence that names the rule broken ("you do not own the cube",
"no doubling in the Crawford game", "roll or double first", ...).  ``rule`` is a short,
stable key for the same rule, for programs (display icons, tests).
"""

from __future__ import annotations

from bgboard.errors import InputError


class MatchRuleError(InputError):
    """An action the rules of the match forbid; the message names the rule."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class IllegalPlayError(MatchRuleError):
    """A checker play that the rules of backgammon forbid (the message says why)."""

    def __init__(self, message: str) -> None:
        super().__init__("illegal-play", message)


class MatchRecordError(InputError):
    """A match record (JSON journal, .mat file) that cannot be read (the message says why)."""
