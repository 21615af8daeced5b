"""What follows the end of a match or of the drills at the board (the app's, kept apart from
its wiring): the learner report beside the journal once every grade asked for is in, and a
match's analysis for the end screen (PR and error rates), both computed on the hint worker's
thread or process, never on the loop; when the app stops in a teaching mode, the last grades
come in, the report is written and the display keeps the session in short."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from bgboard.errors import shown

if TYPE_CHECKING:
    from bgboard.config import Config
    from bgboard.control.controller import Controller
    from bgboard.control.rooms import Room
    from bgboard.display.display_state import DisplayState
    from bgboard.hints.worker import HintWorker
    from bgboard.match import Action
    from bgboard.teaching import WorkerTeacher

log = logging.getLogger(__name__)

__all__ = ["Afterwards"]


class Afterwards:
    """The report and the analysis at the end (module docstring). ``records_dir``: where the
    report goes (beside the journal; None: no report); ``report``: its path once written;
    ``analysis_figures``: both players' figures of the match last analysed."""

    def __init__(self, config: Config, hints: HintWorker | None, teacher: WorkerTeacher | None) -> None:
        self.config = config
        self.hints = hints
        self.teacher = teacher
        self.records_dir: Path | None = None
        self.report: Path | None = None
        self.analysis_figures: tuple[dict[str, object], ...] = ()
        self._report_task: asyncio.Task[None] | None = None
        self._analysis_task: asyncio.Task[None] | None = None
        self._analysed = -1  # the number of actions of the match last analysed at its end
        self._reported: tuple[int, bool] = (-1, False)

    def after(self, room: Room | None) -> None:
        """After an event: at the end of a match (or the drills) start what follows it (the
        match's analysis: the match the room plays, :meth:`~bgboard.control.rooms.Room.match_room`)."""
        self._report_at_end(room)
        self._analysis_at_end(room.match_room() if room is not None else None)

    async def write_report(self, room: Room | None) -> None:
        """The learner report beside the journal (``modes.report``), once every grade asked
        for so far is in (at the end of a match or of the drills, and when the app stops)."""
        if self.teacher is None or self.records_dir is None:
            return
        from bgboard.modes.report import write_learner_report

        report = await write_learner_report(self.config, self.teacher, self.records_dir, room,
                                            self._analysis_task, lambda: self.analysis_figures)
        if report is not None:
            self.report = report

    def _report_at_end(self, room: Room | None) -> None:
        """Teaching: at the end of a match (or of the drills) the learner report is written."""
        if self.teacher is None or room is None:
            return
        key = (len(room.actions), bool(room.over))
        if key[1] and key != self._reported:
            self._reported = key
            self._report_task = asyncio.get_running_loop().create_task(self.write_report(room), name="bgboard-report")

    def _analysis_at_end(self, match: Controller | None) -> None:
        """At a match's end the hint worker analyses it (PR and error rates for the end
        screen): on its thread or process, never on the loop."""
        if self.hints is None or match is None or not match.over:
            return
        key = len(match.actions)
        if key != self._analysed:
            self._analysed = key
            self._analysis_task = asyncio.get_running_loop().create_task(
                self._analyse(self.hints, match, tuple(match.actions), key), name="bgboard-analysis")

    async def _analyse(self, hints: HintWorker, match: Controller, actions: tuple[Action, ...], key: int) -> None:
        from bgboard.analysis.match_end import figures_for_actions, summary_lines
        from bgboard.hints.worker import ENGINE_FAILURES, HintCancelled

        try:
            figures = await hints.call(figures_for_actions, actions, hints.engine.name, budget=600.0)
        except HintCancelled as exc:
            log.info("the match analysis was dropped: %s", exc.reason)
            return
        except ENGINE_FAILURES as exc:  # the analysis is help: it never stops the board
            log.warning("the match could not be analysed: %s", shown(str(exc)))
            return
        except Exception:  # a program error: its traceback; the board goes on without it
            log.exception("the match analysis failed")
            return
        text = summary_lines(figures)
        if text:
            self.analysis_figures = figures
            log.info("match analysis: %s", text[0])
            match.show_analysis(text, key)

    async def session_end(self, room: Room | None, shown_states: list[DisplayState],
                          show: Callable[[DisplayState], None]) -> None:
        """The app stops in a teaching mode: the grades still running come in, the learner
        report is written, and the display keeps the session in short (e-ink holds it)."""
        assert self.teacher is not None
        if self._report_task is not None:
            await asyncio.gather(self._report_task, return_exceptions=True)
        await self.write_report(room)
        await self.teacher.close()
        if self.teacher.lessons and shown_states:
            summary = self.teacher.summary()
            if shown_states[-1].lesson != summary:
                show(replace(shown_states[-1], lesson=summary))

    async def end_analysis(self) -> None:
        """The app stops: a match analysis under way may finish (the e-ink panel keeps the
        end screen), within 30 s."""
        if self._analysis_task is not None and not self._analysis_task.done():
            try:
                await asyncio.wait_for(self._analysis_task, 30)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                log.info("the match analysis did not finish before the app stopped")
