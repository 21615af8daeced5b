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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from bgboard.control.events import Button
from bgboard.control.practice_room import LEARNER, PracticeRoom
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.display.screen import Screen
from bgboard.display.display_state import DisplayState
from bgboard.rules import legal_plays
from bgboard.rules.board import Board
from bgboard.rules.games import GAMES
from bgboard.sim.driver import Options, SimulationError
from bgboard.sim.firmware_board import LiveRun
from bgboard.sim.layout import Layout
from bgboard.sim.modelled_board import ModelledBoard
from bgboard.sim.ops import Carry, LayOut, Press, RollDice, Script, Wait, perform, run_now
from bgboard.sim.players import choose_play, dice_for, moves_of

if TYPE_CHECKING:
    from bgboard.hints.drills import Drill
    from bgboard.teaching import Teacher

__all__ = ["PracticeRun", "drill_entry", "drill_script", "run_drills", "run_firmware_drills"]

PANEL = "waveshare-4in2"


def drill_script(room: Callable[[], PracticeRoom], options: Options) -> Script:
    """What the simulated learner does with the drills (the same on the model board and on
    the real firmware): lay out, (cube), roll, play, done, next, until the room is done.
    ``room()`` is the practice room (the board's controller); a step the room does not take
    stops the run with one sentence."""
    o = options
    r = room()
    while not r.over:
        number, drill = r.index, r.drill
        yield LayOut(Layout.from_position(drill.position, LEARNER))
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
        dice = r.dice if (yield Wait(lambda: r.phase == "moving" and r.dice is not None, "the dice")) else None
        if dice is None:
            raise SimulationError(f"drill {drill.name!r}: the dice never reached the room")
        play = choose_play(GAMES["standard"], Board.of(drill.position), dice, o.seed, 1000 + number, 0)
        assert play is None or play.position in {p.position for p in legal_plays(drill.position, dice)}
        if play is not None:
            yield Carry(moves_of(play.steps, LEARNER))
        yield Press(LEARNER, Button.ROLL)  # done
        if not (yield Wait(lambda: r.phase == "graded", "the play accepted")):
            raise SimulationError(f"drill {drill.name!r}: the play was not accepted ({r.notice})")
        yield Press(LEARNER, Button.ROLL)  # next drill
        yield Wait(lambda: r.index > number or r.over, "the next drill")


class PracticeRun:
    """The simulated learner at a :class:`PracticeRoom` on the :class:`ModelledBoard` (the
    same board a match runs on), graded by the teacher: ``bgboard sim --teach practice
    --model-firmware``.  Drills keep no match journal."""

    def __init__(self, options: Options, out: Path, drills: Sequence[Drill],
                 on_show: Callable[[DisplayState, int], None] | None = None) -> None:
        from bgboard.teaching import open_teacher

        self.options = options
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.board = ModelledBoard(replace(options, stuck=()), on_show)  # (a drill's board has no stuck sensor)
        teacher: Teacher = open_teacher(options.engine)[0]
        self.teacher = teacher
        self.room = PracticeRoom(
            drills, grade=teacher.grade_drill, grade_cube=teacher.grade_drill_cube,
            send=self.board.to_board, show=self.board.show, slots=self.board.slots,
        )
        self.board.host = self.room

    @property
    def clock(self) -> int:
        """The board's virtual clock (milliseconds)."""
        return self.board.clock

    def run(self) -> None:
        """Every drill: lay out, (cube), roll, play, done, next."""
        run_now(perform(drill_script(lambda: self.room, self.options), self.board))


def run_drills(options: Options, out: Path, drills: Any = None) -> dict[str, Any]:
    """Play ``drills`` (default: the built-in set) and write the outputs; the summary."""
    from bgboard.sim.match_run import write_gif

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
    room = run.room
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

    from bgboard.sim.firmware_board import SPEED
    from bgboard.sim.match_run import write_gif

    if drills is None:
        from bgboard.teaching import builtin_drills

        drills = builtin_drills()
    entries = [drill_entry(d) for d in drills]
    more = {"teach": {"mode": "practice", "drills": entries}, "hints": {"engine": options.engine or "auto"}}

    async def learner(board: LiveRun) -> None:
        await perform(drill_script(lambda: _room(board), options), board)

    live = LiveRun(options, Path(out), speed=SPEED if speed is None else speed, more_config=more, players=learner)
    asyncio.run(live.run())
    summary = {"drills": _room(live).results, **live.teaching()}
    write_gif([p for p, _ in live.panel.frames], live.out / "display.gif")
    (live.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _room(board: LiveRun) -> PracticeRoom:
    """The app's practice room (``[teach] mode = "practice"``)."""
    room = board.app.practice  # the app keeps the practice room it opened (no downcast of its room)
    if room is None:
        raise SimulationError("the app is not in practice mode")
    return room
