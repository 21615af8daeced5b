"""Errors of match play: an action the rules of the match forbid.

Each message is one sentence that names the rule broken ("you do not own the cube",
"no doubling in the Crawford game", "roll or double first", ...).  ``rule`` is a short,
stable key for the same rule, for programs (display icons, tests).
"""

from __future__ import annotations

from bgboard.errors import InputError, RuleError
from bgboard.rules.notation import IllegalPlayError

__all__ = ["IllegalPlayError", "MatchRecordError", "MatchRuleError"]

#: An action the rules of the match forbid; the message names the rule.  The same class as
#: :class:`bgboard.errors.RuleError`, so an illegal play (:class:`IllegalPlayError`, from the
#: rules engine) is one too.
MatchRuleError = RuleError


class MatchRecordError(InputError):
    """A match record (JSON journal, .mat file) that cannot be read (the message says why)."""
