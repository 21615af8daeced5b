"""The engine opponent's levels, measured: points per game against pubeval, cubeless money games.

    python benchmarks/opponent_levels.py --games 5000 --seed 1 [--json out.json]
    python benchmarks/opponent_levels.py --calibrate 0.03,0.06,0.1,0.15,0.25,0.5 --games 1000

Each level of the ladder (``bgboard.hints.levels.LADDER``, weakest first) plays ``--games``
games against pubeval through the opponent's own choice (``choose_play``: the rules engine
lists the plays, the level's engine ranks them, the level's deterministic noise shakes
them).  The pubeval opponent is gnubg-nn's C ``pub_best_move`` (as
benchmarks/hints_strength.py).  Each game starts from the opening position with a
non-double opening roll; the level moves first in even games.  A win counts 1, a gammon 2, a
backgammon 3.  Prints ppg ± standard error and the 95 % interval (±1.96 SE).  The noise is
keyed by the game number too (``salt``), so repeated positions across games are not one
draw.  ``--calibrate`` plays gnubg-nn with each listed noise σ instead: the sweep the
constants in ``bgboard.hints.levels`` were chosen from.  ``--levels`` picks rungs by spec.

``--grade ENGINE[:PLY]`` also grades every checker play the level makes in those games with
that engine's cubeless money equities (``gnubg-nn``: gnubg-nn's 0-ply, the evaluator of
``bgboard analyse``; ``bgsage:2ply``: bgsage looking further): the level's **expected error
rate** as gnubg counts it (docs/analysis.md) — 1000 × the equity lost against the grader's
best play, over the unforced plays (more than one distinct result) — and XG's PR, that rate
halved.  A level is graded by a grader no stronger than itself only as the grader sees it:
gnubg-nn's expert is its own best play (0 by construction) and a stronger level's
"errors" are the grader's disagreements.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hints_strength import pubeval_mover  # noqa: E402

from bgboard.hints.levels import LADDER, Level, choose_play, make_engine, parse_opponent  # noqa: E402
from bgboard.hints.terminal import finished_equity  # noqa: E402
from bgboard.hints.hint_engine import HintEngine  # noqa: E402
from bgboard.rules import Position, apply_step, legal_plays, start_position  # noqa: E402
from bgboard.rules.step import Step  # noqa: E402

Mover = Callable[[Position, tuple[int, int], int], Position]


class Grades:
    """The equity a level lost against a grader's best play, over its unforced plays."""

    def __init__(self, grader: HintEngine) -> None:
        self.grader = grader
        self.lost = 0.0
        self.unforced = 0
        self.plays = 0

    def grade(self, position: Position, dice: tuple[int, int], after: Position) -> None:
        self.plays += 1
        results = [play.position for play in legal_plays(position, dice)]
        if len(results) < 2:
            return
        scores = self.grader.rank(position, dice, results)
        chosen = scores[results.index(after)]
        self.lost += max(scores) - chosen
        self.unforced += 1

    def figures(self) -> dict[str, float]:
        rate = 1000 * self.lost / self.unforced if self.unforced else 0.0
        return {"graded_plays": self.plays, "unforced": self.unforced, "error_rate_memg": rate, "pr": rate / 2}


def level_mover(level: Level, grades: Grades | None = None) -> Mover:
    engine = make_engine(level.engine, level.eval_level)

    def move(position: Position, dice: tuple[int, int], game: int) -> Position:
        decision = choose_play(engine, position, dice, None, level.noise, f"{level.spec}|{game}")
        before = position
        for frm, to in decision.steps:
            position = apply_step(position, Step(frm, to, 0))
        if grades is not None:
            grades.grade(before, dice, position)
        return position

    return move


def play_game(game: int, mover: Mover, rng: random.Random) -> int:
    """Points won by the level (negative: lost)."""
    position = start_position()
    on_roll = game % 2
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while d1 == d2:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    while True:
        after = mover(position, (d1, d2), game) if on_roll == 0 else pubeval_mover(position, (d1, d2))
        points = finished_equity(after, 15)
        if points is not None:
            return int(points) if on_roll == 0 else -int(points)
        position = after.swap()
        on_roll = 1 - on_roll
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


def measure(mover: Mover, games: int, seed: int, every: int = 0, name: str = "") -> dict[str, float]:
    """``every`` > 0: print the figures so far every that many games (a slow level on a busy
    machine still leaves a result if it is stopped)."""
    rng = random.Random(seed)
    total = square = 0
    started = time.perf_counter()
    result: dict[str, float] = {}
    for game in range(games):
        points = play_game(game, mover, rng)
        total += points
        square += points * points
        n = game + 1
        if n == games or (every and n % every == 0):
            mean = total / n
            se = math.sqrt(max(square / n - mean * mean, 0.0) / n)
            result = {"games": n, "ppg": mean, "se": se, "ci95": 1.96 * se, "seconds": time.perf_counter() - started}
            if every and n < games:
                print(f"  {name} after {n} games: {mean:+.3f} ± {se:.3f} (load {os.getloadavg()[0]:.1f})", flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="", help="comma-separated ENGINE:LEVEL specs (default: the ladder)")
    parser.add_argument("--calibrate", default="", help="comma-separated noise values for gnubg-nn (the sweep)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--every", type=int, default=0, help="print the figures so far every N games")
    parser.add_argument("--grade", default="", help="ENGINE[:PLY] grading every play of the level: its error rate and PR")
    args = parser.parse_args()
    if args.calibrate:
        levels = [Level("gnubg-nn", f"noise {s}", float(s)) for s in args.calibrate.split(",")]
    elif args.levels:
        levels = [parse_opponent(spec) for spec in args.levels.split(",")]
    else:
        levels = list(LADDER)
    rows: dict[str, dict[str, float]] = {}
    print(f"load average {os.getloadavg()[0]:.2f}; {args.games} games per level, seed {args.seed}", flush=True)
    print(f"{'level':30s} {'noise':>6s} {'games':>6s} {'ppg vs pubeval':>16s} {'95% CI':>8s} {'s/game':>7s}", flush=True)
    grader_name, _, grader_ply = args.grade.partition(":")
    for level in levels:
        grades = Grades(make_engine(grader_name, grader_ply)) if args.grade else None
        r = measure(level_mover(level, grades), args.games, args.seed, args.every, level.spec)
        figures = grades.figures() if grades else {}
        rows[level.spec] = r | {"noise": level.noise} | figures
        graded = (f"  error rate {figures['error_rate_memg']:5.1f} mEMG, PR {figures['pr']:5.1f}"
                  f" ({figures['unforced']} unforced plays, graded by {args.grade})" if figures else "")
        print(f"{level.spec:30s} {level.noise:6.3f} {r['games']:6d} {r['ppg']:+8.3f} ± {r['se']:.3f} "
              f"±{r['ci95']:.3f} {r['seconds'] / r['games']:7.3f}{graded}", flush=True)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
