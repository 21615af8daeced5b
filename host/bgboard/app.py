"""The companion on real hardware: the asyncio wiring of link, sensors, buttons, the room,
journal and display (wiring only; the logic lives in ``bgboard.control`` and below).

The app drives one *room* (:class:`bgboard.control.rooms.Room`): a match, practice drills or
a replay, opened by the mode the config and the command line ask for (``bgboard.modes``).
Every event — a board reading, the dice, a button, the link, a hint, a lesson, the other
side's answer, a tick — goes to the room through one path (:meth:`App._handle`), and what the
room shows and lights comes back through the ``show`` and ``send`` it was opened with; its
actions go to the records, and when it is over the learner report (and a match's analysis)
is written.  Only what a room of one class offers beyond that is wired for that class: a
match's club seat and analysis, the practice room's progress.

Everything that touches hardware can be injected, so the same :class:`App` runs on a Pi,
in tests and in the board simulator (docs/host.md, "Running the app without hardware"):

* ``opener`` — an async function returning a :class:`~bgboard.link.transport.Port`
  (default: the serial port of ``[board] port``);
* ``pin_factory`` — gpiozero's pin back end for the buttons (e.g. ``MockFactory()``);
* ``panel`` — a :class:`~bgboard.display.panel.Panel` (e.g. ``FilePanel``);
* ``journal`` — a journal object (default: SQLite at ``[journal] path``);
* ``clock_ms`` — the wall clock in ms (default ``time.time() * 1000``);
* ``timing`` — link timeouts;
* ``tick_s`` — how often the app polls the settler and ticks the controller (default
  0.05 s; the board simulator's fast clock shortens it with everything else).

:meth:`App.run` runs until :meth:`App.stop` (or cancellation) and closes everything it opened.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Awaitable, Callable, Sequence

from bgboard.language import Joined, Phrase
from bgboard.config import Config
from bgboard.control.controller import Controller
from bgboard.control.events import (BoardFault, BoardRead, Button, ButtonPressed, DiceRolled, HintReady,
                                    LessonReady, LinkChanged, Tick)
from bgboard.errors import EnvironmentFailure, shown
from bgboard.hardware import load_grid, load_pins
from bgboard.io.buttons import Buttons, to_loop
from bgboard.link.connection import Beat, BoardSeen, Connected, LinkEvent, Lost, Rolled, Timing, Trouble
from bgboard.link.messages import SetLeds, SetRolling
from bgboard.link.reconnect import Link
from bgboard.link.transport import Port, open_serial
from bgboard.modes.engine import open_hints
from bgboard.rules.games import variant as variant_of
from bgboard.sense.places import SensorFaultError
from bgboard.sense.settle import Settler
from bgboard.sense.slots import SlotMap
from bgboard.sense.tavli import read_board
from bgboard.store.journal import Journal, JournalError, JournalWriteError

if TYPE_CHECKING:
    from gpiozero.pins import Factory

    from bgboard.control.events import Event
    from bgboard.control.rooms import Room
    from bgboard.display.painter import Painter
    from bgboard.display.panel import Panel
    from bgboard.display.display_state import DisplayState
    from bgboard.hints.lesson import Lesson
    from bgboard.hints.worker import HintWorker
    from bgboard.match import Action, ImportedMatch
    from bgboard.match.recordfile import RecordWriter
    from bgboard.modes.practice import PracticeProgress
    from bgboard.net.boardlink import ClubLink
    from bgboard.net.protocol import Assignment
    from bgboard.net.remotelink import RemoteSeat
    from bgboard.net.seat import ClubSeat
    from bgboard.opponents import EngineOpponent
    from bgboard.rules import Position
    from bgboard.sense.places import Observation
    from bgboard.store.journal import MemoryJournal
    from bgboard.teaching import WorkerTeacher

TICK_S = 0.05
#: ``[match] variant`` values whose games the controller reads with pins and reserves in
#: mind (the seed variants and tavli).
log = logging.getLogger(__name__)


def wall_ms() -> int:
    """Milliseconds since the epoch (the default clock of the app)."""
    return int(time.time() * 1000)


class App:
    """The running companion (see the module docstring)."""

    def __init__(
        self,
        config: Config,
        *,
        opener: Callable[[], Awaitable[Port]] | None = None,
        pin_factory: Factory | None = None,
        panel: Panel | None = None,
        journal: Journal | MemoryJournal | None = None,
        clock_ms: Callable[[], int] = wall_ms,
        timing: Timing = Timing(),
        tick_s: float = TICK_S,
        replay: ImportedMatch | None = None,
    ) -> None:
        self.config = config
        self._replay = replay  # a bgboard.match.ImportedMatch: step through it instead of playing
        self.clock_ms = clock_ms
        self.timing = timing
        self.tick_s = tick_s
        self.grid = SlotMap.from_slots(load_grid(config.board.grid or None).slots)
        self.settler = Settler(config.board.settle_ms)
        self._opener = opener or (lambda: open_serial(config.board.port, config.board.baudrate))
        self._pin_factory = pin_factory
        self._panel = panel
        self._journal = journal
        self._stop = asyncio.Event()
        self._rolling = False
        self._leds: SetLeds = SetLeds(())
        self._flicker_reported: set[int] = set()
        self.controller: Room | None = None  # the room the app drives (a match, drills or a replay)
        self.match: Controller | None = None  # the same room when it plays a match (club, analysis)
        self.club: ClubSeat | None = None  # when [club] broker is set
        self.club_link: ClubLink | None = None  # its link to the director
        self.records_dir: Path | None = None
        self.records: RecordWriter | None = None  # the records are written on its thread
        self._recorded: tuple[int, int] = (-1, 0)
        self.link: Link | None = None
        self.screen: Painter | None = None  # the panel is refreshed on its thread
        self.hints: HintWorker | None = None  # hints are computed on its thread or process
        self._hint_task: asyncio.Task[None] | None = None
        self._link_task: asyncio.Task[None] | None = None
        self.teacher: WorkerTeacher | None = None  # in the teaching modes
        # under [match] opponent = "engine" the engine, under [remote] the person at the other board
        self.opponent: EngineOpponent | RemoteSeat | None = None
        self.report: Path | None = None  # the learner report, once written
        self._report_task: asyncio.Task[None] | None = None
        self._analysis_task: asyncio.Task[None] | None = None
        self._analysed = -1  # the number of actions of the match last analysed at its end
        self.analysis_figures: tuple[dict[str, object], ...] = ()  # both players' figures of that match
        self._reported: tuple[int, bool] = (-1, False)
        self.shown: list[DisplayState] = []
        self.failure: Exception | None = None  # what stopped the match (raised by run)
        self.progress: PracticeProgress | None = None  # practice: where the learner is in the drills

    # ------------------------------------------------------------------ outputs
    def _to_board(self, message: object) -> None:
        if isinstance(message, SetRolling):
            self._rolling = message.enabled
        elif isinstance(message, SetLeds):
            self._leds = message
        if self.link is not None:
            self.link.send(message)  # type: ignore[arg-type]  # dropped while unplugged; re-sent on connect

    def _to_screen(self, state: DisplayState) -> None:
        if self.club_link is not None:
            note = self.club_link.note()
            if note and not state.message:  # the club is not reachable (or refused a result)
                state = replace(state, message=note, severity="warning")
            elif note and state.severity == "info":  # after an info, shortened first if space is short
                state = replace(state, message=(Joined("; ", (state.message[0], note[-1])), *state.message))
        if self.shown and self.shown[-1] == state:
            return  # nothing new to draw (the controller refreshes on every tick)
        self.shown.append(state)
        del self.shown[:-50]
        if self.screen is not None:
            self.screen.update(state)  # returns at once: the display thread draws it

    def _ask_hint(self, position: Position, dice: tuple[int, int]) -> None:
        """The controller's hint request: the worker ranks the plays, the answer comes back
        as a :class:`HintReady` event (a newer request cancels this one)."""
        if self.hints is not None:
            self._hint_task = asyncio.get_running_loop().create_task(self._hint(self.hints, position, dice),
                                                                       name="bgboard-hint")

    async def _hint(self, hints: HintWorker, position: Position, dice: tuple[int, int]) -> None:
        from bgboard.hints.worker import ENGINE_FAILURES, HintCancelled

        try:
            ranked = (await hints.plays(position, dice, limit=1)).plays
        except HintCancelled as exc:
            log.debug("hint for %d-%d dropped: %s", *dice, exc.reason)
            return
        except ENGINE_FAILURES as exc:  # an engine failure costs the hint, never the match
            log.warning("the hint engine failed: %s", shown(str(exc)))
            return
        except Exception:  # a program error: its traceback, and the hint is not shown
            log.exception("the hint for %d-%d failed", *dice)
            return
        if ranked:
            self._handle(HintReady(position, dice, f"best: {ranked[0].notation}", self.clock_ms()))

    def _lesson_ready(self, player: int, lesson: Lesson) -> None:
        """Teaching: a lesson the teacher graded on the hint worker, for the room."""
        self._handle(LessonReady(player, lesson, self.clock_ms()))

    async def _write_report(self) -> None:
        """The learner report beside the journal (``modes.report``), once every grade asked
        for so far is in (at the end of a match or of the drills, and when the app stops)."""
        if self.teacher is None or self.records_dir is None:
            return
        from bgboard.modes.report import write_learner_report

        report = await write_learner_report(self.config, self.teacher, self.records_dir, self.controller,
                                            self._analysis_task, lambda: self.analysis_figures)
        if report is not None:
            self.report = report

    # ------------------------------------------------------------------ inputs
    def _handle(self, event: Event) -> None:
        """The one path of every event to the room (whatever room it is), then what follows
        from it: the records, the club's and the other board's view, the report at the end."""
        room = self.controller
        if room is not None and self.failure is None:
            if isinstance(event, ButtonPressed) and self.club is not None and self.club.press(event.player, event.button, event.at_ms):
                self._after()  # the players' answer to a club result (net/seat.py, control/confirm.py)
                return
            done = len(room.actions)
            try:
                room.handle(event)
            except (JournalError, JournalWriteError) as exc:  # written before it takes effect: nothing kept is lost
                self._fail(exc)
                return
            for number, action in enumerate(room.actions[done:], start=done + 1):
                log.info("match action %d: %s", number, action)
            self._after()
            self._report_at_end()
            self._analysis_at_end()
            if self.progress is not None:
                self.progress.keep()

    def _report_at_end(self) -> None:
        """Teaching: at the end of a match (or of the drills) the learner report is written."""
        c = self.controller
        if self.teacher is None or c is None:
            return
        key = (len(c.actions), bool(c.over))
        if key[1] and key != self._reported:
            self._reported = key
            self._report_task = asyncio.get_running_loop().create_task(self._write_report(), name="bgboard-report")

    def _analysis_at_end(self) -> None:
        """At a match's end the hint worker analyses it (PR and error rates for the end
        screen): on its thread or process, never on the loop."""
        c = self.match
        if self.hints is None or c is None or not c.over:
            return
        key = len(c.actions)
        if key != self._analysed:
            self._analysed = key
            self._analysis_task = asyncio.get_running_loop().create_task(
                self._analyse(self.hints, tuple(c.actions), key), name="bgboard-analysis")

    async def _analyse(self, hints: HintWorker, actions: tuple[Action, ...], key: int) -> None:
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
        c = self.match
        text = summary_lines(figures)
        if text and c is not None:
            self.analysis_figures = figures
            log.info("match analysis: %s", text[0])
            c.show_analysis(text, key)

    def _after(self) -> None:
        """After an event: the match record beside the journal (handed to the records
        thread: two fsyncs and renames are no work for the loop), the club's view."""
        c = self.controller
        assert c is not None
        if self.records is not None and self.records.error is not None:
            self._fail(self.records.error)  # the records' disk is full or read-only
            return
        key = (len(c.actions), id(c.actions[-1]) if c.actions else 0)
        if self.records is not None and key != self._recorded and c.actions:
            info = None
            current = self.club.current() if self.club is not None else None
            if current is not None:
                from bgboard.net.board_report import mat_info

                info = mat_info(current[0])
            self.records.write(c.actions, info)
            self._recorded = key
        if self.club is not None:
            self.club.after()
        after = getattr(self.opponent, "after", None)
        if after is not None:  # a remote match: this board's moves go to the other board
            after()

    def _fail(self, exc: Exception) -> None:
        """Stop the match with ``exc`` (one sentence), raised by :meth:`run`."""
        if self.failure is None:
            log.error("the match stops: %s", exc)
            self.failure = exc
        self.stop()

    def _on_link(self, event: LinkEvent) -> None:
        now = self.clock_ms()
        if isinstance(event, Connected):
            text = Phrase("the board restarted: reading it again") if event.rebooted else Phrase("the board is connected")
            self._handle(LinkChanged(True, text, now))
            assert self.link is not None
            self.link.send(SetRolling(self._rolling))
            self.link.send(self._leds)
        elif isinstance(event, BoardSeen):
            try:
                observation = self._read(event.states)
            except SensorFaultError as exc:
                self._handle(BoardFault(str(exc), now, sensor=True))
                return
            self.settler.feed(observation, now)
        elif isinstance(event, Rolled):
            self._handle(DiceRolled(event.dice, event.number, now))
        elif isinstance(event, Beat):
            if event.rolling != self._rolling and self.link is not None:
                self.link.send(SetRolling(self._rolling))  # the board lost the setting: set it again
        elif isinstance(event, Trouble):
            self._handle(BoardFault(event.text, now))
        elif isinstance(event, Lost):
            self._handle(LinkChanged(False, event.text, now))

    def _read(self, states: Sequence[int]) -> Observation:
        """The slot states as the controller reads them: in a seed variant's match with the
        slot states kept and a Plakoto pin's cancelled base slot not taken for a fault
        (:func:`bgboard.sense.tavli.read_board`)."""
        variant = variant_of(self.config.match.variant)
        if not variant.seed:
            return self.grid.observation(states)
        return read_board(self.grid, states, pins=variant.pins)

    def _on_press(self, player: int, button: str) -> None:
        self._handle(ButtonPressed(player, Button(button), self.clock_ms()))

    def _tick(self) -> None:
        now = self.clock_ms()
        settled = self.settler.poll(now)
        if settled is not None:
            self._handle(BoardRead(settled, now))
        flickers = self.settler.flickering(now)
        for flicker in flickers:
            if flicker.place not in self._flicker_reported:
                self._flicker_reported.add(flicker.place)
                self._handle(BoardFault(str(flicker), now, sensor=True))
        if not flickers:
            self._flicker_reported.clear()
        self._handle(Tick(now))
        if self.screen is not None:
            self.screen.tick()

    def _start_club(self, journal: Journal | MemoryJournal) -> "asyncio.Task[None] | None":
        """With ``[club] broker`` set: the club link and the seat tying it to the match."""
        if not self.config.club.enabled or self.match is None:
            return None
        from bgboard.modes.club import open_club_seat

        self.club, self.club_link = open_club_seat(self.config, journal, self.match, self.clock_ms,
                                                   self._on_assignment, lambda ack: self._after())
        return asyncio.create_task(self.club_link.run(), name="bgboard-club")

    def _on_assignment(self, assignment: Assignment) -> None:
        if self.club is not None:
            self.club.offer(assignment)
            self._after()

    async def _session_end(self) -> None:
        """The app stops in a teaching mode: the grades still running come in, the learner
        report is written, and the display keeps the session in short (e-ink holds it)."""
        assert self.teacher is not None
        if self._report_task is not None:
            await asyncio.gather(self._report_task, return_exceptions=True)
        await self._write_report()
        await self.teacher.close()
        if self.teacher.lessons and self.shown:
            summary = self.teacher.summary()
            if self.shown[-1].lesson != summary:
                self._to_screen(replace(self.shown[-1], lesson=summary))

    # ------------------------------------------------------------------ life
    def stop(self) -> None:
        """End :meth:`run`."""
        self._stop.set()

    async def run(self) -> None:
        """Run the companion until :meth:`stop`; everything opened here is closed here, on an
        :class:`~contextlib.AsyncExitStack` (each part closed once the parts opened after it
        are). A journal that cannot be written stops the match: :attr:`failure` is raised."""
        async with AsyncExitStack() as stack:
            try:
                await self._open(stack)
                assert self._link_task is not None
                while not self._stop.is_set():
                    try:
                        await asyncio.wait_for(self._stop.wait(), self.tick_s)
                    except asyncio.TimeoutError:
                        pass
                    if self._link_task.done():
                        self._link_task.result()  # a program error in the link: raise it
                    self._tick()
            finally:
                log.info("stopping")
        if self.failure is not None:
            raise self.failure

    async def _open(self, stack: AsyncExitStack) -> None:
        """Open every part of the app, each one's closing pushed on ``stack`` (in the order
        they close: the club and the link first, the panel last)."""
        loop = asyncio.get_running_loop()
        config = self.config
        journal = self._journal
        if journal is None:
            try:
                Path(config.journal.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                from bgboard.files import os_error

                raise os_error(exc, Path(config.journal.path).parent) from None
            journal = Journal(config.journal.path)
            stack.callback(journal.close)
        panel = self._panel
        if panel is None:
            from bgboard.display.drivers import open_panel

            frames = config.display.frames_dir or None
            pins = None if frames else load_pins().display
            panel = await asyncio.to_thread(open_panel, config.display.panel, frames, pins)
            stack.push_async_callback(asyncio.to_thread, panel.close)
        from bgboard.display.painter import Painter
        from bgboard.display.screen import Screen

        from bgboard.language.catalogues import players_words

        self.screen = Painter(Screen(panel, words=players_words(None, config.display.language)), self.clock_ms)
        stack.push_async_callback(self._close_records)  # after the display: the last action's records are written
        stack.push_async_callback(asyncio.to_thread, self.screen.close)  # the refresh under way ends first
        stack.push_async_callback(self._close_opponent)
        self.hints, notice = await asyncio.to_thread(open_hints, config.hints.engine)
        if self.hints is not None:
            stack.push_async_callback(asyncio.to_thread, self.hints.close)
        if config.teach.mode != "off" and self._replay is None and self.hints is not None:
            from bgboard.teaching import WorkerTeacher  # (the config asks for an engine)

            self.teacher = WorkerTeacher(self.hints, self._lesson_ready)
            if config.teach.mode == "learner" and config.teach.learner != "both":
                from bgboard.config import LEARNERS

                self.teacher.learners = LEARNERS[config.teach.learner]  # the display sums up theirs
        teacher = self.teacher
        stack.callback(self._close_progress)
        if teacher is not None:
            stack.push_async_callback(self._session_end)
        stack.push_async_callback(self._end_analysis)
        stack.callback(self._cancel_hint)
        if self._replay is None:
            from bgboard.modes.opponent import open_other_side  # the engine or a person at another board

            self.opponent = await open_other_side(config, journal, self._handle, self.clock_ms)
        journal_path = journal.path if isinstance(journal, Journal) else None
        room = self.controller = await self._open_room(journal, journal_path, teacher)
        state, done = room.state, len(room.actions)
        log.info("journal %s: %d match action%s, phase %s", journal_path or "(in memory)", done,
                 "" if done == 1 else "s", state.phase if state is not None else "none")
        log.info("display: %s; hints: %s", panel.caps.name, config.hints.engine)
        if journal_path:
            from bgboard.match.recordfile import RecordWriter

            self.records_dir = Path(journal_path).parent
            self.records = RecordWriter(self.records_dir)
        club_task = self._start_club(journal)
        if club_task is not None:
            stack.push_async_callback(self._stop_club, club_task)
        if notice:
            log.warning("hints: %s", notice)
            self._handle(BoardFault(notice, self.clock_ms()))
        if config.buttons.enabled:
            pins = load_pins().buttons
            factory = self._pin_factory
            if factory is None and config.buttons.pin_factory == "mock":
                from gpiozero.pins.mock import MockFactory

                factory = MockFactory()
            elif factory is None and config.buttons.pin_factory:
                os.environ["GPIOZERO_PIN_FACTORY"] = config.buttons.pin_factory  # gpiozero's own switch
            # gpiozero starts a thread per button: not on the loop
            buttons = await asyncio.to_thread(Buttons, pins, to_loop(loop, self._on_press), pin_factory=factory,
                                              bounce_ms=config.buttons.bounce_ms)
            stack.push_async_callback(asyncio.to_thread, buttons.close)  # gpiozero joins each button's thread
        self.link = Link(self._opener, self._on_link, timing=self.timing, port=config.board.port)
        self._link_task = asyncio.create_task(self.link.run(), name="bgboard-link")
        stack.push_async_callback(self._stop_link, self.link, self._link_task)

    async def _open_room(self, journal: Journal | MemoryJournal, journal_path: Path | None,
                         teacher: WorkerTeacher | None) -> Room:
        """The room of the mode asked for: the replay of ``--replay``, the drills of
        ``[teach] mode = "practice"`` (resumed where the learner was), else the match of the
        journal (against the other side opened, if any)."""
        config = self.config
        if self._replay is not None:
            from bgboard.modes.replay import open_replay

            return await open_replay(config, self._replay, self.hints, self._to_board, self._to_screen)
        if config.teach.mode == "practice":
            from bgboard.modes.practice import PracticeProgress, open_practice_room

            practice = open_practice_room(config, journal_path, teacher, self._to_board, self._to_screen,
                                          self.grid.slots())
            if journal_path is not None:
                self.progress = PracticeProgress(practice, journal_path)
                self.progress.resume(teacher)
            return practice
        from bgboard.modes.match import open_match_room

        self.match = open_match_room(config, journal, self.grid, self.clock_ms(), opponent=self.opponent,
                                     send=self._to_board, show=self._to_screen,
                                     hint=self._ask_hint if self.hints is not None else None, teacher=teacher)
        return self.match

    async def _stop_club(self, task: asyncio.Task[None]) -> None:
        assert self.club_link is not None
        self.club_link.stop()
        try:
            await asyncio.wait_for(task, 5)
        except asyncio.TimeoutError:  # pragma: no cover - the club link ignores stop
            task.cancel()

    @staticmethod
    async def _stop_link(link: Link, task: asyncio.Task[None]) -> None:
        link.stop()
        try:
            await asyncio.wait_for(task, 5)
        except asyncio.TimeoutError:  # pragma: no cover - the link ignores stop
            task.cancel()

    def _cancel_hint(self) -> None:
        if self._hint_task is not None:
            self._hint_task.cancel()

    async def _end_analysis(self) -> None:
        if self._analysis_task is not None and not self._analysis_task.done():
            # the end screen is kept by the e-ink panel: let the match's analysis come
            try:
                await asyncio.wait_for(self._analysis_task, 30)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                log.info("the match analysis did not finish before the app stopped")

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.close()

    async def _close_opponent(self) -> None:
        if self.opponent is not None:
            await self.opponent.close()

    async def _close_records(self) -> None:
        if self.records is not None:
            await asyncio.to_thread(self.records.close)  # the last action's records are written
            if self.records.error is not None and self.failure is None:
                self._fail(self.records.error)
