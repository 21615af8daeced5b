"""The teaching modes on ``bgboard run`` (issue 14), end to end: the real firmware under
MicroPython on a pty (the simulator's virtual board), the real :class:`bgboard.app.App` with
gpiozero's MockFactory buttons, a file panel, the SQLite journal and a real engine grading
on the hint worker's process.

* learner: plays *and cube decisions* (no double, double, take) graded at the match score,
  each lesson equal to the synchronous teacher's on the same engine; at the match's end the
  learner report is written beside the journal (opened in Chromium) and the display shows
  the session in short;
* practice: ``[teach] drills`` (built-in drills by name, a cube drill, a Position ID) laid
  out with the set-up guidance (the firmware's LEDs light the places to change), rolled on
  the dice module, played, graded, and the report and summary at the end.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from gpiozero.pins.mock import MockFactory

from bgboard.app import App
from bgboard.config import config_from_dict
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.hardware import load_grid, load_pins
from bgboard.hints.drills import select_drills
from bgboard.hints.lesson import CubeLesson, PlayLesson
from bgboard.hints.registry import open_engine
from bgboard.link.connection import Timing
from bgboard.link.transport import open_serial
from bgboard.rules import Position, legal_plays, position_id, start_position
from bgboard.sense.places import Observation, Slots, board_of, WHITE
from bgboard.sense.recognise import Played, setup_fixes
from bgboard.sim.field import Faults
from bgboard.sim.layout import Layout
from bgboard.sim.firmware_board import SimClock
from bgboard.sim.pico import VirtualPico
from bgboard.sim.players import moves_of
from bgboard.sim.table import Table
from bgboard.teaching import REPORT_NAME, Teacher
from tests.club.webrun import chromium
from tests.support import until

SPEED = 8
GRID = load_grid()
SLOTS = Slots(point=GRID.count("point"), bar=GRID.count("bar"), tray=GRID.count("off"))


class Bench:
    """The virtual board (real firmware) and the real app, with hands for the tests."""

    def __init__(self, tmp_path: Path, match: dict, teach: dict, engine: str, pico: str = "pico") -> None:
        from gpiozero import Device

        self.out = tmp_path
        self.pico = VirtualPico(tmp_path / pico, clock=f"fast:{SPEED}")
        self.factory = MockFactory()
        self._old = Device.pin_factory
        Device.pin_factory = self.factory
        config = config_from_dict({
            "board": {"port": self.pico.slave_name, "settle_ms": 120},
            "buttons": {"bounce_ms": 2},
            "match": match,
            "hints": {"engine": engine},
            "teach": teach,
            "journal": {"path": str(tmp_path / "journal.sqlite")},
        })
        k = SPEED
        self.app = App(
            config, opener=lambda: open_serial(self.pico.slave_name), pin_factory=self.factory,
            panel=FilePanel(panel_spec("waveshare-4in2"), tmp_path / "frames"),
            clock_ms=SimClock(k, int(time.time() * 1000)),
            # the watchdog long: a loaded machine that holds MicroPython back must not lose the board
            timing=Timing(hello_s=1.0, watchdog_s=10.0, snapshot_s=0.5, ack_s=0.2, tick_s=0.05 / k),
            tick_s=0.05 / k,
        )
        self.shown: list[Any] = []  # every state handed to the display (the app keeps the last 50)
        to_screen = self.app._to_screen

        def keep(state: Any) -> None:
            self.shown.append(state)
            to_screen(state)

        self.app._to_screen = keep  # type: ignore[method-assign]
        self.pins = load_pins().buttons
        self.table = Table(Layout(tuple([0] * 24)), random.Random(1), grid=GRID, faults=Faults(), flicker=False,
                           debounce=1)

    @property
    def c(self) -> Any:
        return self.app.controller

    async def until(self, test: Callable[[], Any], what: str, timeout: float = 30.0) -> None:
        await until(test, timeout, lambda: f"{what} (shown: {self.app.shown[-1:]})")

    async def press(self, player: int, button: str) -> None:
        pin = self.factory.pin(self.pins[player, button])
        pin.drive_low()
        await asyncio.sleep(0.01)
        pin.drive_high()
        await asyncio.sleep(0.02)

    async def seen(self) -> None:
        """Until the host's settled reading is the table as it is."""
        layout = self.table.layout
        want = Observation.of_board((*layout.points, layout.bar[0], -layout.bar[1], layout.off[0], -layout.off[1]),
                                    SLOTS).codes
        await self.until(lambda: self.c.observation is not None and self.c.observation.codes == want,
                         "the host to read the board")

    async def lay_out(self, position: Position, colour: int) -> None:
        self.table.layout = Layout.from_position(position, colour)
        self.pico.slots(self.table.values())
        await self.seen()

    async def carry(self, steps: Any, colour: int) -> None:
        for frame in self.table.frames(moves_of(steps, colour)):
            self.pico.slots(self.table.values(frame))
            await asyncio.sleep(max(frame.ms, 40) / 1000 / SPEED)
        self.pico.slots(self.table.values())
        await self.seen()

    async def roll(self, dice: tuple[int, int], rolled: Callable[[], bool]) -> None:
        """The dice module's button, until the host has the roll (``rolled``)."""
        await self.until(lambda: self.app.board.rolling, "the dice to be enabled")
        for _ in range(20):
            before = self.pico.rolls()
            self.pico.send(f"dice {dice[0]} {dice[1]}")
            self.pico.button(True)
            try:
                await self.until(lambda: self.pico.rolls() > before or rolled(), "the roll", 1.0)
            except AssertionError:
                pass
            finally:
                self.pico.button(False)
            try:
                await self.until(rolled, "the dice", 3.0)
                return
            except AssertionError:
                continue
        raise AssertionError("the dice module never rolled")

    async def run(self, script: Callable[["Bench"], Any]) -> Any:
        from gpiozero import Device

        async def power() -> None:
            while True:
                self.pico.revive()
                await asyncio.sleep(0.02)

        self.pico.start()
        keeper = asyncio.create_task(power())
        task = asyncio.create_task(self.app.run())
        try:
            await self.until(lambda: self.c is not None and self.c.observation is not None, "the board to connect")
            return await script(self)
        finally:
            self.app.stop()
            await asyncio.wait_for(task, 60)
            keeper.cancel()
            Device.pin_factory = self._old
            self.pico.close()
            self.factory.reset()


def _play(position: Position, dice: tuple[int, int], notation: str) -> Any:
    return next(p for p in legal_plays(position, dice) if p.notation == notation)


def _open_report(path: Path) -> dict[str, Any]:
    """The learner report as Chromium shows it."""
    from selenium.webdriver.common.by import By

    driver = chromium()
    try:
        driver.get(path.as_uri())
        chart = driver.find_element(By.CSS_SELECTOR, "section.learner .chart svg")
        sections = driver.find_elements(By.CSS_SELECTOR, "section.learner")
        return {
            "title": driver.title,
            "summary": driver.find_element(By.ID, "summary").text,
            "learners": [s.find_element(By.TAG_NAME, "h2").text for s in sections],
            "chart": (chart.size["width"], chart.size["height"]),
            "worst": [li.text for li in driver.find_elements(By.CSS_SELECTOR, ".worst-boards li")],
            "plays": len(driver.find_elements(By.CSS_SELECTOR, "table.plays tr"))
            - len(driver.find_elements(By.CSS_SELECTOR, "table.plays")),  # less each table's heading
            "cubes": [[s.find_element(By.TAG_NAME, "h2").text, tr.find_elements(By.TAG_NAME, "td")[1].text]
                      for s in sections for tr in s.find_elements(By.CSS_SELECTOR, "table.cubes tr")[1:]],
        }
    finally:
        driver.quit()


# ------------------------------------------------------------------ learner: plays and cube decisions
@pytest.mark.slow
def test_learner_mode_on_run_grades_plays_and_cube_decisions_and_ends_with_the_report(tmp_path: Path) -> None:
    """A 2-point match: white plays 3-1, black rolls without doubling (graded: no double)
    and plays 6-4, white doubles, black takes (both graded), white resigns a single game
    (2 points with the cube): black wins the match."""
    bench = Bench(tmp_path, {"length": 2, "players": ["Ann", "Bob"]}, {"mode": "learner"}, "bgsage")
    states: dict[str, Any] = {}

    async def script(b: Bench) -> None:
        c = b.c
        await b.lay_out(start_position(), 0)
        await b.press(0, "roll")
        await b.roll((3, 1), lambda: c.state.phase == "play")
        states["white"] = c.state
        await b.carry(_play(c.state.position, (3, 1), "8/5 6/5").steps, 0)
        await b.until(lambda: isinstance(c.verdict, Played), "white's play")
        await b.press(0, "roll")  # done
        await b.until(lambda: c.state.turn == 1 and c.state.phase == "turn", "black's turn")
        await b.until(lambda: any(s.lesson and s.lesson[0].startswith("Ann: 8/5 6/5") for s in b.shown),
                      "white's lesson on the display")
        states["no double"] = c.state
        await b.press(1, "roll")  # black rolls without doubling: a cube decision
        await b.roll((6, 4), lambda: c.state.phase == "play")
        states["black"] = c.state
        await b.carry(_play(c.state.position, (6, 4), "24/14").steps, 1)
        await b.until(lambda: isinstance(c.verdict, Played), "black's play")
        await b.press(1, "roll")
        await b.until(lambda: c.state.turn == 0 and c.state.phase == "turn", "white's turn")
        states["double"] = c.state
        await b.press(0, "double")
        await b.until(lambda: c.state.phase == "doubled", "the double")
        states["take"] = c.state
        await b.press(1, "double")  # take
        await b.until(lambda: c.state.phase == "turn" and c.state.cube == 2, "the take")
        # the players read the grades (the match's end shows the summary instead of the last one)
        await b.until(lambda: len(b.app.teacher.lessons) == 5, "the cube decisions' grades", 60)
        await b.press(0, "drop")  # white resigns...
        await b.press(0, "roll")  # ...a single game
        await b.until(lambda: c.state.phase == "resigned", "the resignation")
        await b.press(1, "double")  # black accepts: 2 points, the match
        await b.until(lambda: c.over, "the match's end")
        await b.until(lambda: b.app.report is not None, "the learner report", 60)
        await b.until(lambda: b.app.shown[-1].lesson == b.app.teacher.summary(), "the summary on the display")

    asyncio.run(bench.run(script))
    app = bench.app
    lessons = app.teacher.lessons
    # every decision graded, in order, and the controller was told each (LessonReady)
    assert [type(x).__name__ for x in lessons] == ["PlayLesson", "CubeLesson", "PlayLesson", "CubeLesson", "CubeLesson"]
    assert app.controller.lessons == lessons
    # each lesson is the one the synchronous teacher gives on the same engine at the same state
    teacher = Teacher(open_engine("bgsage").engine)
    for key, player, notation, dice in (("white", 0, "8/5 6/5", (3, 1)), ("black", 1, "24/14", (6, 4))):
        s = states[key]
        after = _play(s.position, dice, notation).position
        assert teacher.grade(player, s.position, dice, after, s) in lessons
    expected = [teacher.grade_cube(1, states["no double"], "no double"), teacher.grade_cube(0, states["double"], "double"),
                teacher.grade_cube(1, states["take"], "take")]
    assert [x for x in lessons if isinstance(x, CubeLesson)] == expected
    assert all(x.grade is not None and x.unit == "equity" for x in expected)  # cubeful, at the match score
    assert [x.decision for x in expected] == ["no double", "double", "take"]
    # the display showed each cube grade as it shows a play's, with the player's name
    for name, lesson in zip(("Bob", "Ann", "Bob"), expected):
        assert any(s.lesson[:1] == (f"{name}: {lesson.text[0]}",) for s in bench.shown), lesson
    # the end: the match-over screen shows the session in short, and the report is beside the journal
    last = app.shown[-1]
    assert last.phase == "match-over" and last.lesson == app.teacher.summary()
    assert last.lesson[0].startswith("2 plays, ")
    report = tmp_path / REPORT_NAME
    assert app.report == report and report.exists()
    page = _open_report(report)
    assert page["title"] == "Learner report: Ann and Bob"
    assert "2 plays graded, 3 cube decisions" in page["summary"]
    assert page["plays"] == 2 and page["chart"][0] > 300 and page["chart"][1] > 100
    assert page["learners"] == ["Ann", "Bob"]  # [teach] learner = "both": one section each
    assert page["cubes"] == [["Ann", "double"], ["Bob", "no double"], ["Bob", "take"]]
    # the finished match joined each learner's history beside the journal, with the analysis' PR
    from bgboard.store import PROGRESS_NAME, LearnerHistory

    history = LearnerHistory(tmp_path / PROGRESS_NAME)
    try:
        for side, name in enumerate(("Ann", "Bob")):
            [row] = history.matches(name)
            figures = app.analysis_figures[side]  # bgsage analysed the match at its end
            assert (row["pr"], row["pr_low"], row["decisions"]) == (
                figures["pr"], figures["pr_low"], figures["decisions"])
            assert f"<td>1</td><td>{row['played']}</td><td>{row['pr']:.1f}</td>" in report.read_text()
    finally:
        history.close()


# ------------------------------------------------------------------ practice
DRILLS = ["Opening 3-1", "Enter two checkers", "Race, 2-away 4-away", "4HPwATDgc/ABMA:65"]


@pytest.mark.slow
def test_practice_mode_on_run_lays_out_rolls_plays_and_grades_the_configured_drills(tmp_path: Path) -> None:
    drills = select_drills(tuple(DRILLS))
    bench = Bench(tmp_path, {"players": ["Ann", "Bob"]}, {"mode": "practice", "drills": DRILLS}, "gnubg-nn")
    played: list[tuple[Any, tuple[int, int], Any]] = []
    seen_setup: list[Any] = []

    async def script(b: Bench) -> None:
        room = b.c
        assert room.drills == drills
        for number, drill in enumerate(drills):
            await b.until(lambda: room.phase == "setup" and room.index == number, f"drill {number + 1}'s set-up")
            if room.fixes():
                await b.until(lambda: b.app.shown[-1].phase == "setup", "the set-up diagram")
                seen_setup.append(b.app.shown[-1])
            await b.lay_out(drill.position, 0)
            await b.until(lambda: not room.fixes(), "the drill laid out")
            await b.press(0, "roll")  # laid out: start
            if drill.kind == "cube":
                await b.until(lambda: room.phase == "cube", "the cube question")
                await b.press(0, "double")
            await b.until(lambda: room.phase == "rolling", "the roll")
            dice = drill.dice or (5, 2)
            await b.roll(dice, lambda: room.phase == "moving")
            assert room.dice == dice
            plays = legal_plays(drill.position, dice)
            play = plays[-1]  # the last listed: often a mistake
            played.append((drill, dice, play))
            await b.carry(play.steps, 0)
            await b.until(lambda: isinstance(room.verdict, Played), "the play recognised")
            await b.press(0, "roll")  # done
            await b.until(lambda: room.phase == "graded" and room.results[-1]["lesson"] is not None, "the grade", 60)
            assert b.app.shown[-1].lesson == tuple(room.words.own(t) for t in room.lesson.text)
            await b.press(0, "roll")  # next
        await b.until(lambda: room.over, "the end of the drills")
        await b.until(lambda: b.app.report is not None, "the learner report", 60)
        await b.until(lambda: b.app.shown[-1].lesson == b.app.teacher.summary(), "the summary on the display")

    asyncio.run(bench.run(script))
    app = bench.app
    room = app.controller
    assert [r["drill"] for r in room.results] == [d.name for d in drills]
    # each play graded as the synchronous teacher grades it on gnubg-nn
    teacher = Teacher(open_engine("gnubg-nn").engine)
    plays = [x for x in app.teacher.lessons if isinstance(x, PlayLesson)]
    assert plays == [teacher.grade_drill(0, d.position, dice, p.position, d) for d, dice, p in played]
    assert [r["lesson"] for r in room.results] == [x.record() for x in plays]
    cubes = [x for x in app.teacher.lessons if isinstance(x, CubeLesson)]
    assert [x.decision for x in cubes] == ["double"] and cubes[0] == teacher.grade_drill_cube(0, drills[2], "double")
    # the set-up guidance: a diagram on the display, and the firmware lit the places to change
    assert seen_setup and all(s.diagram is not None and s.diagram.marked for s in seen_setup)
    empty = Observation.of_board(board_of(Position((0,) * 26, (0,) * 26), WHITE), SLOTS)
    places = {f.place - 1 for f in setup_fixes(empty, drills[0].position)}
    red: set[int] = set()
    for line in (tmp_path / "pico" / "leds.log").read_text().splitlines():
        for index, value in enumerate(line.split()[1:29]):
            if value != "000000" and int(value[0:2], 16) and not int(value[2:6], 16):
                red.add(index)
    assert places <= red
    # the end: all drills done, the session in short, and the report beside the journal
    last = app.shown[-1]
    assert last.title[0] == "All drills done" and last.lesson == app.teacher.summary()
    assert last.lesson[0].startswith(f"{len(drills)} plays, ")
    worst = max(plays, key=lambda x: x.loss)
    assert f"worst: {worst.play} with {worst.dice}" in last.lesson[0]
    page = _open_report(tmp_path / REPORT_NAME)
    assert page["title"] == "Learner report: practice drills" and page["learners"] == ["Ann"]
    assert f"{len(drills)} plays graded, 1 cube decision;" in page["summary"]
    assert page["plays"] == len(drills)
    assert len(page["worst"]) == min(3, sum(1 for x in plays if x.loss > 0))


def test_a_bad_drill_in_the_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    config = tmp_path / "config.toml"
    config.write_text('[teach]\nmode = "practice"\ndrills = ["opening", "4HPwATDgc/ABMA:71"]\n')
    done = subprocess.run([sys.executable, "-m", "bgboard", "run", "--config", str(config)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("bgboard: teach.drills: drill '4HPwATDgc/ABMA': dice must be two digits")



async def _practise(b: Bench, drill: Any) -> None:
    """Lay ``drill`` out, roll, make its first legal play, press done and wait for the grade."""
    room = b.c
    await b.lay_out(drill.position, 0)
    await b.until(lambda: not room.fixes(), "the drill laid out")
    await b.press(0, "roll")
    if drill.kind == "cube":
        await b.until(lambda: room.phase == "cube", "the cube question")
        await b.press(0, "roll")  # no double
    await b.until(lambda: room.phase == "rolling", "the roll")
    dice = drill.dice or (5, 2)
    await b.roll(dice, lambda: room.phase == "moving")
    await b.carry(legal_plays(drill.position, room.dice)[0].steps, 0)
    await b.until(lambda: isinstance(room.verdict, Played), "the play recognised")
    await b.press(0, "roll")  # done
    await b.until(lambda: room.phase == "graded" and room.results[-1]["lesson"] is not None, "the grade", 60)


@pytest.mark.slow
def test_practice_resumes_at_the_same_drill_after_a_restart_and_reports_the_whole_session(tmp_path: Path) -> None:
    """Drill 1 graded, the app stops; started again on the same journal it lays out drill 2
    with drill 1's grade kept, and the summary and report at the end cover all three."""
    from bgboard.store import PROGRESS_NAME, Progress

    names = ["Opening 3-1", "Enter two checkers", "4HPwATDgc/ABMA:65"]
    drills = select_drills(tuple(names))
    teach = {"mode": "practice", "drills": names}
    first = Bench(tmp_path, {"players": ["Ann", "Bob"]}, teach, "gnubg-nn")

    async def drill_one(b: Bench) -> None:
        await b.until(lambda: b.c.phase == "setup" and b.c.index == 0, "drill 1's set-up")
        await _practise(b, drills[0])

    asyncio.run(first.run(drill_one))
    [kept] = first.app.teacher.lessons
    saved = Progress(tmp_path / PROGRESS_NAME)
    try:
        assert saved.load()["next"] == 1  # graded: the next start lays out drill 2
    finally:
        saved.close()

    second = Bench(tmp_path, {"players": ["Ann", "Bob"]}, teach, "gnubg-nn", pico="pico2")

    async def the_rest(b: Bench) -> None:
        room = b.c
        assert room.index == 1 and room.phase == "setup"  # not drill 1 again
        assert [r["drill"] for r in room.results] == [drills[0].name] and b.app.teacher.lessons == [kept]
        await b.until(lambda: "Drill 2/3" in " ".join(b.app.shown[-1].title + b.app.shown[-1].message), "drill 2 shown")
        for drill in drills[1:]:
            await _practise(b, drill)
            await b.press(0, "roll")  # next
        await b.until(lambda: room.over, "the end of the drills")
        await b.until(lambda: b.app.report is not None, "the learner report", 60)
        await b.until(lambda: b.app.shown[-1].lesson == b.app.teacher.summary(), "the summary on the display")

    asyncio.run(second.run(the_rest))
    app = second.app
    assert [r["drill"] for r in app.controller.results] == [d.name for d in drills]
    plays = [x for x in app.teacher.lessons if isinstance(x, PlayLesson)]
    assert len(plays) == 3 and plays[0] == kept
    assert app.shown[-1].lesson[0].startswith("3 plays, ")  # the whole session, not since the restart
    assert "3 plays graded" in app.report.read_text()
    saved = Progress(tmp_path / PROGRESS_NAME)
    try:
        assert saved.load() is None  # done: the next start begins again from drill 1
    finally:
        saved.close()


@pytest.mark.slow
def test_practice_of_mine_plays_the_learners_own_worst_positions_kept_beside_the_journal(tmp_path: Path) -> None:
    """``[teach] drills = "mine"`` with ``learner = "black"``: Bob's kept worst positions,
    the worst first, each with the roll he faced (Ann's are not his)."""
    from bgboard.store import PROGRESS_NAME, LearnerHistory

    bar = position_id(Position((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
                               (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)))
    history = LearnerHistory(tmp_path / PROGRESS_NAME)
    history.record("Bob", "m1", "2026-11-01", {"pr": 9.0, "decisions": 30}, [("4HPwATDgc/ABMA", "65", 0.1)])
    history.record("Bob", "m2", "2026-11-08", {"pr": 7.0, "decisions": 30}, [(bar, "31", 0.3)])
    history.record("Ann", "m2", "2026-11-08", {"pr": 5.0, "decisions": 30}, [("4HPwATDgc/ABMA", "11", 0.9)])
    history.close()
    bench = Bench(tmp_path, {"players": ["Ann", "Bob"]}, {"mode": "practice", "drills": "mine", "learner": "black"},
                  "gnubg-nn")

    async def script(b: Bench) -> None:
        room = b.c
        assert [(d.position_id, d.dice) for d in room.drills] == [(bar, (3, 1)), ("4HPwATDgc/ABMA", (6, 5))]
        for drill in room.drills:
            await b.until(lambda: room.phase == "setup", "the set-up")
            await _practise(b, drill)
            await b.press(0, "roll")  # next
        await b.until(lambda: room.over, "the end of the drills")

    asyncio.run(bench.run(script))
    plays = [x for x in bench.app.teacher.lessons if isinstance(x, PlayLesson)]
    assert [(x.position, x.dice) for x in plays] == [(bar, "31"), ("4HPwATDgc/ABMA", "65")]


# ------------------------------------------------------------------ stopping mid-session
@pytest.mark.slow
def test_stopping_the_app_mid_match_writes_the_report_and_leaves_the_summary_on_the_display(tmp_path: Path) -> None:
    bench = Bench(tmp_path, {"length": 5}, {"mode": "learner"}, "gnubg-nn")

    async def script(b: Bench) -> None:
        c = b.c
        await b.lay_out(start_position(), 0)
        await b.press(0, "roll")
        await b.roll((6, 5), lambda: c.state.phase == "play")
        await b.carry(_play(c.state.position, (6, 5), "13/8 13/7").steps, 0)  # not 24/13: a mistake
        await b.until(lambda: isinstance(c.verdict, Played), "white's play")
        await b.press(0, "roll")
        await b.until(lambda: c.state.turn == 1, "black's turn")  # the grade may still be running: stop now

    asyncio.run(bench.run(script))
    app = bench.app
    assert not app.controller.over
    [lesson] = app.teacher.lessons  # the grade under way came in before the report was written
    assert (lesson.play, lesson.best, lesson.grade) == ("13/8 13/7", "24/13", "bad" if lesson.loss <= 0.16 else "very bad")
    assert app.report == tmp_path / REPORT_NAME and "1 play graded" in app.report.read_text()
    assert app.shown[-1].lesson == app.teacher.summary()  # the e-ink panel keeps it after the stop
    assert app.shown[-1].lesson[0].startswith("1 play, 1 mistake ")
