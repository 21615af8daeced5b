"""The other side's play carried out by the person at this board (pure): a part that the
engine's and the remote board's players own (:class:`PlayCarrier`), and the checks of an
execution (:func:`execution`).

The display names the play in the person's chosen numbering, the LEDs light the next step
(from blue → to green) one step at a time, and the reading of the board is compared with the
positions after each step of *that* play.  When the board shows the whole play it is recorded
(the decided play, never another reading of the board).  Anything else — another legal play,
a checker on the wrong point, a hit left on the point — is a wrong execution: the display
says what to put back (red LEDs) to return to the last correct step.  Where the board reads
the start and the end of the play alike (stacks taller than the sensors count) the person's
press of that side's **roll** says it is done.  The other side's own plays are never taken
back at this board.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from bgboard.language import Phrase
from bgboard.control.decisions import Answer
from bgboard.control.events import BoardRead
from bgboard.control.notice import Notice, Severity
from bgboard.control.numbering import Numbering, Words
from bgboard.control.presenter import View
from bgboard.link.messages import Led, SetLeds, SetRolling
from bgboard.match import Action, Move, Pass
from bgboard.match.state import MatchState, Phase
from bgboard.rules.position import BAR, OFF, Position
from bgboard.rules.step import Step, apply_step
from bgboard.sense.places import Fix, Observation, board_of, differences, physical_point, put_back

if TYPE_CHECKING:
    from bgboard.control.match_table import MatchTable

__all__ = ["PlayCarrier", "execution", "mid_step", "opponent_words", "prefixes", "step_places"]

BLUE, GREEN, RED = (0, 0, 160), (0, 160, 0), (160, 0, 0)
INFO, WARNING, ERROR = Severity.INFO, Severity.WARNING, Severity.ERROR


def opponent_words(notation: str, side: int, numbering: Numbering) -> str:
    """``notation`` of ``side`` (its own numbering) in the numbering the person reads."""
    physical = Words(side, Numbering.PHYSICAL).own(notation)  # the side's own → physical
    return Words(1 - side, numbering).physical(physical)  # physical → the person's


class PlayCarrier:
    """The decisions of ``side`` (named ``name()`` on the display) and the carrying out of its
    plays in one match room: ``asked`` names the question the match waits on (its
    :meth:`key`), ``answer`` is that side's answer to it, ``guide`` what the display says
    about it (``guide_back``: what to put back).  ``forget``: the answer is forgotten once its
    play is recorded (a remote board's next play comes as a new message)."""

    def __init__(self, side: int, name: Callable[[], str], *, forget: bool = False) -> None:
        self.side = side
        self.name = name
        self.forget = forget
        self.table: MatchTable | None = None  # the room, once it opens
        self.asked: tuple[object, ...] | None = None
        self.answer: Answer | None = None  # the answer to the question asked now
        self.guide: Notice | None = None  # what the display says about the other side's play
        self.guide_back: tuple[str, ...] = ()
        self.wrong_executions = 0  # readings that were not the other side's play (the simulator counts them)

    @property
    def room(self) -> MatchTable:
        assert self.table is not None, "the room has not opened"
        return self.table

    def key(self, kind: str, state: MatchState) -> tuple[object, ...]:
        """The question of ``kind`` that the match ``state`` asks (an answer comes back with it)."""
        return (len(self.room.actions), kind, state.position, state.dice)

    def carrying(self, state: MatchState | None) -> bool:
        """The other side's play of the roll on the board now is known and waits to be
        carried out here."""
        return (state is not None and state.phase == Phase.PLAY and state.turn == self.side and self.answer is not None
                and self.answer.choice == "play" and self.asked == self.key("play", state))

    @property
    def blind(self) -> bool:
        """The board reads the start of the other side's play and its end alike (stacks
        taller than the sensors count): the person's press of that side's roll says done."""
        s, answer, observation = self.room.state, self.answer, self.room.observation
        if s is None or s.phase != Phase.PLAY or s.turn != self.side or answer is None or observation is None:
            return False
        if not answer.steps or self.asked != self.key("play", s):
            return False
        return execution(observation, s.position, self.side, answer.steps)[0] == "blind"

    def says_done(self, state: MatchState, at: int) -> bool:
        """The person pressed the other side's roll: its play is recorded if the board cannot
        see it (tall stacks); False when that press is not this."""
        if state.phase == Phase.PLAY and state.turn == self.side and self.blind and self.answer is not None:
            self.record(Move(self.answer.steps), state, at)  # the person says it is done
            return True
        return False

    # ------------------------------------------------------------------ the board read
    def on_board(self, event: BoardRead, own: Callable[[BoardRead], None]) -> None:
        """A reading during the other side's play is checked against it; right after it, it
        is kept (that play is never taken back here); else the room reads it itself."""
        room = self.room
        state = room.state
        if state is not None and state.phase == Phase.PLAY and state.turn == self.side and not room.over:
            room.judge.observation = event.observation
            room.notice = None  # (a reading answers what a button press was told)
            if self.answer is not None and self.asked == self.key("play", state):
                self.check(event.at_ms)
            return
        if state is not None and state.phase == Phase.TURN and room.session.history and room.session.history[-1][1] == self.side:
            room.judge.observation = event.observation  # the other side's play is never taken back here
            return
        done = len(room.actions)
        own(event)
        if len(room.actions) < done:  # the person's play taken back before the other side rolled
            room.send(SetRolling(False))

    def check(self, at: int) -> None:
        """Compare the board with the other side's play: record it when it is all there,
        else light the next step, or say what to put back."""
        room = self.room
        answer, state, observation = self.answer, room.state, room.observation
        assert answer is not None and state is not None
        name, numbering = self.name(), Numbering(room.settings.numbering)
        said = opponent_words(answer.notation, self.side, numbering)
        if not answer.steps:
            self.record(Pass(), state, at)
            room.notice = Notice(Phrase("%(name)s cannot move", name=name))
            return
        if observation is None:
            self.guide = Notice(Phrase("%(name)s plays %(play)s", name=name, play=said), INFO)
            return
        verdict, step, fixes = execution(observation, state.position, self.side, answer.steps)
        if verdict == "done":
            self.record(Move(answer.steps), state, at)
            room.notice = Notice(Phrase("%(name)s played %(play)s", name=name, play=said))
        elif verdict == "blind":  # tall stacks: the sensors see no difference
            self.guide = Notice(Phrase("%(name)s plays %(play)s: the board cannot see it on the tall stacks; "
                                       "press %(name)s's roll when it is done", name=name, play=said), WARNING,
                                Phrase("%(name)s: roll when done", name=name))
        elif verdict == "step":
            self._light(step, said)
        else:
            self.wrong_executions += 1
            back = put_back(fixes, (1 - self.side) if numbering == Numbering.OWN else None)
            self.guide = Notice(Phrase("that is not %(name)s's play %(play)s: %(back)s", name=name, play=said,
                                       back=back[0] if back else Phrase("put the checkers back")),
                                ERROR, Phrase("not %(name)s's play", name=name), tiny=Phrase("Not the play"))
            self.guide_back = back
            room.send(SetLeds(tuple(Led(f.place - 1, RED) for f in fixes)))

    def _light(self, done: int, said: str) -> None:
        """The next step of the play: from (blue) → to (green); a hit also lights the bar the
        person's blot goes to (red), a bear-off the tray."""
        room, answer = self.room, self.answer
        state = room.state
        assert answer is not None and state is not None
        frm, to, bar = step_places(answer.steps[done], self.side)
        total, name = len(answer.steps), self.name()
        own_frm, own_to = answer.steps[done]
        here = opponent_words(f"{'bar' if own_frm == BAR else own_frm}/{'off' if own_to == OFF else own_to}",
                              self.side, Numbering(room.settings.numbering))
        before = prefixes(state.position, self.side, answer.steps[:done])[-1]
        hit = to <= 24 and before[to - 1] == (-1 if self.side == 0 else 1)  # the person's blot on the point
        if hit:
            text = Phrase("%(name)s plays %(play)s: move %(move)s: your blot there goes to the bar (%(done)d of %(total)d)",
                          name=name, play=said, move=here, done=done + 1, total=total)
        else:
            text = Phrase("%(name)s plays %(play)s: move %(move)s (%(done)d of %(total)d)",
                          name=name, play=said, move=here, done=done + 1, total=total)
        self.guide = Notice(text, INFO, Phrase("move %(move)s", move=here + ("*" if hit else "")))
        self.guide_back = ()
        leds = (Led(frm - 1, BLUE), Led(to - 1, GREEN)) + ((Led(bar - 1, RED),) if hit else ())
        room.send(SetLeds(leds))

    def record(self, action: Action, before: MatchState, at: int) -> None:
        """The other side's play is on the board: record it."""
        room = self.room
        mover = before.turn
        self.guide, self.guide_back = None, ()
        if room.act(action, at):
            room.send(SetLeds(()))
            room.after_play(mover, at)
            if self.forget:
                self.answer = None  # that play is done: none is being carried out now

    # ------------------------------------------------------------------ what the display says and shows
    def message(self, own: Callable[[], Notice | None]) -> Notice | None:
        room = self.room
        if room.forfeit is None and room.notice is None and room.link_up and self.guide is not None:
            return self.guide
        return own()

    def view(self, view: View) -> View:
        """The put-back guidance of a wrong execution; the other side's name as it is now (an
        engine's level chosen between games)."""
        if self.guide is not None and self.guide_back:
            view = replace(view, put_back=self.guide_back)
        names, name = list(view.state.players), self.name()
        if names[self.side] != name:
            names[self.side] = name
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
