"""``bgboard selfplay``: two built-in players play a complete match and write its record.

    bgboard selfplay --match-length N --seed S [--rules standard] --out match.mat
                     [--sgf match.sgf] [--json]

Same seed, same match.  The .mat file is appended action by action as the match is
played.  ``--json`` prints ``{"match_length": N, "score": [a, b], "games": [{"winner":
0|1, "points": p, "cube": c, "result": "single|gammon|backgammon|drop|resign"}]}``
(player 0 is the left column of the .mat).  ``--rules money`` plays one money game
(``--match-length 0``).  ``--variant plakoto|fevga|anti|race`` plays a seed variant with
the built-in heuristic players (``result`` may then be ``mother`` or ``draw``, with
``winner`` null); ``--rules tavli`` plays Portes, Plakoto and Fevga in rotation to 5 or 7.
"""

from __future__ import annotations

import argparse
import json

from bgboard.errors import InputError
from bgboard.files import check_distinct
from bgboard.match.ruleset import PRESETS
from bgboard.match.recordfile import MatFile, write_text
from bgboard.match.selfplay import selfplay
from bgboard.match.sgf import export_sgf
from bgboard.match.state import MATCH_VARIANTS, MatchState, apply


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "selfplay",
        help="play a complete match between two built-in players and write its record",
        description="Play a complete match between two built-in players (deterministic by "
        "seed) and write it as a .mat file (and SGF).",
    )
    parser.add_argument("--match-length", type=int, required=True, metavar="N",
                        help=f"points to win, 1 to {MAX_LENGTH} (0 with --rules money)")
    parser.add_argument("--seed", type=int, required=True, metavar="S", help="random seed")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS),
                        help="rule set (default: standard)")
    parser.add_argument("--variant", default=None, choices=MATCH_VARIANTS,
                        help="the game (default: the rule set's; tavli rotates Portes, Plakoto, Fevga)")
    parser.add_argument("--out", required=True, metavar="MATCH.mat", help=".mat file to write")
    parser.add_argument("--sgf", metavar="MATCH.sgf", help="also write the match as SGF")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


#: The longest match selfplay plays: gnubg's (MAXSCORE), so every record it writes imports there.
MAX_LENGTH = 64


def summary(state: MatchState) -> dict[str, object]:
    """The ``--json`` object of a finished match."""
    return {
        "match_length": state.length,
        "score": list(state.score),
        "games": [
            {"winner": g.winner, "points": g.points, "cube": g.cube, "result": g.result}
            for g in state.games
        ],
    }


def run(args: argparse.Namespace) -> int:
    if args.match_length > MAX_LENGTH:
        raise InputError(f"--match-length is at most {MAX_LENGTH} (gnubg's longest match), not {args.match_length}")
    check_distinct(out=args.out, sgf=args.sgf)
    actions = selfplay(args.match_length, args.seed, args.rules, variant=args.variant)  # bad length: InputError
    state: MatchState | None = None
    with MatFile(args.out) as record:
        for action in actions:
            after = apply(state, action)
            record.append(action, state, after)
            state = after
    assert state is not None
    if args.sgf:
        write_text(args.sgf, export_sgf(actions))
    if args.json:
        print(json.dumps(summary(state)))
    else:
        a, b = state.score
        print(f"{state.players[0]} {a} - {b} {state.players[1]} in {len(state.games)} "
              f"game{'s' if len(state.games) != 1 else ''}; record written to {args.out}")
    return 0
