"""Record another project's legal plays of a seed variant on random reachable boards, for the
differential test (tests/rules/test_variant_diff.py).

The other implementation is not part of bgboard and never enters its commits: give the path
of your own copy of it.  Boards come from random play with bgboard's engine (the mover's view,
each side in its own numbering), each with the roll of that turn; the other engine's plays are
written as data, one JSON object a line after a header line naming the repository, the file,
its commit and this command:

    .venv/bin/python tools/variant_diff.py fevga PATH/TO/engine.js --commit SHA \\
        --rows 1500 --built 300 --seed 16 > tests/data/rules/diff-mvichosfm-fevga.jsonl

Implementations known to this tool (docs/rules.md, "Differential test", says why others
were not usable): ``fevga`` = mvichosfm/fevga's ``src/engine.js`` (``finalPositions``), run
with node through tools/variant_diff_fevga.mjs.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "host"))

from bgboard.rules.board import Board, board_text  # noqa: E402
from bgboard.rules.games import GAMES  # noqa: E402
from bgboard.rules import fevga  # noqa: E402
from bgboard.rules.position import BAR, CHECKERS, OFF  # noqa: E402
from tests.rules.variant_boards import random_game  # noqa: E402

IMPLEMENTATIONS = {
    "fevga": {
        "repository": "mvichosfm/fevga",
        "file": "src/engine.js",
        "entry": "finalPositions(view, expandDice(dice))",
        "driver": "tools/variant_diff_fevga.mjs",
        "variant": "fevga",
    },
}


Sample = tuple[str, Board, tuple[int, int]]


def sample(variant: str, rows: int, built: int, rng: random.Random) -> list[Sample]:
    """``rows`` (board, roll) pairs met in random games of ``variant`` (bgboard's engine), the
    mover on roll (boards where the mover must pass are kept too), then ``built`` constructed
    boards of each kind with a random roll."""
    game = GAMES[variant]
    out: list[Sample] = []
    while len(out) < rows:
        for board, dice, _plays, _chosen in random_game(game, rng):
            if rng.random() < 0.15 and len(out) < rows:
                out.append(("play", board, dice))
    for kind in ("trap", "quarter"):
        out += [(kind, constructed(variant, kind, rng), roll(rng)) for _ in range(built)]
    return out


def roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def _ring(p: int) -> int:
    """My point ``p`` on the ring of 24 points (my 1-point lies next to my 24-point)."""
    return (p - 1) % 24 + 1


def constructed(variant: str, kind: str, rng: random.Random) -> Board:
    """A random Fevga board built to meet a rule random play hardly reaches, checked with
    ``Game.problems``: ``trap`` = the opponent's checkers left on the board all on one point
    and six of mine in a row just ahead of it on the ring (where that is on his way round
    or not); ``quarter`` = five of the six points of my starting quarter held.  Both sides
    keep to the first-checker rule (:func:`_first_checker_kept`)."""
    game = GAMES[variant]
    while True:
        mine = [0] * 26
        theirs = [0] * 26
        if kind == "trap":
            s = rng.randint(1, 24)  # their numbering
            waiting = rng.randint(1, CHECKERS) if s <= 6 else CHECKERS
            theirs[s] = waiting
            theirs[OFF] = CHECKERS - waiting
            o = fevga.theirs_at(s)  # the same point in my numbering
            held = [_ring(o - k) for k in range(1, 7)]
        else:
            missing = rng.randint(19, 24)
            held = [p for p in range(19, 25) if p != missing]
            free = [p for p in range(1, 25) if p not in held]
            for _ in range(CHECKERS):
                theirs[fevga.theirs_at(rng.choice(free))] += 1
        if any(theirs[fevga.theirs_at(p)] for p in held):
            continue
        for p in held:
            mine[p] += 1
        open_points = [p for p in range(1, 25) if not theirs[fevga.theirs_at(p)]]
        for _ in range(CHECKERS - len(held)):
            mine[rng.choice(open_points)] += 1
        board = Board(tuple(mine), tuple(theirs))
        if not game.problems(board) and _first_checker_kept(board.mine) and _first_checker_kept(board.theirs):
            return board


def _first_checker_kept(side: tuple[int, ...]) -> bool:
    """Whether a side (own numbering) can have come about under Fevga's first-checker rule:
    no second checker leaves the 24-point before one has passed the opponent's start
    (reached the 11-point or lower, or been borne off).  Game.problems does not check this
    (random play never breaks it), and the engines word the rule differently off it."""
    return side[24] >= CHECKERS - 1 or any(side[1:12]) or side[OFF] > 0


def side_list(side: tuple[int, ...]) -> list[int]:
    """A side as the driver takes it: index 0 borne off, 1..24 the points."""
    return [side[OFF], *side[1:BAR]]


def run(impl: str, engine: Path, boards: list[Sample]) -> list[list[dict]]:
    spec = IMPLEMENTATIONS[impl]
    feed = "".join(
        json.dumps({"mine": side_list(b.mine), "opp": side_list(b.theirs), "dice": list(d)}) + "\n"
        for _, b, d in boards
    )
    done = subprocess.run(
        ["node", str(ROOT / spec["driver"]), str(engine)], input=feed, capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def steps_text(steps: list[list[int]]) -> str:
    return " ".join(f"{a}/{'off' if b == 0 else b}" for a, b, _die in steps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("impl", choices=sorted(IMPLEMENTATIONS))
    parser.add_argument("engine", type=Path, help="path of the other project's file (your copy)")
    parser.add_argument("--commit", required=True, help="the commit that file was taken from")
    parser.add_argument("--rows", type=int, default=1500)
    parser.add_argument("--built", type=int, default=300, help="constructed boards of each kind")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    spec = IMPLEMENTATIONS[args.impl]
    boards = sample(spec["variant"], args.rows, args.built, random.Random(args.seed))
    answers = run(args.impl, args.engine, boards)
    header = {
        "header": {
            **{k: spec[k] for k in ("repository", "file", "entry", "driver", "variant")},
            "commit": args.commit,
            "command": f"tools/variant_diff.py {args.impl} ENGINE --commit {args.commit} --rows {args.rows} --built {args.built} --seed {args.seed}",
            "boards": (
                "kind 'play': random games of bgboard's engine, each turn kept with probability 0.15, with that "
                "turn's roll; 'trap' and 'quarter': random boards built around the prime rule and the starting "
                "quarter (tools/variant_diff.py, constructed), with a random roll"
            ),
            "rows": len(boards),
        }
    }
    print(json.dumps(header))
    for (kind, board, dice), found in zip(boards, answers, strict=True):
        plays = {
            board_text(Board((p["mine"][0], *p["mine"][1:25], 0), board.theirs)): steps_text(p["steps"]) for p in found
        }
        plays = dict(sorted(plays.items()))
        print(json.dumps({"kind": kind, "position": board_text(board), "dice": list(dice), "plays": plays}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
