"""Settled observation -> verdict: how long recognition takes, side by side with move
generation by gnubg-nn (the reference) on the same positions, in one process.

For every roll of random self-play games (seeded) it times:

* ``turn``      building the roll's recognition context (legal plays + every partial board),
                done once when the dice are known;
* ``legal``     one settled observation of the chosen legal play -> Played/Ambiguous;
* ``moving``    a checker lifted in the middle of the play -> Moving (with LED destinations);
* ``illegal``   a checker moved by a distance no dice give -> Illegal (with the engine's
                explanation and what to put back);
* ``cold``      turn + legal: the worst case for the first reading after the roll;
* ``gnubg-nn``  gnubg_nn.moves() for the same position and dice (reference).

Usage: python benchmarks/recognition_verdicts.py [plays=10000] [seed=1] [--cpu]
(--cpu: time.thread_time, the CPU spent, instead of wall time: on a loaded machine the wall
time's tail is mostly the scheduler)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from bgboard.rules.position import Position
from bgboard.rules.result import game_result
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, Observation, Slots, board_of, physical_point
from bgboard.sense.recognise import Ambiguous, Illegal, Moving, Played, Turn

try:
    import gnubg_nn
except ImportError:  # pragma: no cover - non-x86-64
    gnubg_nn = None


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def wrong_board(position: Position, dice: tuple[int, int], mover: int, rng: random.Random) -> tuple[int, ...] | None:
    sums = {dice[0], dice[1], dice[0] + dice[1]} if dice[0] != dice[1] else {dice[0] * k for k in range(1, 5)}
    options = []
    for frm in range(1, 25):
        if not position.mine[frm] or position.mine[25]:
            continue
        for distance in range(1, 7):
            to = frm - distance
            if distance not in sums and to >= 1 and position.theirs[25 - to] == 0:
                options.append((frm, to))
    if not options:
        return None
    frm, to = rng.choice(options)
    board = list(board_of(position, mover))
    sign = 1 if mover == WHITE else -1
    board[physical_point(frm, mover) - 1] -= sign
    board[physical_point(to, mover) - 1] += sign
    return tuple(board)


def main(plays: int = 10_000, seed: int = 1) -> None:
    rng = random.Random(seed)
    slots = Slots()
    times: dict[str, list[float]] = {k: [] for k in ("turn", "legal", "moving", "illegal", "cold", "gnubg-nn")}
    verdicts = {"played": 0, "ambiguous": 0, "moving": 0, "illegal": 0}
    done = 0
    clock = time.thread_time if "--cpu" in sys.argv else time.perf_counter
    while done < plays:
        position, mover, history = start_position(), WHITE, []
        for _ in range(300):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            t0 = clock()
            turn = Turn(position, dice, mover, slots=slots, history=history)
            t1 = clock()
            if gnubg_nn is not None:
                g0 = clock()
                gnubg_nn.moves(list(map(list, position.to_gnubg())), dice[0], dice[1])
                times["gnubg-nn"].append(clock() - g0)
            if not turn.plays:
                position, mover = position.swap(), 1 - mover
                continue
            play = rng.choice(turn.plays)
            final = Observation.of_board(board_of(play.position, mover), slots)
            t2 = clock()
            verdict = turn.recognise(final)
            t3 = clock()
            times["turn"].append(t1 - t0)
            times["legal"].append(t3 - t2)
            times["cold"].append(t1 - t0 + t3 - t2)
            # a false accept: the verdict names a play other than the one on the board
            if isinstance(verdict, Played):
                if verdict.play.position != play.position:
                    raise AssertionError(f"false accept: {verdict.play.notation} for {play.notation}")
                verdicts["played"] += 1
            elif isinstance(verdict, Ambiguous):
                if play.position not in {p.position for p in verdict.plays}:
                    raise AssertionError(f"false accept: candidates omit {play.notation}")
                verdicts["ambiguous"] += 1
            else:
                raise AssertionError(f"a legal play was not recognised: {verdict}")
            step = play.steps[0]
            lifted = list(board_of(position, mover))
            lifted[physical_point(step.frm, mover) - 1] -= 1 if mover == WHITE else -1
            t4 = clock()
            moving = turn.recognise(Observation.of_board(lifted, slots))
            times["moving"].append(clock() - t4)
            verdicts["moving"] += isinstance(moving, Moving)
            wrong = wrong_board(position, dice, mover, rng)
            if wrong is not None:
                t5 = clock()
                bad = turn.recognise(Observation.of_board(wrong, slots))
                times["illegal"].append(clock() - t5)
                verdicts["illegal"] += isinstance(bad, Illegal)
            done += 1
            history.append((position, mover))
            if game_result(play.position) is not None or done >= plays:
                break
            position, mover = play.position.swap(), 1 - mover
    kind = "CPU time of this thread" if "--cpu" in sys.argv else "wall time"
    load = os.getloadavg()[0]
    print(f"recognition over {done} plays (seed {seed}), {kind}, Python {sys.version.split()[0]}, load {load:.1f}")
    print(f"{'measure':10} {'n':>6} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9} {'mean ms':>9}")
    for name, values in times.items():
        if not values:
            continue
        ms = [v * 1000 for v in values]
        print(f"{name:10} {len(ms):6} {pct(ms, .5):9.3f} {pct(ms, .99):9.3f} {max(ms):9.3f} {statistics.fmean(ms):9.3f}")
    if times["gnubg-nn"]:
        ref = pct([v * 1000 for v in times["gnubg-nn"]], .5)
        for name in ("legal", "cold"):
            print(f"ratio {name} p50 / gnubg-nn moves p50 = {pct([v * 1000 for v in times[name]], .5) / ref:.1f}")
    print("verdicts:", verdicts)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:] if not a.startswith("--")))
