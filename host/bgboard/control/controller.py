"""The game controller: events from the board, the dice module and the buttons drive the
match; every action is journalled before it takes effect.

One handler per event type (:data:`Controller.handlers`).  The controller only routes: the
match, its journal and its clocks are a :class:`~bgboard.control.session.MatchSession`, the
roll being played is judged by a :class:`~bgboard.control.judge.TurnJudge`, and what the
display shows is a frozen :class:`~bgboard.control.presenter.View` that
:func:`~bgboard.control.presenter.display_state` draws.  The controller holds no I/O of its
own: the journal, the device (``send``: host → board messages such as LEDs and rolling)
and the display (``show``: a :class:`bgboard.display.display_state.DisplayState`) are injected, and
time comes with the events.

Buttons (per player, hardware/pins.toml): **roll** — ask for the dice (the board's dice
button is enabled only then), or *done* after moving (press the clock), or start the next
game; **double** — offer the cube, or take an offered cube, or show the next candidate when
the board could be read as several plays; **drop** — drop an offered cube.

Resigning (the display says each step; :mod:`bgboard.control.resigning`): the player on roll
presses **drop**, chooses the level with **double**, offers it with **roll**; the opponent
accepts with **double** or declines with **drop**.  In money play with beavers on, a doubled
player may beaver with **roll**.

Teaching (``Settings.teach``): in ``learner`` mode no hint is shown before the play unless
the mover asks for it with **double**; after each completed play the injected ``grade``
answers with a lesson (at once, or later as a :class:`LessonReady` event) that the display
shows until the next play, and cube decisions are graded through ``grade_cube``.

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

from typing import TYPE_CHECKING, Any, Callable, Self

from bgboard.language import Phrase
from bgboard.control.clock import Clock
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
    Tick,
)
from bgboard.control.judge import BLUE, GREEN, RED, Offer, TurnJudge
from bgboard.control.notice import Notice, Severity, Topic
from bgboard.control.numbering import Numbering, Words
from bgboard.control.presenter import View, display_state
from bgboard.control.resigning import Resigning
from bgboard.control.rooms import OtherSide
from bgboard.control.seed_notes import variant_notes
from bgboard.control.session import ILLEGAL_POLICIES, IllegalPolicy, JournalLike, MatchSession, Settings
from bgboard.link.messages import HostMessage, SetLeds, SetRolling
from bgboard.match import Action, Beaver, Double, Drop, Move, NextGame, OpeningRoll, Pass, Roll, Take
from bgboard.match.state import MatchState, Phase
from bgboard.rules.position import Position
from bgboard.sense.places import Observation, differences
from bgboard.sense.recognise import RollReader, Verdict, setup_message
from bgboard.sense.roll import RollReading

if TYPE_CHECKING:
    from bgboard.display.display_state import DisplayState
    from bgboard.hints.lesson import CubeLesson, Lesson, PlayLesson

__all__ = [
    "BLUE",
    "GREEN",
    "ILLEGAL_POLICIES",
    "RED",
    "Controller",
    "IllegalPolicy",
    "JournalLike",
    "Notice",
    "Settings",
]

INFO, WARNING, ERROR = Severity.INFO, Severity.WARNING, Severity.ERROR

#: ``grade(player, before, dice, after, state)``: a lesson now, or None (it comes as LessonReady).
Grader = Callable[[int, Position, tuple[int, int], Position, MatchState], "PlayLesson | None"]
#: ``grade_cube(player, state_before, decision)``: a lesson of a cube decision, or None.
CubeGrader = Callable[[int, MatchState, str], "CubeLesson | None"]


class Controller(Resigning):
    """Drives one match (see the module docstring).

    Build it with :meth:`resume`, which replays the journal (or starts the match the
    settings describe when the journal is empty).
    """

    def __init__(
        self,
        journal: JournalLike,
        settings: Settings,
        *,
        send: Callable[[HostMessage], None] = lambda message: None,
        show: Callable[[DisplayState], None] = lambda state: None,
        hint: Callable[[Position, tuple[int, int]], str | None] | None = None,
        grade: Grader | None = None,
        grade_cube: CubeGrader | None = None,
        summarise: Callable[[list[Lesson]], tuple[str, ...]] | None = None,
    ) -> None:
        self.session = MatchSession(journal, settings)
        self.judge = TurnJudge(self._new_turn, Numbering(settings.numbering))
        self.hint = hint
        self.hint_text: str | None = None
        self.grade = grade
        self.grade_cube = grade_cube
        self.summarise = summarise  # the learner report in short, shown at the match's end
        self.lessons: list[Lesson] = []  # every lesson of this session, oldest first
        self.lesson: Lesson | None = None  # the lesson shown now (its player is lesson_player)
        self.lesson_player: int | None = None
        self.resigning: tuple[int, int] | None = None  # (player, level) being chosen at the board
        self.result_sent: bool | None = None  # club match: the result reached the event (set by the club link)
        # the match's analysis at its end (PR and error rates, computed on the hint worker)
        # and the number of actions it was computed for
        self.analysis: tuple[tuple[str, ...], int] = ((), -1)
        self.send = send
        self.show = show
        self.notice: Notice | None = None
        self.link_up = True
        self.now_ms = 0
        self.handlers: dict[type, Callable[[Any], None]] = {
            BoardRead: self._on_board,
            DiceRolled: self._on_dice,
            ButtonPressed: self._on_button,
            LinkChanged: self._on_link,
            BoardFault: self._on_fault,
            HintReady: self._on_hint,
            LessonReady: self._on_lesson,
            Tick: self._on_tick,
        }

    # ------------------------------------------------------------------ start / resume
    @classmethod
    def resume(cls, journal: JournalLike, settings: Settings, now_ms: int, **kwargs: Any) -> Self:
        """The controller (of the class asked: an ``OpponentRoom.resume`` is one) standing
        exactly where the journal left the match."""
        controller = cls(journal, settings, **kwargs)
        controller.now_ms = now_ms
        controller.session, refused = MatchSession.resume(journal, settings, now_ms)
        controller._refused(refused)
        controller._refresh()
        return controller

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
    def history(self) -> list[tuple[Position, int]]:
        return self.session.history

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
        """Both sides are at this board (:class:`~bgboard.control.opponent_room.OpponentRoom`
        says who plays one of them from elsewhere)."""
        return None

    # ------------------------------------------------------------------ the roll, as the judge sees it
    @property
    def observation(self) -> Observation | None:
        return self.judge.observation

    @property
    def verdict(self) -> Verdict | None:
        return self.judge.verdict

    @property
    def choice(self) -> int:
        return self.judge.choice

    @property
    def offer(self) -> Offer | None:
        return self.judge.offer

    def turn(self) -> RollReader | None:
        """The recognition context of the roll being played (None outside the play phase)."""
        return self.judge.turn(self.session)

    @property
    def learner(self) -> bool:
        """Teaching mode: no hint before the play unless asked, every play graded."""
        return self.settings.teach == "learner"

    def _new_turn(self, state: MatchState) -> None:
        assert state.dice is not None
        self.hint_text = None
        if not state.playing.hints:  # no engine knows this game (the registry says): say so, show no hint
            self.hint_text = f"no engine knows {state.playing.title}"
            return
        if not self.learner:  # a learner sees the hint only when asking for it
            self._ask_hint(state)

    def _ask_hint(self, state: MatchState) -> None:
        assert state.dice is not None
        # ``hint`` answers at once (a str) or starts a request whose answer comes as HintReady
        self.hint_text = self.hint(state.position, state.dice) if self.hint is not None else None

    def _on_lesson(self, event: LessonReady) -> None:
        self._learn(event.player, event.lesson)

    def _learn(self, player: int, lesson: Lesson | None) -> None:
        if lesson is None:
            return
        self.lessons.append(lesson)
        self.lesson, self.lesson_player = lesson, player

    def show_analysis(self, text: tuple[str, ...], actions: int) -> None:
        """The app's hint worker analysed the match of ``actions`` actions: the match-end
        screen shows ``text`` (both players' PR and error rate, longest form first) while
        the match is still that one."""
        self.analysis = (tuple(text), actions)
        self._refresh()

    def mark_result(self, sent: bool | None) -> None:
        """The club link says whether this match's result reached the event (True), is
        still being sent (False), or that the match is no club match (None); the match-end
        screen shows it."""
        self.result_sent = sent
        self._refresh()

    def tell(self, notice: Notice | None) -> None:
        """Show ``notice`` now (the club seat: a result to confirm, control/confirm.py)."""
        self.notice = notice
        self._refresh()

    def _on_hint(self, event: HintReady) -> None:
        state = self.state
        if state is not None and state.phase == Phase.PLAY and (state.position, state.dice) == (event.position, event.dice):
            self.hint_text = event.text  # else the roll it was for is over: too late

    def new_match(self, settings: Settings, at_ms: int) -> None:
        """Start a new match at this board under ``settings`` (a club director's assignment:
        names, length, rules, clock), whatever the board was doing; the old match stays in
        the journal before the new one."""
        self.now_ms = at_ms
        self.session.settings = settings
        self.judge.settled()
        self.notice = None
        self._refused(self.session.new_match(at_ms))
        self._refresh()

    # ------------------------------------------------------------------ the one entry point
    def handle(self, event: Event) -> None:
        """Act on one event (its one handler), then refresh the display; an event of a kind
        this room has no handler for (the other side's answer in a match of two people at
        the board) changes nothing (:class:`~bgboard.control.rooms.Room`)."""
        self.now_ms = event.at_ms
        handler = self.handlers.get(type(event))
        if handler is not None:
            handler(event)
        self._refresh()

    # ------------------------------------------------------------------ actions
    def _act(self, action: Action, at_ms: int) -> bool:
        """Check ``action`` against the match, journal it, then let it take effect.
        A refused action becomes a notice (one sentence) and changes nothing."""
        refused = self.session.act(action, at_ms)
        if refused is not None:
            self.notice = Notice(refused, WARNING)
            return False
        self.judge.settled()
        self.notice = None
        return True

    def _refused(self, refused: str | None) -> None:
        if refused is not None:
            self.notice = Notice(refused, WARNING)

    # ------------------------------------------------------------------ handlers
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

    def _on_dice(self, event: DiceRolled) -> None:
        state = self.state
        self.send(SetRolling(False))
        if state is None or self.over:
            return
        if state.phase == Phase.OPENING:
            if self._act(OpeningRoll(event.dice), event.at_ms):
                state = self.state
                assert state is not None
                if state.phase == Phase.OPENING:
                    self.notice = Notice(Phrase("both rolled %(die)d: roll again", die=event.dice[0]))
                elif state.turn is not None:
                    self.session.clock_to(state.turn, event.at_ms)
                    self.turn()
        elif state.phase == Phase.TURN:
            if self._act(Roll(event.dice), event.at_ms):
                self.turn()  # build the recognition context now, before the first reading
        else:
            self.notice = Notice(Phrase("it is not time to roll: these dice do not count"), WARNING)

    def _on_button(self, event: ButtonPressed) -> None:
        state = self.state
        if state is None:
            return
        if self.over:
            if event.button == Button.ROLL:  # a new match at the same board
                self.judge.settled()
                self.notice = None
                self._refused(self.session.new_match(event.at_ms))
            return
        player, button, at = event.player, Button(event.button), event.at_ms
        phase = state.phase
        if self.resigning is not None and player == self.resigning[0]:
            self._choose_resignation(button, at)
            return
        if phase == Phase.RESIGNED:
            self._answer_resignation(player, button, at)
            return
        if button == Button.DROP and phase in (Phase.TURN, Phase.PLAY) and player == state.turn:
            self.resigning = (player, 1)
            self.notice = self._resign_notice()
            return
        if button == Button.ROLL and phase == Phase.DOUBLED and player == state.decider and state.rules.beavers:
            if self._act(Beaver(player=player), at):
                self._cube_lesson(player, state, "take")
                self.session.clock_to(1 - player, at)
            return
        if button == Button.ROLL:
            if phase == Phase.OPENING or (phase == Phase.TURN and player == state.turn):
                if phase == Phase.TURN and state.may_double:
                    self._cube_lesson(player, state, "no double")
                self.send(SetRolling(True))
                # source: dice = "dobbelstenen" seeds/000, "Würfel" seeds/004, "terningene" seeds/001
                self.notice = Notice(Phrase("roll the dice"))
            elif phase == Phase.PLAY and player == state.turn:
                self._done(at)
            elif phase == Phase.PLAY and self.judge.offer is not None:
                self._accept_offer(at)
            elif phase == Phase.GAME_OVER:
                self._next_game(at)
            else:
                self.notice = Notice(Phrase("it is not your turn"), WARNING)
        elif button == Button.DOUBLE:
            if phase == Phase.TURN and player == state.turn:
                if self._act(Double(player=player), at):
                    self._cube_lesson(player, state, "double")
                    self.session.clock_to(1 - player, at)
            elif phase == Phase.DOUBLED and player == state.decider:
                if self._act(Take(player=player), at):
                    self._cube_lesson(player, state, "take")
                    self.session.clock_to(1 - player, at)
            elif phase == Phase.PLAY and player == state.turn and self.judge.next_reading():
                pass
            elif phase == Phase.PLAY and player == state.turn and self.learner and self.hint is not None:
                self._ask_hint(state)  # the learner asks for the hint
            else:
                self.notice = Notice(Phrase("you cannot double now"), WARNING)
        else:  # Button.DROP
            if phase == Phase.DOUBLED and player == state.decider:
                if self._act(Drop(player=player), at):
                    self._cube_lesson(player, state, "pass")
                    self._after_game(at)
            else:
                self.notice = Notice(Phrase("there is no double to drop"), WARNING)

    def _done(self, at: int) -> None:
        decision = self.judge.done(self.session)
        if isinstance(decision, Notice):
            self.notice = decision
            return
        state = self.state
        assert state is not None
        mover = state.turn
        if self._act(decision, at):
            self._play_lesson(state, decision)
            self._after_play(mover, at)

    # ------------------------------------------------------------------ teaching
    def _play_lesson(self, before: MatchState, action: Action) -> None:
        """Grade the play just recorded (teaching mode)."""
        if not self.learner or self.grade is None or before.turn is None or before.dice is None:
            return
        now = self.state
        if not isinstance(action, (Move, Pass)) or now is None:
            return
        mover = before.turn
        after = Position(now.board[mover], now.board[1 - mover])  # the mover still "mine"
        self._learn(mover, self.grade(mover, before.position, before.dice, after, before))

    def _cube_lesson(self, player: int, before: MatchState, decision: str) -> None:
        """Grade a cube decision at the match score (teaching mode)."""
        if self.learner and self.grade_cube is not None:
            self._learn(player, self.grade_cube(player, before, decision))

    def _after_play(self, mover: int | None, at: int) -> None:
        state = self.state
        if state is not None and state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            self._after_game(at)
        else:
            self.session.clock_to(None if mover is None else 1 - mover, at)

    def _accept_offer(self, at: int) -> None:
        """The opponent pressed roll: the offered play is condoned and the opponent rolls."""
        offer = self.judge.offer
        assert offer is not None and self.state is not None
        if not self.judge.offer_stands():
            self.judge.offer = None
            self.notice = Notice(Phrase("the board changed: the play was not accepted"), WARNING)
            return
        mover = self.state.turn
        if not self._act(offer.action, at):
            return
        if self.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            self._after_game(at)
            self.notice = Notice(Phrase("illegal play condoned: the game is over"))
            return
        self.session.clock_to(None if mover is None else 1 - mover, at)
        self.send(SetRolling(True))
        self.notice = Notice(Phrase("illegal play condoned: roll the dice"), INFO, Phrase("condoned: roll"))

    def _after_game(self, at: int) -> None:
        self.session.clock_to(None, at)
        self.send(SetLeds(()))

    def _setup_notice(self) -> Notice | None:
        """What to put where before a game, or None when the board is set up (or unread)."""
        if self.observation is None:
            return None
        fixes = differences(self.observation, self.session.start_counts())
        own = Numbering(self.settings.numbering) == Numbering.OWN  # each player's own numbers
        text = setup_message(fixes, own, self.session.next_variant())
        return Notice(text, WARNING, Phrase("set up the board"), Topic.SETUP) if fixes else None

    def _next_game(self, at: int) -> None:
        setup = self._setup_notice()
        if setup is not None:
            self.notice = setup
            return
        self._act(NextGame(), at)

    def _on_link(self, event: LinkChanged) -> None:
        self.link_up = event.up
        short = "board connected" if event.up else "board not connected"
        self.notice = Notice(event.text, INFO if event.up else ERROR, short)
        if not event.up:
            self.judge.observation = None
            self.judge.verdict = None

    def _on_fault(self, event: BoardFault) -> None:
        self.notice = Notice(event.text, ERROR, topic=Topic.SENSOR if event.sensor else Topic.GENERAL)

    def _on_tick(self, event: Tick) -> None:
        self.session.check_time(event.at_ms)

    # ------------------------------------------------------------------ what the display shows
    @property
    def words(self) -> Words:
        """Texts for the player on roll in the players' numbering."""
        state = self.state
        return Words(state.turn if state is not None else None, Numbering(self.settings.numbering))

    def message(self) -> Notice | None:
        """What the display says now."""
        if self.notice is not None and self.notice.topic == Topic.RESULT:
            return self.notice  # a club result the players are asked to confirm
        if self.forfeit is not None:
            names = self.state.players if self.state else ("White", "Black")
            return Notice(Phrase("%(loser)s ran out of time: %(who)s wins the match", loser=names[self.forfeit],
                                 who=names[1 - self.forfeit]), ERROR)
        state = self.state
        if self.notice is not None:
            if self.notice.topic == Topic.SETUP and state is not None and state.phase in (Phase.OPENING, Phase.GAME_OVER):
                return self._setup_notice()  # what is still wrong on the board, as it is now
            return self.notice
        if not self.link_up:
            return Notice(Phrase("the board is not connected"), ERROR)
        state = self.state
        if state is None:
            return None
        if state.phase == Phase.PLAY:
            said = self.judge.message()
            if said is not None:
                return said
        if state.phase == Phase.OPENING:
            # (after a game the end screen stays until a player asks for the next game:
            # then the set-up guidance shows what to put where)
            return self._setup_notice()
        return None

    def view(self) -> View | None:
        """A frozen view of what the display shows now (None before the match could start)."""
        if self.state is None:
            return None
        return View(
            state=self.state,
            now_ms=self.now_ms,
            notice=self.message(),
            clock=self.clock,
            forfeit=self.forfeit,
            hint=self.words.own(self.hint_text) if self.hint_text else None,
            observation=self.observation,
            start=self.session.start_counts(),
            slots=self.settings.slots,
            put_back=self.judge.put_back() if self.state.phase == Phase.PLAY else (),
            lesson=self._lesson_text(),
            sent=self.result_sent,
            analysis=self.analysis[0] if self.analysis[1] == len(self.actions) else (),
            beavers=self.state.rules.beavers,
            variant=variant_notes(self.state),
        )

    def display(self) -> DisplayState | None:
        """What the display shows now: the :meth:`view` drawn (None before the match could
        start)."""
        view = self.view()
        return display_state(view) if view is not None else None

    def _lesson_text(self) -> tuple[str, ...]:
        """The lesson shown now, in its player's numbering (with the player's name); at the
        match's end, the session's report in short."""
        if self.over and self.summarise is not None and self.lessons:
            return self.summarise(self.lessons)
        if self.lesson is None or self.state is None:
            return ()
        words = Words(self.lesson_player, Numbering(self.settings.numbering))
        name = self.state.players[self.lesson_player] if self.lesson_player is not None else ""
        forms = tuple(words.own(t) for t in self.lesson.text)
        return tuple(f"{name}: {t}" for t in forms[:1]) + forms if name else forms

    def _refresh(self) -> None:
        shown = self.display()
        if shown is not None:
            self.show(shown)
