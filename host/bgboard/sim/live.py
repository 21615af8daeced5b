"""``bgboard sim``: the whole companion, board and host, on the real firmware (adapter).

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
(``BGBOARD_SIM_CLOCK=fast:K``) and the host on :class:`SimClock` (wall time × K) with its
link timeouts and tick divided by K; the players' pauses are in simulated milliseconds.
The players never sleep in place of a condition: they wait until the host shows what they
expect (its reading of the board, the roll, the accepted play), so a loaded machine is
slower, not wrong.  ``speed=1`` is real time (``--realtime``).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgboard.control.events import DOUBLE, DROP, ROLL
from bgboard.match.state import DOUBLED, GAME_OVER, OPENING, PLAY, TURN
from bgboard.rules import start_position
from bgboard.hardware import load_grid, load_pins
from bgboard.sim.field import Faults
from bgboard.sim.layout import Layout
from bgboard.sim.pico import VirtualPico
from bgboard.sim.players import Move, choose_play, dice_for, illegal_attempt, moves_of, takes, wants_double
from bgboard.sim.run import SIM_KIND, Options, SimulationError, Tally, prepare_out
from bgboard.sim.table import Table

SETTLE_MS = 120
TIMEOUT_S = 15.0
#: Default speed of ``bgboard sim``: firmware and host time run this many times real time.
SPEED = 8


class SimClock:
    """Wall-clock milliseconds running ``factor`` times real time from ``start_ms`` (the
    host's clock in a fast run; ``factor`` 1 is the wall clock)."""

    def __init__(self, factor: int, start_ms: int) -> None:
        self.factor = factor
        self.start_ms = start_ms
        self._t0 = time.monotonic()

    def __call__(self) -> int:
        return self.start_ms + int((time.monotonic() - self._t0) * 1000 * self.factor)


@dataclass(frozen=True, slots=True)
class Faults_:  # noqa: N801 - beside field.Faults (sensor faults)
    """Faults to inject during a firmware run: after how many match actions."""

    restart_at: int | None = None
    garble_at: int | None = None


class LiveRun:
    """Players at the real board and host (see the module docstring)."""

    def __init__(
        self,
        options: Options,
        out: Path,
        faults: Faults_ = Faults_(),
        max_actions: int | None = None,
        speed: int = SPEED,
        on_turn: Any = None,
    ) -> None:
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        from bgboard.app import App
        from bgboard.config import config_from_dict
        from bgboard.display.panel import FilePanel
        from bgboard.display.panels import panel_spec
        from bgboard.link.connection import Timing
        from bgboard.link.transport import open_serial
        from bgboard.store.journal import Journal

        self.options = options
        self.out = prepare_out(options, out)
        self.faults = faults
        self.max_actions = max_actions
        self.speed = max(1, int(speed))
        self.on_turn = on_turn  # called with the match state before every decision
        self.tally = Tally()
        self.journal = Journal(self.out / "journal.sqlite")
        start_ms = int(time.time() * 1000)
        for entry in self.journal.entries():  # a resumed match: the clock never runs back
            start_ms = max(start_ms, entry.at_ms + 1000)
            if entry.kind == SIM_KIND:
                self.tally.count(entry.body)
            elif entry.kind == "action" and entry.body.get("type") == "start":
                if entry.body.get("length") != options.match_length:
                    self.journal.close()
                    raise SimulationError(f"{self.out} holds a {entry.body.get('length')}-point match: use another --out")
        self.clock = SimClock(self.speed, start_ms)
        self.pico = VirtualPico(self.out / "pico", clock="real" if self.speed == 1 else f"fast:{self.speed}")
        self.factory = MockFactory()
        self._old_factory = Device.pin_factory
        Device.pin_factory = self.factory
        config = config_from_dict(
            {
                "board": {"port": self.pico.slave_name, "settle_ms": SETTLE_MS},
                "match": {"length": options.match_length, "rules": options.rules},
                "journal": {"path": str(self.out / "journal.sqlite")},
                "buttons": {"bounce_ms": 2},
            }
        )
        frames = self.out / "frames"
        self.panel = FilePanel(panel_spec("waveshare-4in2"), frames)
        self.panel.frames = [(p, "full" in p.name) for p in sorted(frames.glob("frame-*.png"))]
        k = self.speed
        self.app = App(
            config,
            opener=lambda: open_serial(self.pico.slave_name),
            pin_factory=self.factory,
            panel=self.panel,
            journal=self.journal,
            clock_ms=self.clock,
            # link timeouts in firmware time (heartbeats every 1000 ms of it), with a floor
            # in real time: a loaded machine must not look like a lost board
            timing=Timing(
                hello_s=max(3.0 / k, 1.0),
                watchdog_s=max(3.0 / k, 1.0),
                snapshot_s=max(2.0 / k, 0.5),
                ack_s=max(0.5 / k, 0.2),
                tick_s=0.05 / k,
            ),
            tick_s=0.05 / k,
        )
        self.grid = load_grid()
        self.button_pins = load_pins().buttons
        self.table = Table(
            Layout(tuple([0] * 24)),
            random.Random(f"bgboard-sim-noise:{options.seed}"),
            noise=options.noise,
            grid=self.grid,
            faults=Faults(stuck={(p, i): v for p, i, v in options.stuck}) if options.stuck else Faults(),
            flicker=options.flicker,
            debounce=1,  # the firmware debounces: the table only makes readings
        )
        self.injected: list[str] = []

    # ------------------------------------------------------------------ the body
    async def _show(self, frames_layout: Any = None) -> None:
        self.pico.slots(self.table.values(frames_layout))

    async def _pause(self, sim_ms: float) -> None:
        """A player's pause of ``sim_ms`` simulated milliseconds."""
        await asyncio.sleep(sim_ms / 1000 / self.speed)

    def _note(self, body: dict[str, Any]) -> None:
        """Count a verdict and journal it beside the host's actions (a resumed run's
        summary counts the whole match)."""
        s = self.controller.state
        body = {"game": s.game if s else 0, **body}
        self.journal.append(SIM_KIND, body, self.clock())
        self.tally.count(body)

    async def _carry(self, moves: tuple[Move, ...]) -> None:
        for frame in self.table.frames(moves):
            self.pico.slots(self.table.values(frame))
            await self._pause(max(frame.ms, 40))
        self.pico.slots(self.table.values())
        await self._seen()

    async def _seen(self, timeout: float = 8.0) -> None:
        """Wait until the host's settled reading shows the table as it is (a loaded machine
        may be slower than the firmware's debounce and the host's settling)."""
        from bgboard.sense.board import Observation, Slots

        slots = Slots(point=self.grid.count("point"), bar=self.grid.count("bar"), tray=self.grid.count("off"))
        layout = self.table.layout
        board = (*layout.points, layout.bar[0], -layout.bar[1], layout.off[0], -layout.off[1])
        want = Observation.of_board(board, slots).codes
        try:
            await self._until(
                lambda: self.controller.observation is not None and self.controller.observation.codes == want,
                "the host to read the board",
                timeout,
            )
        except SimulationError:
            notice = self.controller.message()
            if notice is not None and notice.severity == "error" and notice.text.startswith("check "):
                raise SimulationError(notice.text) from None  # a sensor the host names: stop here
            # otherwise the caller sees what the host says

    async def _press(self, player: int, button: str) -> None:
        pin = self.factory.pin(self.button_pins[player, button])
        pin.drive_low()
        await asyncio.sleep(max(0.03 / self.speed, 0.005))
        pin.drive_high()
        await asyncio.sleep(max(0.05 / self.speed, 0.005))

    @property
    def controller(self) -> Any:
        return self.app.controller

    async def _until(self, test: Any, what: str, timeout: float = TIMEOUT_S) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not test():
            if loop.time() > deadline:
                notice = self.controller.message() if self.controller else None
                raise SimulationError(f"timed out waiting for {what} ({notice.text if notice else 'no message'})")
            await asyncio.sleep(0.005)

    async def _roll(self, dice: tuple[int, int]) -> None:
        """Press the board's dice button until the host has the roll; ``dice`` are what
        the firmware's next roll shows (a ``dice`` line before the press)."""
        before = len(self.controller.actions)
        for _ in range(20):
            rolled = self.pico.rolls()
            self.pico.send(f"dice {dice[0]} {dice[1]}")
            self.pico.button(True)
            try:  # held until the firmware has rolled (3 scans), as a person holds it
                await self._until(lambda: self.pico.rolls() > rolled or len(self.controller.actions) > before, "the roll", 1.0)
            except SimulationError:
                pass
            finally:
                self.pico.button(False)
            try:
                await self._until(lambda: len(self.controller.actions) > before, "the dice", 3.0)
                return
            except SimulationError:
                continue  # the host had not enabled the dice yet: press again
        raise SimulationError("the dice module never rolled")

    def _set_up_table(self) -> None:
        s = self.controller.state
        if s.phase in (OPENING, GAME_OVER):
            position, colour = start_position(s.rules.variant), 0
        else:
            position, colour = s.position, s.turn or 0
        self.table.layout = Layout.from_position(position, colour)
        self.pico.slots(self.table.values())

    # ------------------------------------------------------------------ the players
    async def _turn(self) -> None:
        c = self.controller
        s = c.state
        o = self.options
        n = len(c.actions)
        turn = sum(1 for _ in _since_game_start(c.actions))
        if s.phase == OPENING:
            await self._press(0, ROLL)
            await self._roll(dice_for(o.seed, s.game, turn))
        elif s.phase == TURN:
            if s.may_double and wants_double(s.position, o.seed, s.game, turn):
                await self._press(s.turn, DOUBLE)
            else:
                await self._press(s.turn, ROLL)
                await self._roll(dice_for(o.seed, s.game, turn))
        elif s.phase == DOUBLED:
            take = takes(s.position.swap(), o.seed, s.game, turn)
            await self._press(s.decider, DOUBLE if take else DROP)
        elif s.phase == PLAY:
            await self._play(turn)
        elif s.phase == GAME_OVER:
            self._set_up_table()
            await self._seen()
            await self._press(s.games[-1].winner, ROLL)
        await self._until(lambda: len(c.actions) > n or c.over, f"the host to act in phase {s.phase}")

    async def _play(self, turn: int) -> None:
        c = self.controller
        s = c.state
        o = self.options
        mover, position, dice = s.turn, s.position, s.dice
        play = choose_play(position, dice, o.seed, s.game, turn)
        if play is not None:
            attempt = illegal_attempt(position, dice, mover, o.seed, s.game, turn, o.illegal_rate, self.grid.count("point"))
            if attempt is not None:
                await self._carry(attempt.moves)
                n = len(c.actions)
                await self._press(mover, ROLL)
                try:  # the host answers a press at its next tick
                    await self._until(lambda: len(c.actions) > n or _error(c.message()), "the host's verdict", 5.0)
                except SimulationError:
                    pass
                notice = c.message()
                verdict = c.verdict
                reason = getattr(verdict, "reason", None)
                entry = {
                    "what": "attempt",
                    "refused": len(c.actions) == n and notice is not None and notice.severity == "error",
                    "reason": reason,
                    "expected": attempt.reason,
                }
                self._note(entry)
                await self._carry(tuple(Move(m.dst, m.src) for m in reversed(attempt.moves)))
            await self._carry(moves_of(play.steps, mover))
        else:
            await self._seen()
        want = () if play is None else tuple((st.frm, st.to) for st in play.steps)
        n = len(c.actions)
        for _ in range(40):  # press done until the host takes the play
            verdict = c.verdict
            plays = getattr(verdict, "plays", None)
            if plays and play in plays and plays[c.choice % len(plays)] != play:
                choice = c.choice
                await self._press(mover, DOUBLE)  # the next candidate reading
                try:
                    await self._until(lambda: c.choice != choice, "the next reading", 2.0)
                except SimulationError:
                    pass
                continue
            await self._press(mover, ROLL)
            try:
                await self._until(lambda: len(c.actions) > n, "the host to take the play", 1.0)
                break
            except SimulationError:
                continue
        accepted = len(c.actions) > n and getattr(c.actions[n], "steps", ()) == want
        self._note({"what": "play", "accepted": accepted})
        if not accepted:
            notice = c.message()
            raise SimulationError(
                f"the host did not take the legal play {play.notation if play else 'pass'}"
                f" ({notice.text if notice else 'no message'})"
            )

    async def _players(self) -> None:
        await self._until(lambda: self.controller is not None and self.controller.link_up and self.controller.observation is not None, "the board to connect", 20)
        self._set_up_table()
        await self._seen()
        done = 0
        while not self.controller.over:
            if self.max_actions is not None and done >= self.max_actions:
                return
            count = len(self.controller.actions)
            if self.faults.restart_at is not None and count >= self.faults.restart_at and self.pico.restarts == 0:
                self.pico.restart()
                self.injected.append(f"firmware restart after {count} actions")
                await self._until(lambda: self.controller.link_up and self.controller.observation is not None, "the board after its restart", 20)
                self._set_up_table()
                await self._seen()
            if self.faults.garble_at is not None and count >= self.faults.garble_at and not any("garbled" in i for i in self.injected):
                self.pico.garble(bytes(range(256)) * 2)
                self.injected.append(f"garbled bytes after {count} actions")
            if self.on_turn is not None:
                self.on_turn(self.controller.state)
            await self._turn()
            done += len(self.controller.actions) - count

    async def _power(self) -> None:
        """The Pico comes back after every reset (``machine.reset()`` ends the process)."""
        while True:
            self.pico.revive()  # the board's field is restored as it starts
            await asyncio.sleep(0.02)

    async def run(self) -> None:
        """Start the board and the host, play, stop both (and release everything, also
        when the firmware cannot start)."""
        power: asyncio.Task[None] | None = None
        app_task: asyncio.Task[None] | None = None
        players: asyncio.Task[None] | None = None
        try:
            self.pico.start()
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
            from gpiozero import Device

            Device.pin_factory = self._old_factory
            if app_task is not None:
                try:
                    await asyncio.wait_for(app_task, 10)
                except (asyncio.TimeoutError, SimulationError):
                    app_task.cancel()
            self.pico.close()
            self.journal.close()

    def summary(self) -> dict[str, Any]:
        """The ``--json`` summary."""
        s = self.controller.state
        return {
            "match_length": s.length,
            "score": list(s.score),
            "games": [{"winner": g.winner, "points": g.points, "cube": g.cube, "result": g.result} for g in s.games],
            "plays_recognised": self.tally.plays_recognised,
            "illegal_attempts": self.tally.illegal_attempts,
            "illegal_flagged": self.tally.illegal_flagged,
            "legal_rejected": self.tally.legal_rejected,
        }


def _error(notice: Any) -> bool:
    return notice is not None and notice.severity == "error"


def _since_game_start(actions: list[Any]) -> list[Any]:
    out: list[Any] = []
    for action in reversed(actions):
        if action.kind in ("start", "next"):
            break
        out.append(action)
    return out
