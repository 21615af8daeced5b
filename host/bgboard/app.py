"""The companion on real hardware: the asyncio wiring of link, sensors, buttons, the room,
journal and display (wiring only; the logic lives in ``bgboard.control`` and below).

The app drives one *room* (:class:`bgboard.control.rooms.Room`): a match, practice drills or
a replay, opened by the mode the config and the command line ask for (``bgboard.modes``).
Every event — a board reading, the dice, a button, the link, a hint, a lesson, the other
side's answer, a tick — goes to the room through one path (:meth:`App._handle`), and what the
room shows and lights comes back through the ``show`` and ``send`` it was opened with; its
actions go to the records, and when it is over the learner report (and a match's analysis)
is written.  Under ``[club]`` or ``[remote]`` that room is the match room with its seats
beside it (:class:`bgboard.control.seated_room.SeatedRoom`: the club seat takes the players'
answers to a result, and it and the remote seat follow every event once its records are
written).  What needs the match the room plays (its analysis at the end, the club seat)
asks the room for it (:meth:`~bgboard.control.rooms.Room.match_room`, :attr:`App.match`):
the app keeps one room, not the match beside it.  The practice room's progress is wired for
the drills the app opened.

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

from bgboard.language import Joined, Phrase, sentence_of
from bgboard.config import Config
from bgboard.control.seated_room import Seat, SeatedRoom
from bgboard.control.events import (BoardFault, BoardRead, Button, ButtonPressed, DiceRolled, LessonReady,
                                    LinkChanged, Tick)
from bgboard.errors import EnvironmentFailure
from bgboard.hardware import load_grid, load_pins
from bgboard.io.buttons import Buttons, to_loop
from bgboard.link.connection import Beat, BoardSeen, Connected, LinkEvent, Lost, Rolled, Timing, Trouble
from bgboard.link.messages import SetLeds, SetRolling
from bgboard.link.reconnect import Link
from bgboard.link.transport import Port, open_serial
from bgboard.modes.afterwards import Afterwards
from bgboard.modes.club import club_mat_info
from bgboard.modes.engine import HintRequests, open_hints
from bgboard.rules.games import variant as variant_of
from bgboard.sense.places import SensorFaultError
from bgboard.sense.settle import Settler
from bgboard.sense.slots import SlotMap
from bgboard.sense.tavli import read_board
from bgboard.store.journal import Journal, JournalError, JournalWriteError

if TYPE_CHECKING:
    from gpiozero.pins import Factory

    from bgboard.control.controller import Controller
    from bgboard.control.events import Event
    from bgboard.control.practice_room import PracticeRoom
    from bgboard.control.rooms import Room
    from bgboard.display.painter import Painter
    from bgboard.display.panel import Panel
    from bgboard.display.display_state import DisplayState
    from bgboard.hints.lesson import Lesson
    from bgboard.hints.worker import HintWorker
    from bgboard.match import ImportedMatch
    from bgboard.match.recordfile import RecordWriter
    from bgboard.modes.practice import PracticeProgress
    from bgboard.net.boardlink import ClubLink
    from bgboard.net.protocol import Assignment
    from bgboard.net.remotelink import RemoteSeat
    from bgboard.net.seat import ClubSeat
    from bgboard.opponents import EngineOpponent
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
        self.board = BoardInput(config, self.grid, self._handle, clock_ms)  # the board's side: the link's events
        self._opener = opener or (lambda: open_serial(config.board.port, config.board.baudrate))
        self._pin_factory = pin_factory
        self._panel = panel
        self._journal = journal
        self._stop = asyncio.Event()
        self.controller: Room | None = None  # the room the app drives (a match, drills or a replay)
        self.practice: PracticeRoom | None = None  # the same room when it runs drills (the simulator's person)
        self.club: ClubSeat | None = None  # when [club] broker is set
        self.club_link: ClubLink | None = None  # its link to the director
        self.records_dir: Path | None = None
        self.records: RecordWriter | None = None  # the records are written on its thread
        self._recorded: tuple[int, int] = (-1, 0)
        self.screen: Painter | None = None  # the panel is refreshed on its thread
        self.hints: HintWorker | None = None  # hints are computed on its thread or process
        self.hint_requests: HintRequests | None = None  # the controller's hints, on the hint worker
        self._link_task: asyncio.Task[None] | None = None
        self.teacher: WorkerTeacher | None = None  # in the teaching modes
        # under [match] opponent = "engine" the engine, under [remote] the person at the other board
        self.opponent: EngineOpponent | RemoteSeat | None = None
        self.end = Afterwards(config, None, None)  # the learner report and the analysis at the end
        self.shown: list[DisplayState] = []
        self.failure: Exception | None = None  # what stopped the match (raised by run)
        self.progress: PracticeProgress | None = None  # practice: where the learner is in the drills

    # ------------------------------------------------------------------ outputs
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

    def _lesson_ready(self, player: int, lesson: Lesson) -> None:
        """Teaching: a lesson the teacher graded on the hint worker, for the room."""
        self._handle(LessonReady(player, lesson, self.clock_ms()))

    @property
    def link(self) -> Link | None:
        """The link to the board (once the app runs)."""
        return self.board.link

    @property
    def match(self) -> Controller | None:
        """The match the room plays (None: no room yet, drills, a replay), asked of the room."""
        return self.controller.match_room() if self.controller is not None else None

    @property
    def report(self) -> Path | None:
        """The learner report, once written."""
        return self.end.report

    @property
    def analysis_figures(self) -> tuple[dict[str, object], ...]:
        """Both players' figures of the match last analysed at its end."""
        return self.end.analysis_figures

    # ------------------------------------------------------------------ inputs
    def _handle(self, event: Event) -> None:
        """The one path of every event to the room (whatever room it is), then what follows
        from it: the records, the club's and the other board's view, the report at the end."""
        room = self.controller
        if room is not None and self.failure is None:
            done = len(room.actions)
            try:
                room.handle(event)
            except (JournalError, JournalWriteError) as exc:  # written before it takes effect: nothing kept is lost
                self._fail(exc)
                return
            for number, action in enumerate(room.actions[done:], start=done + 1):
                log.info("match action %d: %s", number, action)
            self._after()
            self.end.after(room)
            if self.progress is not None:
                self.progress.keep()

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
            self.records.write(c.actions, club_mat_info(self.club))
            self._recorded = key
        c.follow()  # seated: the club's view; a remote match's moves to the other board

    def _fail(self, exc: Exception) -> None:
        """Stop the match with ``exc`` (one sentence), raised by :meth:`run`."""
        if self.failure is None:
            log.error("the match stops: %s", exc)
            self.failure = exc
        self.stop()

    def _on_press(self, player: int, button: str) -> None:
        self._handle(ButtonPressed(player, Button(button), self.clock_ms()))

    def _tick(self) -> None:
        now = self.clock_ms()
        self.board.poll(now)
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
        """The app stops in a teaching mode (:meth:`Afterwards.session_end`)."""
        await self.end.session_end(self.controller, self.shown, self._to_screen)

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
        config = self.config
        journal = self._journal if self._journal is not None else _open_journal(config, stack)
        panel = self._panel if self._panel is not None else await _open_panel(config, stack)
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
        self._open_teacher()
        teacher = self.end.teacher = self.teacher
        self.end.hints = self.hints
        stack.callback(self._close_progress)
        if teacher is not None:
            stack.push_async_callback(self._session_end)
        stack.push_async_callback(self.end.end_analysis)
        if self.hints is not None:
            self.hint_requests = HintRequests(self.hints, self._handle, self.clock_ms)
            stack.callback(self.hint_requests.cancel)
        remote: RemoteSeat | None = None
        if self._replay is None:
            from bgboard.modes.opponent import open_other_side  # the engine or a person at another board

            self.opponent, remote = await open_other_side(config, journal, self._handle, self.clock_ms)
        journal_path = journal.path if isinstance(journal, Journal) else None
        room = self.controller = await self._open_room(journal, journal_path, teacher)
        state, done = room.state, len(room.actions)
        log.info("journal %s: %d match action%s, phase %s", journal_path or "(in memory)", done,
                 "" if done == 1 else "s", state.phase if state is not None else "none")
        log.info("display: %s; hints: %s", panel.caps.name, config.hints.engine)
        if journal_path:
            from bgboard.match.recordfile import RecordWriter

            self.records_dir = self.end.records_dir = Path(journal_path).parent
            self.records = RecordWriter(self.records_dir)
        club_task = self._start_club(journal)
        if club_task is not None:
            assert self.club_link is not None
            stack.push_async_callback(_stop_task, self.club_link.stop, club_task)
        seats: list[Seat] = [seat for seat in (self.club, remote) if seat is not None]
        if self.match is not None and seats:  # the one room the app drives: the match with its seats
            self.controller = SeatedRoom(self.match, seats)
        if notice:
            log.warning("hints: %s", notice)
            self._handle(BoardFault(notice, self.clock_ms()))
        if config.buttons.enabled:
            await _open_buttons(config, self._pin_factory, self._on_press, stack)
        link = self.board.link = Link(self._opener, self.board.on_link, timing=self.timing, port=config.board.port)
        self._link_task = asyncio.create_task(link.run(), name="bgboard-link")
        stack.push_async_callback(_stop_task, link.stop, self._link_task)

    def _open_teacher(self) -> None:
        """Teaching on (``[teach] mode``), outside a replay, with a hint engine: the teacher
        grading on the hint worker (for the learners the config names)."""
        config = self.config
        if config.teach.mode != "off" and self._replay is None and self.hints is not None:
            from bgboard.teaching import WorkerTeacher  # (the config asks for an engine)

            self.teacher = WorkerTeacher(self.hints, self._lesson_ready)
            if config.teach.mode == "learner" and config.teach.learner != "both":
                from bgboard.config import LEARNERS

                self.teacher.learners = LEARNERS[config.teach.learner]  # the display sums up theirs

    async def _open_room(self, journal: Journal | MemoryJournal, journal_path: Path | None,
                         teacher: WorkerTeacher | None) -> Room:
        """The room of the mode asked for: the replay of ``--replay``, the drills of
        ``[teach] mode = "practice"`` (resumed where the learner was), else the match of the
        journal (against the other side opened, if any)."""
        config = self.config
        if self._replay is not None:
            from bgboard.modes.replay import open_replay

            return await open_replay(config, self._replay, self.hints, self.board.send, self._to_screen)
        if config.teach.mode == "practice":
            from bgboard.modes.practice import PracticeProgress, open_practice_room

            practice = self.practice = open_practice_room(config, journal_path, teacher, self.board.send,
                                                          self._to_screen, self.grid.slots())
            if journal_path is not None:
                self.progress = PracticeProgress(practice, journal_path)
                self.progress.resume(teacher)
            return practice
        from bgboard.modes.match import open_match_room

        return open_match_room(config, journal, self.grid, self.clock_ms(), opponent=self.opponent,
                               send=self.board.send, show=self._to_screen,
                               hint=self.hint_requests.ask if self.hint_requests is not None else None,
                               teacher=teacher)

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


class BoardInput:
    """The board's side of the app (one :class:`App` owns): the link's events and the
    settled readings handed on as the room's events — a reading, the dice, a fault, the
    link up or down — and what the board is told again after a reconnect or a lost
    setting (the dice module's rolling, the LEDs). ``handle``: the app's one path of events."""

    def __init__(self, config: Config, grid: SlotMap, handle: Callable[[Event], None], clock_ms: Callable[[], int]) -> None:
        self.grid = grid
        self.variant = variant_of(config.match.variant)
        self.settler = Settler(config.board.settle_ms)
        self.handle = handle
        self.clock_ms = clock_ms
        self.link: Link | None = None
        self.rolling = False
        self.leds: SetLeds = SetLeds(())
        self._flicker_reported: set[int] = set()

    def send(self, message: object) -> None:
        """A message of the room for the board (dropped while unplugged; re-sent on connect)."""
        if isinstance(message, SetRolling):
            self.rolling = message.enabled
        elif isinstance(message, SetLeds):
            self.leds = message
        if self.link is not None:
            self.link.send(message)  # type: ignore[arg-type]

    def on_link(self, event: LinkEvent) -> None:
        now = self.clock_ms()
        if isinstance(event, Connected):
            text = Phrase("the board restarted: reading it again") if event.rebooted else Phrase("the board is connected")
            self.handle(LinkChanged(True, text, now))
            assert self.link is not None
            self.link.send(SetRolling(self.rolling))
            self.link.send(self.leds)
        elif isinstance(event, BoardSeen):
            try:
                observation = self.read(event.states)
            except SensorFaultError as exc:
                self.handle(BoardFault(sentence_of(exc), now, sensor=True))
                return
            self.settler.feed(observation, now)
        elif isinstance(event, Rolled):
            self.handle(DiceRolled(event.dice, event.number, now))
        elif isinstance(event, Beat):
            if event.rolling != self.rolling and self.link is not None:
                self.link.send(SetRolling(self.rolling))  # the board lost the setting: set it again
        elif isinstance(event, Trouble):
            self.handle(BoardFault(event.text, now))
        elif isinstance(event, Lost):
            self.handle(LinkChanged(False, event.text, now))

    def read(self, states: Sequence[int]) -> Observation:
        """The slot states as the controller reads them, in every game: the place codes
        with the slot states kept and, where the match may pin (Plakoto), a pin's cancelled
        base slot not taken for a fault (:func:`bgboard.sense.tavli.read_board`)."""
        return read_board(self.grid, states, pins=self.variant.pins)

    def poll(self, now: int) -> None:
        """The settled reading, if one came, and each flickering place once."""
        settled = self.settler.poll(now)
        if settled is not None:
            self.handle(BoardRead(settled, now))
        flickers = self.settler.flickering(now)
        for flicker in flickers:
            if flicker.place not in self._flicker_reported:
                self._flicker_reported.add(flicker.place)
                self.handle(BoardFault(str(flicker), now, sensor=True))
        if not flickers:
            self._flicker_reported.clear()


def _open_journal(config: Config, stack: AsyncExitStack) -> Journal:
    """The journal at ``[journal] path`` (its folder made), closed with ``stack``."""
    try:
        Path(config.journal.path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from bgboard.files import os_error

        raise os_error(exc, Path(config.journal.path).parent) from None
    journal = Journal(config.journal.path)
    stack.callback(journal.close)
    return journal


async def _open_panel(config: Config, stack: AsyncExitStack) -> Panel:
    """The panel of ``[display]`` (frame files, or the e-ink panel on its pins), opened and
    closed off the loop."""
    from bgboard.display.drivers import open_panel

    frames = config.display.frames_dir or None
    pins = None if frames else load_pins().display
    panel = await asyncio.to_thread(open_panel, config.display.panel, frames, pins)
    stack.push_async_callback(asyncio.to_thread, panel.close)
    return panel


async def _open_buttons(config: Config, factory: Factory | None, on_press: Callable[[int, str], None],
                        stack: AsyncExitStack) -> None:
    """The player buttons of ``[buttons]`` on gpiozero (its pin factory: injected, the mock one,
    or the one named), pressing into ``on_press`` on the loop."""
    pins = load_pins().buttons
    if factory is None and config.buttons.pin_factory == "mock":
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
    elif factory is None and config.buttons.pin_factory:
        os.environ["GPIOZERO_PIN_FACTORY"] = config.buttons.pin_factory  # gpiozero's own switch
    # gpiozero starts a thread per button: not on the loop
    buttons = await asyncio.to_thread(Buttons, pins, to_loop(asyncio.get_running_loop(), on_press),
                                      pin_factory=factory, bounce_ms=config.buttons.bounce_ms)
    stack.push_async_callback(asyncio.to_thread, buttons.close)  # gpiozero joins each button's thread


async def _stop_task(stop: Callable[[], None], task: asyncio.Task[None]) -> None:
    """Stop a link (``stop``) and let its task end, cancelled after 5 s if it ignores stop."""
    stop()
    try:
        await asyncio.wait_for(task, 5)
    except asyncio.TimeoutError:  # pragma: no cover - the link ignores stop
        task.cancel()
