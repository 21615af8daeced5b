"""Accuracy of each backend's top hint, judged by gnubg-nn at 1-ply.

    python benchmarks/hints_accuracy.py --positions 600

Over positions from random play (benchmarks/hints_positions.py), every legal play is
evaluated by gnubg-nn at 1-ply (cubeless money equity); a backend's top hint loses
``best - equity(top hint)``.  Prints the mean loss, the share of exact agreements and the
share graded doubtful-or-worse by gnubg's thresholds, for the default backend ("auto",
i.e. bgsage when installed) next to gnubg-nn 0-ply and pubeval.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from hints_positions import sample  # noqa: E402

from bgboard.hints import grade, open_engine, play_hints  # noqa: E402
from bgboard.hints.gnubg_engine import GnubgEngine  # noqa: E402
from bgboard.rules import legal_plays  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--source", choices=("random", "played"), default="random",
                        help="positions from random play, or from games of gnubg-nn 0-ply against itself")
    args = parser.parse_args()
    judge = GnubgEngine(plies=1)
    samples = sample(args.source, args.positions, args.seed)
    engines = {"auto (default)": open_engine("auto").engine, "gnubg-nn 0-ply": open_engine("gnubg-nn").engine,
               "pubeval": open_engine("pubeval").engine}
    losses: dict[str, list[float]] = {name: [] for name in engines}
    started = time.perf_counter()
    choices = 0
    for position, dice in samples:
        plays = legal_plays(position, dice)
        if len(plays) < 2:
            continue  # nothing to choose
        choices += 1
        judged = dict(zip((p.position for p in plays), judge.rank(position, dice, [p.position for p in plays])))
        best = max(judged.values())
        for name, engine in engines.items():
            top = play_hints(engine, position, dice, limit=1).best
            assert top is not None
            losses[name].append(best - judged[top.position])
    seconds = time.perf_counter() - started
    print(f"{len(samples)} positions from {args.source} play, {choices} with a choice of play; judge gnubg-nn 1-ply")
    print(f"{'backend':18s} {'engine':10s} {'mean loss':>10s} {'best play':>10s} {'doubtful+':>10s}")
    for name, values in losses.items():
        n = len(values)
        mean = sum(values) / n
        exact = sum(1 for v in values if v <= 1e-9) / n
        poor = sum(1 for v in values if grade(v) != "good") / n
        print(f"{name:18s} {engines[name].name:10s} {mean:10.4f} {exact:10.1%} {poor:10.1%}")
    print(f"({seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
