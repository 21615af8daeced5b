"""The learner report of a teaching session, written beside the journal by the teacher
(``teaching.WorkerTeacher``) at the end of a match or of the drills, and when the app stops;
in learner mode with each learner's history of PR (``teaching.learner_histories``)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from bgboard.config import Config
from bgboard.errors import BgboardError, shown
from bgboard.language import Phrase, said

if TYPE_CHECKING:
    from bgboard.control.rooms import Room
    from bgboard.teaching import WorkerTeacher

log = logging.getLogger(__name__)


def report_names(config: Config, room: Room | None) -> tuple[tuple[str, str], str]:
    """The players' names and the title of the learner report (``room``: the room the app
    drives, whose match state names the players, or None)."""
    if config.teach.mode == "practice":
        return (config.match.players[0], Phrase("Drill")), Phrase("Learner report: practice drills")
    state = room.state if room is not None else None
    names = tuple(state.players) if state is not None else config.match.players
    learner = config.teach.learner
    if learner != "both":  # one learner: their report
        return (names[0], names[1]), Phrase("Learner report: %(who)s", who=names[0 if learner == "white" else 1])
    return (names[0], names[1]), Phrase("Learner report: %(white)s and %(black)s", white=names[0], black=names[1])


async def write_learner_report(config: Config, teacher: WorkerTeacher, records_dir: Path, room: Room | None,
                               analysis: asyncio.Task[None] | None,
                               figures: Callable[[], tuple[dict[str, object], ...]]) -> Path | None:
    """The learner report beside the journal (in ``records_dir``), once every grade asked
    for so far is in and the match's ``analysis`` (if running) has come; ``figures()``
    gives both players' figures of the match (read once that analysis is done).  None when
    there is nothing to report or it cannot be written."""
    from bgboard.teaching import REPORT_NAME

    if not await teacher.settled():
        log.warning("some grades were still running: the report leaves them out")
    if analysis is not None and not analysis.done():
        try:  # the report shows the match's PR and luck: let the analysis come first
            await asyncio.wait_for(asyncio.shield(analysis), 30)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            log.info("the report is written without the match's analysis (still running)")
    if not teacher.lessons:
        return None
    analysed = figures()
    names, title = report_names(config, room)
    learners, histories = None, None
    if config.teach.mode == "learner":
        from bgboard.config import LEARNERS
        from bgboard.teaching import learner_histories

        learners = LEARNERS[config.teach.learner]
        # a finished match joins the learner's history
        finished = tuple(room.actions) if room is not None and room.over else None
        try:
            histories = await asyncio.to_thread(
                learner_histories, records_dir, list(teacher.lessons), names, learners, finished, analysed)
        except (BgboardError, OSError, sqlite3.Error) as exc:  # the history is help: the report goes on
            log.warning("the learner's history could not be kept: %s", shown(str(exc)))
        except Exception:  # a program error: its traceback; the report is written without it
            log.exception("the learner's history failed")
    try:
        from bgboard.language.catalogues import players_words

        names = (names[0], said(names[1], players_words(None, config.display.language)))
        report = await teacher.write_report_async(records_dir / REPORT_NAME, names, title, analysed, learners,
                                                  histories, players_words(None, config.display.language))
    except (BgboardError, OSError) as exc:  # the report is help: it never stops the board
        log.warning("the learner report could not be written: %s", shown(str(exc)))
        return None
    except Exception:  # a program error: its traceback; the board goes on
        log.exception("the learner report failed")
        return None
    log.info("learner report: %s (%s)", report, teacher.summary()[0])
    return report
