"""The match room's hints and lessons (pure; teaching, ``Settings.teach``): part of the match
room (:class:`~bgboard.control.controller.Controller` owns one).

The hint of each roll is asked of the injected ``hint`` (an answer at once, or later as a
``HintReady`` event) — unless no engine knows the game (the registry says), or the mover is a
learner, who sees it only when asking (**double**).  In learner mode each completed play is
graded by ``grade`` and each cube decision by ``grade_cube`` (a lesson at once, or later as a
``LessonReady`` event); the lesson shows until the next, and at the match's end ``summarise``
says the session's report in short.  The side played from elsewhere (``away``: the engine's,
the other board's) gets no hint and no lesson.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bgboard.control.events import HintReady
from bgboard.control.numbering import Numbering, Words
from bgboard.match import Action, Move, Pass
from bgboard.match.state import MatchState, Phase
from bgboard.rules.position import Position

if TYPE_CHECKING:
    from bgboard.hints.lesson import CubeLesson, Lesson, PlayLesson

__all__ = ["Coach", "CubeGrader", "Grader", "Hinter", "Summariser"]

#: ``hint(position, dice)``: the hint now, or None (it comes as HintReady).
Hinter = Callable[[Position, tuple[int, int]], "str | None"]
#: ``grade(player, before, dice, after, state)``: a lesson now, or None (it comes as LessonReady).
Grader = Callable[[int, Position, tuple[int, int], Position, MatchState], "PlayLesson | None"]
#: ``grade_cube(player, state_before, decision)``: a lesson of a cube decision, or None.
CubeGrader = Callable[[int, MatchState, str], "CubeLesson | None"]
#: ``summarise(lessons)``: the learner report in short, shown at the match's end.
Summariser = Callable[["list[Lesson]"], tuple[str, ...]]


class Coach:
    """Hints and lessons of one match (see the module docstring); ``learner`` says whether
    the match is played in learner mode now (the settings may change with a new match)."""

    def __init__(self, learner: Callable[[], bool], hint: Hinter | None = None, grade: Grader | None = None,
                 grade_cube: CubeGrader | None = None, summarise: Summariser | None = None) -> None:
        self.learner = learner
        self.hint = hint
        self.grade = grade
        self.grade_cube = grade_cube
        self.summarise = summarise
        self.away: int | None = None  # the side played from elsewhere (no hints, no lessons)
        self.hint_text: str | None = None
        self.lessons: list[Lesson] = []  # every lesson of this session, oldest first
        self.lesson: Lesson | None = None  # the lesson shown now (its player is lesson_player)
        self.lesson_player: int | None = None

    def new_turn(self, state: MatchState) -> None:
        """A roll is to be played: its hint, unless the mover plays from elsewhere or is a learner."""
        assert state.dice is not None
        self.hint_text = None
        if state.turn == self.away:  # no hint for the other side's roll
            return
        if not state.playing.hints:  # no engine knows this game (the registry says): say so, show no hint
            self.hint_text = f"no engine knows {state.playing.title}"
            return
        if not self.learner():  # a learner sees the hint only when asking for it
            self.ask_hint(state)

    @property
    def hints_on_request(self) -> bool:
        """A learner may ask for the hint (**double** while playing)."""
        return self.learner() and self.hint is not None

    def ask_hint(self, state: MatchState) -> None:
        assert state.dice is not None
        # ``hint`` answers at once (a str) or starts a request whose answer comes as HintReady
        self.hint_text = self.hint(state.position, state.dice) if self.hint is not None else None

    def hint_ready(self, event: HintReady, state: MatchState | None) -> None:
        """The hint asked earlier, if the roll it was for is still being played."""
        if state is not None and state.phase == Phase.PLAY and (state.position, state.dice) == (event.position, event.dice):
            self.hint_text = event.text  # else the roll it was for is over: too late

    def learn(self, player: int, lesson: Lesson | None) -> None:
        if lesson is None:
            return
        self.lessons.append(lesson)
        self.lesson, self.lesson_player = lesson, player

    def play_lesson(self, before: MatchState, action: Action, now: MatchState | None) -> None:
        """Grade the play just recorded (``now``: the match after it)."""
        if not self.learner() or self.grade is None or before.turn is None or before.dice is None:
            return
        if before.turn == self.away or not isinstance(action, (Move, Pass)) or now is None:
            return
        mover = before.turn
        after = Position(now.board[mover], now.board[1 - mover])  # the mover still "mine"
        self.learn(mover, self.grade(mover, before.position, before.dice, after, before))

    def cube_lesson(self, player: int, before: MatchState, decision: str) -> None:
        """Grade a cube decision at the match score."""
        if self.learner() and self.grade_cube is not None and player != self.away:
            self.learn(player, self.grade_cube(player, before, decision))

    def text(self, over: bool, state: MatchState, numbering: Numbering) -> tuple[str, ...]:
        """The lesson shown now, in its player's numbering (with the player's name); at the
        match's end, the session's report in short."""
        if over and self.summarise is not None and self.lessons:
            return self.summarise(self.lessons)
        if self.lesson is None:
            return ()
        words = Words(self.lesson_player, numbering)
        name = state.players[self.lesson_player] if self.lesson_player is not None else ""
        forms = tuple(words.own(t) for t in self.lesson.text)
        return tuple(f"{name}: {t}" for t in forms[:1]) + forms if name else forms
