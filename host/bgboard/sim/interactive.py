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
from bgboard.sim.checker_moves import Move, moves_of
from bgboard.sim.players import dice_for
from bgboard.sim.modelled_board import Options, Simulation
from bgboard.sim.match_run import PANEL, write_gif, write_learner_report, write_records
from bgboard.sim.terminal_board import board_text, uses_colour
from bgboard.language import ENGLISH, Phrase, Words, said, say, say_n
from bgboard.rules.reading import reason_of

#: The keys are the same letters in every language (the display's buttons in English: r(oll),
#: d(ouble), p(ass), u(ndo), b(oard), q(uit)); what they do is said in the players' language
#: (docs/languages.md).
KEYS = (
    ("r", Phrase("roll the dice / done after your play / the next game (the display's roll and done)")),
    ("d", Phrase("double, or take an offered double (the display's double and take)")),
    ("p", Phrase("pass an offered double (the display's drop and pass)")),
    ("resign", Phrase("resign: then d resigns more, r offers it, p cancels")),
    ("8/5 6/5", Phrase("move checkers: a whole play (bar/22*, 24/18(2), 13-7 6-o), in either side's numbering")),
    ("13/10", Phrase("move one checker, over one die or more (13/11/10)")),
    ("u", Phrase("put back the checkers of your last line")),
    ("b", Phrase("show the board")),
    ("?", Phrase("these keys")),
    ("q", Phrase("quit (the same --out resumes the match)")),
)


def help_text(words: Words = ENGLISH) -> str:
    """The keys and what each does, in ``words``' language."""
    return say(words, "keys: %(keys)s", keys="; ".join(f"{key} = {said(what, words)}" for key, what in KEYS))


HELP = help_text()
#: The match's phases as the prompt names them.
PHASES = {"opening": Phrase("opening"), "turn": Phrase("turn"), "play": Phrase("play"),
          "doubled": Phrase("doubled"), "resigned": Phrase("resigned"), "game_over": Phrase("game over"),
          "match_over": Phrase("match over")}
HUMAN = WHITE
#: The display's button words → the keys that press them (each pair said in the players'
#: language: a translation keeps the display's own words for the buttons).
_BUTTONS = ((Phrase("press done"), Phrase("press done (r)")), (Phrase("press roll"), Phrase("press roll (r)")),
            (Phrase("double: "), Phrase("double (d): ")), (Phrase("roll: "), Phrase("roll (r): ")),
            (Phrase("drop: "), Phrase("drop (p): ")), (Phrase("take or pass?"), Phrase("take (d) or pass (p)?")),
            (Phrase("or double for another reading"), Phrase("or double (d) for another reading")))


class StepTextError(InputError):
    """A single checker move that cannot be read or played."""


def keyed(text: str, words: Words = ENGLISH) -> str:
    """A display text with the key of each button it names ("press done (r)")."""
    for button, replacement in _BUTTONS:
        word, keyed_word = said(button, words), said(replacement, words)
        pattern = rf"\b{re.escape(word)}" + (r"\b" if word[-1].isalnum() else "")
        text = re.sub(pattern, lambda _: keyed_word, text)
    return text


def dice_text(dice: tuple[int, int]) -> str:
    """Dice as the display says them: the higher first ("2-1" whoever rolled it)."""
    return f"{max(dice)}-{min(dice)}"


def narrate(before: Any, actions: list[Any], names: tuple[str, str], w: Words = ENGLISH) -> list[str]:
    """What each action did, in white's words and numbering (black's plays flipped)."""
    lines: list[str] = []
    state: Any = before
    for action in actions:
        kind = action.kind
        who = names[state.turn] if state.turn is not None else ""
        other = names[1 - state.turn] if state.turn is not None else ""
        if kind == "opening":
            lines.append(say(w, "opening roll: %(white)s %(a)d, %(black)s %(b)d", white=names[0],
                             a=action.dice[0], black=names[1], b=action.dice[1]))
        elif kind == "roll":
            lines.append(say(w, "%(who)s rolls %(dice)s", who=who, dice=dice_text(action.dice)))
        elif kind == "move":
            play = next((p for p in legal_plays(state.position, state.dice)
                         if tuple((s.frm, s.to) for s in p.steps) == tuple(action.steps)), None)
            text = play.notation if play is not None else " ".join(f"{a}/{b}" for a, b in action.steps)
            lines.append(say(w, "%(who)s plays %(play)s", who=who, play=flip_points(text) if state.turn == 1 else text))
        elif kind in ("pass", "condone"):
            lines.append(say(w, "%(who)s cannot move", who=who) if kind == "pass"
                         else say(w, "%(other)s accepts %(who)s's play as it stands", other=other, who=who))
        elif kind == "double":
            lines.append(say(w, "%(who)s doubles to %(value)d", who=who, value=state.cube * 2))
        elif kind in ("take", "beaver"):
            lines.append(say(w, "%(other)s takes the %(value)d", other=other, value=state.cube * 2) if kind == "take"
                         else say(w, "%(other)s beavers the %(value)d", other=other, value=state.cube * 2))
        elif kind == "drop":
            lines.append(say(w, "%(other)s passes", other=other))
        elif kind == "resign":
            lines.append(say(w, "%(who)s resigns (%(level)d × the cube)", who=who, level=action.level))
        elif kind in ("accept", "reject"):
            lines.append(say(w, "%(other)s accepts the resignation", other=other) if kind == "accept"
                         else say(w, "%(other)s rejects the resignation", other=other))
        state = apply(state, action)
    return lines


def game_over_frame(state: Any, w: Words = ENGLISH) -> str:
    """The frame between two games: who won what, the score, what to press."""
    game = state.games[-1]
    winner = state.players[game.winner] if game.winner is not None else say(w, "nobody")
    points = say_n(w, "%(n)d point", "%(n)d points", game.points)
    a, b = state.score
    rule = "-" * 40
    tail = say(w, "match over") if state.phase == MATCH_OVER else say(w, "r = the next game (set up as the display says)")
    over = say(w, "game over: %(who)s wins (%(result)s, %(points)s); score %(white)s %(a)d, %(black)s %(b)d",
               who=winner, result=game.result, points=points, white=state.players[0], a=a,
               black=state.players[1], b=b)
    return f"{rule}\n{over}\n{tail}\n{rule}"


def play_interactive(
    options: Options,
    out: Path,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    colour: bool | None = None,
    words: Words = ENGLISH,
) -> int:
    """The interactive session; returns the exit code.  ``colour``: ANSI colours on the board
    (None: when standard output is a terminal and ``NO_COLOR`` is not set); ``words``: the
    players' language (the terminal's texts and the display's)."""
    out = Path(out)
    panel = FilePanel(panel_spec(PANEL), out / "frames")
    screen = Screen(panel, words=words)
    last: list[str] = [""]

    def on_show(state: Any, now: int) -> None:
        due = screen.update(state, now, full=state.phase in ("game-over", "match-over"))
        if due is not None:
            screen.tick(max(due, now))
        variants = getattr(state, "message", ()) or ()
        text = variants[0] if variants else ""
        if text and text != last[0] and not session.quiet:
            write(say(words, "display: %(text)s", text=keyed(said(text, words), words)))
        last[0] = text

    session: Any = None
    sim = Simulation(options, out, on_show=on_show)
    session = _Session(sim, write, uses_colour(sys.stdout, os.environ) if colour is None else colour, words)
    write(help_text(words))
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
        _the_end(sim, out, write, words)
    return 0


def _the_end(sim: Simulation, out: Path, write: Callable[[str], None], words: Words) -> None:
    """The match's end said at the terminal: the score; with ``--teach`` the session in
    short and the learner report."""
    a, b = sim.controller.state.score  # type: ignore[union-attr]
    write(say(words, "match over: white %(a)d, black %(b)d", a=a, b=b))
    if sim.teacher is not None:  # --teach: the session in short and the learner report
        write(say(words, "graded by %(engine)s: %(summary)s", engine=sim.teacher.engine.name,
                  summary=said(sim.teacher.summary()[0], words)))
        write(say(words, "learner report: %(file)s", file=write_learner_report(sim, out, words)))


class _Session:
    """The person at the terminal: what they may do now, and what happened after each action."""

    words: Words = ENGLISH  # the players' language (set per session)

    def __init__(self, sim: Simulation, write: Callable[[str], None], colour: bool = False,
                 words: Words = ENGLISH) -> None:
        self.sim: Any = sim  # (its controller is the match room, its other side an EnginePlayer against the engine)
        self.write = write
        self.words = words  # the players' language
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
        return self.engine is not None and (c.other.person_rolls or c.other.carrier.carrying(s))

    def board(self, lifted: tuple[int, ...] = (), landed: tuple[int, ...] = ()) -> str:
        """The table, pips, cube and match as they are now."""
        clock = self.sim.controller.clock
        clocks = None
        if clock is not None:  # a match with clocks: both reserves now (the board's virtual time)
            now = int(getattr(self.sim.board, "clock", 0))
            clocks = ((clock.remaining(0, now), clock.remaining(1, now)), clock.running)
        return board_text(self.sim.table.layout, self.sim.controller.state, lifted=lifted, landed=landed,
                          colour=self.colour, clocks=clocks, words=self.words)

    def announce(self) -> None:
        """The other side's play, once, as soon as it is known (its engine chose it, or the
        other board sent it): in white's words, and the board with its checkers marked."""
        c = self.sim.controller
        s = c.state
        if self.engine is None or not c.other.carrier.carrying(s):
            return
        side, answer = c.other.side, c.other.carrier.answer
        key = (len(c.actions), s.position, s.dice)
        if key == self.announced:
            return
        self.announced = key
        physical = [(25 - a, 25 - b) if side == 1 else (a, b) for a, b in answer.steps]
        text = flip_points(answer.notation) if side == 1 else answer.notation
        name = s.players[side]
        if not physical:
            self.write(say(self.words, "%(who)s cannot move %(dice)s", who=name, dice=dice_text(s.dice)))
            return
        self.write(say(self.words, "%(who)s plays %(play)s (%(dice)s): carry it out on the board, "
                       "from the points marked ^ to those marked +", who=name, play=text, dice=dice_text(s.dice)))
        lifted = {a for a, _ in physical} - {b for _, b in physical}  # (a checker passing a point is not marked there)
        landed = {b for _, b in physical} - {a for a, _ in physical}
        self.write(self.board(tuple(lifted), tuple(landed)))

    def prompt(self) -> str:
        c = self.sim.controller
        s = c.state
        a, b = s.score
        w = self.words
        dice = " " + say(w, "dice %(dice)s", dice=dice_text(s.dice)) if s.phase == PLAY and s.dice else ""
        who = f" {s.players[s.turn]}" if s.turn is not None and s.phase in (TURN, PLAY, DOUBLED) else ""
        score = f"{s.players[0]} {a} {s.players[1]} {b}"
        if self.engine is not None and c.other.person_rolls:
            roll_for = say(w, "roll for %(engine)s: r", engine=self.engine.name)
            return f"[{roll_for}] {score}> "
        if self.engine is not None and s.phase == PLAY and s.turn == c.other.side:
            carry = say(w, "move %(engine)s's checkers", engine=self.engine.name)
            return f"[{carry}{dice}] {score}> "
        phase = said(PHASES.get(str(s.phase), str(s.phase).replace("_", " ")), w)
        keys = say(w, "(? = keys)")
        return f"[{phase}{who}{dice}] {score} {keys}> "

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
        for line in narrate(before, new, c.state.players, self.words):
            self.write(line)
        self.grades()
        if new or self.sim.table.layout != layout:
            self.write(self.board())
        if new and c.state.phase in (GAME_OVER, MATCH_OVER) and before.phase not in (GAME_OVER, MATCH_OVER):
            self.write(game_over_frame(c.state, self.words))

    def grades(self) -> None:
        """``--teach``: each grade as it is given, in white's numbering (the learners' only)."""
        teacher = getattr(self.sim, "teacher", None)
        if teacher is None:
            return
        names = self.sim.controller.state.players
        for lesson in teacher.lessons[self.graded:]:
            if teacher.learners is None or lesson.player in teacher.learners:
                text = lesson.text[0]
                who = names[lesson.player] if lesson.player is not None else say(self.words, "the learner")
                text = said(flip_points(text) if lesson.player == 1 else text, self.words)
                self.write(say(self.words, "grade (%(who)s): %(text)s", who=who, text=text))
        self.graded = len(teacher.lessons)

    def obey(self, line: str) -> bool:
        """Carry out the person's ``line`` and say what happened (a mistake in one sentence);
        False when they quit."""
        if line in ("q", "quit"):
            return False
        try:
            self.run(lambda: self.command(line))
        except (InputError, EnvironmentFailure) as exc:
            self.write(f"bgboard: {said(reason_of(exc), self.words)}")
        return True

    def command(self, line: str) -> None:
        sim, c = self.sim, self.sim.controller
        s = c.state
        word = line.lower()
        if word in ("", "?", "h", "help"):
            self.write(help_text(self.words))
        elif word == "b":
            self.write(self.board())
        elif word in ("r", "roll", "done"):
            if self.engine is not None and c.other.person_rolls:
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
                self.write(say(self.words, "no double is offered: p passes one. To resign, type resign"))
        elif word == "resign":
            sim.board.press_now(HUMAN, DROP)
        elif word == "u":
            self._undo()
        elif s.phase == PLAY and s.dice is not None and (s.turn == HUMAN or self.engine is not None):
            self._move(line)
        else:
            self.write(say(self.words, "it is not time to move checkers: %(keys)s", keys=help_text(self.words)))

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
            raise StepTextError(Phrase("%(reason)s: nothing moved", reason=reason_of(exc))) from None
        moves = moves_of(reading.steps, mover)
        self.sim.board.carry_now(moves)
        self.steps.append((reading.steps, moves))

    def _undo(self) -> None:
        if not self.steps or self.steps_key != (len(self.sim.controller.actions), self.sim.controller.state.position,
                                                self.sim.controller.state.dice):
            self.write(say(self.words, "no checker of this roll to put back"))
            return
        _, moves = self.steps.pop()
        self.sim.board.carry_now(tuple(Move(m.dst, m.src) for m in reversed(moves)))
