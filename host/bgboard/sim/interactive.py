"""``bgboard sim --interactive``: play white yourself at the virtual board (adapter).

You move checkers by typing a play as players write it, read by the rules engine's one
reader of plays (:func:`bgboard.rules.read_play`): a whole play (``8/5 6/5``, ``bar/22*``,
``24/18(2)``), one checker over one die or more (``13/7``, ``13/10``, ``13/11/10``) or part of
the play at a time, in either player's numbering; what the roll cannot play is refused with
the reason, in the text typed, and ``u`` puts back the checkers of the last line.  The keys stand for the buttons and are named
beside the display's words: ``r`` roll / done / next game, ``d`` double or take, ``p`` pass
an offered cube, ``resign``; ``b`` shows the board, ``?`` the keys, ``q`` quits.  Black is
the simulated player, or with ``--opponent ENGINE[:LEVEL]`` the engine: you roll the dice
for it (``r``) and carry its plays out yourself, typed as the display names them (in your
numbering) or in its own, and the board checks them.  Every action of either side is printed in your
words and numbering and the board is drawn again after it; a game's end gets its own frame.
The host controller judges everything exactly as at a real board, and every display
refresh is written to ``OUT/frames``.  Quit at any time: ``bgboard sim --interactive`` on
the same ``--out`` resumes the match.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Callable

from bgboard.control.events import DOUBLE, DROP, ROLL
from bgboard.control.numbering import flip_points
from bgboard.display.panel import FilePanel
from bgboard.display.panels import panel_spec
from bgboard.display.screen import Screen
from bgboard.errors import EnvironmentFailure, InputError
from bgboard.match import apply
from bgboard.match.state import DOUBLED, GAME_OVER, MATCH_OVER, OPENING, PLAY, TURN
from bgboard.rules import IllegalPlayError, NotationError, legal_plays, read_play
from bgboard.rules.step import Step
from bgboard.sim.layout import WHITE, Layout
from bgboard.sim.players import Move, dice_for, moves_of
from bgboard.sim.modelled_board import Options, Simulation
from bgboard.sim.match_run import PANEL, write_gif, write_learner_report, write_records
from bgboard.sim.terminal_board import board_text, uses_colour

KEYS = (
    ("r", "roll the dice / done after your play / the next game (the display's roll and done)"),
    ("d", "double, or take an offered double (the display's double and take)"),
    ("p", "pass an offered double (the display's drop and pass)"),
    ("resign", "resign: then d resigns more, r offers it, p cancels"),
    ("8/5 6/5", "move checkers: a whole play (bar/22*, 24/18(2), 13-7 6-o), in either side's numbering"),
    ("13/10", "move one checker, over one die or more (13/11/10)"),
    ("u", "put back the checkers of your last line"),
    ("b", "show the board"),
    ("?", "these keys"),
    ("q", "quit (the same --out resumes the match)"),
)
HELP = "keys: " + "; ".join(f"{key} = {what}" for key, what in KEYS)
HUMAN = WHITE
#: The display's button words → the keys that press them.
_BUTTONS = ((re.compile(r"\bpress done\b"), "press done (r)"), (re.compile(r"\bpress roll\b"), "press roll (r)"),
            (re.compile(r"\bdouble: "), "double (d): "), (re.compile(r"\broll: "), "roll (r): "),
            (re.compile(r"\bdrop: "), "drop (p): "), (re.compile(r"\btake or pass\?"), "take (d) or pass (p)?"),
            (re.compile(r"\bor double for another reading\b"), "or double (d) for another reading"))


class StepTextError(InputError):
    """A single checker move that cannot be read or played."""


def keyed(text: str) -> str:
    """A display text with the key of each button it names ("press done (r)")."""
    for pattern, replacement in _BUTTONS:
        text = pattern.sub(replacement, text)
    return text


def dice_text(dice: tuple[int, int]) -> str:
    """Dice as the display says them: the higher first ("2-1" whoever rolled it)."""
    return f"{max(dice)}-{min(dice)}"


def narrate(before: Any, actions: list[Any], names: tuple[str, str]) -> list[str]:
    """What each action did, in white's words and numbering (black's plays flipped)."""
    lines: list[str] = []
    state: Any = before
    for action in actions:
        kind = action.kind
        who = names[state.turn] if state.turn is not None else ""
        other = names[1 - state.turn] if state.turn is not None else ""
        if kind == "opening":
            lines.append(f"opening roll: {names[0]} {action.dice[0]}, {names[1]} {action.dice[1]}")
        elif kind == "roll":
            lines.append(f"{who} rolls {dice_text(action.dice)}")
        elif kind == "move":
            play = next((p for p in legal_plays(state.position, state.dice)
                         if tuple((s.frm, s.to) for s in p.steps) == tuple(action.steps)), None)
            text = play.notation if play is not None else " ".join(f"{a}/{b}" for a, b in action.steps)
            lines.append(f"{who} plays {flip_points(text) if state.turn == 1 else text}")
        elif kind in ("pass", "condone"):
            lines.append(f"{who} cannot move" if kind == "pass" else f"{other} accepts {who}'s play as it stands")
        elif kind == "double":
            lines.append(f"{who} doubles to {state.cube * 2}")
        elif kind in ("take", "beaver"):
            lines.append(f"{other} {'takes' if kind == 'take' else 'beavers'} the {state.cube * 2}")
        elif kind == "drop":
            lines.append(f"{other} passes")
        elif kind == "resign":
            lines.append(f"{who} resigns ({action.level} × the cube)")
        elif kind in ("accept", "reject"):
            lines.append(f"{other} {'accepts' if kind == 'accept' else 'rejects'} the resignation")
        state = apply(state, action)
    return lines


def game_over_frame(state: Any) -> str:
    """The frame between two games: who won what, the score, what to press."""
    game = state.games[-1]
    winner = state.players[game.winner] if game.winner is not None else "nobody"
    points = f"{game.points} point{'' if game.points == 1 else 's'}"
    a, b = state.score
    rule = "-" * 40
    tail = "match over" if state.phase == MATCH_OVER else "r = the next game (set up as the display says)"
    return (f"{rule}\ngame over: {winner} wins ({game.result}, {points}); "
            f"score {state.players[0]} {a}, {state.players[1]} {b}\n{tail}\n{rule}")


def play_interactive(
    options: Options,
    out: Path,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    colour: bool | None = None,
) -> int:
    """The interactive session; returns the exit code.  ``colour``: ANSI colours on the board
    (None: when standard output is a terminal and ``NO_COLOR`` is not set)."""
    out = Path(out)
    panel = FilePanel(panel_spec(PANEL), out / "frames")
    screen = Screen(panel)
    last: list[str] = [""]

    def on_show(state: Any, now: int) -> None:
        due = screen.update(state, now, full=state.phase in ("game-over", "match-over"))
        if due is not None:
            screen.tick(max(due, now))
        variants = getattr(state, "message", ()) or ()
        text = variants[0] if variants else ""
        if text and text != last[0] and not session.quiet:
            write(f"display: {keyed(text)}")
        last[0] = text

    session: Any = None
    sim = Simulation(options, out, on_show=on_show)
    session = _Session(sim, write, uses_colour(sys.stdout, os.environ) if colour is None else colour)
    write(HELP)
    write(session.board())
    try:
        while not sim.controller.over:
            s = sim.controller.state
            assert s is not None
            session.announce()
            if not session.human_acts():
                session.quiet = True  # (what black's display says is for black: its actions are narrated)
                try:
                    session.run(sim.step)
                finally:
                    session.quiet = False
                continue
            try:
                line = read(session.prompt()).strip()
            except EOFError:
                break
            if not session.obey(line):
                break
    finally:
        write_records(sim, out)
        sim.close()
        write_gif([p for p, _ in panel.frames], out / "display.gif")
    if sim.controller.over:
        a, b = sim.controller.state.score  # type: ignore[union-attr]
        write(f"match over: white {a}, black {b}")
        if sim.teacher is not None:  # --teach: the session in short and the learner report
            write(f"graded by {sim.teacher.engine.name}: {sim.teacher.summary()[0]}")
            write(f"learner report: {write_learner_report(sim, out)}")
    return 0


class _Session:
    """The person at the terminal: what they may do now, and what happened after each action."""

    def __init__(self, sim: Simulation, write: Callable[[str], None], colour: bool = False) -> None:
        self.sim: Any = sim  # (its controller is an OpponentRoom against the engine)
        self.write = write
        self.colour = colour
        self.announced: object = None  # the other side's play last shown
        teacher = getattr(sim, "teacher", None)
        self.graded = len(teacher.lessons) if teacher is not None else 0  # lessons already said (a resumed match's)
        self.steps: list[tuple[tuple[Step, ...], tuple[Move, ...]]] = []  # each line's steps this roll
        self.quiet = False  # the simulated black player's own display messages are not for the person
        self.steps_key: object = None

    @property
    def engine(self) -> Any:
        return self.sim.opponent

    def human_acts(self) -> bool:
        c = self.sim.controller
        s = c.state
        if s.phase in (OPENING, GAME_OVER) or s.decider == HUMAN:
            return True
        # against the engine: the person rolls its dice and carries its plays out
        return self.engine is not None and ((c.rolls_for_engine and c.dice == "person") or c.carrying_play)

    def board(self, lifted: tuple[int, ...] = (), landed: tuple[int, ...] = ()) -> str:
        """The table, pips, cube and match as they are now."""
        clock = self.sim.controller.clock
        clocks = None
        if clock is not None:  # a match with clocks: both reserves now (the board's virtual time)
            now = int(getattr(self.sim.board, "clock", 0))
            clocks = ((clock.remaining(0, now), clock.remaining(1, now)), clock.running)
        return board_text(self.sim.table.layout, self.sim.controller.state, lifted=lifted, landed=landed,
                          colour=self.colour, clocks=clocks)

    def announce(self) -> None:
        """The other side's play, once, as soon as it is known (its engine chose it, or the
        other board sent it): in white's words, and the board with its checkers marked."""
        c = self.sim.controller
        if self.engine is None or not c.carrying_play:
            return
        s = c.state
        key = (len(c.actions), s.position, s.dice)
        if key == self.announced:
            return
        self.announced = key
        physical = [(25 - a, 25 - b) if c.side == 1 else (a, b) for a, b in c.answer.steps]
        text = flip_points(c.answer.notation) if c.side == 1 else c.answer.notation
        name = s.players[c.side]
        if not physical:
            self.write(f"{name} cannot move {dice_text(s.dice)}")
            return
        self.write(f"{name} plays {text} ({dice_text(s.dice)}): carry it out on the board, "
                   "from the points marked ^ to those marked +")
        lifted = {a for a, _ in physical} - {b for _, b in physical}  # (a checker passing a point is not marked there)
        landed = {b for _, b in physical} - {a for a, _ in physical}
        self.write(self.board(tuple(lifted), tuple(landed)))

    def prompt(self) -> str:
        c = self.sim.controller
        s = c.state
        a, b = s.score
        dice = f" dice {dice_text(s.dice)}" if s.phase == PLAY and s.dice else ""
        who = f" {s.players[s.turn]}" if s.turn is not None and s.phase in (TURN, PLAY, DOUBLED) else ""
        if self.engine is not None and c.rolls_for_engine and c.dice == "person":
            return f"[roll for {self.engine.name}: r] {s.players[0]} {a} {s.players[1]} {b}> "
        if self.engine is not None and s.phase == PLAY and s.turn == c.side:
            return f"[move {self.engine.name}'s checkers{dice}] {s.players[0]} {a} {s.players[1]} {b}> "
        phase = str(s.phase).replace("_", " ")
        return f"[{phase}{who}{dice}] {s.players[0]} {a} {s.players[1]} {b} (? = keys)> "

    def run(self, act: Callable[[], None]) -> None:
        """Do ``act``, then say what happened: every action in words, the board, a game's end."""
        c = self.sim.controller
        before, n, layout = c.state, len(c.actions), self.sim.table.layout
        act()
        self.sim.board.roll_pending()  # the engine's own dice: the module rolls at once
        self.report(before, n, layout)

    def report(self, before: Any, n: int, layout: object) -> None:
        """Say what happened since the match was ``before`` with ``n`` actions and the table
        showed ``layout``: every new action in words, the board if it changed, a game's end."""
        c = self.sim.controller
        new = list(c.actions[n:])
        for line in narrate(before, new, c.state.players):
            self.write(line)
        self.grades()
        if new or self.sim.table.layout != layout:
            self.write(self.board())
        if new and c.state.phase in (GAME_OVER, MATCH_OVER) and before.phase not in (GAME_OVER, MATCH_OVER):
            self.write(game_over_frame(c.state))

    def grades(self) -> None:
        """``--teach``: each grade as it is given, in white's numbering (the learners' only)."""
        teacher = getattr(self.sim, "teacher", None)
        if teacher is None:
            return
        names = self.sim.controller.state.players
        for lesson in teacher.lessons[self.graded:]:
            if teacher.learners is None or lesson.player in teacher.learners:
                text = lesson.text[0]
                who = names[lesson.player] if lesson.player is not None else "the learner"
                self.write(f"grade ({who}): {flip_points(text) if lesson.player == 1 else text}")
        self.graded = len(teacher.lessons)

    def obey(self, line: str) -> bool:
        """Carry out the person's ``line`` and say what happened (a mistake in one sentence);
        False when they quit."""
        if line in ("q", "quit"):
            return False
        try:
            self.run(lambda: self.command(line))
        except (InputError, EnvironmentFailure) as exc:
            self.write(f"bgboard: {exc}")
        return True

    def command(self, line: str) -> None:
        sim, c = self.sim, self.sim.controller
        s = c.state
        word = line.lower()
        if word in ("", "?", "h", "help"):
            self.write(HELP)
        elif word == "b":
            self.write(self.board())
        elif word in ("r", "roll", "done"):
            if self.engine is not None and c.rolls_for_engine and c.dice == "person":
                sim.board.roll_dice_now(dice_for(sim.options.seed, s.game, sim.turn))
                return
            rolling_phase = s.phase in (OPENING, TURN)
            sim.board.press_now(HUMAN, ROLL)
            if rolling_phase and sim.board.rolling:
                sim.board.roll_dice_now(dice_for(sim.options.seed, s.game, sim.turn))
            if s.phase == GAME_OVER:
                sim.board.set_up_now()
        elif word in ("d", "double", "take"):
            sim.board.press_now(HUMAN, DOUBLE)
        elif word in ("p", "pass", "drop"):
            if s.phase == DOUBLED or c.resigning is not None:
                sim.board.press_now(HUMAN, DROP)
            else:
                self.write("no double is offered: p passes one. To resign, type resign")
        elif word == "resign":
            sim.board.press_now(HUMAN, DROP)
        elif word == "u":
            self._undo()
        elif s.phase == PLAY and s.dice is not None and (s.turn == HUMAN or self.engine is not None):
            self._move(line)
        else:
            self.write("it is not time to move checkers: " + HELP)

    def _mover(self) -> int:
        s = self.sim.controller.state
        return s.turn if s.turn is not None else HUMAN

    def _move(self, line: str) -> None:
        """Carry what ``line`` says of the side to play: a whole play, one checker over one or
        more dice, several checkers, in either player's numbering (the display's first: white's,
        as it names the engine's checkers too), read by the rules engine's one reader of plays."""
        s = self.sim.controller.state
        mover = self._mover()
        key = (len(self.sim.controller.actions), s.position, s.dice)
        if key != self.steps_key:
            self.steps, self.steps_key = [], key
        done = [st for steps, _ in self.steps for st in steps]
        numberings = (True, False) if mover == 1 else (False, True)
        try:
            reading = read_play(line, s.position, s.dice, done, whole=False, numberings=numberings)
        except (IllegalPlayError, NotationError) as exc:
            raise StepTextError(f"{exc}: nothing moved") from None
        moves = moves_of(reading.steps, mover)
        self.sim.board.carry_now(moves)
        self.steps.append((reading.steps, moves))

    def _undo(self) -> None:
        if not self.steps or self.steps_key != (len(self.sim.controller.actions), self.sim.controller.state.position,
                                                self.sim.controller.state.dice):
            self.write("no checker of this roll to put back")
            return
        _, moves = self.steps.pop()
        self.sim.board.carry_now(tuple(Move(m.dst, m.src) for m in reversed(moves)))
