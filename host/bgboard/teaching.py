"""The teacher: grades plays and cube decisions for the controller's teaching mode with a
hint engine, keeps the lessons of the session and writes the learner report.

Synchronous (the simulator's virtual clock and ``bgboard sim --teach`` call it inline; the
real board grades on the :class:`~bgboard.hints.worker.HintWorker` instead, see
``bgboard.app``).  The grading itself is :mod:`bgboard.hints.lesson`; this module only turns
the match's state into the engine's cube state and writes the report file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bgboard.hints.advice import cube_blocker
from bgboard.hints.engine import CubeState, HintEngine, UnsupportedError
from bgboard.hints.lesson import CubeLesson, PlayLesson, grade_cube, grade_turn
from bgboard.hints.report import report_html, short_report, LearnerReport
from bgboard.match.state import MatchState
from bgboard.rules import Position, position_id

__all__ = ["Teacher", "cube_state", "open_teacher"]


def cube_state(state: MatchState, player: int) -> CubeState:
    """The cube and score of ``state`` as ``player`` sees them."""
    owner = "centred" if state.cube_owner is None else ("mine" if state.cube_owner == player else "theirs")
    if state.length == 0:
        return CubeState(value=state.cube, owner=owner, jacoby=state.rules.jacoby, beaver=state.rules.beavers)
    return CubeState(
        value=state.cube,
        owner=owner,
        my_away=max(1, state.length - state.score[player]),
        their_away=max(1, state.length - state.score[1 - player]),
        crawford=state.crawford,
    )


class Teacher:
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
        doubler = state.turn
        if doubler is None:
            return None
        cube = cube_state(state, doubler)
        if cube_blocker(cube) is not None:
            return None
        position = state.position  # the doubler on roll
        try:
            hint = self.engine.cube(position, cube)
        except UnsupportedError:
            return None
        if hint.no_double is None or hint.double_take is None or hint.double_pass is None:
            return None
        lesson = grade_cube(hint, decision, player=player, position=position_id(position))
        self.lessons.append(lesson)
        return lesson

    def drill_state(self, drill: Any) -> CubeState:
        """A drill's cube and score (centred cube; money when ``away`` is (0, 0))."""
        my_away, their_away = drill.away
        return CubeState(value=drill.cube, my_away=my_away, their_away=their_away)

    def grade_drill(self, player: int, before: Position, dice: tuple[int, int], after: Position,
                    drill: Any) -> PlayLesson:
        """The practice room's ``grade``: a drill's play."""
        cube = self.drill_state(drill) if self.cubeful else None
        lesson = grade_turn(self.engine, before, dice, after, player=player, state=cube)
        self.lessons.append(lesson)
        return lesson

    def grade_drill_cube(self, player: int, drill: Any, decision: str) -> CubeLesson | None:
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

    @property
    def plays(self) -> list[PlayLesson]:
        """The graded plays (not the passes)."""
        return [lesson for lesson in self.lessons if isinstance(lesson, PlayLesson) and lesson.play]

    def grades(self) -> list[dict[str, Any]]:
        """The ``grades`` of ``bgboard sim --teach --json``."""
        return [lesson.record() for lesson in self.plays]

    def summary(self, lessons: Any = None) -> tuple[str, ...]:
        """The report in one line (for the display at the end): of ``lessons`` (the
        controller's), else of every lesson this teacher gave."""
        return short_report(LearnerReport.of(self.lessons if lessons is None else lessons))

    def write_report(self, path: Path, names: tuple[str, str], title: str = "Learner report") -> Path:
        """Write the HTML learner report (atomically: a finished file or none)."""
        path = Path(path)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(report_html(self.lessons, title, names), encoding="utf-8")
        tmp.replace(path)
        return path


def open_teacher(engine: str | None = None) -> tuple[Teacher, str | None]:
    """A teacher on the engine named (None: the strongest installed), and the notice of a
    fallback (e.g. to pubeval, which ranks but does not grade)."""
    from bgboard.hints.registry import open_engine

    opened = open_engine(engine or "auto")
    return Teacher(opened.engine), opened.notice


def builtin_drills() -> tuple[Any, ...]:
    """The drill set shipped with bgboard (``bgboard/hints/drills.toml``)."""
    from bgboard.hints.drills import builtin_drills as drills

    return drills()


def drill_of(text: str) -> Any:
    """A drill from ``POSITION[:DICE]`` (``bgboard sim --teach practice --drill``); a bad
    Position ID or roll is one sentence."""
    from bgboard.hints.drills import drill_from_position_id

    pid, _, dice = text.partition(":")
    return drill_from_position_id(pid, dice or None)
