"""The teacher: grades plays and cube decisions for the controller's teaching mode with a
hint engine, keeps the lessons of the session and writes the learner report.

:class:`Teacher` is synchronous (the simulator's virtual clock and ``bgboard sim --teach`` call
it inline); :class:`WorkerTeacher` is the real board's (``bgboard run``): it grades on the
:class:`~bgboard.hints.worker.HintWorker`, off the event loop, one request after another in
the order the plays and cube decisions were made, and hands each lesson back through
``deliver`` (the app turns it into a ``LessonReady`` event).  The grading itself is
:mod:`bgboard.hints.lesson`; this module only turns the match's state into the engine's cube
state and writes the report file.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from bgboard.errors import shown
from bgboard.files import write_text_atomic
from bgboard.language import ENGLISH, Words
from bgboard.hints.advice import cube_blocker
from bgboard.hints.hint_engine import CubeState, HintEngine, UnsupportedError
from bgboard.hints.drills import Drill
from bgboard.hints.lesson import CubeLesson, Lesson, PlayLesson, grade_cube, grade_turn, lesson_of
from bgboard.hints.learner_report import report_html, short_report, LearnerReport
from bgboard.match.state import MatchState
from bgboard.rules import Position, position_id
from bgboard.analysis.walk import cube_state  # the cube as a player sees it: one definition, the analysis'

if TYPE_CHECKING:
    from bgboard.hints.worker import HintWorker

__all__ = ["REPORT_NAME", "Teacher", "WorkerTeacher", "cube_state", "learner_histories", "match_figures", "open_teacher",
           "own_worst"]

#: The learner report's file name, beside the journal.
REPORT_NAME = "learner-report.html"
log = logging.getLogger(__name__)


def drill_state(drill: Drill) -> CubeState:
    """A drill's cube and score (centred cube; money when ``away`` is (0, 0))."""
    my_away, their_away = drill.away
    return CubeState(value=drill.cube, my_away=my_away, their_away=their_away)


def _match_cube(state: MatchState) -> tuple[Position, CubeState] | None:
    """The position and cube state of a cube decision at ``state`` (the doubler on roll),
    or None when the cube cannot be turned there."""
    doubler = state.turn
    if doubler is None:
        return None
    cube = cube_state(state, doubler)
    if cube_blocker(cube) is not None:
        return None
    return state.position, cube


class _Lessons:
    """What both teachers keep: the session's lessons, the grades, the report."""

    lessons: list[PlayLesson | CubeLesson]
    engine: HintEngine
    #: the sides whose session the display sums up at the end (``[teach] learner``; None: every lesson's)
    learners: tuple[int, ...] | None = None

    @property
    def plays(self) -> list[PlayLesson]:
        """The graded plays (not the passes)."""
        return [lesson for lesson in self.lessons if isinstance(lesson, PlayLesson) and lesson.play]

    def grades(self) -> list[dict[str, Any]]:
        """The ``grades`` of ``bgboard sim --teach --json``."""
        return [lesson.record() for lesson in self.plays]

    def summary(self, lessons: Sequence[Lesson] | None = None) -> tuple[str, ...]:
        """The report in short (for the display at the end), longest form first: of
        ``lessons`` (the controller's), else of every lesson this teacher gave; only the
        ``learners``' when they are set (one learner: their session)."""
        chosen = self.lessons if lessons is None else lessons
        if self.learners is not None:
            chosen = [lesson for lesson in chosen if lesson.player in self.learners]
        return short_report(LearnerReport.of(chosen))

    def session(self, report: Path | None) -> dict[str, Any]:
        """The teaching keys of ``bgboard sim --teach --json`` (learner and practice alike):
        the ``grades``, the ``engine``, the path of the learner ``report`` written (None when
        none was) and the session ``in_short`` as the display says it at the end."""
        return {"grades": self.grades(), "engine": self.engine.name,
                "report": str(report) if report is not None else None, "in_short": self.summary()[0]}

    def write_report(self, path: Path, names: tuple[str, str], title: str = "Learner report",
                     figures: Any = (), learners: Any = None, histories: Any = None,
                     words: Words = ENGLISH) -> Path:
        """Write the HTML learner report (atomically: a finished file or none): a section
        per learner (``learners``: the sides of ``[teach] learner``; None: each side with a
        lesson) with the match's PR and luck when ``figures`` (both players' match analysis)
        are given, and each learner's PR match by match (``histories``: side -> rows); in
        ``words``' language."""
        path = Path(path)
        write_text_atomic(path, report_html(self.lessons, title, names, tuple(figures), learners, histories, words))
        return path


class Teacher(_Lessons):
    """Grades with ``engine``; ``cubeful`` ranks plays at the match score (bgsage)."""

    def __init__(self, engine: HintEngine) -> None:
        self.engine = engine
        self.cubeful = engine.name == "bgsage"
        self.lessons: list[PlayLesson | CubeLesson] = []

    def grade(self, player: int, before: Position, dice: tuple[int, int], after: Position,
              state: MatchState) -> PlayLesson:
        """The controller's ``grade``: the lesson of one completed play."""
        cube = cube_state(state, player) if self.cubeful else None
        lesson = grade_turn(self.engine, before, dice, after, player=player, state=cube)
        self.lessons.append(lesson)
        return lesson

    def grade_cube(self, player: int, state: MatchState, decision: str) -> CubeLesson | None:
        """The controller's ``grade_cube``: the lesson of a cube decision, or None when the
        cube could not be turned or the engine gives no cube numbers here."""
        at = _match_cube(state)
        if at is None:
            return None
        position, cube = at  # the doubler on roll
        try:
            hint = self.engine.cube(position, cube)
        except UnsupportedError:
            return None
        if hint.no_double is None or hint.double_take is None or hint.double_pass is None:
            return None
        lesson = grade_cube(hint, decision, player=player, position=position_id(position))
        self.lessons.append(lesson)
        return lesson

    def drill_state(self, drill: Drill) -> CubeState:
        """A drill's cube and score (centred cube; money when ``away`` is (0, 0))."""
        return drill_state(drill)

    def grade_drill(self, player: int, before: Position, dice: tuple[int, int], after: Position,
                    drill: Drill) -> PlayLesson:
        """The practice room's ``grade``: a drill's play."""
        cube = self.drill_state(drill) if self.cubeful else None
        lesson = grade_turn(self.engine, before, dice, after, player=player, state=cube)
        self.lessons.append(lesson)
        return lesson

    def grade_drill_cube(self, player: int, drill: Drill, decision: str) -> CubeLesson | None:
        """The practice room's ``grade_cube``: double or not, in a cube drill."""
        try:
            hint = self.engine.cube(drill.position, self.drill_state(drill))
        except UnsupportedError:
            return None
        if hint.no_double is None or hint.double_take is None or hint.double_pass is None:
            return None
        lesson = grade_cube(hint, decision, player=player, position=drill.position_id)
        self.lessons.append(lesson)
        return lesson


#: A lesson for the board (its player and the lesson), or None when there is nothing to grade.
Graded = tuple[int, PlayLesson | CubeLesson] | None


class WorkerTeacher(_Lessons):
    """The real board's teacher (see the module docstring): the controller's and the
    practice room's ``grade``/``grade_cube`` start a request on ``worker`` and return None;
    the lesson comes later through ``deliver(player, lesson)``.

    Requests are graded one after another, in order.  A grade is help, never a stop: an
    engine failure or an answer over ``budget`` costs that lesson (logged), and a request
    pushed aside on the worker by a hint (the worker answers the newest request) is asked
    again.  The cube numbers of a double are kept for the answer to it (take or pass).
    """

    RETRIES = 3

    def __init__(self, worker: HintWorker, deliver: Callable[[int, Lesson], None], budget: float = 20.0) -> None:
        self.worker = worker
        self.engine: HintEngine = worker.engine
        self.cubeful = self.engine.name == "bgsage"
        self.deliver = deliver
        self.budget = budget
        self.lessons: list[PlayLesson | CubeLesson] = []
        self._queue: asyncio.Queue[Callable[[], Awaitable[Graded]]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._cube: tuple[tuple[Position, CubeState], Any] | None = None

    # ------------------------------------------------------------------ the graders
    def grade(self, player: int, before: Position, dice: tuple[int, int], after: Position, state: MatchState) -> None:
        """The controller's ``grade`` (at the match score where the engine is cubeful)."""
        cube = cube_state(state, player) if self.cubeful else None
        self._submit(lambda: self._play(player, before, dice, after, cube))

    def grade_cube(self, player: int, state: MatchState, decision: str) -> None:
        """The controller's ``grade_cube``: a cube decision at the match score."""
        at = _match_cube(state)
        if at is not None:
            self._submit(lambda: self._cube_decision(player, at[0], at[1], decision))

    def grade_drill(self, player: int, before: Position, dice: tuple[int, int], after: Position, drill: Drill) -> None:
        """The practice room's ``grade``."""
        cube = drill_state(drill) if self.cubeful else None
        self._submit(lambda: self._play(player, before, dice, after, cube))

    def grade_drill_cube(self, player: int, drill: Drill, decision: str) -> None:
        """The practice room's ``grade_cube``: double or not, in a cube drill."""
        cube = drill_state(drill)
        if cube_blocker(cube) is None:
            self._submit(lambda: self._cube_decision(player, drill.position, cube, decision))

    # ------------------------------------------------------------------ the requests
    async def _play(self, player: int, before: Position, dice: tuple[int, int], after: Position,
                    cube: CubeState | None) -> Graded:
        ranked = await self.worker.plays(before, dice, limit=None, budget=self.budget, state=cube)
        # the reason counts shots with the rules engine: off the loop too
        lesson = await asyncio.to_thread(lesson_of, ranked, before, after, player=player)
        return player, lesson

    async def _cube_decision(self, player: int, position: Position, cube: CubeState, decision: str) -> Graded:
        key = (position, cube)
        if self._cube is not None and self._cube[0] == key:
            hint = self._cube[1]  # the double's numbers, for the take or the pass
        else:
            try:
                hint = await self.worker.cube(position, cube, budget=self.budget)
            except UnsupportedError:  # an engine without cube numbers (pubeval)
                return None
            self._cube = (key, hint)
        if hint.no_double is None or hint.double_take is None or hint.double_pass is None:
            return None
        return player, grade_cube(hint, decision, player=player, position=position_id(position))

    def _submit(self, job: Callable[[], Awaitable[Graded]]) -> None:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._task = asyncio.get_running_loop().create_task(self._grading(), name="bgboard-grade")
        self._queue.put_nowait(job)

    async def _grading(self) -> None:
        from bgboard.hints.worker import ENGINE_FAILURES, HintCancelled

        assert self._queue is not None
        while True:
            job = await self._queue.get()
            try:
                for attempt in range(self.RETRIES):
                    try:
                        graded = await job()
                    except HintCancelled as exc:
                        if exc.reason == "board changed" and attempt + 1 < self.RETRIES:
                            continue  # a hint took the worker: ask again
                        log.warning("a grade was dropped: %s", exc.reason)
                    except ENGINE_FAILURES as exc:  # an engine failure costs the lesson, never the match
                        log.warning("the hint engine failed to grade: %s", shown(str(exc)))
                    except Exception:  # a program error: its traceback; the lesson is lost
                        log.exception("a grade failed")
                    else:
                        if graded is not None:
                            self.lessons.append(graded[1])
                            self.deliver(*graded)
                    break
            finally:
                self._queue.task_done()

    async def settled(self, timeout: float = 30.0) -> bool:
        """Wait until every request so far is graded (False if that took over ``timeout``)."""
        if self._queue is None:
            return True
        try:
            await asyncio.wait_for(self._queue.join(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    async def write_report_async(self, path: Path, names: tuple[str, str], title: str = "Learner report",
                                 figures: Any = (), learners: Any = None, histories: Any = None,
                                 words: Words = ENGLISH) -> Path:
        """:meth:`write_report` off the loop (matplotlib draws the charts)."""
        return await asyncio.to_thread(self.write_report, path, names, title, figures, learners, histories, words)

    async def close(self) -> None:
        """Stop grading (what is still queued is dropped)."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None


def match_figures(lessons: Sequence[Lesson], side: int, figures: Any = ()) -> dict[str, Any]:
    """What the learner history keeps of ``side``'s match: the match analysis' PR, interval
    and decisions when there is one (``figures``, both players'), else the PR of their graded
    decisions (no interval)."""
    from bgboard.hints.learner_report import learner_pr

    if len(figures) == 2:
        f = figures[side]
        return {"pr": f["pr"], "pr_low": f.get("pr_low"), "pr_high": f.get("pr_high"), "decisions": f["decisions"]}
    pr, decisions = learner_pr(lessons, side)
    return {"pr": pr, "pr_low": None, "pr_high": None, "decisions": decisions}


def open_teacher(engine: str | None = None) -> tuple[Teacher, str | None]:
    """A teacher on the engine named (None: the strongest installed), and the notice of a
    fallback (e.g. to pubeval, which ranks but does not grade)."""
    from bgboard.hints.registry import open_engine

    opened = open_engine(engine or "auto")
    return Teacher(opened.engine), opened.notice


def builtin_drills() -> tuple[Drill, ...]:
    """The drill set shipped with bgboard (``bgboard/hints/drills.toml``)."""
    from bgboard.hints.drills import builtin_drills as drills

    return drills()


def drill_of(text: str) -> Drill:
    """A drill from ``POSITION[:DICE]`` (``bgboard sim --teach practice --drill``); a bad
    Position ID or roll is one sentence."""
    from bgboard.hints.drills import drill_from_position_id

    pid, _, dice = text.partition(":")
    return drill_from_position_id(pid, dice or None)


def learner_histories(folder: Path, lessons: Sequence[Lesson], names: tuple[str, str], learners: tuple[int, ...],
                      finished: tuple[Any, ...] | None, figures: Any = ()) -> dict[int, list[dict[str, Any]]]:
    """The learners' PR match by match, from the history beside the journal (in ``folder``,
    :class:`~bgboard.store.LearnerHistory`); with ``finished`` (a finished match's actions)
    that match is kept first, under a key of its actions and today's date: each learner's
    PR, interval and decisions and their worst three positions (``[teach] drills = "mine"``).
    Blocking (SQLite): call it off the loop (``bgboard run`` and the simulator both call it)."""
    import hashlib
    import time

    from bgboard.hints.learner_report import worst_plays
    from bgboard.store.history import LearnerHistory
    from bgboard.store.progress import PROGRESS_NAME

    history = LearnerHistory(Path(folder) / PROGRESS_NAME)
    try:
        if finished is not None:
            match = hashlib.sha256(repr(tuple(finished)).encode()).hexdigest()[:20]
            played = time.strftime("%Y-%m-%d", time.gmtime())
            for side in learners:
                kept = match_figures(lessons, side, figures)
                if kept["decisions"]:
                    history.record(names[side], match, played, kept,
                                   [(p.position, p.dice, p.loss) for p in worst_plays(lessons, side)])
        return {side: history.matches(names[side]) for side in learners}
    finally:
        history.close()


def own_worst(folder: Path, names: tuple[str, ...]) -> list[str]:
    """The learners' worst positions kept beside the journal, as ``"ID:DICE"`` drills."""
    from bgboard.store.history import LearnerHistory
    from bgboard.store.progress import PROGRESS_NAME

    history = LearnerHistory(Path(folder) / PROGRESS_NAME)
    try:
        return [f"{pid}:{dice}" for pid, dice, _loss in history.worst(names)]
    finally:
        history.close()
