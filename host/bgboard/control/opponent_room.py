"""The other side played from elsewhere: an engine (or, later, a remote board) decides, the
local person carries its plays out on the board, and the board checks them (pure).

:class:`OpponentRoom` is the :class:`~bgboard.control.controller.Controller` with one
side's decisions coming from an :class:`OpponentPlay` source instead of that side's buttons.
Whenever the match waits for that side — to double or roll, to take, pass or beaver, to play
its roll, to answer a resignation — the controller asks the source a :class:`Question`; the
answer comes at once (the simulator's synchronous engine) or later as an
:class:`~bgboard.control.events.OpponentMoved` event (the app's engine on its worker, a
remote board's message).  An answer to a question no longer asked (a takeback, a new game)
is dropped.  The source's answers press that side's buttons as a person would, so the match,
the journal, the clocks and the records are exactly those of two people at the board; the
physical buttons of that side do nothing (the display says so), except between games, when
**double** and **drop** on that side raise and lower the engine's level for the next game.

Its plays: the display names the play in the person's chosen numbering, the LEDs light the
next step (from blue → to green) one step at a time, and the reading of the board is
compared with the positions after each step of *that* play.  When the board shows the whole
play it is recorded (the source's play, never another reading of the board).  Anything else
— another legal play, a checker on the wrong point, a hit left on the point — is a wrong
execution: the display says what to put back (red LEDs) to return to the last correct step.
Dice (``dice``): "module" — the host tells the dice module to roll at once for that side
(ROLLING 2, docs/protocol.md; with takebacks on, :data:`TAKEBACK_GRACE_MS` later, so the
person may still take the play just made back); "person" — the display asks the person to
press the dice button for it.

Takebacks (``takebacks`` on): the person's last play may be taken back until the other side
has rolled (the controller's rule); the other side's own plays are never taken back at the
board.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from bgboard.language import Phrase
from bgboard.control.controller import Controller
from bgboard.control.events import Button, ButtonPressed, OpponentMoved
from bgboard.control.notice import Notice, Severity
from bgboard.control.numbering import Numbering, Words
from bgboard.control.presenter import View
from bgboard.control.rooms import OtherSide
from bgboard.link.messages import Led, SetLeds, SetRolling
from bgboard.match import Move, Pass
from bgboard.match.state import MatchState, Phase
from bgboard.rules.position import BAR, OFF, Position
from bgboard.rules.step import Step, apply_step
from bgboard.sense.places import Fix, Observation, board_of, differences, physical_point, put_back

__all__ = ["Answer", "OpponentPlay", "OpponentRoom", "Question", "execution", "mid_step", "opponent_words",
           "prefixes", "step_places"]

#: Journal kind of the opponent's own rows (the level chosen between games).
OPPONENT_KIND = "opponent"
BLUE, GREEN, RED = (0, 0, 160), (0, 160, 0), (160, 0, 0)
#: With takebacks on, how long the dice module waits before rolling for the other side
#: (the person may take the play just made back until then).
TAKEBACK_GRACE_MS = 3000
INFO, WARNING, ERROR = Severity.INFO, Severity.WARNING, Severity.ERROR


@dataclass(frozen=True, slots=True)
class Question:
    """What the match asks the other side: ``kind`` is "cube" (double or roll?), "take" (take,
    pass or beaver?), "play" (the roll ``state.dice``) or "resign" (accept ``level``?);
    ``player`` is the other side, ``state`` the match as it stands; ``key`` comes back with
    the answer."""

    kind: str
    player: int
    state: MatchState
    key: tuple[object, ...]
    level: int = 1


@dataclass(frozen=True, slots=True)
class Answer:
    """The other side's decision: ``choice`` ("double"/"roll", "take"/"pass"/"beaver",
    "accept"/"decline", "play"); a play's ``steps`` ((from, to) in that side's own
    numbering, empty: no legal play) and ``notation``."""

    choice: str
    steps: tuple[tuple[int, int], ...] = ()
    notation: str = ""


class OpponentPlay(Protocol):
    """Where the other side's decisions come from (an engine; a remote board)."""

    name: str  # how the display names it ("gnubg-nn (expert)")

    def ask(self, question: Question) -> Answer | None:
        """Answer now, or return None and answer later with an OpponentMoved event."""
        ...

    def levels(self) -> tuple[str, ...]:
        """The levels it can play at, weakest first (empty: it has none to choose)."""
        ...

    def set_level(self, level: str) -> None:
        """Play at ``level`` from the next question on."""
        ...

    def engine_level(self) -> tuple[str, str] | None:
        """The engine and the level it plays at now (None: no engine, a person elsewhere)."""
        ...


def opponent_words(notation: str, side: int, numbering: Numbering) -> str:
    """``notation`` of ``side`` (its own numbering) in the numbering the person reads."""
    physical = Words(side, Numbering.PHYSICAL).own(notation)  # the side's own → physical
    return Words(1 - side, numbering).physical(physical)  # physical → the person's


class OpponentRoom(Controller):
    """The match room with ``side`` played by ``opponent`` (see the module docstring)."""

    def __init__(self, journal: Any, settings: Any, *, opponent: OpponentPlay, side: int = 1, dice: str = "module",
                 **kwargs: Any) -> None:
        super().__init__(journal, settings, **kwargs)
        self.opponent = opponent
        self.side = side
        self.dice = dice  # "module": the dice module rolls at once for that side; "person": the person presses it
        self.roll_at: int | None = None  # with takebacks on, the module rolls for that side at this time
        self.asked: tuple[object, ...] | None = None
        self.answer: Answer | None = None  # the answer to the question asked now
        self.guide: Notice | None = None  # what the display says about the other side's play
        self.guide_back: tuple[str, ...] = ()
        self.wrong_executions = 0  # readings that were not the other side's play (the simulator counts them)
        self.handlers[OpponentMoved] = self._on_answer
        for entry in journal.entries():  # the level chosen between games, as journalled
            if entry.kind == OPPONENT_KIND and entry.body.get("level") in opponent.levels():
                opponent.set_level(entry.body["level"])

    def other_side(self) -> OtherSide | None:
        """``side``, decided by ``opponent`` (its engine and level, where an engine plays it)."""
        engine, level = self.opponent.engine_level() or (None, None)
        return OtherSide(self.side, self.opponent.name, engine, level)

    @property
    def rolls_for_engine(self) -> bool:
        """The other side wants its dice rolled now (by the dice module, or the person)."""
        s = self.state
        return (s is not None and s.phase == Phase.TURN and s.turn == self.side and self.answer is not None
                and self.answer.choice == "roll")

    @property
    def carrying_play(self) -> bool:
        """The other side's play of the roll on the board now is known (its engine chose it,
        or it came from the other board) and waits to be carried out here."""
        s = self.state
        return (s is not None and s.phase == Phase.PLAY and s.turn == self.side and self.answer is not None
                and self.answer.choice == "play" and self.asked == self._key("play", s))

    @property
    def blind(self) -> bool:
        """The board reads the start of the other side's play and its end alike (stacks
        taller than the sensors count): the person's press of that side's roll says done."""
        s, answer, observation = self.state, self.answer, self.observation
        if s is None or s.phase != Phase.PLAY or s.turn != self.side or answer is None or observation is None:
            return False
        if not answer.steps or self.asked != self._key("play", s):
            return False
        return execution(observation, s.position, self.side, answer.steps)[0] == "blind"

    # ------------------------------------------------------------------ the loop of questions
    def handle(self, event: Any) -> None:
        super().handle(event)
        if self.roll_at is not None and (not self.rolls_for_engine or event.at_ms >= self.roll_at):
            if self.rolls_for_engine:  # no takeback came: the dice module rolls
                self.send(SetRolling(False, now=True))
                self.guide = Notice(Phrase("%(name)s rolls", name=self.opponent.name), INFO)
                self._refresh()
            self.roll_at = None
        self._drive(event.at_ms)

    def _key(self, kind: str, state: MatchState) -> tuple[object, ...]:
        return (len(self.actions), kind, state.position, state.dice)

    def _question(self) -> tuple[str, int] | None:
        """What the match waits for from the other side now: (kind, resignation level)."""
        s = self.state
        if s is None or self.over or self.resigning is not None:
            return None
        if s.phase == Phase.TURN and s.turn == self.side:
            return ("cube", 1) if s.may_double else ("roll", 1)
        if s.phase == Phase.DOUBLED and s.decider == self.side:
            return "take", 1
        if s.phase == Phase.PLAY and s.turn == self.side:
            return "play", 1
        if s.phase == Phase.RESIGNED and s.decider == self.side:
            return "resign", s.resign_level
        return None

    def _drive(self, at: int) -> None:
        """Ask the other side when the match waits for it (once per question)."""
        wanted = self._question()
        if wanted is None:
            if self.guide is not None:
                self.guide, self.guide_back = None, ()
                self._refresh()
            return
        kind, level = wanted
        state = self.state
        assert state is not None
        key = self._key(kind, state)
        if key == self.asked:
            return
        self.asked, self.answer = key, None
        name = self.opponent.name
        self.guide = Notice(Phrase("%(name)s is thinking", name=name), INFO, Phrase("thinking"))
        if kind == "roll":  # the cube cannot be turned: roll at once
            self._follow(Answer("roll"), at)
        else:
            answer = self.opponent.ask(Question(kind, self.side, state, key, level))
            if answer is not None:
                self._follow(answer, at)
        self._refresh()

    def _on_answer(self, event: OpponentMoved) -> None:
        if event.key == self.asked and self.answer is None and isinstance(event.decision, Answer):
            self._follow(event.decision, event.at_ms)

    def _press(self, button: Button, at: int) -> None:
        """The other side presses one of its buttons (the controller's own handling)."""
        Controller._on_button(self, ButtonPressed(self.side, button, at))

    def _follow(self, answer: Answer, at: int) -> None:
        """Carry out the other side's answer to the question asked now."""
        self.answer = answer
        state = self.state
        assert state is not None
        name = self.opponent.name
        if answer.choice == "double":
            self._press(Button.DOUBLE, at)
            self.guide = None
        elif answer.choice == "roll" and self.dice == "module" and self.settings.takebacks:
            self.roll_at = at + TAKEBACK_GRACE_MS  # time to take the person's play back first
            self.guide = Notice(Phrase("%(name)s rolls in %(seconds)d s: put your checkers back now to take your play back",
                                       name=name, seconds=TAKEBACK_GRACE_MS // 1000), INFO,
                                Phrase("%(name)s rolls soon", name=name))
        elif answer.choice == "roll" and self.dice == "module":
            self.send(SetRolling(False, now=True))  # the dice module rolls at once
            self.guide = Notice(Phrase("%(name)s rolls", name=name), INFO)
        elif answer.choice == "roll":
            self._press(Button.ROLL, at)
            self.notice = None
            self.guide = Notice(Phrase("roll the dice for %(name)s", name=name), INFO, Phrase("roll for %(name)s", name=name))
        elif answer.choice in ("take", "accept"):
            self._press(Button.DOUBLE, at)
            self.guide = None
            if answer.choice == "take":
                self.notice = Notice(Phrase("%(name)s takes", name=name))
        elif answer.choice in ("pass", "decline"):
            self._press(Button.DROP, at)
            self.guide = None
            self.notice = Notice(Phrase("%(name)s passes", name=name)) if answer.choice == "pass" else self.notice
        elif answer.choice == "beaver":
            self._press(Button.ROLL, at)
            self.guide = None
            self.notice = Notice(Phrase("%(name)s beavers", name=name))
        else:  # the play
            self._check_board(at)

    # ------------------------------------------------------------------ the other side's play
    def _check_board(self, at: int) -> None:
        """Compare the board with the other side's play: record it when it is all there,
        else light the next step, or say what to put back."""
        answer, state, observation = self.answer, self.state, self.observation
        assert answer is not None and state is not None
        name = self.opponent.name
        said = opponent_words(answer.notation, self.side, Numbering(self.settings.numbering))
        if not answer.steps:
            self._record(Pass(), state, at)
            self.notice = Notice(Phrase("%(name)s cannot move", name=name))
            return
        if observation is None:
            self.guide = Notice(Phrase("%(name)s plays %(play)s", name=name, play=said), INFO)
            return
        verdict, step, fixes = execution(observation, state.position, self.side, answer.steps)
        if verdict == "done":
            self._record(Move(answer.steps), state, at)
            self.notice = Notice(Phrase("%(name)s played %(play)s", name=name, play=said))
        elif verdict == "blind":  # tall stacks: the sensors see no difference
            self.guide = Notice(Phrase("%(name)s plays %(play)s: the board cannot see it on the tall stacks; "
                                       "press %(name)s's roll when it is done", name=name, play=said), WARNING,
                                Phrase("%(name)s: roll when done", name=name))
        elif verdict == "step":
            self._light(step, said, ())
        else:
            self.wrong_executions += 1
            back = put_back(fixes, (1 - self.side) if Numbering(self.settings.numbering) == Numbering.OWN else None)
            self.guide = Notice(Phrase("that is not %(name)s's play %(play)s: %(back)s", name=name, play=said,
                                       back=back[0] if back else Phrase("put the checkers back")),
                                ERROR, Phrase("not %(name)s's play", name=name), tiny=Phrase("Not the play"))
            self.guide_back = back
            self.send(SetLeds(tuple(Led(f.place - 1, RED) for f in fixes)))

    def _light(self, done: int, said: str, back: tuple[str, ...]) -> None:
        """The next step of the play: from (blue) → to (green); a hit also lights the bar the
        person's blot goes to (red), a bear-off the tray."""
        state, answer = self.state, self.answer
        assert answer is not None and state is not None
        frm, to, bar = step_places(answer.steps[done], self.side)
        total = len(answer.steps)
        own_frm, own_to = answer.steps[done]
        here = opponent_words(f"{'bar' if own_frm == BAR else own_frm}/{'off' if own_to == OFF else own_to}",
                              self.side, Numbering(self.settings.numbering))
        before = prefixes(state.position, self.side, answer.steps[:done])[-1]
        hit = to <= 24 and before[to - 1] == (-1 if self.side == 0 else 1)  # the person's blot on the point
        if hit:
            text = Phrase("%(name)s plays %(play)s: move %(move)s: your blot there goes to the bar (%(done)d of %(total)d)",
                          name=self.opponent.name, play=said, move=here, done=done + 1, total=total)
        else:
            text = Phrase("%(name)s plays %(play)s: move %(move)s (%(done)d of %(total)d)",
                          name=self.opponent.name, play=said, move=here, done=done + 1, total=total)
        self.guide = Notice(text, INFO, Phrase("move %(move)s", move=here + ("*" if hit else "")))
        self.guide_back = back
        leds = (Led(frm - 1, BLUE), Led(to - 1, GREEN)) + ((Led(bar - 1, RED),) if hit else ())
        self.send(SetLeds(leds))

    def _record(self, action: Any, before: MatchState, at: int) -> None:
        mover = before.turn
        self.guide, self.guide_back = None, ()
        if self._act(action, at):
            self.send(SetLeds(()))
            self._after_play(mover, at)

    # ------------------------------------------------------------------ what the controller does differently
    def _on_board(self, event: Any) -> None:
        state = self.state
        if state is not None and state.phase == Phase.PLAY and state.turn == self.side and not self.over:
            self.judge.observation = event.observation
            self.notice = None  # (a reading answers what a button press was told)
            if self.answer is not None and self.asked == self._key("play", state):
                self._check_board(event.at_ms)
            return
        if (state is not None and state.phase == Phase.TURN and self.session.history
                and self.session.history[-1][1] == self.side):
            self.judge.observation = event.observation  # the other side's play is never taken back here
            return
        done = len(self.actions)
        super()._on_board(event)
        if len(self.actions) < done:  # the person's play taken back before the other side rolled
            self.send(SetRolling(False))

    def _on_button(self, event: ButtonPressed) -> None:
        state = self.state
        if event.player != self.side or state is None:
            super()._on_button(event)
            return
        if (state.phase == Phase.PLAY and state.turn == self.side and event.button == Button.ROLL
                and self.blind and self.answer is not None):
            self._record(Move(self.answer.steps), state, event.at_ms)  # the person says it is done
            return
        if state.phase in (Phase.OPENING, Phase.GAME_OVER) and event.button != Button.ROLL:
            self._change_level(+1 if event.button == Button.DOUBLE else -1, event.at_ms)
        elif state.phase in (Phase.OPENING, Phase.GAME_OVER) or self.over:
            super()._on_button(event)  # roll: start the game (any player's roll button)
        else:
            self.notice = Notice(Phrase("%(name)s presses its own buttons", name=self.opponent.name), WARNING)

    def _change_level(self, by: int, at: int) -> None:
        """Between games: the other side's double (drop) raises (lowers) its level."""
        levels = self.opponent.levels()
        if not levels:
            self.notice = Notice(Phrase("%(name)s has no levels to choose", name=self.opponent.name), WARNING)
            return
        current = self.opponent.name
        index = next((i for i, name in enumerate(levels) if f"({name})" in current), len(levels) - 1)
        level = levels[max(0, min(len(levels) - 1, index + by))]
        self.journal.append(OPPONENT_KIND, {"level": level}, at)
        self.opponent.set_level(level)
        self.notice = Notice(Phrase("%(name)s from the next game on", name=self.opponent.name), INFO, Phrase("level %(level)s", level=level))

    def _new_turn(self, state: MatchState) -> None:
        if state.turn == self.side:  # no hint for the other side's roll
            self.hint_text = None
            return
        super()._new_turn(state)

    def _play_lesson(self, before: MatchState, action: Any) -> None:
        if before.turn != self.side:  # the person's plays are graded, the other side's are not
            super()._play_lesson(before, action)

    def _cube_lesson(self, player: int, before: MatchState, decision: str) -> None:
        if player != self.side:
            super()._cube_lesson(player, before, decision)

    def _on_link(self, event: Any) -> None:
        super()._on_link(event)
        if event.up and self.dice == "module" and self.rolls_for_engine and self.roll_at is None:
            self.send(SetRolling(False, now=True))  # the roll asked while the board was away

    def _on_dice(self, event: Any) -> None:
        super()._on_dice(event)
        state = self.state
        if state is not None and not (state.phase == Phase.TURN and state.turn == self.side):
            self.send(SetRolling(False))

    def message(self) -> Notice | None:
        if self.forfeit is None and self.notice is None and self.link_up and self.guide is not None:
            return self.guide
        return super().message()

    def view(self) -> View | None:
        view = super().view()
        if view is None:
            return None
        if self.guide is not None and self.guide_back:
            view = replace(view, put_back=self.guide_back)
        names = list(view.state.players)
        if names[self.side] != self.opponent.name:  # the level chosen between games, on the display
            names[self.side] = self.opponent.name
            view = replace(view, state=replace(view.state, players=(names[0], names[1])))
        return view


# ---------------------------------------------------------------------- checking an execution (pure)
def prefixes(position: Position, side: int, steps: tuple[tuple[int, int], ...]) -> list[tuple[int, ...]]:
    """The physical board after 0, 1, ... ``steps`` of ``side``'s play from ``position``."""
    boards = [board_of(position, side)]
    for frm, to in steps:
        position = apply_step(position, Step(frm, to, 0))
        boards.append(board_of(position, side))
    return boards


def step_places(step: tuple[int, int], side: int) -> tuple[int, int, int]:
    """Physical places of one step of ``side``: from, to, and the bar a hit blot goes to."""
    frm, to = step
    return physical_point(frm, side), physical_point(to, side), physical_point(BAR, 1 - side)


def mid_step(before: tuple[int, ...], after: tuple[int, ...], step: tuple[int, int], side: int) -> list[tuple[int, ...]]:
    """The boards a person's hands pass through during ``step``: the checker lifted from its
    place (gone from there), the place it goes to as before, cleared of a hit blot, or with
    it arrived; the hit blot not yet or already on its bar."""
    frm, to, bar = step_places(step, side)
    blot = -1 if side == 0 else 1  # a single checker of the other colour on the step's point: a hit
    out = []
    for at_to in {before[to - 1], after[to - 1]} | ({0} if before[to - 1] == blot else set()):
        for at_bar in {before[bar - 1], after[bar - 1]}:
            board = list(before)
            board[frm - 1] = after[frm - 1]
            board[to - 1] = at_to
            board[bar - 1] = at_bar
            out.append(tuple(board))
    return out


def execution(observation: Observation, position: Position, side: int,
              steps: tuple[tuple[int, int], ...]) -> tuple[str, int, tuple[Fix, ...]]:
    """How the board shows ``side``'s play ``steps`` from ``position``: ("done", n, ()) the whole
    play; ("blind", n, ()) the sensors read the start and the end alike (tall stacks);
    ("step", k, ()) the first k steps, or in the hand during step k+1; ("wrong", k, fixes)
    anything else, with what to put back to reach the first k steps."""
    boards = prefixes(position, side, steps)
    if observation.consistent_with(boards[-1]):
        return ("blind" if observation.consistent_with(boards[0]) else "done"), len(steps), ()
    done = max((k for k, board in enumerate(boards[:-1]) if observation.consistent_with(board)), default=None)
    if done is not None:
        return "step", done, ()
    for k in range(len(steps)):
        if any(observation.consistent_with(mid) for mid in mid_step(boards[k], boards[k + 1], steps[k], side)):
            return "step", k, ()
    scored = [(len(differences(observation, board)), k) for k, board in enumerate(boards[:-1])]
    _, best = min(scored)  # (on a tie, back to the earlier step: "put back", not "move on")
    return "wrong", best, differences(observation, boards[best])
