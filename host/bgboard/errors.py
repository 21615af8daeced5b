"""The root of the errors a *user* can cause.

Every error that bad input can provoke (a malformed Position ID, an illegal play, a bad
config key, a malformed frame) subclasses :class:`InputError`.  Its message is one plain
sentence meant for a person; the CLI prints it and exits with code 2, the host shows it on
the display.  Errors of the program itself are ordinary exceptions and are never caught
and hidden.
"""


class InputError(ValueError):
    """Bad input from a user, a file or a device: the message is one clear sentence."""


class RuleError(InputError):
    """An action or play the rules forbid; the message names the rule, ``rule`` is a short
    stable key for programs (display icons, tests)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


__all__ = ["InputError", "RuleError"]
