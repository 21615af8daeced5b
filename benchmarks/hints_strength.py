"""Strength of each hint backend against pubeval: cubeless money games.

    python benchmarks/hints_strength.py --engine bgsage --games 5000 --seed 1

Each game starts from the opening position with a non-double opening roll; the backend
moves first in even-numbered games, pubeval in odd ones.  The backend plays through the
product path (``bgboard.hints.play_hints``: the rules engine lists the plays, the backend
ranks them).  The pubeval opponent is gnubg-nn's C ``pub_best_move`` (Tesauro's weights,
the race/contact choice made on the position before the play), for speed.  A win counts
1, a gammon 2, a backgammon 3.  Prints points per game ± standard error for the backend,
and, with ``--reference``, the same for gnubg-nn's own C ``best_move`` at 0-ply.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

import gnubg_nn  # noqa: E402

from bgboard.hints import open_engine, play_hints  # noqa: E402
from bgboard.hints.terminal import finished_equity  # noqa: E402
from bgboard.rules import Position, start_position  # noqa: E402

Mover = Callable[[Position, tuple[int, int]], Position]


def apply_gnubg_move(position: Position, move: list[int]) -> Position:
    """Apply gnubg's flat move list (0-based points, 24 = bar, -1 = off) for the player on roll."""
    mine = list(position.mine)
    theirs = list(position.theirs)
    for i in range(0, len(move), 2):
        frm, to = move[i] + 1, move[i + 1] + 1  # → our indices: 1..24, 25 = bar, 0 = off
        mine[frm] -= 1
        mine[to] += 1
        if to > 0 and theirs[25 - to] == 1:
            theirs[25 - to] = 0
            theirs[25] += 1
    return Position(tuple(mine), tuple(theirs))


def pubeval_mover(position: Position, dice: tuple[int, int]) -> Position:
    board = position.to_gnubg()
    move = gnubg_nn.pub_best_move([list(board[0]), list(board[1])], dice[0], dice[1])
    return apply_gnubg_move(position, list(move))


def gnubg_c_mover(position: Position, dice: tuple[int, int]) -> Position:
    board = position.to_gnubg()
    move = gnubg_nn.best_move([list(board[0]), list(board[1])], dice[0], dice[1])
    flat = [x - 1 for step in move for x in step]  # best_move gives 1-based, 25 = bar, 0 = off
    return apply_gnubg_move(position, flat)


def engine_mover(name: str) -> Mover:
    opened = open_engine(name)
    if opened.notice:
        raise SystemExit(opened.notice)
    engine = opened.engine

    def move(position: Position, dice: tuple[int, int]) -> Position:
        best = play_hints(engine, position, dice).best
        return position if best is None else best.position

    return move


def play_game(first: int, movers: tuple[Mover, Mover], rng: random.Random) -> int:
    """Points won by player 0 (negative: lost)."""
    position = start_position()
    on_roll = first
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while d1 == d2:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while True:
        after = movers[on_roll]((position), (d1, d2))
        points = finished_equity(after, 15)
        if points is not None:
            return int(points) if on_roll == 0 else -int(points)
        position = after.swap()
        on_roll = 1 - on_roll
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


def match(mover: Mover, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    total = 0
    square = 0
    started = time.perf_counter()
    for i in range(games):
        pts = play_game(i % 2, (mover, pubeval_mover), rng)
        total += pts
        square += pts * pts
    seconds = time.perf_counter() - started
    mean = total / games
    var = square / games - mean * mean
    se = math.sqrt(var / games)
    return {"games": games, "ppg": mean, "se": se, "seconds": seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="bgsage", help="bgsage, gnubg-nn or pubeval")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", action="store_true", help="also play gnubg-nn's C best_move (0-ply)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    args = parser.parse_args()
    rows = {}
    rows[args.engine] = match(engine_mover(args.engine), args.games, args.seed)
    if args.reference:
        rows["gnubg_nn.best_move (C, 0-ply)"] = match(gnubg_c_mover, args.games, args.seed)
    print(f"{'player':32s} {'games':>6s} {'ppg vs pubeval':>16s} {'s/game':>8s}")
    for name, r in rows.items():
        print(f"{name:32s} {r['games']:6d} {r['ppg']:+8.3f} ± {r['se']:.3f} {r['seconds'] / r['games']:8.3f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
