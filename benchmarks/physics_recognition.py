"""Recognition on the physics field: checkers put down with players' scatter, every sensor
reading the sum of every magnet's field (the sensing physics: hardware/sensing.toml, its
magpylib field table), the firmware's own classifier (firmware/classify.py, run here under
CPython on its default calibration) and the host's reading and recognition.

For every play of random self-play games (seeded), three boards, each put down afresh:

* ``legal``    the chosen legal play: Played (that play) or Ambiguous (offering it) is right;
               anything else is "not read" (the host waits: a checker it cannot see, a
               sensor fault sentence) — safe, the player nudges a checker;
* ``lifted``   one checker of the play still in the hand: reported, not judged — where the
               checker is bound for a stack, whose height the sensors cannot tell, the board
               may read as a finished play (the one being made, or another ending on that
               stack) until the checker lands: a mid-move reading, not the final verdict;
* ``illegal``  a checker moved by a distance no dice give: must not read as a played play
               unless ideal sensors (exact counts up to the slots, "at least" beyond:
               ``Observation.of_board``) would read it so too — the wrong checker went onto a
               stack, which no count of a stack's height can tell.

A **false accept** is a Played verdict naming another play than the one on the board (any
Played or Ambiguous verdict for an illegal board that ideal sensors would not give), or an Ambiguous one that does not offer the play
on the board.  The run stops at the first one.

Usage: python benchmarks/physics_recognition.py [plays=10000] [seed=1] [--spread=0.05]
       [--scatter=base,gap,across,limit,lean[,lone]] [--per-slot=1|2] [--no-crowd]
(--spread: each sensor's gain off by N(0, spread) — a board on its default calibration;
--scatter: the placement scatter in mm, bgboard.sim.placement.Scatter, and how often a lone
checker lies anywhere along its place; --per-slot 2: two sensors per slot, hardware/make_grid.py's
grid, read through the firmware's run rule, firmware/runs.py; --no-crowd: without the
firmware's correction for the field of the checkers around each sensor, firmware/crowd.py)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from bgboard.hardware import firmware_dir, load_grid, parse_grid
from bgboard.hardware.physics import load_design, load_table, response
from bgboard.rules.result import game_result
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, Observation, SensorFaultError, board_of, position_of
from bgboard.sense.recognise import Ambiguous, Played, Turn
from bgboard.sense.slots import SlotMap
from bgboard.sim.layout import Layout
from bgboard.sim.placement import Scatter, hypot_offsets, place_magnets, readings

sys.path.insert(0, str(firmware_dir()))
import calibration as fw_calibration  # noqa: E402  (the firmware's own modules, under CPython)
import classify as fw_classify  # noqa: E402
from crowd import Crowd, settle  # noqa: E402
from runs import Runs  # noqa: E402


class NoCrowd:
    """``--no-crowd``: the firmware without its crowd correction (firmware/crowd.py)."""

    def update(self, states, changed=None) -> bool:
        return False

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
import make_board  # noqa: E402
import make_grid  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recognition_verdicts import wrong_board  # noqa: E402


def main(plays: int = 10_000, seed: int = 1, spread: float = 0.05, scatter: Scatter = Scatter(), per_slot: int = 0,
         correct: bool = True) -> dict:
    design = load_design()
    table = load_table(design)
    resp = response(design, table)
    grid = parse_grid(make_grid.grid_text(per_slot)) if per_slot else load_grid()
    slot_map = SlotMap.from_slots(grid.slots)
    slots = slot_map.slots()
    rng = random.Random(seed)
    field_rng = random.Random(seed + 1)

    crowd_table = make_board.crowd_bytes(grid)  # board.py's CROWD_* for this grid
    run_layout = grid.firmware_layout()  # board.py's PER_SLOT, SLOT_PLACE, SLOT_INDEX

    def sense(layout: Layout):
        raw = readings(design, grid, table, layout, field_rng, scatter, gain_spread=spread)
        classifier = fw_classify.Classifier(fw_calibration.defaults(len(raw)), len(raw))
        runs = Runs(*run_layout)
        crowd = Crowd(classifier, len(grid.slots), crowd_table) if correct else NoCrowd()
        return slot_map.observation(bytes(settle(classifier, runs, crowd, list(raw))))

    tally: Counter[str] = Counter()
    offsets: list[float] = []
    done = 0
    t0 = time.perf_counter()
    while done < plays:
        position, mover, history = start_position(), WHITE, []
        for _ in range(300):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            turn = Turn(position, dice, mover, slots=slots, history=history)
            if not turn.plays:
                position, mover = position.swap(), 1 - mover
                continue
            play = rng.choice(turn.plays)
            layout = Layout.from_position(play.position, mover)
            if done % 50 == 0:
                offsets += hypot_offsets(design, grid, place_magnets(design, grid, layout, random.Random(done), scatter))
            try:
                verdict = turn.recognise(sense(layout))
            except SensorFaultError:
                verdict = None
            if isinstance(verdict, Played):
                if verdict.play.position != play.position:
                    raise AssertionError(f"false accept: {verdict.play.notation} for {play.notation}")
                tally["legal: played"] += 1
            elif isinstance(verdict, Ambiguous):
                if play.position not in {p.position for p in verdict.plays}:
                    raise AssertionError(f"false accept: candidates omit {play.notation}")
                tally["legal: ambiguous offer"] += 1
            else:
                tally[f"legal: not read ({type(verdict).__name__ if verdict else 'sensor fault'})"] += 1
            # the play's first checker still in the hand
            step = play.steps[0]
            lifted = list(board_of(position, mover))
            from bgboard.sense.places import physical_point

            lifted[physical_point(step.frm, mover) - 1] -= 1 if mover == WHITE else -1
            try:
                moving = turn.recognise(sense(Layout.from_position(position_of(lifted, mover), mover)))
            except SensorFaultError:
                moving = None
            if isinstance(moving, Played) and moving.play.position == play.position:
                # the checker in the hand is bound for a stack whose height the sensors cannot
                # tell: the board reads as the finished play (the same as recognition_verdicts)
                moving = "Played early (destination a stack)"
            elif isinstance(moving, Played):
                # another play that is complete on what the sensors can tell (its last checker
                # went to a stack): shown until the checker in the hand lands; not a final verdict
                moving = "Played another (destination a stack)"
            name = moving if isinstance(moving, str) else type(moving).__name__ if moving else "sensor fault"
            tally[f"lifted: {name}"] += 1
            wrong = wrong_board(position, dice, mover, rng)
            if wrong is not None:
                try:
                    seen = sense(Layout.from_position(position_of(wrong, mover), mover))
                    bad = turn.recognise(seen)
                except SensorFaultError:
                    bad = None
                name = type(bad).__name__ if bad else "sensor fault"
                if isinstance(bad, (Played, Ambiguous)):
                    ideal = turn.recognise(Observation.of_board(wrong, slots))
                    if type(ideal) is not type(bad):
                        exact = Observation.of_board(wrong, slots).codes
                        diff = {k + 1: (r, e) for k, (r, e) in enumerate(zip(seen.codes, exact)) if r != e}
                        raise AssertionError(f"false accept: {bad} for an illegal board (place: read, ideal {diff})")
                    # the wrong checker went onto a stack and a legal play ends on stacks too:
                    # counts beyond the slots cannot tell them apart, however good the sensors
                    name = f"{name} (so would ideal sensors: stacks)"
                tally[f"illegal: {name}"] += 1
            done += 1
            history.append((position, mover))
            if game_result(play.position) is not None or done >= plays:
                break
            position, mover = play.position.swap(), 1 - mover
    elapsed = time.perf_counter() - t0
    legal = sum(v for k, v in tally.items() if k.startswith("legal"))
    read = tally["legal: played"] + tally["legal: ambiguous offer"]
    offsets.sort()
    discs = f"{design.magnet_count} x " if design.magnet_count > 1 else ""
    apart = f" {design.magnet_spacing_mm:g} mm apart" if design.magnet_count > 1 else ""
    print(f"physics recognition: {done} plays (seed {seed}), {discs}{design.magnet_diameter_mm:g} x "
          f"{design.magnet_thickness_mm:g} mm {design.grade}{apart} at {design.gap_mm:g} mm, {design.sensor.name}, "
          f"B0 {resp.b0_mt:.2f} mT = {resp.swing} counts; {grid.per_slot} sensor(s) per slot "
          f"({len(grid.sensors())}); scatter {scatter}, gain spread {spread}"
          f"{'' if correct else ', without the crowd correction'}")
    print(f"checker centre to nearest sensor: p50 {statistics.median(offsets):.1f} mm, "
          f"p99 {offsets[int(0.99 * len(offsets))]:.1f} mm, max {offsets[-1]:.1f} mm ({len(offsets)} checkers)")
    print("false accepts: 0")
    print(f"legal plays read first time: {read}/{legal} ({100 * read / legal:.2f} %)")
    for key in sorted(tally):
        print(f"  {key:40} {tally[key]}")
    print(f"{elapsed:.0f} s, load {os.getloadavg()[0]:.1f}, Python {sys.version.split()[0]}")
    return dict(tally)


def _scatter(text: str) -> Scatter:
    return Scatter(*(float(v) for v in text.split(",")))


if __name__ == "__main__":
    numbers = [int(a) for a in sys.argv[1:] if not a.startswith("--")]
    options = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    main(*numbers, spread=float(options.get("spread", 0.05)),
         scatter=_scatter(options["scatter"]) if "scatter" in options else Scatter(),
         per_slot=int(options.get("per-slot", 0)), correct="--no-crowd" not in sys.argv)
