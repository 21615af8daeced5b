"""``bgboard sim --firmware``: the whole companion, board and host, in real time (adapter).

The board is the real firmware (:class:`~bgboard.sim.pico.VirtualPico`: MicroPython unix
port, a pty, the field channel); the host is the real :class:`bgboard.app.App` - its serial
transport on the pty, link protocol, settler, controller, SQLite journal, gpiozero buttons
on a ``MockFactory`` and the display through a ``FilePanel``.  The simulated players only
touch what a person touches: checkers (the hall field), the dice button and the player
buttons; they read the display state to know what to do next.

The dice come from the firmware's random source (the simulated ROSC), so unlike the fast
mode a firmware run is not a function of the seed alone; everything else a player decides
still is (given the dice).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgboard.control.events import DOUBLE, DROP, ROLL
from bgboard.match.state import DOUBLED, GAME_OVER, OPENING, PLAY, TURN
from bgboard.rules import start_position
from bgboard.sim.field import Faults, board_grid
from bgboard.sim.layout import Layout
from bgboard.sim.pico import VirtualPico
from bgboard.sim.players import Move, choose_play, illegal_attempt, moves_of, takes, wants_double
from bgboard.sim.run import Options, SimulationError, Tally
from bgboard.sim.table import Table

#: Pins of the player buttons (hardware/pins.toml, [pi.buttons]).
PINS = {(0, ROLL): 5, (0, DOUBLE): 6, (0, DROP): 12, (1, ROLL): 13, (1, DOUBLE): 19, (1, DROP): 26}
SETTLE_MS = 120
TIMEOUT_S = 15.0


@dataclass(frozen=True, slots=True)
class Faults_:  # noqa: N801 - beside field.Faults (sensor faults)
    """Faults to inject during a firmware run: after how many match actions."""

    restart_at: int | None = None
    garble_at: int | None = None


class LiveRun:
    """Players at the real board and host (see the module docstring)."""

    def __init__(self, options: Options, out: Path, faults: Faults_ = Faults_(), max_actions: int | None = None) -> None:
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        from bgboard.app import App
        from bgboard.config import config_from_dict
        from bgboard.display.panel import FilePanel
        from bgboard.display.panels import panel_spec
        from bgboard.link.connection import Timing
        from bgboard.link.transport import open_serial

        self.options = options
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.faults = faults
        self.max_actions = max_actions
        self.tally = Tally()
        self.pico = VirtualPico(self.out / "pico")
        self.factory = MockFactory()
        self._old_factory = Device.pin_factory
        Device.pin_factory = self.factory
        config = config_from_dict(
            {
                "board": {"port": self.pico.slave_name, "settle_ms": SETTLE_MS},
                "match": {"length": options.match_length, "rules": options.rules},
                "journal": {"path": str(self.out / "journal.sqlite")},
                "buttons": {"bounce_ms": 5},
            }
        )
        self.panel = FilePanel(panel_spec("waveshare-4in2"), self.out / "frames")
        self.app = App(
            config,
            opener=lambda: open_serial(self.pico.slave_name),
            pin_factory=self.factory,
            panel=self.panel,
            timing=Timing(hello_s=3.0, watchdog_s=2.0, snapshot_s=2.0),
        )
        self.grid = board_grid()
        self.table = Table(
            Layout(tuple([0] * 24)),
            random.Random(f"bgboard-sim-noise:{options.seed}"),
            noise=options.noise,
            grid=self.grid,
            faults=Faults(),
            flicker=options.flicker,
            debounce=1,  # the firmware debounces: the table only makes readings
        )
        self.injected: list[str] = []

    # ------------------------------------------------------------------ the body
    async def _show(self, frames_layout: Any = None) -> None:
        self.pico.slots(self.table.values(frames_layout))

    async def _carry(self, moves: tuple[Move, ...]) -> None:
        for frame in self.table.frames(moves):
            self.pico.slots(self.table.values(frame))
            await asyncio.sleep(max(frame.ms, 40) / 1000)
        self.pico.slots(self.table.values())
        await asyncio.sleep((SETTLE_MS + 60) / 1000)
        await self._seen()

    async def _seen(self, timeout: float = 5.0) -> None:
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
            pass  # the host may never settle on it (a fault): the caller sees what it says

    async def _press(self, player: int, button: str) -> None:
        pin = self.factory.pin(PINS[player, button])
        pin.drive_low()
        await asyncio.sleep(0.03)
        pin.drive_high()
        await asyncio.sleep(0.05)

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
            await asyncio.sleep(0.02)

    async def _roll(self) -> None:
        """Press the board's dice button until the host has the roll."""
        before = len(self.controller.actions)
        for _ in range(20):
            self.pico.button(True)
            await asyncio.sleep(0.06)
            self.pico.button(False)
            try:
                await self._until(lambda: len(self.controller.actions) > before, "the dice", 0.6)
                return
            except SimulationError:
                continue
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
            await self._roll()
        elif s.phase == TURN:
            if s.may_double and wants_double(s.position, o.seed, s.game, turn):
                await self._press(s.turn, DOUBLE)
            else:
                await self._press(s.turn, ROLL)
                await self._roll()
        elif s.phase == DOUBLED:
            take = takes(s.position.swap(), o.seed, s.game, turn)
            await self._press(s.decider, DOUBLE if take else DROP)
        elif s.phase == PLAY:
            await self._play(turn)
        elif s.phase == GAME_OVER:
            self._set_up_table()
            await asyncio.sleep((SETTLE_MS + 60) / 1000)
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
                await asyncio.sleep(0.1)
                notice = c.message()
                verdict = c.verdict
                reason = getattr(verdict, "reason", None)
                entry = {
                    "what": "attempt",
                    "refused": len(c.actions) == n and notice is not None and notice.severity == "error",
                    "reason": reason,
                    "expected": attempt.reason,
                }
                self.tally.count(entry)
                await self._carry(tuple(Move(m.dst, m.src) for m in reversed(attempt.moves)))
            await self._carry(moves_of(play.steps, mover))
        else:
            await asyncio.sleep((SETTLE_MS + 100) / 1000)
        want = () if play is None else tuple((st.frm, st.to) for st in play.steps)
        n = len(c.actions)
        for _ in range(int(TIMEOUT_S / 0.2)):  # press done until the host takes the play
            verdict = c.verdict
            plays = getattr(verdict, "plays", None)
            if plays and play in plays and plays[c.choice % len(plays)] != play:
                await self._press(mover, DOUBLE)  # the next candidate reading
                continue
            await self._press(mover, ROLL)
            if len(c.actions) > n:
                break
            await asyncio.sleep(0.15)
        accepted = len(c.actions) > n and getattr(c.actions[n], "steps", ()) == want
        self.tally.count({"what": "play", "accepted": accepted})
        if not accepted:
            notice = c.message()
            raise SimulationError(
                f"the host did not take the legal play {play.notation if play else 'pass'}"
                f" ({notice.text if notice else 'no message'})"
            )

    async def _players(self) -> None:
        await self._until(lambda: self.controller is not None and self.controller.link_up and self.controller.observation is not None, "the board to connect", 20)
        self._set_up_table()
        await asyncio.sleep(0.5)
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
                await asyncio.sleep(0.5)
            if self.faults.garble_at is not None and count >= self.faults.garble_at and not any("garbled" in i for i in self.injected):
                self.pico.garble(bytes(range(256)) * 2)
                self.injected.append(f"garbled bytes after {count} actions")
            await self._turn()
            done += len(self.controller.actions) - count

    async def _power(self) -> None:
        """The Pico comes back after every reset (``machine.reset()`` ends the process)."""
        while True:
            if self.pico.revive() is not None:
                await asyncio.sleep(0.3)
                self.pico.slots(self.table.values())
            await asyncio.sleep(0.05)

    async def run(self) -> None:
        """Start the board and the host, play, stop both."""
        self.pico.start()
        power = asyncio.create_task(self._power())
        app_task = asyncio.create_task(self.app.run())
        try:
            players = asyncio.create_task(self._players())
            done, _ = await asyncio.wait({app_task, players}, return_when=asyncio.FIRST_COMPLETED)
            if app_task in done:
                app_task.result()
                raise SimulationError("the host stopped before the match ended")
            players.result()
            await asyncio.sleep(0.3)  # the last frames reach the panel
        finally:
            power.cancel()
            self.app.stop()
            from gpiozero import Device

            Device.pin_factory = self._old_factory
            try:
                await asyncio.wait_for(app_task, 10)
            except (asyncio.TimeoutError, SimulationError):
                app_task.cancel()
            self.pico.close()

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


def _since_game_start(actions: list[Any]) -> list[Any]:
    out: list[Any] = []
    for action in reversed(actions):
        if action.kind in ("start", "next"):
            break
        out.append(action)
    return out
