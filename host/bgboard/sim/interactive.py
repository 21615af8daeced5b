"""``bgboard sim --interactive``: play white yourself at the virtual board (adapter).

You move checkers by typing a whole play (``8/5 6/5``, ``bar/22*``, ``24/18(2)``) or one
checker at a time (``13/7``); the keys stand for the buttons: ``r`` roll / done / next game,
``d`` double or take, ``p`` drop (pass the cube), ``b`` show the board, ``?`` help, ``q``
quit.  Black is the simulated player.  The host controller judges everything exactly as at
a real board - a wrong play is refused with the reason - and every display refresh is
written to ``OUT/frames`` (watch it with any image viewer that reloads).  Quit at any time:
``bgboard sim --interactive`` on the same ``--out`` resumes the match.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from bgboard.control.events import DOUBLE, DROP, ROLL
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.display.screen import Screen
from bgboard.errors import InputError
from bgboard.match.state import GAME_OVER, OPENING, PLAY
from bgboard.rules import BAR, parse_play
from bgboard.sim.layout import BAR_PLACES, WHITE, Layout, place_of
from bgboard.sim.players import Move, dice_for, moves_of
from bgboard.sim.run import Options, Simulation
from bgboard.sim.session import PANEL, write_gif, write_records

HELP = (
    "type a play (8/5 6/5) or one checker (13/7); r = roll / done / next game, "
    "d = double or take, p = drop, b = board, q = quit"
)
HUMAN = WHITE


class StepTextError(InputError):
    """A single checker move that cannot be read."""


def board_text(layout: Layout) -> str:
    """The table in two rows of points, white's view (W = white, B = black)."""

    def cell(p: int) -> str:
        n = layout.points[p - 1]
        return f"{'W' if n > 0 else 'B'}{abs(n)}" if n else " ."

    top = " ".join(f"{p:>3}" for p in range(13, 25))
    up = " ".join(f"{cell(p):>3}" for p in range(13, 25))
    down = " ".join(f"{cell(p):>3}" for p in range(12, 0, -1))
    bottom = " ".join(f"{p:>3}" for p in range(12, 0, -1))
    extra = f"bar W{layout.bar[0]} B{layout.bar[1]}   off W{layout.off[0]} B{layout.off[1]}"
    return "\n".join((top, up, down, bottom, extra))


def _single(text: str) -> tuple[int, int]:
    """``"13/7"`` -> (13, 7); ``bar`` = 25, ``off`` = 0."""
    parts = text.lower().split("/")
    if len(parts) != 2:
        raise StepTextError(f"write one checker as FROM/TO, e.g. 13/7, not {text!r}")
    try:
        return tuple(25 if p == "bar" else 0 if p == "off" else int(p.rstrip("*")) for p in parts)  # type: ignore[return-value]
    except ValueError:
        raise StepTextError(f"write one checker as FROM/TO, e.g. 13/7, not {text!r}") from None


def play_interactive(
    options: Options,
    out: Path,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """The interactive session; returns the exit code."""
    out = Path(out)
    panel = FilePanel(panel_spec(PANEL), out / "frames")
    screen = Screen(panel)
    last: list[str] = [""]

    def on_show(state: object, now: int) -> None:
        due = screen.update(state, now)  # type: ignore[arg-type]
        if due is not None:
            screen.tick(max(due, now))
        variants = getattr(state, "message", ()) or ()
        text = variants[0] if variants else ""
        if text and text != last[0]:
            write(f"display: {text}")
        last[0] = text

    sim = Simulation(options, out, on_show=on_show)
    write(HELP)
    try:
        while not sim.controller.over:
            s = sim.controller.state
            assert s is not None
            human = s.phase in (OPENING, GAME_OVER) or s.decider == HUMAN
            if not human:
                sim.step()
                continue
            a, b = s.score
            dice = f" dice {s.dice[0]}-{s.dice[1]}" if s.phase == PLAY and s.dice else ""
            try:
                line = read(f"[{s.phase}] white {a} black {b}{dice}> ").strip()
            except EOFError:
                break
            if line in ("q", "quit"):
                break
            try:
                _command(sim, line, write)
            except InputError as exc:
                write(f"bgboard: {exc}")
    finally:
        write_records(sim, out)
        sim.close()
        write_gif([p for p, _ in panel.frames], out / "display.gif")
    if sim.controller.over:
        a, b = sim.controller.state.score  # type: ignore[union-attr]
        write(f"match over: white {a}, black {b}")
    return 0


def _command(sim: Simulation, line: str, write: Callable[[str], None]) -> None:
    s = sim.controller.state
    assert s is not None
    if line in ("", "?", "h", "help"):
        write(HELP)
    elif line == "b":
        write(board_text(sim.table.layout))
    elif line == "r":
        rolling_phase = s.phase in (OPENING, "turn")
        sim._press(HUMAN, ROLL)
        if rolling_phase and sim.rolling:
            sim._roll(dice_for(sim.options.seed, s.game, sim.turn))
        if s.phase == GAME_OVER:
            sim._set_up_table()
    elif line == "d":
        sim._press(HUMAN, DOUBLE)
    elif line == "p":
        sim._press(HUMAN, DROP)
    elif s.phase == PLAY and s.dice is not None:
        if " " in line or "(" in line:
            play = parse_play(line, s.position, s.dice)
            sim._carry(moves_of(play.steps, HUMAN))
        else:
            frm, to = _single(line)
            moves = []
            if 1 <= to <= 24 and s.position.theirs[BAR - to] == 1 and sim.table.layout.at(place_of(to, HUMAN))[1] == 1:
                if sim.table.layout.at(place_of(to, HUMAN))[0] != HUMAN:
                    moves.append(Move(place_of(to, HUMAN), BAR_PLACES[1 - HUMAN]))
            moves.append(Move(place_of(frm, HUMAN), place_of(to, HUMAN)))
            try:
                sim._carry(tuple(moves))
            except ValueError as exc:
                raise StepTextError(f"that checker cannot be moved: {exc}") from None
        write(board_text(sim.table.layout))
    else:
        write("it is not time to move checkers: " + HELP)
