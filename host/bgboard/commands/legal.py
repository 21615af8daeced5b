"""``bgboard legal``: the legal plays of a roll.

    bgboard legal POSITION DICE [--json]
    bgboard legal POSITION DICE --play TEXT [--json]
    bgboard legal --batch            (lines "POSITION DICE" on stdin, one JSON object each)

POSITION is a gnubg Position ID (``4HPwATDgc/ABMA``) or an XGID (``XGID=-b----E-C---...``);
DICE like ``31`` (or ``3-1``; optional when an XGID carries the roll).  Each play is printed in gnubg notation, one per line, or
``no legal play``.  The JSON object is
``{"position": "...", "dice": [3, 1], "plays": [{"play": "8/5 6/5", "position_id": "..."}]}``
where ``position_id`` is the resulting position before the sides swap (gnubg-nn's
convention for the keys of ``gnubg_nn.moves``).

``--play TEXT`` reads a play as players write it (``13/10``, ``13/11/10``, ``24/18(2)``,
``bar/22*``, ``13-7``: the rules engine's one reader, as at the terminal board and in ``hint
--grade``) and prints it in gnubg notation if it is legal, or says in one sentence why not
(exit 2); text two plays fit is answered with both.

``--variant plakoto|fevga|anti|race`` plays that variant's rules (docs/rules.md, "The seed
variants"); POSITION is then ``start`` or the variant text form (a Position ID of both
sides' counts, each in its own numbering, with ``:pinned=M/T`` or ``:reserve=M/T``), and
the JSON plays carry ``"board"`` (that form, mover still on roll) and ``"ended"`` (the game
ended on this play) instead of ``position_id``.
"""

from __future__ import annotations

import argparse
import json

import sys
from typing import TextIO

from bgboard.language import ENGLISH, Words, said, say
from bgboard.language.catalogues import add_lang_argument, players_words
from bgboard.errors import InputError
from bgboard.rules.games import GAMES
from bgboard.rules import (
    InvalidDiceError,
    Position,
    legal_plays,
    parse_dice,
    parse_play,
    parse_position,
    position_id,
    xgid_decode,
)

def variant_answer(variant: str, position_text: str, dice_text: str) -> dict:
    """The JSON object for one question in one of the seed games of :data:`GAMES`."""
    game = GAMES[variant]
    board = game.parse_board(position_text)
    dice = parse_dice(dice_text)
    return {
        "variant": variant,
        "position": position_text,
        "dice": list(dice),
        "plays": [
            {"play": p.notation, "board": game.board_text(p.position), "ended": p.ended}
            for p in game.plays(board, dice)
        ],
    }


def answer(position_text: str, dice_text: str, checkers: int = 15, variant: str = "standard") -> dict:
    """The JSON object for one question."""
    if GAMES[variant].seed:
        return variant_answer(variant, position_text, dice_text)
    position = parse_position(position_text, checkers)
    dice = parse_dice(dice_text)
    plays = legal_plays(position, dice)
    return {
        "position": position_text,
        "dice": list(dice),
        "plays": [{"play": p.notation, "position_id": position_id(p.position)} for p in plays],
    }


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "legal",
        help="list the legal plays of a roll",
        description="List the legal plays of a roll in gnubg notation.",
    )
    parser.add_argument("position", nargs="?", help="gnubg Position ID or XGID (player on roll's view)")
    parser.add_argument("dice", nargs="?", help="the roll, like 31")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--play", metavar="TEXT", help="check one play as written (13/10, 24/18(2), bar/22*) and print it")
    parser.add_argument("--batch", action="store_true", help="read 'POSITION DICE' lines on stdin, write JSON lines")
    parser.add_argument("--variant", choices=tuple(GAMES), default="standard",
                        help="checkers per side (Hypergammon has fewer), or a seed variant's rules "
                        "(plakoto, fevga, anti, race: POSITION 'start' or the variant form of docs/rules.md)")
    add_lang_argument(parser)
    return parser


def _batch(stdin: TextIO, stdout: TextIO, checkers: int, variant: str = "standard") -> int:
    from bgboard.commands.batch import run_batch

    return run_batch(stdin, stdout, lambda position, dice: answer(position, dice, checkers, variant))


def _check_play(position_text: str, dice_text: str, text: str, checkers: int, as_json: bool,
                words: Words = ENGLISH) -> int:
    """``--play``: the play ``text`` names, in gnubg notation (an error says why not, in
    ``words``' language)."""
    from bgboard.rules import IllegalPlayError, NotationError
    from bgboard.rules.reading import reason_of

    position = parse_position(position_text, checkers)
    try:
        play = parse_play(text, position, parse_dice(dice_text))
    except (IllegalPlayError, NotationError) as exc:
        raise InputError(said(reason_of(exc), words)) from None
    if as_json:
        print(json.dumps({"position": position_text, "play": play.notation, "position_id": position_id(play.position)}))
    else:
        print(play.notation or say(words, "no legal play"))
    return 0


def run(args: argparse.Namespace) -> int:
    checkers = GAMES[args.variant].checkers
    if args.batch:
        if args.position or args.dice:
            raise InputError("--batch reads positions and dice from stdin: give no POSITION or DICE")
        return _batch(sys.stdin, sys.stdout, checkers, args.variant)
    dice = args.dice
    if args.position and not dice and ":" in args.position and not GAMES[args.variant].seed:  # an XGID may carry the roll
        rolled = xgid_decode(args.position, checkers).dice
        if rolled != (0, 0):
            dice = f"{rolled[0]}{rolled[1]}"
    if not args.position or not dice:
        raise InputError("give a POSITION (Position ID or XGID) and DICE like 31, or --batch")
    if args.play is not None:
        return _check_play(args.position, dice, args.play, checkers, args.json, players_words(args.lang))
    result = answer(args.position, dice, checkers, args.variant)
    if args.json:
        print(json.dumps(result))
    elif result["plays"]:
        for play in result["plays"]:
            print(play["play"])
    else:
        print(say(players_words(args.lang), "no legal play"))
    return 0
