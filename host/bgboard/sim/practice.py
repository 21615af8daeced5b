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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generator

from bgboard.control.events import Button
from bgboard.control.practice import LEARNER, PracticeRoom
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.display.screen import Screen
from bgboard.display.display_state import DisplayState
from bgboard.hardware import load_grid
from bgboard.rules import Position, legal_plays
from bgboard.sense.board import Slots
from bgboard.sense.settle import Settler
from bgboard.sim.field import Faults
from bgboard.sim.layout import Layout
from bgboard.sim.players import choose_play, dice_for, moves_of
from bgboard.sim.driver import Carry, Press, RollDice, Wait, perform, perform_async
from bgboard.sim.live import LiveRun
from bgboard.sim.run import Options, Simulation, SimulationError
from bgboard.sim.table import Table

PANEL = "waveshare-4in2"


@dataclass(frozen=True, slots=True)
class LayOut:
    """Lay the checkers out as ``position`` (the learner on roll), as a person following
    the set-up guidance does, and let the board be read."""

    position: Position


def drill_script(room: Callable[[], Any], options: Options) -> Generator[Any, bool | None, None]:
    """What the simulated learner does with the drills (the same on the model board and on
    the real firmware): lay out, (cube), roll, play, done, next, until the room is done.
    ``room()`` is the practice room (the board's controller); a step the room does not take
    stops the run with one sentence."""
    o = options
    r = room()
    while not r.over:
        number, drill = r.index, r.drill
        yield LayOut(drill.position)
        if not (yield Wait(lambda: r.observation is not None and not r.fixes(), "the drill laid out")):
            raise SimulationError(f"the board still differs from drill {drill.name!r}")
        yield Press(LEARNER, Button.ROLL)  # laid out: start the drill
        yield Wait(lambda: r.phase != "setup", "the drill to start")
        if r.phase == "cube":
            doubles = random.Random(f"{o.seed}:cube:{number}").random() < 0.5
            yield Press(LEARNER, Button.DOUBLE if doubles else Button.ROLL)
            yield Wait(lambda: r.phase != "cube", "the cube decision")
        if r.phase != "rolling":
            raise SimulationError(f"drill {drill.name!r} did not ask for the dice")
        yield Press(LEARNER, Button.ROLL)
        yield RollDice(drill.dice or dice_for(o.seed, 1000 + number, 0))
        if not (yield Wait(lambda: r.phase == "moving" and r.dice is not None, "the dice")):
            raise SimulationError(f"drill {drill.name!r}: the dice never reached the room")
        play = choose_play(drill.position, r.dice, o.seed, 1000 + number, 0)
        assert play is None or play.position in {p.position for p in legal_plays(drill.position, r.dice)}
        if play is not None:
            yield Carry(moves_of(play.steps, LEARNER))
        yield Press(LEARNER, Button.ROLL)  # done
        if not (yield Wait(lambda: r.phase == "graded", "the play accepted")):
            raise SimulationError(f"drill {drill.name!r}: the play was not accepted ({r.notice})")
        yield Press(LEARNER, Button.ROLL)  # next drill
        yield Wait(lambda: r.index > number or r.over, "the next drill")


class PracticeRun(Simulation):
    """The virtual board's hands and sensors of :class:`Simulation`, driving a
    :class:`PracticeRoom` instead of a match (``bgboard sim --teach practice --model-firmware``)."""

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

    def _do(self, op: Any) -> bool | None:
        if isinstance(op, LayOut):  # the room sees the board as the last drill left it first
            self._rest()
            self.table.layout = Layout.from_position(op.position, LEARNER)
            self._rest()
            return None
        return super()._do(op)

    def run(self, max_actions: int | None = None) -> None:
        """Every drill: lay out, (cube), roll, play, done, next."""
        perform(drill_script(lambda: self.controller, self.options), self._do)

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
    from bgboard.teaching import REPORT_NAME

    report = run.teacher.write_report(out / REPORT_NAME, ("Learner", "Drill"), "Learner report: the drill set")
    write_gif([p for p, _ in panel.frames], out / "display.gif")
    summary = {"drills": room.results, **run.teacher.session(report)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def drill_entry(drill: Any) -> str:
    """A drill as ``[teach] drills`` names it: a built-in drill by its name, any other by
    its Position ID (with its fixed roll)."""
    from bgboard.teaching import builtin_drills

    if any(d == drill for d in builtin_drills()):
        return str(drill.name)
    return f"{drill.position_id}:{drill.dice[0]}{drill.dice[1]}" if drill.dice else str(drill.position_id)


def run_firmware_drills(options: Options, out: Path, drills: Any = None, *, speed: int | None = None) -> dict[str, Any]:
    """Play ``drills`` (default: the built-in set) on the real firmware and the real host
    app in practice mode (``bgboard sim --teach practice``, the default): the app's own
    practice room and teacher, the learner report the app writes beside its journal; the
    summary as :func:`run_drills` gives it."""
    import asyncio

    from bgboard.sim.live import SPEED
    from bgboard.sim.session import write_gif

    if drills is None:
        from bgboard.teaching import builtin_drills

        drills = builtin_drills()
    live = LivePractice(options, Path(out), tuple(drills), speed=SPEED if speed is None else speed)
    asyncio.run(live.run())
    summary = live.summary()
    write_gif([p for p, _ in live.panel.frames], live.out / "display.gif")
    (live.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


class LivePractice(LiveRun):
    """The simulated learner at the real firmware and the real host app in practice mode
    (``[teach] mode = "practice"``): the drill script of :func:`drill_script`."""

    def __init__(self, options: Options, out: Path, drills: tuple[Any, ...], **kw: Any) -> None:  # noqa: D107
        self.drills = drills
        super().__init__(options, out, **kw)

    def _config_table(self) -> dict[str, Any]:
        table = super()._config_table()
        table["teach"] = {"mode": "practice", "drills": [drill_entry(d) for d in self.drills]}
        table["hints"] = {"engine": self.options.engine or "auto"}
        return table

    def _rolled(self) -> Any:
        room = self.controller
        return room.index, room.phase, room.dice

    async def _do(self, op: Any) -> bool | None:
        if isinstance(op, LayOut):
            self.table.layout = Layout.from_position(op.position, LEARNER)
            self.pico.slots(self.table.values())
            await self._seen()
            return None
        return await super()._do(op)

    async def _players(self) -> None:
        await self._until(lambda: self.controller is not None and self.controller.link_up
                          and self.controller.observation is not None, "the board to connect", 20)
        await perform_async(drill_script(lambda: self.controller, self.options), self._do)

    def summary(self) -> dict[str, Any]:
        """The summary of :func:`run_drills`: each drill's result and the teaching keys
        (grades, engine, the report's path, the session in short)."""
        return {"drills": self.controller.results, **self.teaching()}
