"""A whole match on the virtual board, refereed by the real host controller.

:class:`Simulation` is the loop of ``bgboard sim``.  The host side is the real thing:
:class:`bgboard.control.controller.Controller` (match state machine, recognition, notices,
LEDs, journal in ``journal.sqlite`` through :class:`bgboard.store.journal.Journal`), fed by
the host's own settler (:class:`bgboard.sense.settle.Settler`).  The board side is the
virtual table (:class:`~bgboard.sim.table.Table`): the simulated players press buttons,
roll the dice when the controller enables rolling, and carry checkers one at a time over
the hall field; every scan goes through the settler, every settled reading to the
controller as a ``BoardRead``.

An illegal attempt is judged by what the controller says when the player presses *done*:
it must refuse the play with the rules engine's reason (``illegal_flagged``); the player
then puts the checkers back and plays legally.  A legal play the controller does not accept
is counted in ``legal_rejected`` (and the run stops: a bug).

Time is virtual (milliseconds from 0) and everything the players do is a function of
``(seed, game, turn)``, so a run killed at any moment and resumed from the journal ends
exactly as an uninterrupted run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from bgboard.control.controller import Controller, Settings
from bgboard.control.events import DOUBLE, DROP, ROLL, BoardRead, ButtonPressed, DiceRolled
from bgboard.display.state import DisplayState
from bgboard.errors import InputError
from bgboard.link.messages import SetRolling
from bgboard.match.state import DOUBLED, GAME_OVER, MATCH_OVER, OPENING, PLAY, TURN
from bgboard.rules import start_position
from bgboard.sense.board import Observation, SensorFaultError, Slots
from bgboard.sense.recognise import Illegal, Miscount, Played, Unchanged, Ambiguous
from bgboard.sense.settle import Settler
from bgboard.hardware import load_grid
from bgboard.sim.field import NOISE_LEVELS, Faults
from bgboard.sim.hand import Frame
from bgboard.sim.layout import Layout
from bgboard.sim.players import Move, choose_play, dice_for, illegal_attempt, moves_of, takes, wants_double
from bgboard.sim.table import Table
from bgboard.store.journal import Journal

#: Scans of the board at rest before a self-contradicting reading counts as a fault.
RESCANS = 50
#: Identical scans of the board at rest before it is handed to the settler.
REST_SCANS = 6
#: Time between two scans (virtual ms), as the firmware scans.
SCAN_MS = 10
#: Journal kind of the simulator's own rows (the controller ignores kinds it does not know).
SIM_KIND = "sim"


class SimulationError(InputError):
    """The simulated match cannot go on (a sensor fault, a journal of another match)."""


@dataclass(frozen=True, slots=True)
class Options:
    """What to simulate: the match, the seed and how messy the players and sensors are."""

    match_length: int
    seed: int
    illegal_rate: float = 0.0
    noise: float = 0.0
    rules: str = "standard"
    flicker: bool = True
    stuck: tuple[tuple[str, int, int], ...] = ()
    players: tuple[str, str] = ("White", "Black")


@dataclass
class Tally:
    """The run's counts for the summary."""

    plays_recognised: int = 0
    illegal_attempts: int = 0
    illegal_flagged: int = 0
    legal_rejected: int = 0
    wrong_reasons: list[dict[str, Any]] = field(default_factory=list)

    def count(self, entry: dict[str, Any]) -> None:
        """Count one journalled verdict."""
        if entry["what"] == "play":
            if entry["accepted"]:
                self.plays_recognised += 1
            else:
                self.legal_rejected += 1
        elif entry["what"] == "attempt":
            self.illegal_attempts += 1
            if entry["refused"] and entry["reason"] == entry["expected"]:
                self.illegal_flagged += 1
            else:
                self.wrong_reasons.append(entry)


class Simulation:
    """One match on the virtual board, journalled in ``out/journal.sqlite``."""

    def __init__(
        self,
        options: Options,
        out: Path,
        on_show: Callable[[DisplayState, int], None] | None = None,
    ) -> None:
        self.options = options
        self.out = prepare_out(options, out)
        self.on_show = on_show
        self.tally = Tally()
        self.grid = load_grid()
        self.slots = Slots(point=self.grid.count("point"), bar=self.grid.count("bar"), tray=self.grid.count("off"))
        self.settler = Settler()
        self.clock = 0  # virtual milliseconds
        self.sensor_faults = 0  # scans dropped because they contradicted themselves
        self.last_fault = ""
        self.rolling = False
        self.rolls = 0
        self.attempted: set[tuple[int, int]] = set()
        faults = Faults(stuck={(p, i): v for p, i, v in options.stuck}) if options.stuck else Faults()
        self.table = Table(
            Layout(tuple([0] * 24)),
            random.Random(f"bgboard-sim-noise:{options.seed}"),
            noise=options.noise,
            grid=self.grid,
            faults=faults,
            flicker=options.flicker,
        )
        self.journal = Journal(self.out / "journal.sqlite")
        settings = Settings(length=options.match_length, rules=options.rules, players=options.players, slots=self.slots)
        for entry in self.journal.entries():
            self.clock = max(self.clock, entry.at_ms + 1000)
            if entry.kind == SIM_KIND:
                self.tally.count(entry.body)
                if entry.body["what"] == "attempt":
                    self.attempted.add((entry.body["game"], entry.body["turn"]))
            elif entry.kind == "action" and entry.body.get("type") == "start":
                if entry.body.get("length") != options.match_length:
                    raise SimulationError(
                        f"{self.out} holds a {entry.body.get('length')}-point match: use another --out"
                    )
        self.controller = Controller.resume(self.journal, settings, self.clock, send=self._to_board, show=self._show)
        if self.controller.state is None:
            notice = self.controller.message()
            raise SimulationError(notice.text if notice else "the match could not be started")
        self._set_up_table()

    # ------------------------------------------------------------------ board side
    def _to_board(self, message: object) -> None:
        if isinstance(message, SetRolling):
            self.rolling = message.enabled

    def _show(self, state: object) -> None:
        if self.on_show is not None and isinstance(state, DisplayState):
            self.on_show(state, self.clock)

    def _set_up_table(self) -> None:
        """The checkers as the match stands (after a resume or a new game)."""
        state = self.controller.state
        assert state is not None
        if state.phase in (OPENING, GAME_OVER):
            position, colour = start_position(state.rules.variant), 0
        else:
            position, colour = state.position, state.turn or 0
        self.table.layout = Layout.from_position(position, colour)
        self._rest()

    def _scan(self, frame: Frame | None) -> Observation | None:
        try:
            return self.table.observe(self.table.values(frame))
        except SensorFaultError as exc:
            self.sensor_faults += 1
            self.last_fault = str(exc)
            return None

    def _feed(self, observation: Observation, at: int) -> None:
        self.settler.feed(observation, at)
        settled = self.settler.poll(self.clock)
        if settled is not None:
            self.controller.handle(BoardRead(settled, self.clock))

    def _carry(self, moves: tuple[Move, ...]) -> None:
        """Carry checkers over the field, one scan every SCAN_MS, then rest."""
        for frame in self.table.frames(moves):
            for _ in range(max(1, frame.ms // SCAN_MS)):
                observation = self._scan(frame)
                self.clock += SCAN_MS
                if observation is not None:
                    self._feed(observation, self.clock - SCAN_MS)
        self._rest()

    def _rest(self) -> None:
        """The hand is away: scan until the reading has settled and reached the host."""
        clean = None
        steady = 0
        for _ in range(RESCANS):  # scan until the debounced reading is clean and steady
            scan = self._scan(None)
            self.clock += SCAN_MS
            steady = steady + 1 if scan is not None and scan == clean else 0
            clean = scan if scan is not None else clean
            if steady >= REST_SCANS:
                break
        if clean is None or steady < REST_SCANS:
            raise SimulationError(self.last_fault or "the sensors never gave a clean reading")
        self.settler.feed(clean, self.clock)
        self.clock += self.settler.settle_ms
        settled = self.settler.poll(self.clock)
        if settled is not None:
            self.controller.handle(BoardRead(settled, self.clock))

    def _press(self, player: int, button: str) -> None:
        self.clock += 200
        self.controller.handle(ButtonPressed(player, button, self.clock))

    def _roll(self, dice: tuple[int, int]) -> None:
        """The dice button of the board (rolls only when the host enabled rolling)."""
        if not self.rolling:
            raise SimulationError("the host did not enable the dice")
        self.rolls += 1
        self.clock += 500
        self.controller.handle(DiceRolled(dice, self.rolls, self.clock))

    def _note(self, body: dict[str, Any]) -> None:
        state = self.controller.state
        assert state is not None
        body = {"game": state.game, "turn": self.turn, **body}
        self.journal.append(SIM_KIND, body, self.clock)
        self.tally.count(body)

    # ------------------------------------------------------------------ the loop
    @property
    def turn(self) -> int:
        """Actions since the start of the current game (the players' clock)."""
        n = 0
        for action in reversed(self.controller.actions):
            if action.kind in ("start", "next"):
                break
            n += 1
        return n

    def run(self, max_actions: int | None = None) -> None:
        """Play until the match is over (or ``max_actions`` more actions: for tests)."""
        done = 0
        while not self.controller.over:
            if max_actions is not None and done >= max_actions:
                return
            before = len(self.controller.actions)
            self.step()
            if len(self.controller.actions) == before:
                notice = self.controller.message()
                raise SimulationError(f"the host refused the players: {notice.text if notice else 'no reason given'}")
            done += len(self.controller.actions) - before

    def step(self) -> None:
        """One decision of the match."""
        s = self.controller.state
        assert s is not None
        o = self.options
        if s.phase == OPENING:
            self._press(0, ROLL)
            self._roll(dice_for(o.seed, s.game, self.turn))
        elif s.phase == TURN:
            player = s.turn
            assert player is not None
            if s.may_double and wants_double(s.position, o.seed, s.game, self.turn):
                self._press(player, DOUBLE)
            else:
                self._press(player, ROLL)
                self._roll(dice_for(o.seed, s.game, self.turn))
        elif s.phase == DOUBLED:
            taker = s.decider
            assert taker is not None
            self._press(taker, DOUBLE if takes(s.position.swap(), o.seed, s.game, self.turn) else DROP)
        elif s.phase == PLAY:
            self._play()
        elif s.phase == GAME_OVER:
            self._set_up_table()
            self._press(s.games[-1].winner, ROLL)
            self._set_up_table()
        else:
            raise SimulationError(f"the simulated players do not handle phase {s.phase!r}")

    def _play(self) -> None:
        s = self.controller.state
        assert s is not None and s.turn is not None and s.dice is not None
        o = self.options
        mover, position, dice, game, turn = s.turn, s.position, s.dice, s.game, self.turn
        play = choose_play(position, dice, o.seed, game, turn)
        if play is not None and (game, turn) not in self.attempted:
            attempt = illegal_attempt(position, dice, mover, o.seed, game, turn, o.illegal_rate, self.slots.point)
            if attempt is not None:
                before = self.table.layout
                self._carry(attempt.moves)
                count = len(self.controller.actions)
                self._press(mover, ROLL)  # "done" on an illegal board
                refused = len(self.controller.actions) == count
                verdict = self.controller.verdict
                reason = verdict.reason if isinstance(verdict, (Illegal, Miscount)) else None
                notice = self.controller.message()
                self._note(
                    {
                        "what": "attempt",
                        "refused": bool(refused and notice is not None and notice.severity == "error"),
                        "reason": reason,
                        "expected": attempt.reason,
                        "notice": notice.text if notice else None,
                    }
                )
                self._carry(tuple(Move(m.dst, m.src) for m in reversed(attempt.moves)))
                assert self.table.layout == before
        if play is not None:
            self._carry(moves_of(play.steps, mover))
        verdict = self.controller.verdict
        if isinstance(verdict, Ambiguous) and play is not None and play in verdict.plays:
            while verdict.plays[self.controller.choice % len(verdict.plays)] != play:
                self._press(mover, DOUBLE)  # "next candidate"
        count = len(self.controller.actions)
        self._press(mover, ROLL)  # done
        accepted = len(self.controller.actions) > count
        if accepted:
            last = self.controller.actions[-1]
            expected = () if play is None else tuple((st.frm, st.to) for st in play.steps)
            accepted = getattr(last, "steps", ()) == expected
        self._note(
            {
                "what": "play",
                "accepted": bool(accepted),
                "play": play.notation if play is not None else "",
                "verdict": type(verdict).__name__,
            }
        )
        if not accepted:
            raise SimulationError(f"the host rejected the legal play {play.notation if play else 'pass'}")

    # ------------------------------------------------------------------ results
    def summary(self) -> dict[str, Any]:
        """The ``--json`` summary (player 0 = the .mat's left column)."""
        s = self.controller.state
        assert s is not None
        return {
            "match_length": s.length,
            "score": list(s.score),
            "games": [
                {"winner": g.winner, "points": g.points, "cube": g.cube, "result": g.result} for g in s.games
            ],
            "plays_recognised": self.tally.plays_recognised,
            "illegal_attempts": self.tally.illegal_attempts,
            "illegal_flagged": self.tally.illegal_flagged,
            "legal_rejected": self.tally.legal_rejected,
        }

    @property
    def actions(self) -> list[Any]:
        """The match's action log so far."""
        return list(self.controller.actions)

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()


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
