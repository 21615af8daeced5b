"""``bgboard sim``: a whole match on the virtual board, no hardware needed.

    bgboard sim --match-length 3 --seed 1 --out out/sim [--illegal-rate 0.1] [--noise low] [--json]

By default the board is the real firmware under the MicroPython unix port on a pty, run
faster than real time (``--speed``, ``--realtime`` to watch), and the host is the real app;
``--model-firmware`` replaces both with the in-process model of the firmware's
classify/debounce and the controller on a virtual clock (faster, no firmware process).  So
does ``--teach`` (learner or practice): on the firmware the app's own teacher grades on its
hint worker, as ``bgboard run`` with ``[teach] mode`` does.

Writes ``OUT/journal.sqlite``, ``OUT/match.mat``, ``OUT/match.sgf``, the display frames
(``OUT/frames/*.png``, ``OUT/display.gif``) and ``OUT/summary.json``.  A directory whose
journal holds an unfinished match is resumed.  See docs/simulator.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bgboard import logs
from bgboard.language.catalogues import add_lang_argument, players_words
from bgboard.errors import InputError
from bgboard.rules.games import ROTATIONS, SEED_VARIANTS


class SimArgumentError(InputError):
    """A ``bgboard sim`` option out of range."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``bgboard sim``: the match and its players' mess, the board, who plays and
    teaching, and the networked and variant runs (in that order in ``--help``)."""
    p = subparsers.add_parser(
        "sim",
        help="play a whole match on the virtual board (no hardware needed)",
        description="Play a whole match between simulated players on the virtual board.",
    )
    _match_arguments(p)
    _board_arguments(p)
    _player_arguments(p)
    _network_arguments(p)
    return p


def _match_arguments(p: argparse.ArgumentParser) -> None:
    """The match, its output and how messy the players and sensors are."""
    p.add_argument("--match-length", type=int, default=3, help="points to win (default 3)")
    p.add_argument("--seed", type=int, default=1, help="players, dice and noise seed (default 1)")
    p.add_argument("--out", type=Path, default=Path("out/sim"), help="output directory (default out/sim)")
    p.add_argument("--illegal-rate", type=float, default=0.1, help="share of turns that first try an illegal play (0..1, default 0.1)")
    p.add_argument("--noise", default="low", help="sensor noise: none, low, medium, high or ADC counts (default low)")
    p.add_argument("--rules", default="standard", help="rule set (default standard)")
    p.add_argument(
        "--stuck",
        action="append",
        default=[],
        metavar="PLACE:SENSOR:COUNTS",
        help="a sensor that always reads COUNTS, SENSOR counted from the place's base "
        "(e.g. 6:0:0: point 6's first sensor shorted to ground)",
    )
    p.add_argument("--no-flicker", action="store_true", help="move checkers without in-transit flicker")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_lang_argument(p)
    logs.add_options(p)


def _board_arguments(p: argparse.ArgumentParser) -> None:
    """The board: the real firmware at a speed, or its in-process model."""
    p.add_argument("--realtime", action="store_true", help="play at human speed to watch the frames")
    p.add_argument(
        "--speed",
        type=int,
        default=None,
        metavar="K",
        help="firmware and host time run K times real time (default 8; --realtime is 1)",
    )
    p.add_argument(
        "--model-firmware",
        action="store_true",
        help="model the firmware's classify/debounce in-process instead of running it (fastest)",
    )
    p.add_argument("--firmware", action="store_true", help=argparse.SUPPRESS)  # the default now; kept for old scripts


def _player_arguments(p: argparse.ArgumentParser) -> None:
    """Who plays (you, the engine), a replayed file, and the teaching modes."""
    p.add_argument("--interactive", action="store_true", help="play yourself from the terminal")
    p.add_argument("--opponent", metavar="ENGINE[:LEVEL]",
                   help="the engine plays black (pubeval, gnubg-nn, bgsage; ENGINE alone: its full strength); the "
                   "simulated person plays white and carries the engine's plays out, now and then wrongly first "
                   "(--illegal-rate); with --interactive you play white against it")
    p.add_argument("--opponent-dice", choices=("module", "person"), default="module",
                   help="the engine's dice: the dice module rolls them itself (default) or the person presses it")
    p.add_argument("--replay", type=Path, metavar="FILE.mat",
                   help="replay a match file on the modelled board (set-up guidance, LEDs, display per play)")
    p.add_argument(
        "--teach",
        nargs="?",
        const="learner",
        choices=("learner", "practice"),
        default=None,
        help="teaching mode: grade every play and cube decision (learner, the default) or play the drill set "
        "(practice), on the real firmware and app as bgboard run with [teach] mode (--model-firmware: modelled); "
        "writes OUT/learner-report.html; --json adds the grades",
    )
    p.add_argument("--learner", choices=("white", "black", "both"), default=None,
                   help="with --teach learner: whose learner report, as [teach] learner (default both: one section each)")
    p.add_argument("--drill", action="append", default=[], metavar="POSITION[:DICE]",
                   help="with --teach practice: practise this gnubg Position ID (learner on roll; DICE like 31, "
                   "else rolled), or mine (the worst positions of the --teach learner matches played in OUT), "
                   "instead of the built-in set; repeatable")
    p.add_argument("--engine", metavar="NAME",
                   help="with --replay or --teach: grade each play with this hint engine "
                   "(bgsage, gnubg-nn or pubeval; --teach defaults to the strongest installed)")


def _network_arguments(p: argparse.ArgumentParser) -> None:
    """A board of a club evening, remote matches, and the seed variants."""
    p.add_argument(
        "--club",
        metavar="CONFIG",
        help="be a board of a club evening: the [club] table of this config file names the broker and the board;"
        " play each match the director assigns (modelled firmware) and report it (docs/club-network.md)",
    )
    p.add_argument("--remote", action="store_true",
                   help="two simulated boards play one match through a private Mosquitto, each person at their own "
                   "board (docs/remote.md); OUT/white and OUT/black hold each board's journal and records")
    p.add_argument("--remote-board", metavar="CONFIG",
                   help="be one board of a remote match: the [remote] table of this config file names the broker, "
                   "the match and the side; the simulated person plays that side")
    p.add_argument("--matches", type=int, default=None, metavar="N", help="with --club: stop after N matches")
    p.add_argument("--variant", choices=SEED_VARIANTS,
                   help="a seed variant (tavli: Portes, Plakoto, Fevga in rotation) through the host app on the real "
                   "firmware with the built-in heuristic players (docs/simulator.md, 'The seed variants')")


def _lang(args: argparse.Namespace) -> str:
    """The players' language for the host a run starts (--lang, else the locale)."""
    import os

    from bgboard.language import choose_language

    return choose_language(args.lang, "", os.environ)


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print the summary."""
    from bgboard.sim.modelled_board import noise_level

    if args.replay is not None:
        return _replay(args, noise_level(args.noise))
    if args.variant is not None:
        return _variant(args, noise_level(args.noise))
    _check_ranges(args)
    options = _options(args)
    _check_together(args)
    _require(args)
    speed = 1 if args.realtime else args.speed
    if args.teach == "practice":
        return _practice(args, options, speed)
    if args.club:
        return _club_board(args, options)
    if args.remote or args.remote_board:
        return _remote(args, options, speed)
    if args.interactive:
        from bgboard.sim.interactive import play_interactive

        return play_interactive(options, args.out, words=players_words(args.lang))
    return _match(args, options, speed)


def _check_ranges(args: argparse.Namespace) -> None:
    """Each number and choice of a match run in range (one sentence otherwise)."""
    if args.match_length < 1:
        raise SimArgumentError(f"--match-length must be at least 1, not {args.match_length}")
    if args.rules == "money":
        raise SimArgumentError("bgboard sim plays matches: choose --rules standard or brainking")
    if not 0.0 <= args.illegal_rate <= 1.0:
        raise SimArgumentError(f"--illegal-rate must be between 0 and 1, not {args.illegal_rate}")
    if args.speed is not None and not 1 <= args.speed <= 50:
        raise SimArgumentError(f"--speed must be between 1 and 50, not {args.speed}")
    if args.model_firmware and args.firmware:
        raise SimArgumentError("choose --firmware (the default) or --model-firmware, not both")


def _options(args: argparse.Namespace) -> Any:
    """The run's :class:`~bgboard.sim.driver.Options` (the noise, the stuck sensors, the
    engines named checked: one sentence otherwise)."""
    from bgboard.sim.modelled_board import Options, noise_level

    stuck = tuple(_stuck(text) for text in args.stuck)
    return Options(
        match_length=args.match_length,
        seed=args.seed,
        illegal_rate=args.illegal_rate,
        noise=noise_level(args.noise),
        rules=args.rules,
        flicker=not args.no_flicker,
        stuck=stuck,
        teach=args.teach or "off",
        engine=_engine_name(args.engine) if args.engine is not None else None,
        learner=args.learner or "both",
        opponent=_opponent(args.opponent) if args.opponent is not None else None,
        opponent_dice=args.opponent_dice,
    )


def _check_together(args: argparse.Namespace) -> None:
    """The options given together make one run (one sentence naming the clash otherwise)."""
    if args.learner is not None and args.teach != "learner":
        raise SimArgumentError("--learner says whose learner report to write: use it with --teach learner")
    if (args.remote or args.remote_board) and (args.opponent is not None or args.teach is not None or args.club):
        raise SimArgumentError("--remote plays two people at two boards: leave out --opponent, --teach and --club")
    if args.remote_board and args.interactive:
        raise SimArgumentError("--interactive --remote puts you at White's board: leave out --remote-board")
    if args.remote and args.remote_board:
        raise SimArgumentError("choose --remote (both boards and a broker) or --remote-board CONFIG (one board)")
    if args.opponent is not None and (args.teach == "practice" or args.club):
        raise SimArgumentError("--opponent plays a match: leave out --teach practice and --club")
    if args.drill and args.teach != "practice":
        raise SimArgumentError("--drill gives a position to practise: use it with --teach practice")
    if args.engine is not None and args.teach is None:
        raise SimArgumentError("--engine chooses the engine that grades the plays: give --teach or --replay too")


def _practice(args: argparse.Namespace, options: Any, speed: int | None) -> int:
    """``--teach practice``: the drill set (or ``--drill``'s) played by the learner."""
    from bgboard.sim.practice_run import run_drills, run_firmware_drills

    drills = None
    if args.drill:
        drills = tuple(drill for text in args.drill for drill in _drills_of(text, args.out))
    if _modelled(args):
        summary = run_drills(options, args.out, drills)
    else:
        summary = run_firmware_drills(options, args.out, drills, speed=speed)
    if args.json:
        print(json.dumps(summary))
    else:
        played = len(summary["drills"])
        print(f"{played} drill{'' if played == 1 else 's'} played; {summary['in_short']}")
        if summary["report"] is not None:
            print(f"learner report: {summary['report']}")
        print(f"written to {args.out}/")
    return 0


def _match(args: argparse.Namespace, options: Any, speed: int | None) -> int:
    """The match by the simulated players, on the firmware or its model, and its summary."""
    from bgboard.sim.match_run import run_match

    progress = sys.stderr.isatty() and not args.json
    if _modelled(args):
        summary = run_match(options, args.out, progress=progress, realtime=args.realtime, words=players_words(args.lang))
    else:
        from bgboard.sim.match_run import run_firmware_match

        summary = run_firmware_match(options, args.out, progress=progress, speed=speed, lang=_lang(args))
    if args.json:
        print(json.dumps(summary))
        return 0
    a, b = summary["score"]
    print(f"match to {summary['match_length']}: white {a}, black {b} after {len(summary['games'])} game(s)")
    print(
        f"plays recognised {summary['plays_recognised']}, illegal attempts {summary['illegal_attempts']}"
        f" (flagged {summary['illegal_flagged']}), legal plays rejected {summary['legal_rejected']}"
    )
    if "grades" in summary:  # --teach: the session in short (as the display says it), and where the report is
        print(f"graded by {summary['engine']}: {summary['in_short']}")
        if summary["report"] is not None:
            print(f"learner report: {summary['report']}")
    if "opponent" in summary:
        print(f"against {summary['opponent']['engine']} ({summary['opponent']['level']}): its plays carried out "
              f"{summary['engine_plays']}, wrong executions {summary['wrong_executions']}"
              f" (caught {summary['wrong_caught']})")
    print(f"written to {args.out}/")
    return 0


def _remote(args: argparse.Namespace, options: Any, speed: int | None) -> int:
    """``--remote``: both boards and a private broker; ``--remote-board CONFIG``: one board."""
    from dataclasses import replace

    from bgboard.sim.remote_run import run_remote_board, run_remote_match

    if args.interactive:  # you at White's board, a simulated person at Black's
        from bgboard.sim.remote_run import play_remote_interactive

        return play_remote_interactive(options, args.out)
    model = _modelled(args)
    if args.remote_board:
        from bgboard.config import load_config, remote_place

        config = load_config(args.remote_board)
        if not config.remote.enabled:
            raise SimArgumentError(f"{args.remote_board} has no [remote] broker: say which broker, match and side")
        side = remote_place(config.remote)[1]
        summary = run_remote_board(replace(options, remote=side), args.out, config, model=model, speed=speed)
        if args.json:
            print(json.dumps(summary))
        else:
            a, b = summary["score"]
            print(f"{side} board: white {a}, black {b}; the other board's plays carried out {summary['remote_plays']}; "
                  f"written to {args.out}/")
        return 0
    summary = run_remote_match(options, args.out, model=model, speed=speed)
    if args.json:
        print(json.dumps(summary))
    else:
        white, black = summary["boards"]
        a, b = white["score"]
        same = "the same record at both boards" if summary["same_record"] else "THE BOARDS' RECORDS DIFFER"
        print(f"remote match to {summary['match_length']}: white {a}, black {b}; {same}")
        print(f"boards: {white['mat']}, {black['mat']}")
    return 0 if summary["same_record"] else 1


def _drills_of(text: str, out: Path) -> tuple[Any, ...]:
    """``--drill``: a Position ID (with its roll), or ``mine``: the worst positions of the
    matches played in OUT (``--teach learner`` kept them beside its journal)."""
    from bgboard.teaching import drill_of

    if text.strip().casefold() != "mine":
        return (drill_of(text),)
    from bgboard.teaching import own_worst
    from bgboard.hints.drills import select_drills

    mine = own_worst(out, ("White", "Black")) if out.is_dir() else []
    return select_drills("mine", "--drill", mine=mine)


#: The hint engines that are optional packages: registry name -> import name.
_ENGINE_MODULES = {"gnubg-nn": "gnubg_nn", "bgsage": "bgsage"}


def _require(args: argparse.Namespace) -> None:
    """Check what this run needs before any game starts: the opponent's engine, the engine
    named to grade, matplotlib for ``--teach``'s learner report (exit 69 naming the extra)."""
    from bgboard.errors import require_extra
    from bgboard.hints.levels import parse_opponent

    if args.opponent is not None:
        engine = parse_opponent(args.opponent).engine
        if engine in _ENGINE_MODULES:
            require_extra(_ENGINE_MODULES[engine], f"--opponent {args.opponent}")
    if args.engine is not None and _engine_name(args.engine) in _ENGINE_MODULES:
        require_extra(_ENGINE_MODULES[_engine_name(args.engine)], f"--engine {args.engine}")
    if args.teach is not None:
        require_extra("matplotlib", "the learner report of --teach")


def _opponent(spec: str) -> str:
    """``--opponent ENGINE[:LEVEL]`` checked (one sentence otherwise), as the journal keeps it."""
    from bgboard.hints.levels import parse_opponent

    return parse_opponent(spec).spec


def _modelled(args: argparse.Namespace) -> bool:
    """Whether the firmware is modelled in-process: asked for (``--model-firmware``), or
    the MicroPython unix port is missing (said on stderr; ``--firmware`` insists instead)."""
    if args.model_firmware:
        return True
    from bgboard.sim.pico import FirmwareUnavailableError, micropython

    try:
        micropython()
    except FirmwareUnavailableError as exc:
        if args.firmware:
            raise
        sys.stderr.write(f"bgboard: {exc}; modelling the firmware instead\n")
        return True
    return False


def _engine_name(name: str) -> str:
    """``--engine``: a hint engine bgboard knows (one sentence otherwise)."""
    from bgboard.hints.registry import ENGINES

    spelled = {"gnubg": "gnubg-nn", "gnubg_nn": "gnubg-nn"}.get(name.strip().lower(), name.strip().lower())
    if spelled not in (*ENGINES, "auto"):
        raise SimArgumentError(f"--engine takes one of {', '.join(ENGINES)} or auto, not {name!r}")
    return spelled


def _variant(args: argparse.Namespace, noise: float) -> int:
    """``--variant NAME``: a whole match of a seed variant (or tavli) through the real host
    app and the real firmware, played by the built-in heuristic players."""
    from bgboard.sim.pico import micropython
    from bgboard.sim.modelled_board import Options
    from bgboard.sim.match_run import run_firmware_match

    tavli = args.variant in ROTATIONS
    if args.match_length < 1 or tavli and args.match_length not in (5, 7):
        raise SimArgumentError(
            "a tavli match is played to 5 or 7 points" if tavli else f"--match-length must be at least 1, not {args.match_length}"
        )
    if not 0.0 <= args.illegal_rate <= 1.0:
        raise SimArgumentError(f"--illegal-rate must be between 0 and 1, not {args.illegal_rate}")
    if args.speed is not None and not 1 <= args.speed <= 50:
        raise SimArgumentError(f"--speed must be between 1 and 50, not {args.speed}")
    for flag, given in (("--interactive", args.interactive), ("--teach", args.teach is not None), ("--club", args.club),
                        ("--opponent", args.opponent is not None)):
        if given:
            raise SimArgumentError(f"{flag} is not yet for the seed variants: leave it out of --variant runs")
    if not args.model_firmware:
        micropython()  # the firmware is needed: FirmwareUnavailableError says how to get it
    options = Options(
        match_length=args.match_length,
        seed=args.seed,
        illegal_rate=args.illegal_rate,
        noise=noise,
        rules=args.variant if tavli else args.rules,
        variant=None if tavli else args.variant,
        flicker=not args.no_flicker,
        stuck=tuple(_stuck(text) for text in args.stuck),
    )
    progress = sys.stderr.isatty() and not args.json
    if args.model_firmware:
        from bgboard.sim.match_run import run_match

        summary = run_match(options, args.out, progress=progress, realtime=args.realtime, words=players_words(args.lang))
    else:
        summary = run_firmware_match(options, args.out, progress=progress, speed=1 if args.realtime else args.speed,
                                     lang=_lang(args))
    if args.json:
        print(json.dumps(summary))
    else:
        a, b = summary["score"]
        print(f"{args.variant} match to {args.match_length}: white {a}, black {b} after {len(summary['games'])} game(s)")
        print(f"plays recognised {summary['plays_recognised']}, pinned points read {summary['pinned_points_read']}, "
              f"illegal attempts {summary['illegal_attempts']} (flagged {summary['illegal_flagged']}), "
              f"legal plays rejected {summary['legal_rejected']}; written to {args.out}/")
    return 0


def _stuck(text: str) -> tuple[str, int, int]:
    """``PLACE:SENSOR:COUNTS`` -> ``(place, sensor, counts)``; SENSOR counts the place's
    sensors from its base (the slot index with one sensor per slot)."""
    from bgboard.hardware import load_grid

    parts = text.split(":")
    grid = load_grid()
    try:
        place, sensor, counts = parts[0], int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        raise SimArgumentError(f"--stuck takes PLACE:SENSOR:COUNTS such as 6:0:0, not {text!r}") from None
    if len(parts) != 3 or not 0 <= sensor < len(grid.of(place)) * grid.per_slot or not 0 <= counts <= 65535:
        raise SimArgumentError(f"--stuck {text!r}: no such sensor, or counts outside 0..65535")
    return place, sensor, counts


def _replay(args: argparse.Namespace, noise: float) -> int:
    """``--replay FILE``: every stop of the file on the modelled board; the display of each
    stop drawn to OUT/replay/NNNN.png, the report to OUT/replay.json."""
    import importlib

    read_named = importlib.import_module("bgboard.commands.import").read_named  # 'import' is a keyword
    from bgboard.display.panels import panel_spec
    from bgboard.display.renderer import render
    from bgboard.sim.replay_run import replay_steps, simulate_replay

    match = read_named(args.replay)
    grade = _grader(args.engine) if args.engine else None
    steps = replay_steps(match, grade)
    if not steps:
        raise SimArgumentError(f"{args.replay} holds no play to replay")
    frames = args.out / "replay"
    try:
        frames.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimArgumentError(f"cannot write to {frames} ({exc.strerror or exc}): choose another --out") from None
    panel = panel_spec("waveshare-4in2")
    count = 0

    def show(step) -> None:  # type: ignore[no-untyped-def]
        nonlocal count
        count += 1
        render(step.display, panel).save(frames / f"{count:04d}.png")

    report = simulate_replay(steps, seed=args.seed, noise=noise, flicker=not args.no_flicker, show=show)
    summary = {"file": str(args.replay), "games": len(match.games), "problems": len(match.problems)} | report.to_dict()
    (args.out / "replay.json").write_text(json.dumps(summary, indent=1))
    if args.json:
        print(json.dumps(summary))
    else:
        same = "all equal to the file's" if not report.differing else f"{len(report.differing)} differ from the file"
        print(f"replayed {args.replay}: {report.stops} stops in {len(match.games)} game(s); "
              f"{report.checked} positions read on the board, {same}; frames in {frames}/")
    return 0 if not report.differing else 1


def _grader(name: str):  # type: ignore[no-untyped-def]
    """A grade for each checker play of the file, from the hint engine ``name``."""
    from bgboard.hints.advice import play_hints
    from bgboard.hints.grade import grade_play
    from bgboard.hints.registry import open_engine
    from bgboard.rules import Position

    opened = open_engine(name)
    if opened.notice:
        sys.stderr.write(f"bgboard: {opened.notice}\n")

    def grade(play) -> str | None:  # type: ignore[no-untyped-def]
        b, p = play.after.board, play.player
        if play.dice is None or play.before.turn != p:
            return None
        hint = play_hints(opened.engine, play.before.position, play.dice)
        try:
            return grade_play(hint, Position(b[p], b[1 - p])).verdict
        except ValueError:
            return None

    return grade


def _club_board(args: argparse.Namespace, options: "Any") -> int:
    """``bgboard sim --club CONFIG``: a simulated board of a club evening until SIGTERM/SIGINT
    (or ``--matches`` matches)."""
    import asyncio
    import logging
    import signal

    from bgboard.config import club_password, load_config
    from bgboard.net.boardlink import LinkSettings
    from bgboard.net.protocol import parse_broker_url
    from bgboard.sim.clubboard import ClubSimBoard

    club = load_config(args.club).club
    if not club.enabled:
        raise SimArgumentError(f"{args.club} has no [club] broker: say which broker and board to be")
    settings = LinkSettings(parse_broker_url(club.broker), club.club, club.board, club.user, club_password(club),
                            ca_file=club.ca_file)
    logging.basicConfig(level=logging.WARNING, format=f"board {club.board}: %(message)s")

    async def main() -> int:
        board = ClubSimBoard(settings, args.out, illegal_rate=options.illegal_rate, noise=options.noise,
                             matches=args.matches)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, board.stop)
        await board.run()
        return len(board.played)

    played = asyncio.run(main())
    print(f"board {club.board}: {played} match(es) played, records in {args.out}/matches/")
    return 0
