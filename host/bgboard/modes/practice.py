"""``[teach] mode = "practice"``: the practice room the app plays instead of a match, and the
learner's progress through its drills kept beside the journal (``store.Progress``), so a
session stopped half-way resumes at the drill after the last one graded."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from bgboard.config import Config
from bgboard.errors import BgboardError, shown

if TYPE_CHECKING:
    from bgboard.control.practice_room import PracticeRoom, ProgressBody
    from bgboard.display.display_state import DisplayState
    from bgboard.hints.drills import Drill
    from bgboard.link.messages import HostMessage
    from bgboard.rules import Position
    from bgboard.sense.places import Slots
    from bgboard.store.progress import Progress
    from bgboard.teaching import WorkerTeacher

log = logging.getLogger(__name__)


def open_practice_room(config: Config, journal_path: Path | None, teacher: WorkerTeacher | None,
                       send: Callable[[HostMessage], None], show: Callable[[DisplayState], None],
                       slots: Slots) -> PracticeRoom:
    """The drills of ``[teach] drills`` in a practice room, graded by ``teacher`` on the hint
    worker (``"mine"``: the learner's worst positions kept beside the journal at
    ``journal_path``); ``send`` goes to the board, ``show`` to the display."""
    from bgboard.config import LEARNERS
    from bgboard.control.numbering import Numbering
    from bgboard.control.practice_room import PracticeRoom
    from bgboard.hints.drills import select_drills

    chosen = config.teach.drills
    mine = None
    if "mine" in ((chosen,) if isinstance(chosen, str) else chosen) and journal_path is not None:
        players = config.match.players
        from bgboard.teaching import own_worst

        mine = own_worst(journal_path.parent, tuple(players[side] for side in LEARNERS[config.teach.learner]))
    drills = select_drills(chosen, mine=mine)
    log.info("practice: %d drill%s", len(drills), "" if len(drills) == 1 else "s")
    return PracticeRoom(
        drills,
        grade=teacher.grade_drill if teacher is not None else _ungraded,
        grade_cube=teacher.grade_drill_cube if teacher is not None else None,
        send=send,
        show=show,
        slots=slots,
        numbering=Numbering(config.match.numbering),
        names=(config.match.players[0], "Drill"),
        summarise=teacher.summary if teacher is not None else None,
    )


def _ungraded(player: int, before: Position, dice: tuple[int, int], after: Position, drill: Drill) -> None:
    """No engine: the drills are played ungraded."""
    return None


class PracticeProgress:
    """Where the learner is in the drills of ``room``, kept beside the journal at
    ``journal_path`` (:meth:`resume` when the app starts, :meth:`keep` after every event,
    :meth:`close` when it stops)."""

    def __init__(self, room: PracticeRoom, journal_path: Path) -> None:
        from bgboard.store.progress import PROGRESS_NAME, Progress

        self.room = room
        self.store: Progress = Progress(journal_path.parent / PROGRESS_NAME)
        self._kept: ProgressBody | None = None

    def resume(self, teacher: WorkerTeacher | None) -> None:
        """Go back to where the learner was (the same drill set): the drill after the last
        one graded, the grades so far (handed to ``teacher``)."""
        from bgboard.hints.lesson import lesson_from_body

        room = self.room
        body = self.store.load()
        lessons = room.resume(body, lesson_from_body) if body else None
        if lessons is None:
            return
        if teacher is not None:
            teacher.lessons[:0] = lessons
        self._kept = body
        log.info("practice: resuming at drill %d of %d (%d grade%s so far)", room.index + 1, len(room.drills),
                 len(lessons), "" if len(lessons) == 1 else "s")

    def keep(self) -> None:
        """Keep where the learner is when it changes (a drill graded or skipped, a grade come
        in); forgotten once the drills are done."""
        from bgboard.hints.lesson import lesson_body

        room = self.room
        body = {} if room.over else room.progress(lesson_body)
        if body != self._kept:
            try:
                if room.over:
                    self.store.clear()
                else:
                    self.store.save(body)
            except (BgboardError, OSError, sqlite3.Error) as exc:  # a full disk costs the resume point
                log.warning("the practice progress could not be kept: %s", shown(str(exc)))
            self._kept = body

    def close(self) -> None:
        self.store.close()
