"""Practice drills at the board (teaching mode ``practice``): lay the drill's position out
with the set-up guidance, (for a cube drill: double or not), roll, play, see the grade,
and on to the next drill.  Pure: events in, board messages and display states out.

The learner plays white (player 0, the bottom of the set-up diagram); each drill's position
has the learner on roll.  Drills are :class:`bgboard.hints.drills.Drill` values, and how each
went a :class:`~bgboard.hints.drills.DrillResult`.  Buttons (the
learner's): **roll** — roll when the board is laid out, *done* after the play, the next
drill after the grade; on a cube drill **double** doubles and **roll** rolls without
doubling; **drop** skips the drill.  Grading is injected (``grade``/``grade_cube``: the
lessons of :mod:`bgboard.hints.lesson`, ``Lesson``): a grader answers at once with the lesson, or with
None and the lesson comes later as a :class:`LessonReady` event (the real board grades on
its hint worker, ``bgboard.app``); until then the display says the play is being graded.
After the last drill the display shows the session in short (``summarise``: the learner
report's lines, of every lesson).  It is a :class:`~bgboard.control.rooms.Room`:
``handle``, ``display``, ``over`` after the last drill, ``actions`` (none: a drill is no
match) and ``state`` (None); a lost link or a board fault is shown as the controller shows it.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

from bgboard.language import Phrase
from bgboard.control.events import BoardFault, BoardRead, Button, ButtonPressed, DiceRolled, Event, LessonReady, LinkChanged
from bgboard.control.judge import RED, verdict_leds
from bgboard.control.numbering import Numbering, Words
from bgboard.control.presenter import diagram_of
from bgboard.control.other_side import OtherSide
from bgboard.display.display_state import DisplayPhase, DisplayState, Severity
from bgboard.hints.drills import Drill, DrillResult
from bgboard.hints.lesson import CubeLesson, Lesson, PlayLesson
from bgboard.link.messages import HostMessage, Led, SetLeds, SetRolling
from bgboard.match import Action
from bgboard.rules.board import Board
from bgboard.rules.games import GAMES
from bgboard.rules.position import Position
from bgboard.sense.places import Fix, Observation, Slots, describe_fixes, setup_guidance
from bgboard.sense.recognise import Ambiguous, Illegal, Played, Unchanged, Verdict, setup_fixes
from bgboard.sense.roll import RollReading

__all__ = ["LEARNER", "PracticeRoom", "ProgressBody"]

LEARNER = 0  # the learner plays white

#: ``grade(player, before, dice, after, drill)`` and ``grade_cube(player, drill, decision)``:
#: the lesson now, or None (it comes later as a LessonReady event).
PlayGrader = Callable[[int, Position, tuple[int, int], Position, Drill], PlayLesson | None]
CubeGrader = Callable[[int, Drill, str], CubeLesson | None]
#: The practice progress as the store beside the journal keeps it (a JSON object).
ProgressBody = dict[str, object]


def _drill_set(drills: Sequence[Drill]) -> list[str]:
    """The drill set, as the progress names it (a Position ID's drill by its dice too)."""
    return [d.name if d.dice is None else f"{d.name} {d.dice[0]}{d.dice[1]}" for d in drills]


class PracticeRoom:
    """The drills, one after another (see the module docstring)."""

    def __init__(
        self,
        drills: Sequence[Drill],
        *,
        grade: PlayGrader,
        grade_cube: CubeGrader | None = None,
        send: Callable[[HostMessage], None] = lambda message: None,
        show: Callable[[DisplayState], None] = lambda state: None,
        slots: Slots = Slots(),
        numbering: Numbering = Numbering.OWN,
        names: tuple[str, str] = ("You", "Drill"),
        summarise: Callable[[list[Lesson]], tuple[str, ...]] | None = None,
    ) -> None:
        if not drills:
            raise ValueError("no drills to practise")
        self.drills = tuple(drills)
        self.grade = grade
        self.grade_cube = grade_cube
        self.send = send
        self.show = show
        self.slots = slots
        self.words = Words(LEARNER, numbering)
        self.names = names
        self.index = 0
        self.phase = "setup"  # setup, cube, rolling, moving, graded, done
        self.observation: Observation | None = None
        self.dice: tuple[int, int] | None = None
        self.turn_: RollReading | None = None
        self.verdict: Verdict | None = None
        self.lesson: Lesson | None = None
        self.lessons: list[Lesson] = []
        self.outcomes: list[DrillResult] = []
        self.notice: tuple[str, Severity] | None = None
        self.now_ms = 0
        self.summarise = summarise
        self.awaiting: list[int] = []  # results whose play lesson is still being graded
        self.link_up = True
        self.actions: list[Action] = []  # drills are no match: nothing for the records
        self.leds: tuple[Led, ...] | None = None  # what the LEDs show (sent when it changes)

    @property
    def state(self) -> None:
        """No match state (the App logs and records a match's; a drill has none)."""
        return None

    # ------------------------------------------------------------------ state
    @property
    def results(self) -> list[dict[str, object]]:
        """How each drill went so far, as JSON objects (``bgboard sim --practice --json``)."""
        return [r.record() for r in self.outcomes]

    @property
    def drill(self) -> Drill:
        return self.drills[min(self.index, len(self.drills) - 1)]

    @property
    def over(self) -> bool:
        return self.phase == "done"

    def other_side(self) -> OtherSide | None:
        """Drills play no match: no other side."""
        return None

    def match_room(self) -> None:
        return None  # drills play no match

    def follow(self) -> None:
        """No seats beside the drills."""

    def fixes(self) -> tuple[Fix, ...]:
        """What still differs from the drill's layout (nothing when the board is unread)."""
        if self.observation is None:
            return ()
        return setup_fixes(self.observation, self.drill.position, self.slots)

    # ------------------------------------------------------------------ progress
    def progress(self, encode: Callable[[Lesson], dict[str, object]]) -> ProgressBody:
        """Where the learner is, for the store beside the journal (``encode`` turns a lesson
        into JSON): the drill set, the next drill to lay out (a graded drill counts as done),
        the results and the lessons so far.  A drill under way starts again from its set-up."""
        return {"drills": _drill_set(self.drills),
                "next": self.index + (1 if self.phase == "graded" else 0),
                "results": self.results, "lessons": [encode(x) for x in self.lessons]}

    def resume(self, body: ProgressBody, decode: Callable[[object], Lesson]) -> list[Lesson] | None:
        """Go back to the :meth:`progress` ``body`` (``decode`` reads a lesson back): the
        lessons restored, or None when ``body`` is of another drill set, finished, or not
        a progress (the drills start from the first)."""
        try:
            if body.get("drills") != _drill_set(self.drills):
                return None
            index, results = body["next"], body["results"]
            if not isinstance(index, int) or not 0 < index < len(self.drills) or not isinstance(results, list):
                return None
            kept = body["lessons"]
            if not isinstance(kept, list):
                return None
            lessons = [decode(x) for x in kept]  # (a list read from JSON)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        self.index, self.phase = index, "setup"
        self.outcomes = [r for r in map(DrillResult.from_record, results) if r is not None]
        self.lessons = lessons
        self.lesson = lessons[-1] if lessons else None
        return lessons

    # ------------------------------------------------------------------ events
    def handle(self, event: Event) -> None:
        self.now_ms = event.at_ms
        if isinstance(event, BoardRead):
            self._on_board(event.observation)
        elif isinstance(event, DiceRolled):
            self._on_dice(event.dice)
        elif isinstance(event, ButtonPressed):
            self._on_button(event.player, Button(event.button))
        elif isinstance(event, LessonReady):
            self._on_lesson(event.lesson)
        elif isinstance(event, LinkChanged):
            self.link_up = event.up
            self.notice = (event.text, Severity.INFO if event.up else Severity.ERROR)
            if not event.up:
                self.observation = None
        elif isinstance(event, BoardFault):
            self.notice = (event.text, Severity.ERROR)
        self._refresh()

    def _on_lesson(self, lesson: Lesson) -> None:
        """A lesson graded later (on the board's hint worker)."""
        self._learn(lesson)
        if isinstance(lesson, PlayLesson) and self.awaiting:  # a play's, not a cube decision's
            at = self.awaiting.pop(0)
            self.outcomes[at] = self.outcomes[at].graded(lesson.record())

    def _on_board(self, observation: Observation) -> None:
        self.observation = observation
        if self.phase == "moving" and self.turn_ is not None:
            self.verdict = self.turn_.recognise(observation)
            self.notice = None

    def _on_dice(self, dice: tuple[int, int]) -> None:
        self.send(SetRolling(False))
        if self.phase != "rolling":
            self.notice = ("it is not time to roll: these dice do not count", Severity.WARNING)
            return
        drill = self.drill
        rolled = drill.dice if drill.dice is not None else dice  # a fixed drill keeps its roll
        self.dice = rolled
        self.turn_ = RollReading(GAMES["standard"], Board.of(drill.position), LEARNER, rolled, slots=self.slots)
        self.verdict = self.turn_.recognise(self.observation) if self.observation is not None else None
        self.phase = "moving"
        self.notice = None

    def _on_button(self, player: int, button: Button) -> None:
        if player != LEARNER or self.over:
            return
        if button == Button.DROP and self.phase != "graded":
            self._next(skipped=True)
            return
        if self.phase == "setup":
            if self.observation is not None and not self.fixes():
                self.phase = "cube" if self.drill.kind == "cube" else "rolling"
                self.notice = None
                if self.phase == "rolling":
                    self.send(SetRolling(True))
            else:
                self.notice = ("lay the drill out first", Severity.WARNING)
        elif self.phase == "cube":
            decision = "double" if button == Button.DOUBLE else "no double"
            if self.grade_cube is not None:
                self._learn(self.grade_cube(LEARNER, self.drill, decision))
            self.phase = "rolling"
            self.send(SetRolling(True))
        elif self.phase == "rolling" and button == Button.ROLL:
            self.send(SetRolling(True))
        elif self.phase == "moving" and button == Button.ROLL:
            self._done()
        elif self.phase == "moving" and button == Button.DOUBLE and isinstance(self.verdict, Ambiguous):
            pass  # the simulated and real learner show one reading; kept simple here
        elif self.phase == "graded" and button == Button.ROLL:
            self._next(skipped=False)

    def _done(self) -> None:
        verdict, drill = self.verdict, self.drill
        assert self.dice is not None
        if isinstance(verdict, Played):
            after = verdict.play.position
        elif isinstance(verdict, Ambiguous):
            after = verdict.plays[0].position
        elif isinstance(verdict, Unchanged) and verdict.no_play:
            after = drill.position  # no legal play
        elif isinstance(verdict, Illegal):
            w = self.words
            self.notice = (Phrase("%(reason)s: put back %(places)s", reason=w.own(verdict.reason),
                                  places=w.physical(describe_fixes(verdict.fixes))), Severity.ERROR)
            return
        else:
            self.notice = ("finish your play first", Severity.WARNING)
            return
        lesson = self.grade(LEARNER, drill.position, self.dice, after, drill)
        result = DrillResult(drill.name, drill.kind, f"{max(self.dice)}{min(self.dice)}")
        if lesson is None:
            self.outcomes.append(result)
            self.awaiting.append(len(self.outcomes) - 1)  # it comes as LessonReady
            self.lesson = None
        else:
            self._learn(lesson)
            self.outcomes.append(result.graded(lesson.record()))
        self.phase = "graded"
        self.send(SetLeds(()))

    def _learn(self, lesson: Lesson | None) -> None:
        if lesson is not None:
            self.lesson = lesson
            self.lessons.append(lesson)

    def _next(self, skipped: bool) -> None:
        if skipped:
            self.outcomes.append(DrillResult(self.drill.name, self.drill.kind, skipped=True))
        self.index += 1
        self.dice, self.turn_, self.verdict, self.notice = None, None, None, None
        self.send(SetRolling(False))
        self.phase = "done" if self.index >= len(self.drills) else "setup"

    # ------------------------------------------------------------------ display
    def display(self) -> DisplayState:
        """What the display shows now."""
        drill = self.drill
        number = f"Drill {min(self.index + 1, len(self.drills))}/{len(self.drills)}"
        lesson = tuple(self.words.own(t) for t in self.lesson.text) if self.lesson is not None else ()
        if self.phase == "done" and self.summarise is not None and self.lessons:
            lesson = self.summarise(self.lessons)
        pips = drill.position.pips()
        common = partial(DisplayState, names=self.names, match_length=0, score=(0, 0), pips=pips,
                         lesson=lesson if self.phase in ("graded", "done") else ())
        message: tuple[str, ...] = (self.notice[0],) if self.notice else ()
        severity = self.notice[1] if self.notice else Severity.INFO
        if self.phase == "done":
            return common(pips=None, phase=DisplayPhase.ROLLING, title=(Phrase("All drills done"), Phrase("Done")))
        if self.phase == "setup":
            fixes = self.fixes()
            diagram = diagram_of(self.observation, drill.position, self.slots) if self.observation else None
            guidance = setup_guidance(fixes, self.words.numbering == Numbering.OWN)
            text = (Phrase("%(number)s: %(drill)s. Lay out the board — %(guidance)s", number=number, drill=drill.name,
                           guidance=guidance) if fixes
                    else Phrase("%(number)s: %(drill)s. Press roll to start", number=number, drill=drill.name),
                    Phrase("%(number)s: set up, then roll", number=number))
            if diagram is not None and fixes:
                return common(phase=DisplayPhase.SETUP, diagram=diagram, message=message or text[:1],
                                    severity=Severity.WARNING, title=(Phrase("%(number)s: %(drill)s", number=number, drill=drill.name), number))
            return common(phase=DisplayPhase.ROLLING, turn=LEARNER, message=message,
                                severity=severity, title=text)
        if self.phase == "cube":
            if drill.away != (0, 0):
                question = Phrase("%(number)s: %(note)s at %(a)d-away %(b)d-away. Double (double) or roll?",
                                  number=number, note=drill.note, a=drill.away[0], b=drill.away[1])
            else:
                question = Phrase("%(number)s: %(note)s (money). Double (double) or roll?", number=number,
                                  note=drill.note)
            return common(phase=DisplayPhase.ROLLING, turn=LEARNER, cube=drill.cube,
                                title=(question, Phrase("%(number)s: double or roll?", number=number)))
        if self.phase == "rolling":
            return common(phase=DisplayPhase.ROLLING, turn=LEARNER, message=message,
                                severity=severity, title=(Phrase("%(number)s: %(note)s. Roll the dice", number=number,
                                                                 note=drill.note),
                                                          Phrase("%(number)s: roll", number=number)))
        if self.phase == "moving":
            assert self.dice is not None
            said = ()
            if isinstance(self.verdict, Played):
                said = (Phrase("%(play)s: press done", play=self.words.own(self.verdict.play.notation)),)
            return common(phase=DisplayPhase.MOVING, turn=LEARNER, dice=self.dice,
                                message=message or said, severity=severity)
        if self.awaiting and self.awaiting[-1] == len(self.outcomes) - 1:
            return common(phase=DisplayPhase.ROLLING, turn=LEARNER, message=message,
                                severity=severity,
                                title=(Phrase("%(number)s: grading your play (roll: next drill)", number=number),
                                       Phrase("Grading...")))
        return common(phase=DisplayPhase.ROLLING, turn=LEARNER, message=message, severity=severity,
                            title=(Phrase("%(number)s graded: press roll for the next drill", number=number),
                                   Phrase("Roll: next drill")))

    def lights(self) -> tuple[Led, ...]:
        """The LEDs now: while laying out, the places still to change (red); while playing,
        the lifted checker and its legal destinations, or what to put back (as in a match)."""
        if self.phase == "setup":
            return tuple(Led(f.place - 1, RED) for f in self.fixes())
        if self.phase == "moving":
            return verdict_leds(self.verdict)
        return ()

    def _refresh(self) -> None:
        leds = self.lights()
        if leds != self.leds:
            self.leds = leds
            self.send(SetLeds(leds))
        self.show(self.display())
