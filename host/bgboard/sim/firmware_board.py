"""``bgboard sim``: the whole companion, board and host, on the real firmware (adapter).

:class:`LiveRun` is the back end of the board protocol (:class:`bgboard.sim.ops.Board`) that
runs the real firmware; the players' turn loop is the driver's (:func:`bgboard.sim.driver.play`),
the same as on the modelled board, and the practice run gives it the drill script instead.

The board is the real firmware (:class:`~bgboard.sim.pico.VirtualPico`: MicroPython unix
port, a pty, the field channel); the host is the real :class:`bgboard.app.App` - its serial
transport on the pty, link protocol, settler, controller, SQLite journal, gpiozero buttons
on a ``MockFactory`` and the display through a ``FilePanel``.  The simulated players only
touch what a person touches: checkers (the hall field), the dice button and the player
buttons; they read the display state to know what to do next.

Deterministic: the players' choices and the dice are functions of ``(seed, game, turn)``
(the dice reach the firmware as a field-channel ``dice D1 D2`` line just before the dice
button is pressed, and go through its own sampler, numbering and roll log), so a run killed
and resumed from the journal ends as the uninterrupted run does.

Faster than real time: with ``speed`` K the firmware runs on the shim's fast clock
(``BGBOARD_SIM_CLOCK=fast:K``) and the host on :class:`~bgboard.sim.host_side.SimClock` (wall time × K) with its
link timeouts and tick divided by K; the players' pauses are in simulated milliseconds.
The players never sleep in place of a condition: they wait until the host shows what they
expect (its reading of the board, the roll, the accepted play), so a loaded machine is
slower, not wrong.  ``speed=1`` is real time (``--realtime``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgboard.control.controller import Controller
from bgboard.control.events import Button
from bgboard.control.notice import Topic
from bgboard.control.practice_room import PracticeRoom
from bgboard.errors import EnvironmentFailure, InputError
from bgboard.sim.driver import Options, Players, SimulationError, Tally, play, resume, table_layout
from bgboard.hardware import load_grid, load_pins
from bgboard.sim.field import Faults
from bgboard.sim.host_side import HostSide, SimClock, host_config
from bgboard.sim.layout import Layout
from bgboard.sim.pico import VirtualPico
from bgboard.sim.checker_moves import Move
from bgboard.sim.modelled_board import open_journal, prepare_out
from bgboard.sim.table import Table

if TYPE_CHECKING:
    from bgboard.match.state import MatchState
    from bgboard.sense.places import Observation, Slots
    from bgboard.sense.slots import SlotMap
    from bgboard.sense.tavli import Physical

__all__ = ["SPEED", "Faults_", "LiveRun", "reads_as"]

log = logging.getLogger(__name__)

TIMEOUT_S = 15.0
#: Default speed of ``bgboard sim``: firmware and host time run this many times real time.
SPEED = 8
#: A board the host still reads otherwise after this long gets a fresh reading (see _seen).
NUDGE_S = 1.0


@dataclass(frozen=True, slots=True)
class Faults_:  # noqa: N801 - beside field.Faults (sensor faults)
    """Faults to inject during a firmware run: after how many match actions."""

    restart_at: int | None = None
    garble_at: int | None = None


def reads_as(table: Physical, seen: Observation | None, slot_map: SlotMap, slots: Slots) -> bool:
    """Whether the host's settled reading ``seen`` is ``table``: its codes, or, with pins on
    the table, its slot states read with those pins as the host's recognition reads them (a
    pin's spot reads dark, the pinned colour or the pinners': :meth:`Physical.fits`).  Waiting
    for the exact codes there waited for the noise to land just so, a 1 s nudge at a time:
    most of a Plakoto match's wall time."""
    from bgboard.sense.places import SensorFaultError
    from bgboard.sense.tavli import observe

    if seen is None:
        return False
    if seen.codes == table.expected(slots).codes:  # (a pin's base slot unread)
        return True
    if not table.pinned or not seen.states:
        return False
    try:
        return table.fits(observe(slot_map, seen.states, table.pins), slots)
    except SensorFaultError:
        return False


class LiveRun:
    """Players at the real board and host (see the module docstring)."""

    def __init__(
        self,
        options: Options,
        out: Path,
        faults: Faults_ = Faults_(),
        max_actions: int | None = None,
        speed: int = SPEED,
        on_turn: Callable[[MatchState], None] | None = None,
        more_config: dict[str, Any] | None = None,
        players: Callable[[LiveRun], Awaitable[None]] | None = None,
    ) -> None:
        self.options = options
        self.out = prepare_out(options, out)
        self.faults = faults
        self.max_actions = max_actions
        self.speed = max(1, int(speed))
        self.on_turn = on_turn  # called with the match state before every decision
        self.extra = more_config or {}  # more of the host's config (a remote match's [remote] table)
        self.play = players  # what the players do once the board is up (None: the match, turn by turn)
        self.journal = open_journal(self.out)
        start_ms = int(time.time() * 1000)
        try:
            resumed = resume(self.journal, options, self.out, start_ms)
        except (InputError, EnvironmentFailure):
            self.journal.close()
            raise
        if resumed.last_ms is not None:  # a resumed match: the clock never runs back
            start_ms = max(start_ms, resumed.last_ms + 1000)
        self.clock = SimClock(self.speed, start_ms)
        # the sensors' noise is the shim's, drawn for every ADC conversion and averaged by the
        # firmware as on the Pico; the table sends the noiseless field
        self.pico = VirtualPico(self.out / "pico", clock="real" if self.speed == 1 else f"fast:{self.speed}",
                                noise=options.noise, seed=options.seed)
        self.side = HostSide.open(host_config(options, self.pico.slave_name, self.out, self.extra),
                                  lambda: self.pico.slave_name, self.journal, self.clock, self.speed, self.out / "frames")
        self.app, self.factory, self.panel = self.side.app, self.side.factory, self.side.panel
        self.grid = load_grid()
        self.button_pins = load_pins().buttons
        self.table = Table(
            Layout(tuple([0] * 24)),
            random.Random(f"bgboard-sim-noise:{options.seed}"),
            noise=0.0,
            grid=self.grid,
            faults=Faults(stuck={(p, i): v for p, i, v in options.stuck}) if options.stuck else Faults(),
            flicker=options.flicker,
            debounce=1,  # the firmware debounces: the table only makes readings
        )
        self.injected: list[str] = []
        self.players = Players(
            options, lambda: self.controller, self.journal, resumed, self.clock, self.grid.count("point"), self.journal.atomic
        )

    @property
    def tally(self) -> Tally:
        return self.players.tally

    # ------------------------------------------------------------------ the board protocol
    async def press(self, player: int, button: Button) -> None:
        """A player's button: its GPIO pin driven low, held, released."""
        pin = self.factory.pin(self.button_pins[player, button])
        pin.drive_low()
        await asyncio.sleep(max(0.03 / self.speed, 0.005))
        pin.drive_high()
        await asyncio.sleep(max(0.05 / self.speed, 0.005))

    async def roll(self, dice: tuple[int, int]) -> None:
        """Press the board's dice button until the host has the roll; ``dice`` are what
        the firmware's next roll shows (a ``dice`` line before the press)."""
        before = self.side.rolled()
        for _ in range(20):
            rolled = self.pico.rolls()
            self.pico.send(f"dice {dice[0]} {dice[1]}")
            self.pico.button(True)
            try:  # held until the firmware has rolled (3 scans), as a person holds it
                await self._until(lambda: self.pico.rolls() > rolled or self.side.rolled() != before, "the roll", 1.0)
            except SimulationError:
                pass
            finally:
                self.pico.button(False)
            try:
                await self._until(lambda: self.side.rolled() != before, "the dice", 3.0)
                return
            except SimulationError:
                continue  # the host had not enabled the dice yet: press again
        raise SimulationError("the dice module never rolled")

    async def preload(self, dice: tuple[int, int]) -> None:
        """The module's next roll (the engine's, made by the module itself)."""
        self.pico.send(f"dice {dice[0]} {dice[1]}")

    async def carry(self, moves: tuple[Move, ...]) -> None:
        """Carry checkers over the field, one frame at a time, until the host has read the board."""
        for frame in self.table.frames(moves):
            self.pico.slots(self.table.values(frame))
            await self._pause(max(frame.ms, 40))
        self.pico.slots(self.table.values())
        await self._seen()

    async def set_up(self) -> None:
        """The checkers as the match stands, read by the host."""
        self._set_up_table()
        await self._seen()

    async def lay_out(self, layout: Layout) -> None:
        """The checkers as ``layout`` (the board's firmware reports the change), read by the host."""
        self.table.layout = layout
        self.pico.slots(self.table.values())
        await self._seen()

    async def wait(self, test: Callable[[], bool], what: str, timeout_s: float) -> bool:
        """Whether the host came to show ``test()`` within ``timeout_s``."""
        try:
            await self._until(test, what, timeout_s)
        except SimulationError:
            return False
        return True

    # ------------------------------------------------------------------ the body
    async def _pause(self, sim_ms: float) -> None:
        """A player's pause of ``sim_ms`` simulated milliseconds."""
        await asyncio.sleep(sim_ms / 1000 / self.speed)

    async def _seen(self, timeout: float = 8.0) -> None:
        """Wait until the host's settled reading shows the table as it is (a loaded machine
        may be slower than the firmware's debounce and the host's settling)."""
        from bgboard.sense.places import Slots

        slots = Slots(point=self.grid.count("point"), bar=self.grid.count("bar"), tray=self.grid.count("off"))
        table = self.table.layout.physical()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            try:
                await self._until(
                    lambda: reads_as(table, self.side.observation(), self.app.grid, slots),
                    "the host to read the board",
                    min(NUDGE_S, max(deadline - loop.time(), 0.0)),
                )
                return
            except SimulationError:
                notice = self.side.message()
                if notice is not None and notice.topic == Topic.SENSOR:
                    raise SimulationError(notice.text) from None  # a sensor the host names: stop here
                if loop.time() >= deadline:
                    return  # the caller sees what the host says
            # Every frame of a carry is a fresh noisy reading of every slot, and the firmware
            # classifies with hysteresis: which of those readings it scanned (on a loaded
            # machine it skips some) can leave a tall stack that did not move one level low,
            # and a static reading inside the hysteresis band keeps it there ("finish your
            # play first" for ever).  The player straightens the board: a fresh reading.
            self.pico.slots(self.table.values())

    @property
    def host(self) -> Controller | PracticeRoom | None:
        """The app's match controller or practice room (:attr:`HostSide.host`)."""
        return self.side.host

    @property
    def controller(self) -> Controller:
        """The app's match controller."""
        return self.side.controller

    async def _until(self, test: Callable[[], bool], what: str, timeout: float = TIMEOUT_S) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not test():
            if loop.time() > deadline:
                notice = self.side.message()
                raise SimulationError(f"timed out waiting for {what} ({notice.text if notice else 'no message'})")
            await asyncio.sleep(0.005)

    def _set_up_table(self) -> None:
        self.table.layout = table_layout(self.controller)
        self.pico.slots(self.table.values())

    # ------------------------------------------------------------------ the players
    async def _connected(self) -> None:
        await self._until(lambda: (host := self.host) is not None and host.link_up and host.observation is not None,
                          "the board to connect", 20)

    async def _players(self) -> None:
        await self._connected()
        if self.play is not None:
            await self.play(self)
            return
        await self.play_match()

    async def play_match(self) -> None:
        """The match, turn by turn, from the table set up as it stands (what the players do
        when the run is given nothing else to do; a remote board's players do it first)."""
        self._set_up_table()
        await self._seen()
        await play(self, self.players, self.max_actions, self._between)

    async def _between(self) -> None:
        """Before each decision: the faults to inject, the progress shown."""
        count = len(self.controller.actions)
        if self.faults.restart_at is not None and count >= self.faults.restart_at and self.pico.restarts == 0:
            before = self.side.hello()
            await self.pico.restart_async()
            self.injected.append(f"firmware restart after {count} actions")
            # link_up and the observation are still the old board's: wait until the host
            # has taken the restarted firmware's HELLO and snapshot (how long that takes
            # depends on the machine's load; playing on before it was a race)
            await self._until(
                lambda: (hello := self.side.hello()) is not None and hello is not before and self.side.in_sync()
                and self.controller.link_up and self.controller.observation is not None,
                "the board after its restart",
                60,
            )
            self._set_up_table()
            await self._seen()
        if self.faults.garble_at is not None and count >= self.faults.garble_at and not any("garbled" in i for i in self.injected):
            self.pico.garble(bytes(range(256)) * 2)
            self.injected.append(f"garbled bytes after {count} actions")
        if self.on_turn is not None:
            self.on_turn(self.players.state)

    async def _power(self) -> None:
        """The Pico comes back after every reset (``machine.reset()`` ends the process)."""
        while True:
            await self.pico.revive_async()  # the board's field is restored as it starts
            await asyncio.sleep(0.02)

    async def run(self) -> None:
        """Start the board and the host, play, stop both (and release everything, also
        when the firmware cannot start)."""
        power: asyncio.Task[None] | None = None
        app_task: asyncio.Task[None] | None = None
        players: asyncio.Task[None] | None = None
        try:
            await self.pico.start_async()  # the board starts beside the loop, not on it
            log.info("the simulated board runs the firmware; the host starts")
            power = asyncio.create_task(self._power())
            app_task = asyncio.create_task(self.app.run())
            players = asyncio.create_task(self._players())
            done, _ = await asyncio.wait({app_task, players}, return_when=asyncio.FIRST_COMPLETED)
            if app_task in done:
                app_task.result()
                raise SimulationError("the host stopped before the match ended")
            players.result()
            await asyncio.sleep(0.3)  # the last frames reach the panel (real time: the panel's own)
        finally:
            for task in (power, players):
                if task is not None and not task.done():
                    task.cancel()
            self.app.stop()
            self.side.release()
            if app_task is not None:
                try:
                    await asyncio.wait_for(app_task, 10)
                except asyncio.TimeoutError:
                    log.warning("the host did not stop within 10 s: cancelled")
                    app_task.cancel()
                except SimulationError:
                    app_task.cancel()
            if power is not None and power.done() and not power.cancelled() and power.exception() is not None:
                log.error("the board's power task failed", exc_info=power.exception())
            self.pico.close()
            self.journal.close()

    def summary(self) -> dict[str, Any]:
        """The ``--json`` summary; in a teaching mode with the grade of every play, as the
        board's teacher gave them (``grades``) and its engine."""
        summary = self.players.summary()
        if self.options.teach != "off":
            summary |= self.teaching()
        return summary

    def teaching(self) -> dict[str, Any]:
        """The board's teacher's grades, engine, report and summary (:meth:`HostSide.teaching`)."""
        return self.side.teaching()
