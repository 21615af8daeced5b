"""Logging for the commands: stdlib :mod:`logging`, one logger per module, to stderr.

Under systemd stderr goes to journald, so ``bgboard run`` says there what it does and what
it waits for.  :func:`add_options` gives a command ``-v/--verbose`` and ``-q/--quiet``;
:func:`setup` sets the level: INFO for the commands that run for long (``default``),
WARNING for the rest, DEBUG with ``-v``, WARNING with ``--quiet``.
"""

from __future__ import annotations

import argparse
import logging
import sys

FORMAT = "%(levelname)s %(name)s: %(message)s"


def add_options(parser: argparse.ArgumentParser) -> None:
    """``-v/--verbose`` (say more: every step) and ``-q/--quiet`` (warnings and errors only)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("-v", "--verbose", action="store_true", help="log every step (DEBUG)")
    group.add_argument("-q", "--quiet", action="store_true", help="log only warnings and errors")


def setup(args: argparse.Namespace, default: int = logging.WARNING) -> None:
    """Send the package's log to stderr at the level the options ask for."""
    level = default
    if getattr(args, "verbose", False):
        level = logging.DEBUG
    elif getattr(args, "quiet", False):
        level = logging.WARNING
    logging.basicConfig(level=logging.WARNING, format=FORMAT, stream=sys.stderr, force=True)
    logging.getLogger("bgboard").setLevel(level)
