"""The ``bgboard`` command: wiring only.

Each subcommand lives in ``bgboard.commands.<name>`` and provides
``add_parser(subparsers) -> argparse.ArgumentParser`` and ``run(args) -> int``.
Bad input (any :class:`bgboard.errors.InputError`) prints one line to stderr and exits 2;
the environment failing (any :class:`bgboard.errors.EnvironmentFailure`: a board port lost, a
broker or engine not installed) prints one line too and exits 69 (``EX_UNAVAILABLE``).
"""

from __future__ import annotations

import argparse
import logging
import sys
from types import ModuleType

from bgboard import __version__, logs
from bgboard.commands import COMMANDS, command_module
from bgboard.errors import EXIT_ENVIRONMENT, EXIT_INPUT, EnvironmentFailure, InputError


def _command_modules(only: str | None = None) -> list[ModuleType]:
    return [command_module(name) for name in COMMANDS if only is None or name == only]


LONGEST_WORD = 200  # a longer word of a message (a pasted argument, not a path) is cut


def one_line(text: str) -> str:
    """A message as one bounded, printable line: control characters escaped, a very long
    word (a pasted 100,000-character argument) cut to its start and its length."""
    words = []
    for word in text.split(" "):
        word = "".join(c if c.isprintable() else repr(c)[1:-1] for c in word)
        if len(word) > LONGEST_WORD:
            word = f"{word[:LONGEST_WORD // 2]}... ({len(word)} characters)"
        words.append(word)
    return " ".join(words)


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a single line instead of usage + message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"bgboard: {one_line(message)} (see '{self.prog} --help')\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of ``only`` (the command being run: importing one
    command's module, not all ten, keeps a short command such as ``legal`` quick to start)."""
    parser = _Parser(prog="bgboard", description="The backgammon board companion.")
    parser.add_argument("--version", action="version", version=f"bgboard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in _command_modules(only):
        command_parser = module.add_parser(sub)
        command_parser.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # the first word that is not an option names the command (bgboard's own options take no value)
    command = next((word for word in argv if not word.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(argv)
    logs.setup(args, getattr(args, "_log_level", logging.WARNING))
    try:
        return int(args._run(args) or 0)
    except InputError as exc:
        print(f"bgboard: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_INPUT
    except EnvironmentFailure as exc:
        print(f"bgboard: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file or device: one sentence, never a traceback
        from bgboard.files import DISK_ERRNOS, os_error

        print(f"bgboard: {one_line(str(os_error(exc)))}", file=sys.stderr)
        # a full or failing disk is the machine's failure; a path that cannot be used, the input's
        return EXIT_ENVIRONMENT if exc.errno in DISK_ERRNOS else EXIT_INPUT
    except KeyboardInterrupt:
        print("bgboard: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
