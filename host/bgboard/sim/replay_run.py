"""Replaying a match file on the modelled board (``bgboard sim --replay``).

The stops and the buttons are :mod:`bgboard.control.replay_room` (pure, shared with ``bgboard run
--replay``); they are re-exported here.

:func:`simulate_replay` plays a whole file on the modelled board (the virtual table, its
hall sensors, the firmware's debounce as :class:`~bgboard.sim.table.Table` models it): at
each step a simulated person follows the set-up guidance, carrying checkers until the host's
set-up check (:func:`bgboard.sense.recognise.setup_fixes`) finds nothing left to fix, i.e.
the position the sensors read is the file's.  It presses back now and then to check the way
back too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from bgboard.control.events import Button
from bgboard.control.replay_room import BACK, FORWARD, NEXT_GAME, Replayer, ReplayStep, replay_steps
from bgboard.sense.places import SensorFaultError
from bgboard.sense.recognise import setup_fixes
from bgboard.sim.field import Faults
from bgboard.sim.layout import BAR_PLACES, BLACK, OFF_PLACES, POINT_PLACES, WHITE, Layout
from bgboard.sim.checker_moves import Move
from bgboard.sim.table import Table

__all__ = ["BACK", "FORWARD", "NEXT_GAME", "ReplayReport", "ReplayStep", "Replayer", "guided_moves",
           "replay_steps", "simulate_replay"]



# ----------------------------------------------------------------------------- the modelled board
def _count(layout: Layout, place: str, colour: int) -> int:
    here, n = layout.at(place)
    return n if n and here == colour else 0


def guided_moves(now: Layout, target: Layout) -> list[Move]:
    """The checkers a person carries to turn ``now`` into ``target``, as the set-up
    guidance asks: each surplus checker to a place that needs one of its colour; a checker
    in the way of the other colour first (to a place its colour needs, or its tray)."""
    places = POINT_PLACES + BAR_PLACES + OFF_PLACES
    moves: list[Move] = []
    layout = now
    for _ in range(4 * 30 + 8):
        if layout == target:
            return moves
        move = None
        for colour in (WHITE, BLACK):
            surplus = [p for p in places if _count(layout, p, colour) > _count(target, p, colour)]
            needs = [p for p in places if _count(layout, p, colour) < _count(target, p, colour)]
            free = [p for p in needs if _count(layout, p, 1 - colour) == 0 or p not in POINT_PLACES]
            if surplus and free:
                move = Move(surplus[0], free[0])
                break
        if move is None:  # every place a colour needs holds the other colour: clear one
            for colour in (WHITE, BLACK):
                needs = [p for p in places if _count(layout, p, colour) < _count(target, p, colour)]
                if needs:
                    blocked = needs[0]
                    move = Move(blocked, OFF_PLACES[1 - colour])
                    break
        assert move is not None
        layout = layout.lift(move.src)[0].put(move.dst, layout.at(move.src)[0])
        moves.append(move)
    raise AssertionError("the set-up guidance did not converge")  # pragma: no cover


@dataclass
class ReplayReport:
    """What :func:`simulate_replay` saw: stops shown, positions the sensors read and checked
    against the file, the ones that differed (none expected), presses of each button."""

    stops: int = 0
    checked: int = 0
    differing: list[str] = field(default_factory=list)
    carried: int = 0
    presses: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"stops": self.stops, "positions_checked": self.checked, "differing": self.differing,
                "checkers_carried": self.carried, "presses": self.presses}


def simulate_replay(steps: tuple[ReplayStep, ...], seed: int = 1, noise: float = 0.0, flicker: bool = True,
                    back_every: int = 9, show: Callable[[ReplayStep], None] | None = None,
                    faults: Faults | None = None) -> ReplayReport:
    """Replay every stop on the modelled board (see the module docstring); ``show`` gets each
    stop as it is reached (to draw the display); ``faults`` breaks sensors (for tests)."""
    report = ReplayReport()
    if not steps:
        return report
    table = Table(Layout.from_position(steps[0].position, WHITE), random.Random(seed), noise=noise, flicker=flicker, faults=faults or Faults())
    replayer = Replayer(steps)
    pressed = 0

    def arrive(step: ReplayStep) -> None:
        moves = guided_moves(table.layout, Layout.from_position(step.position, WHITE))
        report.carried += len(moves)
        report.checked += 1
        try:
            for frame in table.frames(moves):
                table.observe(table.values(frame, far=False))
            observation = table.observe()
            for _ in range(table.debounce):
                observation = table.observe()
            fixes = setup_fixes(observation, step.position)
        except SensorFaultError as exc:
            report.differing.append(f"line {step.line}: {step.text}: the board reports a fault ({exc})")
        else:
            if fixes:
                report.differing.append(f"line {step.line}: {step.text}: {len(fixes)} place(s) differ")
        if show is not None:
            show(step)

    def press(button: Button) -> None:
        report.presses[button.value] = report.presses.get(button.value, 0) + 1
        arrive(replayer.press(button))

    arrive(replayer.current)
    report.stops = 1
    while replayer.index < len(steps) - 1:
        press(FORWARD)
        report.stops += 1
        pressed += 1
        if back_every and pressed % back_every == 0 and replayer.index > 0:
            press(BACK)
            press(FORWARD)
    return report

