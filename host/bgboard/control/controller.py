"""The match room (the game controller): events from the board, the dice module and the
buttons drive one match at this board; every action is journalled before it takes effect.

One class for every match, composed of parts it owns: the match, its journal and its clocks
are a :class:`~bgboard.control.session.MatchSession`, the roll being played is judged by a
:class:`~bgboard.control.judge.TurnJudge`, what the buttons mean is
:class:`~bgboard.control.match_buttons.MatchButtons` (a resignation's presses:
:class:`~bgboard.control.resigning.Resignation`), hints and lessons are a
:class:`~bgboard.control.coach.Coach`, and what the display shows is a frozen
:class:`~bgboard.control.presenter.View` (:mod:`bgboard.control.match_view`) that
:func:`~bgboard.control.presenter.display_state` draws.  Who plays the other side is the
:class:`~bgboard.control.other_player.OtherPlayer` it is given (``other``): both people at
this board (the default), an engine (:class:`~bgboard.control.engine_player.EnginePlayer`) or
a person at another board (:class:`~bgboard.control.remote.RemotePlayer`); the room hands it
each event it may take differently, with the room's own handling.  The room holds no I/O of
its own: the journal, the device (``send``: host → board messages such as LEDs and rolling)
and the display (``show``: a :class:`bgboard.display.display_state.DisplayState`) are
injected, and time comes with the events.

Buttons (per player, hardware/pins.toml): **roll** — ask for the dice (the board's dice
button is enabled only then), or *done* after moving (press the clock), or start the next
game; **double** — offer the cube, or take an offered cube, or show the next candidate when
the board could be read as several plays; **drop** — drop an offered cube.

Resigning (the display says each step; :mod:`bgboard.control.resigning`): the player on roll
presses **drop**, chooses the level with **double**, offers it with **roll**; the opponent
accepts with **double** or declines with **drop**.  In money play with beavers on, a doubled
player may beaver with **roll**.

Teaching (``Settings.teach``; :mod:`bgboard.control.coach`): in ``learner`` mode no hint is
shown before the play unless the mover asks for it with **double**; after each completed play
the injected ``grade`` answers with a lesson (at once, or later as a :class:`LessonReady`
event) that the display shows until the next play, and cube decisions are graded through
``grade_cube``.

Done is accepted only when the board shows a complete legal play (or the roll has no
legal play and the board is untouched).  An illegal play must be corrected (USBGF "Legal
Moves", the default of every rule set): the display says why and what to put back.

Under the ``condone`` setting (the match's rule set then has ``illegal_plays="condone"``,
older practice) the opponent may instead accept an illegal play: *done* on an illegal board
(or on a play left unfinished) offers it, and the **opponent's roll button** accepts it —
the play is recorded as the board shows it (``bgboard.match.Condone``) and the opponent goes
on to roll.  Plays that are never condonable (a checker moved backwards, an illegal
bear-off, an opponent's checker moved, checkers missing) must still be corrected.  Until the
opponent accepts, the mover may still correct the board; the offer lapses as soon as the
board changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Self, TypedDict, Unpack

from bgboard.language import Phrase
from bgboard.control.match_buttons import MatchButtons
from bgboard.control.clock import Clock
from bgboard.control.coach import Coach, CubeGrader, Grader, Hinter, Summariser
from bgboard.control.events import (
    BoardFault,
    BoardRead,
    Button,
    ButtonPressed,
    DiceRolled,
    Event,
    HintReady,
    LessonReady,
    LinkChanged,
    OpponentMoved,
    Tick,
)
from bgboard.control.judge import BLUE, GREEN, RED, Offer, TurnJudge
from bgboard.control.match_view import room_message, room_view
from bgboard.control.notice import Notice, Severity, Topic
from bgboard.control.numbering import Numbering, Words
from bgboard.control.other_player import OtherPlayer, PersonAtBoard
from bgboard.control.presenter import Drawing, View
from bgboard.control.resigning import Resignation
from bgboard.control.other_side import OtherSide
from bgboard.control.session import ILLEGAL_POLICIES, IllegalPolicy, JournalLike, MatchSession, Settings
from bgboard.link.messages import HostMessage, SetLeds, SetRolling
from bgboard.match import Action, OpeningRoll, Roll
from bgboard.match.state import MatchState, Phase
from bgboard.sense.places import Observation
from bgboard.sense.recognise import RollReader, Verdict
from bgboard.sense.roll import RollReading

if TYPE_CHECKING:
    from bgboard.display.display_state import DisplayState
    from bgboard.hints.lesson import Lesson

__all__ = [
    "BLUE",
    "GREEN",
    "ILLEGAL_POLICIES",
    "RED",
    "Controller",
    "IllegalPolicy",
    "JournalLike",
    "Notice",
    "RoomParts",
    "Settings",
]

INFO, WARNING, ERROR = Severity.INFO, Severity.WARNING, Severity.ERROR


class RoomParts(TypedDict, total=False):
    """What a match room is given besides its journal and settings (every one optional)."""

    other: OtherPlayer  # who plays the other side (default: a person at this board)
    send: Callable[[HostMessage], None]  # to the board
    show: Callable[[DisplayState], None]  # to the display
    hint: Hinter | None
    grade: Grader | None
    grade_cube: CubeGrader | None
    summarise: Summariser | None  # the learner report in short, shown at the match's end


class Controller:
    """The match room (see the module docstring).

    Build it with :meth:`resume`, which replays the journal (or starts the match the
    settings describe when the journal is empty).
    """

    def __init__(self, journal: JournalLike, settings: Settings, **parts: Unpack[RoomParts]) -> None:
        self.session = MatchSession(journal, settings)
        self.judge = TurnJudge(self._new_turn, Numbering(settings.numbering))
        self.coach = Coach(lambda: self.learner, parts.get("hint"), parts.get("grade"), parts.get("grade_cube"),
                           parts.get("summarise"))
        self.resignation = Resignation(self)
        self.buttons = MatchButtons(self, self.resignation)
        self.result_sent: bool | None = None  # club match: the result reached the event (set by the club link)
        # the match's analysis at its end (PR and error rates, computed on the hint worker)
        # and the number of actions it was computed for
        self.analysis: tuple[tuple[str, ...], int] = ((), -1)
        self.send: Callable[[HostMessage], None] = parts.get("send", lambda message: None)
        self.show: Callable[[DisplayState], None] = parts.get("show", lambda state: None)
        self.notice: Notice | None = None
        self.link_up = True
        self.now_ms = 0
        self.drawing = Drawing()  # the view drawn again only when it changed
        self.other: OtherPlayer = parts.get("other", PersonAtBoard())
        self.coach.away = self.other.side  # the side played from elsewhere: no hints, no lessons
        self.other.open(self)

    # ------------------------------------------------------------------ start / resume
    @classmethod
    def resume(cls, journal: JournalLike, settings: Settings, now_ms: int, **parts: Unpack[RoomParts]) -> Self:
        """The match room standing exactly where the journal left the match."""
        room = cls(journal, settings, **parts)
        room.now_ms = now_ms
        room.session, refused = MatchSession.resume(journal, settings, now_ms)
        room.refuse(refused)
        room.refresh()
        return room

    # ------------------------------------------------------------------ the match, as the session keeps it
    @property
    def journal(self) -> JournalLike:
        return self.session.journal

    @property
    def settings(self) -> Settings:
        return self.session.settings

    @property
    def state(self) -> MatchState | None:
        return self.session.state

    @property
    def actions(self) -> list[Action]:
        return self.session.actions

    @property
    def clock(self) -> Clock | None:
        return self.session.clock

    @property
    def forfeit(self) -> int | None:
        return self.session.forfeit

    @property
    def over(self) -> bool:
        """The match is over (won, or lost on time)."""
        return self.session.over

    def other_side(self) -> OtherSide | None:
        """Who plays the other side from elsewhere (None: both sides at this board)."""
        return self.other.who()

    def match_room(self) -> Controller:
        """The match room is this room."""
        return self

    def follow(self) -> None:
        """No seats beside a bare match room (:class:`SeatedRoom` has them)."""

    # ------------------------------------------------------------------ the roll, as the judge sees it; its hint and lessons
    @property
    def observation(self) -> Observation | None:
        return self.judge.observation

    @property
    def verdict(self) -> Verdict | None:
        return self.judge.verdict

    @property
    def choice(self) -> int:
        """Which reading of an ambiguous board is shown (**double** shows the next)."""
        return self.judge.choice

    @property
    def offer(self) -> Offer | None:
        return self.judge.offer

    @property
    def resigning(self) -> tuple[int, int] | None:
        """(the resigner, the level) while a player chooses a resignation at the board."""
        return self.resignation.choosing

    def turn(self) -> RollReader | None:
        """The recognition context of the roll being played (None outside the play phase)."""
        return self.judge.turn(self.session)

    @property
    def learner(self) -> bool:
        """Teaching mode: no hint before the play unless asked, every play graded."""
        return self.settings.teach == "learner"

    @property
    def lessons(self) -> list[Lesson]:
        """Every lesson of this session, oldest first."""
        return self.coach.lessons

    @property
    def lesson(self) -> Lesson | None:
        """The lesson shown now."""
        return self.coach.lesson

    def _new_turn(self, state: MatchState) -> None:
        self.coach.new_turn(state)

    # ------------------------------------------------------------------ told by the app
    def show_analysis(self, text: tuple[str, ...], actions: int) -> None:
        """The app's hint worker analysed the match of ``actions`` actions: the match-end
        screen shows ``text`` (both players' PR and error rate, longest form first) while
        the match is still that one."""
        self.analysis = (tuple(text), actions)
        self.refresh()

    def mark_result(self, sent: bool | None) -> None:
        """The club link says whether this match's result reached the event (True), is
        still being sent (False), or that the match is no club match (None); the match-end
        screen shows it."""
        self.result_sent = sent
        self.refresh()

    def tell(self, notice: Notice | None) -> None:
        """Show ``notice`` now (the club seat: a result to confirm, control/confirm.py)."""
        self.notice = notice
        self.refresh()

    def new_match(self, settings: Settings, at_ms: int) -> None:
        """Start a new match at this board under ``settings`` (a club director's assignment:
        names, length, rules, clock), whatever the board was doing; the old match stays in
        the journal before the new one."""
        self.now_ms = at_ms
        self.session.settings = settings
        self.judge.settled()
        self.notice = None
        self.refuse(self.session.new_match(at_ms))
        self.refresh()

    # ------------------------------------------------------------------ the one entry point
    def handle(self, event: Event) -> None:
        """Act on one event (the other side's player first where it takes that kind), then
        refresh the display, then let the other side's player act; an event this room has
        no use for changes nothing (:class:`~bgboard.control.rooms.Room`)."""
        self.now_ms = event.at_ms
        other = self.other
        match event:
            case BoardRead():
                other.on_board(event, self._on_board)
            case DiceRolled():
                other.on_dice(event, self.roll)
            case ButtonPressed():
                other.on_button(event, self.buttons.press)
            case LinkChanged():
                other.on_link(event, self._on_link)
            case Tick():
                other.on_tick(event, self._on_tick)
            case OpponentMoved():
                other.on_answer(event)
            case BoardFault():
                self.notice = Notice(event.text, ERROR, topic=Topic.SENSOR if event.sensor else Topic.GENERAL)
            case HintReady():
                self.coach.hint_ready(event, self.state)
            case LessonReady():
                self.coach.learn(event.player, event.lesson)
        self.refresh()
        other.after(event)

    # ------------------------------------------------------------------ what the room's parts ask of it
    def act(self, action: Action, at_ms: int) -> bool:
        """Check ``action`` against the match, journal it, then let it take effect.
        A refused action becomes a notice (one sentence) and changes nothing."""
        refused = self.session.act(action, at_ms)
        if refused is not None:
            self.notice = Notice(refused, WARNING)
            return False
        self.judge.settled()
        self.notice = None
        return True

    def refuse(self, refused: str | None) -> None:
        """Say why the match could not start (nothing when it could)."""
        if refused is not None:
            self.notice = Notice(refused, WARNING)

    def press(self, player: int, button: Button, at: int) -> None:
        """``player``'s ``button`` as this room takes it from a person at the board."""
        self.buttons.press(ButtonPressed(player, button, at))

    def after_play(self, mover: int | None, at: int) -> None:
        state = self.state
        if state is not None and state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            self.after_game(at)
        else:
            self.session.clock_to(None if mover is None else 1 - mover, at)

    def after_game(self, at: int) -> None:
        self.session.clock_to(None, at)
        self.send(SetLeds(()))

    # ------------------------------------------------------------------ the board, the dice, the link, the clock
    def _on_board(self, event: BoardRead) -> None:
        self.judge.observation = event.observation
        state = self.state
        if state is None or self.over:
            return
        if state.phase == Phase.PLAY:
            leds = self.judge.read(event.observation, self.turn())
            self.notice = None
            self.send(SetLeds(leds))
        elif (state.phase == Phase.TURN and self.settings.takebacks and self.session.may_take_back
              and RollReading.takes_back(state.playing)):
            if self.judge.shows_turn_start(self.session, event.observation):
                self.session.take_back(event.at_ms)
                self.notice = Notice(Phrase("play taken back: play the roll again"))
                self.judge.verdict = None

    def roll(self, event: DiceRolled) -> None:
        """The dice as this room takes them (the opening roll, or the roll of the player on turn)."""
        state = self.state
        self.send(SetRolling(False))
        if state is None or self.over:
            return
        if state.phase == Phase.OPENING:
            if self.act(OpeningRoll(event.dice), event.at_ms):
                state = self.state
                assert state is not None
                if state.phase == Phase.OPENING:
                    self.notice = Notice(Phrase("both rolled %(die)d: roll again", die=event.dice[0]))
                elif state.turn is not None:
                    self.session.clock_to(state.turn, event.at_ms)
                    self.turn()
        elif state.phase == Phase.TURN:
            if self.act(Roll(event.dice), event.at_ms):
                self.turn()  # build the recognition context now, before the first reading
        else:
            self.notice = Notice(Phrase("it is not time to roll: these dice do not count"), WARNING)

    def _on_link(self, event: LinkChanged) -> None:
        self.link_up = event.up
        short = "board connected" if event.up else "board not connected"
        self.notice = Notice(event.text, INFO if event.up else ERROR, short)
        if not event.up:
            self.judge.observation = None
            self.judge.verdict = None

    def _on_tick(self, event: Tick) -> None:
        self.session.check_time(event.at_ms)

    # ------------------------------------------------------------------ what the display shows
    @property
    def words(self) -> Words:
        """Texts for the player on roll in the players' numbering."""
        state = self.state
        return Words(state.turn if state is not None else None, Numbering(self.settings.numbering))

    def message(self) -> Notice | None:
        """What the display says now (the other side's player says it first where it has to)."""
        return self.other.message(lambda: room_message(self))

    def view(self) -> View | None:
        """A frozen view of what the display shows now (None before the match could start)."""
        view = room_view(self, self.message(), self.analysis)
        return self.other.view(view) if view is not None else None

    def display(self) -> DisplayState | None:
        """What the display shows now: the :meth:`view` drawn (None before the match could
        start)."""
        view = self.view()
        return self.drawing(view) if view is not None else None

    def refresh(self) -> None:
        """Draw what the display shows now."""
        shown = self.display()
        if shown is not None:
            self.show(shown)
