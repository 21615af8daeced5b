"""The subcommands of ``bgboard``, one module each (``bgboard.commands.<name>``).

Each provides ``add_parser(subparsers) -> argparse.ArgumentParser`` and ``run(args) -> int``.
The package imports none of them: :func:`command_module` imports one when the CLI builds
its parser, so importing the package does not load every command's libraries.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: The subcommands in the order ``bgboard --help`` lists them (``import`` is a keyword: the
#: modules are reached by name, not by attribute).
COMMANDS = ("legal", "selfplay", "hint", "render", "firmware", "run", "sim", "club", "import", "export", "analyse",
            "hardware", "invite", "federation")


def command_module(name: str) -> ModuleType:
    """The module of subcommand ``name`` (one of :data:`COMMANDS`)."""
    if name not in COMMANDS:
        raise ValueError(f"no bgboard subcommand {name!r}")
    return importlib.import_module(f"{__name__}.{name}")


__all__ = ["COMMANDS", "command_module"]
