"""The two roots of the errors a person is shown: their mistake, or the machine's.

Every error bgboard means a person to read is one plain sentence, and it is one of two kinds:

* :class:`InputError` (a :class:`ValueError`) — bad input from a user, a file or a device:
  a malformed Position ID, an illegal play, a bad config key, a malformed frame or network
  message, a file that is not what it should be.  Fixing it means changing what was given.
  The CLI prints the sentence and exits with code 2 (:data:`EXIT_INPUT`); the host shows it
  on the display; the club pages show it on the page.
* :class:`EnvironmentFailure` (a :class:`RuntimeError`) — the world around bgboard failing
  while the input was fine: a serial port that is missing or lost, a broker that is not
  installed or will not start, an engine or tool that is not installed, a panel or GPIO that
  cannot be reached, a port already in use, a database another program holds or a full disk.
  Fixing it means changing the machine (plug it in, install it, free it); the sentence says
  what to do.  The CLI exits with code 69 (:data:`EXIT_ENVIRONMENT`, ``EX_UNAVAILABLE`` of
  BSD's sysexits.h, "a service is unavailable"), so a script can tell a retry-worthy failure
  from a mistake it must fix.

Both share :class:`BgboardError`, for the few places that show either kind the same way (a
web page, the display).  Errors of the program itself are ordinary exceptions and are never
caught and hidden.  tests/test_errors.py checks that every exception class of the package
is under exactly one of the two roots.
"""

#: The CLI's exit code for an :class:`InputError` (argparse uses 2 for bad arguments too).
EXIT_INPUT = 2
#: The CLI's exit code for an :class:`EnvironmentFailure` (sysexits.h ``EX_UNAVAILABLE``).
EXIT_ENVIRONMENT = 69


class BgboardError(Exception):
    """An error meant for a person: the message is one clear sentence.  Raise one of its
    two kinds, :class:`InputError` or :class:`EnvironmentFailure`, never this class."""


class InputError(BgboardError, ValueError):
    """Bad input from a user, a file or a device: the message is one clear sentence."""


class EnvironmentFailure(BgboardError, RuntimeError):
    """The machine, a device or a program bgboard needs failed (missing, lost, busy): the
    message is one sentence saying what failed and what to do about it."""


class RuleError(InputError):
    """An action or play the rules forbid; the message names the rule, ``rule`` is a short
    stable key for programs (display icons, tests)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


class MissingExtraError(EnvironmentFailure):
    """An optional package a command needs is not installed: the sentence names the extra
    that installs it (exit 69)."""


#: The optional packages: import name -> (the distribution, the extra of pyproject.toml that
#: installs it).  The one rule: a command checks what it needs when it starts
#: (:func:`require_extra`), before any game or work begins.
EXTRAS = {
    "gnubg_nn": ("gnubg-nn", "hints"),
    "bgsage": ("bgsage", "hints"),
    "matplotlib": ("matplotlib", "teach"),
    "magpylib": ("magpylib", "hardware"),
    "magpylib_material_response": ("magpylib-material-response", "hardware"),
}


def missing_extra(module: str, needed_by: str) -> str:
    """The sentence for ``module`` missing: who needs it and what to install."""
    dist, extra = EXTRAS[module]
    return f"{needed_by} needs {dist}, which is not installed: pip install 'bgboard[{extra}]'"


def require_extra(module: str, needed_by: str) -> None:
    """Import ``module`` (one of :data:`EXTRAS`) or raise :class:`MissingExtraError` naming the
    extra to install; a package that is present but cannot be imported counts as missing."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(missing_extra(module, needed_by)) from None


def shown(value: object, most: int = 200) -> str:
    """``value`` as it may go into a sentence or a log line when it came from outside (a
    device, a peer, a file, an exception's text): its ``repr`` — so control characters and
    line breaks are escaped and a log line stays one line — cut to ``most`` characters with
    the full length named."""
    text = repr(value)
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def seconds_setting(name: str, text: str | None, default: float) -> float:
    """A wait in seconds that a deployment may set in the environment variable ``name``
    (``text`` is its value as the adapter read it, ``None`` when unset: then ``default``).
    A value that is not a number of seconds from 0.1 to 3600 is an :class:`InputError`."""
    if text is None or not text.strip():
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0.1 <= seconds <= 3600:
        raise InputError(f"{name}={shown(text, 40)} is not a number of seconds from 0.1 to 3600: "
                         f"fix or unset it (the default is {default:g} s)")
    return seconds


__all__ = ["EXIT_ENVIRONMENT", "EXIT_INPUT", "EXTRAS", "BgboardError", "EnvironmentFailure", "InputError",
           "MissingExtraError", "RuleError", "missing_extra", "require_extra", "seconds_setting", "shown"]
