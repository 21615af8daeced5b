"""Replaying a match file on the board: a learner steps through any ``.mat`` record (a famous
match, their own online game) on the real checkers.

:func:`replay_steps` turns an :class:`~bgboard.match.ImportedMatch` into steps (pure): for
each play of the file, the position *before* it (what the set-up guidance has the player
lay out), the LEDs that show the play that was made (the checkers' starting places blue,
their landing places green), and the display: the dice, the play, the cube actions, the
resignations and — given a ``grade`` function (an engine, wired by the caller) — the
grade of each play; a last step per game shows how it ended.  :class:`Replayer` moves
through them with the buttons: roll = forward, double = back, drop = the next game.

:func:`simulate_replay` plays a whole file on the modelled board (the virtual table, its
hall sensors, the firmware's debounce as :class:`~bgboard.sim.table.Table` models it): at
each step a simulated person follows the set-up guidance, carrying checkers until the host's
set-up check (:func:`bgboard.sense.recognise.setup_fixes`) finds nothing left to fix, i.e.
the position the sensors read is the file's.  It presses back now and then to check the way
back too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from bgboard.control.events import Button
from bgboard.control.judge import BLUE, GREEN
from bgboard.control.notice import Notice, Severity, Topic
from bgboard.control.presenter import View, display_state
from bgboard.display.state import DisplayState
from bgboard.link.messages import Led
from bgboard.match import ImportedMatch, MatPlay
from bgboard.match.state import MatchState
from bgboard.rules import Position
from bgboard.sense.board import SensorFaultError
from bgboard.sense.recognise import setup_fixes
from bgboard.sim.field import Faults
from bgboard.sim.layout import BAR_PLACES, BLACK, OFF_PLACES, POINT_PLACES, WHITE, Layout, place_of
from bgboard.sim.players import Move
from bgboard.sim.table import PLACE_NUMBERS, Table

__all__ = ["BACK", "FORWARD", "NEXT_GAME", "ReplayReport", "ReplayStep", "Replayer", "guided_moves",
           "replay_steps", "simulate_replay"]

FORWARD, BACK, NEXT_GAME = Button.ROLL, Button.DOUBLE, Button.DROP
_LEVELS = ("a single", "a gammon", "a backgammon")


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One stop of a replay: ``layout`` is the table to lay out, ``leds`` the play made from
    it, ``display`` what the panel shows; ``play`` is ``None`` on a game's last stop."""

    game: int
    line: int
    layout: Layout
    leds: tuple[Led, ...]
    display: DisplayState
    text: str
    play: MatPlay | None


def _layout(state: MatchState) -> Layout:
    """The table of a match state (absolute boards: ``board[0]`` is white's)."""
    return Layout.from_position(Position(state.board[WHITE], state.board[BLACK]), WHITE)


def _leds(play: MatPlay) -> tuple[Led, ...]:
    """The play's checkers: starting places blue, landing places green (a place both left
    and reached stays green)."""
    colour = play.player
    sources = [PLACE_NUMBERS[place_of(frm, colour)] - 1 for frm, _ in play.steps]
    targets = [PLACE_NUMBERS[place_of(to, colour)] - 1 for _, to in play.steps]
    leds = {i: BLUE for i in sources} | {i: GREEN for i in targets}
    return tuple(Led(i, rgb) for i, rgb in sorted(leds.items()))


def _describe(match: ImportedMatch, play: MatPlay) -> str:
    name = match.players[play.player] or ("White", "Black")[play.player]
    dice = f"{play.dice[0]}{play.dice[1]}" if play.dice else ""
    if play.kind in ("move", "illegal", "condone"):
        text = f"{name} {dice}: {play.text or 'the only play'}"
        if play.kind != "move":
            text += " (an illegal play, as the file gives it)"
        return text
    if play.kind == "pass":
        return f"{name} {dice}: no play"
    if play.kind == "roll":
        return f"{name} rolls {dice}"
    if play.kind == "double":
        return f"{name} doubles to {play.before.cube * 2}"
    if play.kind in ("take", "drop", "beaver"):
        return f"{name} {play.kind}s"
    return f"{name} resigns {_LEVELS[max(1, min(3, play.level)) - 1]}"


def replay_steps(match: ImportedMatch, grade: Callable[[MatPlay], str | None] | None = None) -> tuple[ReplayStep, ...]:
    """Every stop of a replay of ``match`` (see the module docstring).  ``grade`` gives a
    short grade of a checker play ("best", "blunder (-0.142)"), or ``None``."""
    steps: list[ReplayStep] = []
    for game in match.games:
        if not game.plays:
            continue
        for k, play in enumerate(game.plays, start=1):
            text = f"Game {game.number}, {k}: {_describe(match, play)}"
            if grade is not None and play.kind == "move" and play.steps:
                graded = grade(play)
                if graded:
                    text += f" - {graded}"
            shown = play.after if play.kind == "double" else play.before
            notice = Notice(text, Severity.WARNING if play.kind in ("illegal", "condone") else Severity.INFO,
                            short=_describe(match, play))
            steps.append(ReplayStep(game.number, play.line, _layout(play.before),
                                    _leds(play) if play.steps else (),
                                    display_state(View(state=shown, now_ms=0, notice=notice)), text, play))
        last = game.plays[-1].after
        if game.winner is None:
            end = f"Game {game.number} has no result in the file"
        else:
            winner = match.players[game.winner] or ("White", "Black")[game.winner]
            end = f"Game {game.number}: {winner} wins {game.points} point{'s' if game.points != 1 else ''}"
        steps.append(ReplayStep(game.number, game.plays[-1].line, _layout(last), (),
                                display_state(View(state=last, now_ms=0, notice=Notice(end))), end, None))
    return tuple(steps)


@dataclass
class Replayer:
    """Where a replay is: the buttons move it (roll forward, double back, drop to the next
    game's first stop); it stays put at either end."""

    steps: tuple[ReplayStep, ...]
    index: int = 0

    @property
    def current(self) -> ReplayStep:
        return self.steps[self.index]

    def press(self, button: Button) -> ReplayStep:
        if button == FORWARD:
            self.index = min(self.index + 1, len(self.steps) - 1)
        elif button == BACK:
            self.index = max(self.index - 1, 0)
        elif button == NEXT_GAME:
            game = self.current.game
            later = [i for i in range(self.index, len(self.steps)) if self.steps[i].game != game]
            if later:
                self.index = later[0]
        return self.current


# ----------------------------------------------------------------------------- the modelled board
def _count(layout: Layout, place: str, colour: int) -> int:
    here, n = layout.at(place)
    return n if n and here == colour else 0


def guided_moves(now: Layout, target: Layout) -> list[Move]:
    """The checkers a person carries to turn ``now`` into ``target``, as the set-up
    guidance asks: each surplus checker to a place that needs one of its colour; a checker
    in the way of the other colour first (to a place its colour needs, or its tray)."""
    places = POINT_PLACES + BAR_PLACES + OFF_PLACES
    moves: list[Move] = []
    layout = now
    for _ in range(4 * 30 + 8):
        if layout == target:
            return moves
        move = None
        for colour in (WHITE, BLACK):
            surplus = [p for p in places if _count(layout, p, colour) > _count(target, p, colour)]
            needs = [p for p in places if _count(layout, p, colour) < _count(target, p, colour)]
            free = [p for p in needs if _count(layout, p, 1 - colour) == 0 or p not in POINT_PLACES]
            if surplus and free:
                move = Move(surplus[0], free[0])
                break
        if move is None:  # every place a colour needs holds the other colour: clear one
            for colour in (WHITE, BLACK):
                needs = [p for p in places if _count(layout, p, colour) < _count(target, p, colour)]
                if needs:
                    blocked = needs[0]
                    move = Move(blocked, OFF_PLACES[1 - colour])
                    break
        assert move is not None
        layout = layout.lift(move.src)[0].put(move.dst, layout.at(move.src)[0])
        moves.append(move)
    raise AssertionError("the set-up guidance did not converge")  # pragma: no cover


@dataclass
class ReplayReport:
    """What :func:`simulate_replay` saw: stops shown, positions the sensors read and checked
    against the file, the ones that differed (none expected), presses of each button."""

    stops: int = 0
    checked: int = 0
    differing: list[str] = field(default_factory=list)
    carried: int = 0
    presses: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"stops": self.stops, "positions_checked": self.checked, "differing": self.differing,
                "checkers_carried": self.carried, "presses": self.presses}


def simulate_replay(steps: tuple[ReplayStep, ...], seed: int = 1, noise: float = 0.0, flicker: bool = True,
                    back_every: int = 9, show: Callable[[ReplayStep], None] | None = None,
                    faults: Faults | None = None) -> ReplayReport:
    """Replay every stop on the modelled board (see the module docstring); ``show`` gets each
    stop as it is reached (to draw the display); ``faults`` breaks sensors (for tests)."""
    report = ReplayReport()
    if not steps:
        return report
    table = Table(steps[0].layout, random.Random(seed), noise=noise, flicker=flicker, faults=faults or Faults())
    replayer = Replayer(steps)
    pressed = 0

    def arrive(step: ReplayStep) -> None:
        moves = guided_moves(table.layout, step.layout)
        report.carried += len(moves)
        report.checked += 1
        try:
            for frame in table.frames(moves):
                table.observe(table.values(frame))
            observation = table.observe()
            for _ in range(table.debounce):
                observation = table.observe()
            fixes = setup_fixes(observation, step.layout.to_position(WHITE))
        except SensorFaultError as exc:
            report.differing.append(f"line {step.line}: {step.text}: the board reports a fault ({exc})")
        else:
            if fixes:
                report.differing.append(f"line {step.line}: {step.text}: {len(fixes)} place(s) differ")
        if show is not None:
            show(step)

    def press(button: Button) -> None:
        report.presses[button.value] = report.presses.get(button.value, 0) + 1
        arrive(replayer.press(button))

    arrive(replayer.current)
    report.stops = 1
    while replayer.index < len(steps) - 1:
        press(FORWARD)
        report.stops += 1
        pressed += 1
        if back_every and pressed % back_every == 0 and replayer.index > 0:
            press(BACK)
            press(FORWARD)
    return report

