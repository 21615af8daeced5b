"""``bgboard sim --teach practice``: the simulated learner plays the drill set on the
virtual board (adapter).

For each drill the room first shows the set-up guidance (the board still holds the previous
drill); the simulated hand then lays the drill's position out, as a player following the
guidance would, and the room must see no difference left.  Then the drill is rolled (its
fixed roll, else the seeded dice), played by the seeded player, graded by the teacher, and
the next one comes.  Writes ``OUT/learner-report.html``, ``OUT/frames`` and ``OUT/summary.json``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from bgboard.control.practice import LEARNER, PracticeRoom
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.display.screen import Screen
from bgboard.display.state import DisplayState
from bgboard.hardware import load_grid
from bgboard.rules import legal_plays
from bgboard.sense.board import Slots
from bgboard.sense.settle import Settler
from bgboard.sim.field import Faults
from bgboard.sim.layout import Layout
from bgboard.sim.players import choose_play, dice_for, moves_of
from bgboard.sim.run import Options, Simulation, SimulationError
from bgboard.sim.table import Table

PANEL = "waveshare-4in2"


class PracticeRun(Simulation):
    """The virtual board's hands and sensors of :class:`Simulation`, driving a
    :class:`PracticeRoom` instead of a match."""

    def __init__(self, options: Options, out: Path, drills: Any, on_show: Any = None) -> None:  # noqa: D107
        from bgboard.teaching import open_teacher

        self.options = options
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.on_show = on_show
        self.grid = load_grid()
        self.slots = Slots(point=self.grid.count("point"), bar=self.grid.count("bar"), tray=self.grid.count("off"))
        self.settler = Settler()
        self.clock = 0
        self.sensor_faults = 0
        self.last_fault = ""
        self.rolling = False
        self.rolls = 0
        self.table = Table(Layout(tuple([0] * 24)), random.Random(f"bgboard-sim-noise:{options.seed}"),
                           noise=options.noise, grid=self.grid, faults=Faults(), flicker=options.flicker)
        self.teacher, _ = open_teacher(options.engine)
        self.controller = PracticeRoom(  # type: ignore[assignment]  # the hands only call handle()
            drills, grade=self.teacher.grade_drill, grade_cube=self.teacher.grade_drill_cube,
            send=self._to_board, show=self._show, slots=self.slots,
        )
        self.journal = None  # type: ignore[assignment]  # drills keep no match journal

    def lay_out(self) -> None:
        """Follow the set-up guidance: put the checkers where the drill wants them."""
        room: PracticeRoom = self.controller  # type: ignore[assignment]
        self.table.layout = Layout.from_position(room.drill.position, LEARNER)
        self._rest()
        if room.fixes():
            raise SimulationError(f"the board still differs from drill {room.drill.name!r}")

    def run(self, max_actions: int | None = None) -> None:
        """Every drill: lay out, (cube), roll, play, done, next."""
        room: PracticeRoom = self.controller  # type: ignore[assignment]
        o = self.options
        while not room.over:
            number = room.index
            self._rest()
            self.lay_out()
            self._press(LEARNER, "roll")  # laid out: start the drill
            if room.phase == "cube":
                doubles = random.Random(f"{o.seed}:cube:{number}").random() < 0.5
                self._press(LEARNER, "double" if doubles else "roll")
            if room.phase != "rolling":
                raise SimulationError(f"drill {room.drill.name!r} did not ask for the dice")
            self._press(LEARNER, "roll")
            self._roll(room.drill.dice or dice_for(o.seed, 1000 + number, 0))
            assert room.dice is not None
            play = choose_play(room.drill.position, room.dice, o.seed, 1000 + number, 0)
            if play is not None:
                self._carry(moves_of(play.steps, LEARNER))
            self._press(LEARNER, "roll")  # done
            if room.phase != "graded":
                raise SimulationError(f"drill {room.drill.name!r}: the play was not accepted ({room.notice})")
            legal = {p.position for p in legal_plays(room.drill.position, room.dice)}
            assert play is None or play.position in legal
            self._press(LEARNER, "roll")  # next drill

    def close(self) -> None:
        """Nothing to close (no journal)."""


def run_drills(options: Options, out: Path, drills: Any = None) -> dict[str, Any]:
    """Play ``drills`` (default: the built-in set) and write the outputs; the summary."""
    from bgboard.sim.session import write_gif

    if drills is None:
        from bgboard.teaching import builtin_drills

        drills = builtin_drills()
    out = Path(out)
    frames = out / "frames"
    panel = FilePanel(panel_spec(PANEL), frames)
    screen = Screen(panel)
    due: list[int | None] = [None]

    def on_show(state: DisplayState, now_ms: int) -> None:
        if due[0] is not None and now_ms >= due[0]:
            due[0] = screen.tick(now_ms)
        due[0] = screen.update(state, now_ms)

    run = PracticeRun(options, out, drills, on_show=on_show)
    run.run()
    while due[0] is not None:
        due[0] = screen.tick(max(due[0], run.clock))
    room: PracticeRoom = run.controller  # type: ignore[assignment]
    run.teacher.write_report(out / "learner-report.html", ("Learner", "Drill"), "Learner report: the drill set")
    write_gif([p for p, _ in panel.frames], out / "display.gif")
    summary = {"drills": room.results, "grades": run.teacher.grades(), "engine": run.teacher.engine.name,
               "report": " ".join(run.teacher.summary()[:1])}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary
