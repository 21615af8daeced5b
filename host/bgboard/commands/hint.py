"""``bgboard hint``: the best plays of a roll, or cube advice, from a hint engine.

    bgboard hint POSITION DICE [--match-id MATCHID] [--engine NAME] [--top N] [--json]
    bgboard hint POSITION DICE --grade PLAY [--engine NAME] [--json]   (teaching)
    bgboard hint --batch [--engine NAME]          (lines "POSITION DICE" on stdin)
    bgboard hint --cube POSITION --match-id MATCHID [--engine NAME] [--json]

POSITION is a gnubg Position ID (the player on roll first) or an XGID, DICE two digits ("31",
"3-1", "3,1").  ``--batch`` prints one JSON object per input line:
``{"plays": [{"play", "position_id", "equity"}]}``, best first, where ``position_id`` is
``bgboard.rules.position_id(play.position)`` (as ``bgboard legal --json``).  An engine
that is not installed is replaced by pubeval with a one-line notice on stderr.
"""

from __future__ import annotations

import argparse
import json

import sys
from typing import Any, TextIO

from bgboard.language import ENGLISH, Words, said, say
from bgboard.language.catalogues import add_lang_argument, players_words
from bgboard.errors import InputError
from bgboard.hints.hint_engine import CubeHint, CubeState, HintEngine, PlaysHint
from bgboard.rules import parse_dice, parse_position
from bgboard.rules.position import Position


class HintArgumentError(InputError):
    """A ``bgboard hint`` command line that does not make sense."""


def cube_state_from_match_id(text: str) -> CubeState:
    """The cube facts of a gnubg Match ID, seen by the player on roll in it."""
    from bgboard.rules import ids

    match = ids.decode_match_id(text.strip())
    return cube_state_of(match)


def cube_state_of(match: Any) -> CubeState:
    """:class:`CubeState` from a ``bgboard.rules.ids.MatchId``, seen by its player on roll.

    ``cube_owner`` None is a centred cube; ``match_length`` 0 a money game.
    """
    me = int(match.on_roll)
    if match.cube_owner is None:
        owner = "centred"
    else:
        owner = "mine" if int(match.cube_owner) == me else "theirs"
    length = int(match.match_length)
    if length == 0:
        return CubeState(value=int(match.cube), owner=owner, jacoby=bool(match.jacoby))
    return CubeState(
        value=int(match.cube),
        owner=owner,
        my_away=length - int(match.score[me]),
        their_away=length - int(match.score[1 - me]),
        crawford=bool(match.crawford),
    )


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``bgboard hint``."""
    p = subparsers.add_parser(
        "hint",
        help="best plays of a roll, or cube advice, from a hint engine",
        description="Rank the plays of a roll (or advise on the cube) with bgsage, gnubg-nn or pubeval.",
    )
    p.add_argument("position", nargs="?", metavar="POSITION", help="gnubg Position ID (player on roll first) or XGID")
    p.add_argument("dice", nargs="?", metavar="DICE", help="the roll, e.g. 31 or 3-1")
    p.add_argument("--engine", default=None, help="bgsage, gnubg-nn, pubeval or auto (default: $BGBOARD_HINT_ENGINE or auto)")
    p.add_argument("--top", type=int, default=None, help="show at most N plays (default 5; all with --json)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_lang_argument(p)
    p.add_argument("--grade", metavar="PLAY", default=None,
                   help='grade this play of DICE as gnubg does, e.g. --grade "24/20" (illegal: the reason)')
    p.add_argument("--batch", action="store_true", help='read lines "POSITION DICE" from stdin, print one JSON object per line')
    p.add_argument("--cube", metavar="POSITION", default=None, help="cube advice for this position (needs --match-id)")
    p.add_argument("--match-id", default=None,
                   help="gnubg Match ID: cube, score and Crawford (needed with --cube; with DICE, bgsage plays for that score)")
    return p


def _open(name: str | None) -> HintEngine:
    from bgboard.hints.registry import open_engine

    opened = open_engine(name)
    if opened.notice:
        print(f"bgboard: {opened.notice}", file=sys.stderr)
    return opened.engine


def _plays_json(hint: PlaysHint, with_loss: bool) -> list[dict[str, Any]]:
    from bgboard.rules import position_id

    out = []
    for play in hint.plays:
        item: dict[str, Any] = {
            "play": play.notation,
            "position_id": position_id(play.position),
            "equity": round(play.equity, 6),
        }
        if with_loss:
            item["loss"] = round(play.loss, 6)
        out.append(item)
    return out


def _print_plays(hint: PlaysHint, out: TextIO) -> None:
    d1, d2 = hint.dice
    unit = "equity" if hint.calibrated else "pubeval score"
    print(f"{hint.engine} {d1}{d2} ({unit})", file=out)
    if not hint.plays:
        print("  no legal play: the roll is lost", file=out)
        return
    width = max(len(p.notation) for p in hint.plays)
    for rank, play in enumerate(hint.plays, 1):
        loss = "" if rank == 1 else f"  ({-play.loss:+.3f})"
        print(f"{rank:3d}. {play.notation:<{width}}  {play.equity:+.3f}{loss}", file=out)


def _print_cube(hint: CubeHint, out: TextIO) -> None:
    line = f"{hint.engine}: {hint.action}"
    if hint.reason:
        line += f" ({hint.reason})"
    if hint.basis:
        line += f" ({hint.basis})"
    print(line, file=out)
    if hint.no_double is not None:
        fmt = "{:.3f}" if hint.unit == "match winning chance" else "{:+.3f}"
        print(f"  ({hint.unit})", file=out)
        for label, value in (("no double", hint.no_double), ("double, take", hint.double_take),
                             ("double, pass", hint.double_pass)):
            print(f"  {label:<13} {fmt.format(value)}", file=out)


def _run_batch(engine: HintEngine, source: TextIO, out: TextIO) -> int:
    from bgboard.commands.batch import run_batch
    from bgboard.hints.advice import play_hints

    def answer(position: str, dice: str) -> dict[str, object]:
        hint = play_hints(engine, parse_position(position), parse_dice(dice))
        return {"plays": _plays_json(hint, with_loss=False)}

    return run_batch(source, out, answer)


def _grade(
    engine: HintEngine, position: Position, dice: tuple[int, int], text: str, state: CubeState | None, as_json: bool,
    words: Words = ENGLISH,
) -> int:
    """Grade one play (its legality checked by the rules engine first), said in ``words``'
    language (the JSON keeps gnubg's English grade words)."""
    from bgboard.hints.advice import play_hints
    from bgboard.hints.grade import grade_play
    from bgboard.rules import IllegalPlayError, NotationError, parse_play
    from bgboard.rules.reading import reason_of

    try:
        play = parse_play(text, position, dice)  # IllegalPlayError says why, in one sentence
    except (IllegalPlayError, NotationError) as exc:
        raise InputError(said(reason_of(exc), words)) from None
    hint = play_hints(engine, position, dice, state=state)
    if not hint.plays:
        verdict_text = say(words, "No legal play: passing is the only choice.")
        if as_json:
            print(json.dumps({"engine": hint.engine, "play": "pass", "best": "pass", "loss": 0.0, "grade": "good"}))
        else:
            print(verdict_text)
        return 0
    verdict = grade_play(hint, play.position)
    if as_json:
        print(json.dumps({"engine": hint.engine, "play": verdict.notation, "best": verdict.best,
                          "loss": round(verdict.loss, 6), "grade": verdict.grade}))
    else:
        print(said(verdict.text, words))
    return 0


def run(args: argparse.Namespace) -> int:
    """Dispatch the three forms of ``bgboard hint``."""
    from bgboard.hints.advice import cube_hint, play_hints

    if args.top is not None and args.top < 1:
        raise HintArgumentError(f"--top must be at least 1, not {args.top}")
    if args.batch:
        if args.position or args.dice or args.cube:
            raise HintArgumentError("--batch reads positions from stdin: give no POSITION, DICE or --cube")
        return _run_batch(_open(args.engine), sys.stdin, sys.stdout)
    if args.cube is not None:
        if args.position or args.dice:
            raise HintArgumentError("--cube takes the position itself: give no POSITION or DICE")
        if not args.match_id:
            raise HintArgumentError("--cube needs --match-id MATCHID (score, cube and Crawford)")
        position = parse_position(args.cube)
        state = cube_state_from_match_id(args.match_id)
        hint = cube_hint(_open(args.engine), position, state)
        if args.json:
            print(json.dumps({"engine": hint.engine, "action": hint.action, "take": hint.take,
                              "no_double": hint.no_double, "double_take": hint.double_take,
                              "double_pass": hint.double_pass, "unit": hint.unit, "reason": hint.reason,
                              "basis": hint.basis}))
        else:
            _print_cube(hint, sys.stdout)
        return 0
    if not args.position or not args.dice:
        raise HintArgumentError("give POSITION and DICE (or --batch, or --cube POSITION --match-id MATCHID)")
    position = parse_position(args.position)
    dice = parse_dice(args.dice)
    state = cube_state_from_match_id(args.match_id) if args.match_id else None
    engine = _open(args.engine)
    limit = args.top if args.top is not None else (None if args.json else 5)
    if args.grade is not None:
        return _grade(engine, position, dice, args.grade, state, args.json, players_words(args.lang))
    hint = play_hints(engine, position, dice, limit, state=state)
    if args.json:
        print(json.dumps({"engine": hint.engine, "dice": list(hint.dice), "calibrated": hint.calibrated,
                          "plays": _plays_json(hint, with_loss=True)}))
    else:
        _print_plays(hint, sys.stdout)
    return 0
