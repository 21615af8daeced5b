"""``bgboard run --config config.toml``: run the companion on real hardware."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal

from bgboard import logs
from bgboard.language.catalogues import add_lang_argument
from bgboard.config import DEFAULT_TOML, load_config

log = logging.getLogger(__name__)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "run",
        help="run the board companion (serial board, buttons, display, journal)",
        description="Run the board companion with the settings of a config file (docs/config.md).",
    )
    parser.add_argument("--config", metavar="FILE", help="the config file (default: every default of docs/config.md)")
    parser.add_argument("--check", action="store_true", help="check the config file and exit")
    parser.add_argument("--print-default", action="store_true", help="print a config file with every default and exit")
    parser.add_argument("--replay", metavar="FILE.mat",
                        help="step through a match file on the board instead of playing (roll: forward, double: back, drop: next game)")
    add_lang_argument(parser)
    logs.add_options(parser)
    parser.set_defaults(_log_level=logging.INFO)  # say what it does and waits for (journald)
    return parser


def run(args: argparse.Namespace) -> int:
    if args.print_default:
        print(DEFAULT_TOML, end="")
        return 0
    config = load_config(args.config)
    if args.lang:  # --lang overrides the config's display.language (checked here: one sentence)
        from dataclasses import replace

        from bgboard.language import checked_language

        config = replace(config, display=replace(config.display, language=checked_language(args.lang, "--lang")))
    if args.check:
        print(f"bgboard: {args.config or 'the default config'} is valid")
        return 0
    from bgboard.app import App

    replay = None
    if args.replay:
        import importlib
        from pathlib import Path

        replay = importlib.import_module("bgboard.commands.import").read_named(Path(args.replay))  # 'import' is a keyword
        if not any(game.plays for game in replay.games):
            from bgboard.errors import InputError

            raise InputError(f"{args.replay} holds no play to replay")
    log.info("starting with %s", args.config or "the default config")
    app = App(config, replay=replay)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, app.stop)
        await app.run()

    asyncio.run(main())
    return 0
