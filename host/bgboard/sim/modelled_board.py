"""A whole match on the virtual board, refereed by the real host controller: the model board.

:class:`ModelledBoard` is the back end of the board protocol (:class:`bgboard.sim.ops.Board`)
that models the firmware in-process; :class:`Simulation` (``bgboard sim --model-firmware``)
puts it together with the host's controller, the journal and the players, and plays the
match through the driver's one turn loop (:func:`bgboard.sim.driver.play`).  The host side is the real thing:
:class:`bgboard.control.controller.Controller` (match state machine, recognition, notices,
LEDs, journal in ``journal.sqlite`` through :class:`bgboard.store.journal.Journal`), fed by
the host's own settler (:class:`bgboard.sense.settle.Settler`).  The board side is the
virtual table (:class:`~bgboard.sim.table.Table`) modelling the firmware's classify and
debounce; the players are :class:`bgboard.sim.driver.Players` (the same as on the real
firmware): they press buttons, roll the dice when the controller enables rolling, and carry
checkers one at a time over the hall field; every scan goes through the settler, every
settled reading to the controller as a ``BoardRead``.

An illegal attempt is judged by what the controller says when the player presses *done*:
it must refuse the play with the rules engine's reason (``illegal_flagged``); the player
then puts the checkers back and plays legally.  A legal play the controller does not accept
is counted in ``legal_rejected`` (and the run stops: a bug).

Time is virtual (milliseconds from 0) and everything the players do is a function of
``(seed, game, turn)``, so a run killed at any moment and resumed from the journal ends
exactly as an uninterrupted run (:mod:`bgboard.sim.driver`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from bgboard.control.controller import Controller, Settings
from bgboard.control.events import Button, BoardRead, ButtonPressed, DiceRolled, Event
from bgboard.display.display_state import DisplayState
from bgboard.errors import EnvironmentFailure, InputError
from bgboard.link.messages import SetRolling
from bgboard.rules.games import variant as variant_of
from bgboard.sense.places import Observation, SensorFaultError, Slots
from bgboard.sense.settle import Settler
from bgboard.sense.slots import SlotMap
from bgboard.sense.tavli import read_board
from bgboard.sim.driver import SIM_KIND, Options, Players, SimulationError, Tally, play, resume, table_layout, turn_of
from bgboard.hardware import load_grid
from bgboard.sim.field import NOISE_LEVELS, Faults
from bgboard.sim.hand import Frame
from bgboard.sim.layout import Layout
from bgboard.sim.ops import perform, run_now
from bgboard.sim.checker_moves import Move
from bgboard.sim.players import dice_for
from bgboard.sim.table import Table
from bgboard.store.journal import Journal, JournalError

if TYPE_CHECKING:
    from bgboard.control.rooms import Room
    from bgboard.teaching import Teacher

__all__ = ["SIM_KIND", "ModelledBoard", "Options", "Simulation", "SimulationError", "Tally", "noise_level", "open_journal",
           "prepare_out"]

#: Scans of the board at rest before a self-contradicting reading counts as a fault.
RESCANS = 50
#: Identical scans of the board at rest before it is handed to the settler.
REST_SCANS = 6
#: Time between two scans (virtual ms), as the firmware scans.
SCAN_MS = 10


class Seat(Protocol):
    """Who plays the other side of a remote match: makes the host's controller."""

    def resume(self, journal: Journal, settings: Settings, now_ms: int, **kwargs: Any) -> Controller:
        """The controller of the match in ``journal`` (a new one when it holds none)."""
        ...


class ModelledBoard:
    """The virtual table's hands and sensors, the firmware's classify and debounce modelled,
    the host's settler: every op of the players done at once on a virtual clock (see the
    module docstring).  ``host`` is set once the host's room exists (the match room, seated
    or not, or drills): it takes this board's :meth:`to_board` and :meth:`show` as its
    ``send`` and ``show``; the match the table is set up for is the one the room answers
    (:meth:`~bgboard.control.rooms.Room.match_room`), not a second attribute."""

    roll_now = False  # the host asked the dice module to roll at once (the engine's dice)
    preloaded: tuple[int, int] | None = None  # what the module's next roll shows

    def __init__(self, options: Options, on_show: Callable[[DisplayState, int], None] | None = None) -> None:
        self.options = options
        self.on_show = on_show
        self.grid = load_grid()
        self.slots = Slots(point=self.grid.count("point"), bar=self.grid.count("bar"), tray=self.grid.count("off"))
        self.settler = Settler()
        self.clock = 0  # virtual milliseconds
        self.sensor_faults = 0  # scans dropped because they contradicted themselves
        self.last_fault = ""
        self.rolling = False
        self.rolls = 0
        self.table = self.make_table(options)
        self.host: Room | None = None  # what the board's events go to (a match room, seated or not; drills)

    def make_table(self, options: Options) -> Table:
        """An empty table whose sensors are as ``options`` say (noise from the seed, stuck
        sensors, flicker in transit)."""
        faults = Faults(stuck={(p, i): v for p, i, v in options.stuck}) if options.stuck else Faults()
        return Table(
            Layout(tuple([0] * 24)),
            random.Random(f"bgboard-sim-noise:{options.seed}"),
            noise=options.noise,
            grid=self.grid,
            faults=faults,
            flicker=options.flicker,
        )

    # ------------------------------------------------------------------ the host's side
    def to_board(self, message: object) -> None:
        """What the host sends the board (the dice module's enable)."""
        if isinstance(message, SetRolling):
            self.rolling = message.enabled
            self.roll_now = self.roll_now or message.now  # rolled as soon as the host has returned

    def show(self, state: object) -> None:
        """What the host shows on its display."""
        if self.on_show is not None and isinstance(state, DisplayState):
            self.on_show(state, self.clock)

    def _handle(self, event: Event) -> None:
        if self.host is None:
            raise SimulationError("the modelled board has no host")
        self.host.handle(event)
        self.host.follow()  # as the app's seats follow each event (publish, report, take)

    def _controller(self) -> Controller:
        """The match the table is set up for, asked of the host's room."""
        match = self.host.match_room() if self.host is not None else None
        if match is None:
            raise SimulationError("the modelled board's host plays no match")
        return match

    # ------------------------------------------------------------------ the board's side, at once
    def set_up_now(self) -> None:
        """The checkers as the match stands (after a resume or a new game)."""
        self.table.layout = table_layout(self._controller())
        self.rest()

    def _scan(self, frame: Frame | None) -> Observation | None:
        try:
            return self.table.observe(self.table.values(frame, far=False))
        except SensorFaultError as exc:
            self.sensor_faults += 1
            self.last_fault = str(exc)
            return None

    def _feed(self, observation: Observation, at: int) -> None:
        self.settler.feed(observation, at)
        settled = self.settler.poll(self.clock)
        if settled is not None:
            self._handle(BoardRead(settled, self.clock))

    def carry_now(self, moves: tuple[Move, ...]) -> None:
        """Carry checkers over the field, one scan every SCAN_MS, then rest."""
        for frame in self.table.frames(moves):
            for _ in range(max(1, frame.ms // SCAN_MS)):
                observation = self._scan(frame)
                self.clock += SCAN_MS
                if observation is not None:
                    self._feed(observation, self.clock - SCAN_MS)
        self.rest()

    def rest(self) -> None:
        """The hand is away: scan until the reading has settled and reached the host."""
        clean = None
        steady = 0
        first: Observation | None = None  # the first steady reading, if none is settled too
        for _ in range(RESCANS):  # scan until the debounced reading is clean and steady
            scan = self._scan(None)
            self.clock += SCAN_MS
            steady = steady + 1 if scan is not None and scan == clean else 0
            clean = scan if scan is not None else clean
            if steady >= REST_SCANS:
                # and no slot still waiting out the debounce: a Plakoto pin's spot that
                # flickers moves the pinners' runs by a slot (firmware/runs.py reports them
                # from the base), so a steady reading may still be the one before the play
                if self.table.settled:
                    break
                first = first or clean
        else:
            if steady < REST_SCANS and first is not None:  # as before: the first steady one
                clean, steady = first, REST_SCANS
        if clean is None or steady < REST_SCANS:
            raise SimulationError(self.last_fault or "the sensors never gave a clean reading")
        self.settler.feed(clean, self.clock)
        self.clock += self.settler.settle_ms
        settled = self.settler.poll(self.clock)
        if settled is not None:
            self._handle(BoardRead(settled, self.clock))

    def press_now(self, player: int, button: str) -> None:
        """``player`` presses ``button``."""
        self.clock += 200
        self._handle(ButtonPressed(player, Button(button), self.clock))

    def roll_pending(self) -> bool:
        """The module rolls at once when the host asked it to (the engine's dice): the dice
        preloaded by the players, else the seed's for this turn."""
        if not self.roll_now:
            return False
        self.roll_now, self.rolling = False, True
        controller = self._controller()
        state = controller.state
        dice = self.preloaded or dice_for(self.options.seed, state.game if state else 0, turn_of(controller))
        self.preloaded = None
        self.roll_dice_now(dice)
        self.rolling = False
        return True

    def roll_dice_now(self, dice: tuple[int, int]) -> None:
        """The dice button of the board (rolls only when the host enabled rolling)."""
        if not self.rolling:
            raise SimulationError("the host did not enable the dice")
        self.rolls += 1
        self.clock += 500
        self._handle(DiceRolled(dice, self.rolls, self.clock))

    # ------------------------------------------------------------------ the board protocol
    async def press(self, player: int, button: Button) -> None:
        self.press_now(player, button)

    async def roll(self, dice: tuple[int, int]) -> None:
        self.roll_dice_now(dice)

    async def preload(self, dice: tuple[int, int]) -> None:
        self.preloaded = dice

    async def carry(self, moves: tuple[Move, ...]) -> None:
        if moves:  # nothing to carry (a pass): the board is read already
            self.carry_now(moves)

    async def set_up(self) -> None:
        self.set_up_now()

    async def lay_out(self, layout: Layout) -> None:
        self.rest()  # the host sees the board as it was left first (the set-up guidance)
        self.table.layout = layout
        self.rest()

    async def wait(self, test: Callable[[], bool], what: str, timeout_s: float) -> bool:
        """The host answers every event as it comes: what it has done, it has done now."""
        self.roll_pending()
        return test()


class Simulation:
    """One match on the model board, journalled in ``out/journal.sqlite``: the
    :class:`ModelledBoard`, the host's controller on it, and the players."""

    def __init__(
        self,
        options: Options,
        out: Path,
        on_show: Callable[[DisplayState, int], None] | None = None,
        opponent: Callable[[Journal], Seat] | None = None,
    ) -> None:
        self.options = options
        self.out = prepare_out(options, out)
        self.board = board = ModelledBoard(options, on_show)
        self.journal = open_journal(self.out)
        try:
            resumed = resume(self.journal, options, self.out, board.clock)
        except (InputError, EnvironmentFailure):
            self.journal.close()
            raise
        if resumed.last_ms is not None:
            board.clock = resumed.last_ms + 1000
        slot_map = SlotMap.from_slots(board.grid.slots)
        settings = Settings(length=options.match_length, rules=options.rules, players=options.players, slots=board.slots,
                            teach=options.teach, variant=options.variant, slot_map=slot_map)
        played = variant_of(options.match_variant)
        pins = played.pins  # the slots read as the app reads them, in every game (app.BoardInput.read)
        board.table.reader = lambda states: read_board(slot_map, states, pins=pins)
        self.teacher: Teacher | None = None
        grading: dict[str, Any] = {}
        if options.teach != "off":
            from bgboard.teaching import open_teacher

            self.teacher, _ = open_teacher(options.engine)
            if options.learner != "both":  # one learner: the display sums up their session
                from bgboard.config import LEARNERS

                self.teacher.learners = LEARNERS[options.learner]
            grading = {"grade": self.teacher.grade, "grade_cube": self.teacher.grade_cube,
                       "summarise": self.teacher.summary}
        self.opponent: Seat | None = opponent(self.journal) if opponent is not None else None  # (a remote board's seat)
        if options.opponent is not None:  # the engine plays black, answering at once on the virtual clock
            from bgboard.opponents import engine_opponent

            self.opponent = engine_opponent(options.opponent, 1, options.opponent_dice)
        self.controller = (self.opponent or Controller).resume(self.journal, settings, board.clock, send=board.to_board,
                                                               show=board.show, **grading)
        board.host = self.controller
        self.players = Players(
            options, lambda: self.controller, self.journal, resumed, lambda: self.board.clock, board.slots.point,
            self.journal.atomic
        )
        if self.controller.state is None:
            notice = self.controller.message()
            self.journal.close()
            raise SimulationError(notice.text if notice else "the match could not be started")
        board.set_up_now()

    @property
    def tally(self) -> Tally:
        return self.players.tally

    @property
    def table(self) -> Table:
        """The virtual table (what the hands and sensors are on)."""
        return self.board.table

    @property
    def clock(self) -> int:
        """The board's virtual clock (milliseconds)."""
        return self.board.clock

    @property
    def turn(self) -> int:
        """Actions since the start of the current game (the players' clock)."""
        return self.players.turn

    def run(self, max_actions: int | None = None) -> None:
        """Play until the match is over (or ``max_actions`` more actions: for tests and the
        club's boards), through the driver's turn loop; nothing waits, so no event loop runs."""
        run_now(play(self.board, self.players, max_actions))

    def step(self) -> None:
        """One decision of the match."""
        run_now(perform(self.players.decide(), self.board))

    # ------------------------------------------------------------------ results
    def summary(self) -> dict[str, Any]:
        """The ``--json`` summary (player 0 = the .mat's left column); with a teacher, the
        grades of every play (``report`` is None until the learner report is written)."""
        summary = self.players.summary()
        if self.teacher is not None:
            summary |= self.teacher.session(None)
        return summary

    @property
    def actions(self) -> list[Any]:
        """The match's action log so far."""
        return list(self.controller.actions)

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()


def open_journal(out: Path) -> Journal:
    """The journal of a simulator DIR; a corrupt one is refused with the way out."""
    path = out / "journal.sqlite"
    try:
        journal = Journal(path)
        journal.entries()
    except JournalError as exc:
        raise SimulationError(
            f"{path} is damaged and cannot be resumed: delete it to play the match again from the start,"
            " or use another --out"
        ) from exc
    return journal


def prepare_out(options: Options, out: str | Path) -> Path:
    """Check the options' rule set allows the match length, make the output directory, and
    return it; one sentence (an :class:`InputError`) if either cannot be done."""
    from bgboard.match.ruleset import rule_set

    rule_set(options.rules).check_length(options.match_length)  # one sentence if not
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise SimulationError(f"--out {path} is a file, not a directory")
    path.mkdir(parents=True, exist_ok=True)
    return path


def noise_level(text: str) -> float:
    """``--noise`` value: a level name or a standard deviation in ADC counts."""
    if text in NOISE_LEVELS:
        return NOISE_LEVELS[text]
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 3000:
        names = ", ".join(NOISE_LEVELS)
        raise InputError(f"--noise takes one of {names} or 0..3000 ADC counts, not {text!r}")
    return value
