"""Record another project's legal plays of a seed variant on random boards, for the
differential test (tests/rules/test_variant_diff.py; docs/rules.md, "Differential test").

The other implementation is not part of bgboard and never enters its commits: give the path
of your own copy of it.  Boards come from random play with bgboard's engine (the mover's view,
each side in its own numbering), each with the roll of that turn, and for Fevga also from
random boards built around its prime and starting-quarter rules; the other engine's plays
are written as data, one JSON object a line after a header line naming the repository, the
file, its commit and this command:

    .venv/bin/python tools/variant_diff.py fevga PATH/TO/src/engine.js --commit SHA \\
        --rows 1200 --built 150 --seed 16 | gzip -9n > tests/data/rules/diff-mvichosfm-fevga.jsonl.gz
    .venv/bin/python tools/variant_diff.py plakoto PATH/TO/CHECKOUT --commit SHA \\
        --rows 1000 --seed 16 | gzip -9n > tests/data/rules/diff-ziyi0218-plakoto.jsonl.gz

Implementations: ``fevga`` = mvichosfm/fevga's ``src/engine.js`` (``finalPositions``), run
with node through tools/variant_diff_fevga.mjs; ``plakoto`` = ziyi0218/plakoto-python-ai's
``src/plakoto/core`` (``generate_macro_moves``), loaded in this process.
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
        "file": "src/engine.js (its rules: everything above its evaluation section)",
        "entry": "finalPositions(view, expandDice(dice))",
        "driver": "tools/variant_diff_fevga.mjs",
        "variant": "fevga",
    },
    "plakoto": {
        "repository": "ziyi0218/plakoto-python-ai",
        "file": "src/plakoto/core/moves.py",
        "entry": "generate_macro_moves(board, dice, 'B') (every play it lists, before its filter_max_pratique preference)",
        "driver": "tools/variant_diff.py (ziyi0218_plays, in-process: its core package is loaded from the path given)",
        "variant": "plakoto",
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
    for kind in ("trap", "quarter") if variant == "fevga" else ():
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


def ziyi0218_plays(checkout: Path, boards: list[Sample]) -> list[list[dict]]:
    """ziyi0218/plakoto-python-ai's plays: its ``core`` package (board.py, moves.py) loaded
    from ``checkout`` without the package's ``__init__`` (which imports its pygame
    interface).  Its board: ``{0..23: [colours bottom to top], "off_B", "off_N"}``, "B"
    moving 0 -> 23; the mover is "B", so my point ``p`` is its index ``24 - p`` and the
    opponent's point ``q`` its index ``q - 1``; a pinned checker lies under its pinners."""
    import contextlib
    import importlib.util
    import io

    core = checkout / "src" / "plakoto" / "core"
    spec = importlib.util.spec_from_file_location(
        "ziyi0218_core", core / "__init__.py", submodule_search_locations=[str(core)]
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["ziyi0218_core"] = package
    spec.loader.exec_module(package)
    moves = importlib.import_module("ziyi0218_core.moves")
    out: list[list[dict]] = []
    for _, board, dice in boards:
        plateau: dict = {i: [] for i in range(24)}
        for p in range(1, 25):
            q = BAR - p  # the opponent's number of my point p
            mine, theirs = board.mine[p], board.theirs[q]
            if board.pins[0] >> p & 1:
                plateau[24 - p] = ["B"] + ["N"] * theirs
            elif board.pins[1] >> q & 1:
                plateau[24 - p] = ["N"] + ["B"] * mine
            else:
                plateau[24 - p] = ["B"] * mine + ["N"] * theirs
        plateau["off_B"], plateau["off_N"] = board.mine[OFF], board.theirs[OFF]
        rolled = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        with contextlib.redirect_stdout(io.StringIO()):  # it prints every refused step
            found = moves.generate_macro_moves(plateau, rolled, "B")
        plays = []
        for signature, sequences in found.items():
            stacks = signature.split("|")
            mine = [0] * 26
            theirs = [0] * 26
            pins = [0, 0]
            for i, stack in enumerate(stacks[:24]):
                p = 24 - i
                mine[p] = stack.count("B")
                theirs[BAR - p] = stack.count("N")
                if len(set(stack)) == 2:
                    if stack[0] == "B":
                        pins[0] |= 1 << p
                    else:
                        pins[1] |= 1 << (BAR - p)
            mine[OFF] = CHECKERS - sum(mine)
            theirs[OFF] = CHECKERS - sum(theirs)
            steps = [[24 - a, 0 if b in (-1, 24) else 24 - b, d] for a, b, d in sequences[0]]
            plays.append({"board": Board(tuple(mine), tuple(theirs), (pins[0], pins[1])), "steps": steps})
        out.append(plays)
    return out


def steps_text(steps: list[list[int]]) -> str:
    """``from/to:die`` for each single step, ``off`` for a checker borne off."""
    return " ".join(f"{a}/{'off' if b == 0 else b}:{die}" for a, b, die in steps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("impl", choices=sorted(IMPLEMENTATIONS))
    parser.add_argument("engine", type=Path, help="your copy of the other project: its engine file (fevga) or its checkout (plakoto)")
    parser.add_argument("--commit", required=True, help="the commit that file was taken from")
    parser.add_argument("--rows", type=int, default=1500)
    parser.add_argument("--built", type=int, default=300, help="constructed boards of each kind")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    spec = IMPLEMENTATIONS[args.impl]
    boards = sample(spec["variant"], args.rows, args.built, random.Random(args.seed))
    if args.impl == "plakoto":
        answers = ziyi0218_plays(args.engine, boards)
    else:
        answers = [
            [{"board": Board((p["mine"][0], *p["mine"][1:25], 0), b.theirs), "steps": p["steps"]} for p in found]
            for (_, b, _), found in zip(boards, run(args.impl, args.engine, boards), strict=True)
        ]
    header = {
        "header": {
            **{k: spec[k] for k in ("repository", "file", "entry", "driver", "variant")},
            "commit": args.commit,
            "command": f"tools/variant_diff.py {args.impl} ENGINE --commit {args.commit} --rows {args.rows}"
            + (f" --built {args.built}" if spec["variant"] == "fevga" else "")
            + f" --seed {args.seed}",
            "boards": "kind 'play': random games of bgboard's engine, each turn kept with probability 0.15, with "
            "that turn's roll"
            + (
                "; 'trap' and 'quarter': random boards built around the prime rule and the starting quarter "
                "(tools/variant_diff.py, constructed), with a random roll"
                if spec["variant"] == "fevga"
                else ""
            ),
            "rows": len(boards),
        }
    }
    print(json.dumps(header))
    for (kind, board, dice), found in zip(boards, answers, strict=True):
        plays = {board_text(p["board"]): steps_text(p["steps"]) for p in found}
        plays = dict(sorted(plays.items()))
        print(json.dumps({"kind": kind, "position": board_text(board), "dice": list(dice), "plays": plays}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
