"""The practice room (pure): a grade that comes later as a LessonReady event (the real
board grades on its hint worker), the set-up guidance's LEDs, the link and faults shown, and
the session in short after the last drill."""

from __future__ import annotations

import pytest

from bgboard.control.events import ROLL, BoardFault, BoardRead, ButtonPressed, DiceRolled, LessonReady, LinkChanged
from bgboard.control.judge import BLUE, GREEN, RED
from bgboard.control.practice_room import PracticeRoom
from bgboard.hints.drills import DrillResult, drill_from_position_id
from bgboard.hints.lesson import PlayLesson
from bgboard.link.messages import SetLeds
from bgboard.rules import legal_plays
from bgboard.sense.places import WHITE, Observation, board_of
from bgboard.sense.recognise import setup_fixes

OPENING = drill_from_position_id("4HPwATDgc/ABMA", "31", name="Opening 3-1")
EMPTY = Observation.of_board((0,) * 28)


def _room(asked: list, **kw) -> tuple[PracticeRoom, list, list]:
    sent: list = []
    shown: list = []
    room = PracticeRoom([OPENING, OPENING], grade=lambda *a: asked.append(a), send=sent.append, show=shown.append,
                        summarise=lambda lessons: (f"{len(lessons)} lessons",), **kw)
    return room, sent, shown


def _played() -> Observation:
    play = next(p for p in legal_plays(OPENING.position, (3, 1)) if p.notation == "8/5 6/5")
    return Observation.of_board(board_of(play.position, WHITE))


def test_the_set_up_guidance_lights_the_places_to_change_and_a_play_lights_as_in_a_match() -> None:
    room, sent, shown = _room([])
    room.handle(BoardRead(EMPTY, 1))
    leds = [m for m in sent if isinstance(m, SetLeds)][-1].leds
    fixes = setup_fixes(EMPTY, OPENING.position)
    assert {led.index for led in leds} == {f.place - 1 for f in fixes} and {led.rgb for led in leds} == {RED}
    assert shown[-1].phase == "setup" and shown[-1].diagram is not None
    start = Observation.of_board(board_of(OPENING.position, WHITE))
    room.handle(BoardRead(start, 2))
    assert [m for m in sent if isinstance(m, SetLeds)][-1].leds == ()  # laid out: dark
    room.handle(ButtonPressed(0, ROLL, 3))
    room.handle(DiceRolled((6, 6), 1, 4))  # a fixed drill keeps its roll
    assert room.dice == (3, 1)
    lifted = list(board_of(OPENING.position, WHITE))
    lifted[8 - 1] -= 1  # a checker lifted from the 8-point
    room.handle(BoardRead(Observation.of_board(lifted), 5))
    lit = {led.rgb: set() for led in [m for m in sent if isinstance(m, SetLeds)][-1].leds}
    for led in [m for m in sent if isinstance(m, SetLeds)][-1].leds:
        lit[led.rgb].add(led.index + 1)
    assert lit[BLUE] == {8} and {5, 7} <= lit[GREEN]
    before = len(sent)
    room.handle(BoardRead(Observation.of_board(lifted), 6))  # the same reading: nothing sent again
    assert len(sent) == before


def test_a_grade_that_comes_later_is_shown_and_recorded_and_the_end_shows_the_session() -> None:
    asked: list = []
    room, _, shown = _room(asked)
    start = Observation.of_board(board_of(OPENING.position, WHITE))
    for drill in range(2):
        room.handle(BoardRead(start, 10 * drill + 1))
        room.handle(ButtonPressed(0, ROLL, 10 * drill + 2))
        room.handle(DiceRolled((3, 1), 1, 10 * drill + 3))
        room.handle(BoardRead(_played(), 10 * drill + 4))
        room.handle(ButtonPressed(0, ROLL, 10 * drill + 5))  # done: the grade is asked for...
        assert len(asked) == drill + 1 and room.phase == "graded"
        assert room.results[-1]["lesson"] is None and shown[-1].title[-1] == "Grading..." and shown[-1].lesson == ()
        lesson = PlayLesson(0, "4HPwATDgc/ABMA", "31", "8/5 6/5", "8/5 6/5", 0.0, "good")
        room.handle(LessonReady(0, lesson, 10 * drill + 6))  # ...and comes later
        assert room.results[-1]["lesson"] == lesson.record() and room.outcomes[-1].lesson == lesson.record()
        assert shown[-1].lesson == lesson.text and shown[-1].title[-1] == "Roll: next drill"
        room.handle(ButtonPressed(0, ROLL, 10 * drill + 7))
    assert room.over and shown[-1].title[0] == "All drills done" and shown[-1].lesson == ("2 lessons",)


def test_a_lost_link_and_a_board_fault_are_shown() -> None:
    room, _, shown = _room([])
    room.handle(BoardRead(EMPTY, 1))
    room.handle(LinkChanged(False, "the board is not connected", 2))
    assert not room.link_up and room.observation is None
    assert shown[-1].message == ("the board is not connected",) and shown[-1].severity == "error"
    room.handle(BoardFault("point 7 flickers", 3))
    assert shown[-1].message == ("point 7 flickers",) and shown[-1].severity == "error"
    assert room.state is None and room.actions == []  # what the App asks of a match: none here


def test_the_progress_of_another_drill_set_or_a_damaged_one_starts_from_the_first_drill(tmp_path) -> None:
    """The progress kept in real SQLite beside the journal is read back only for the same
    drill set; anything else leaves the room at drill 1."""
    from bgboard.hints.drills import select_drills
    from bgboard.hints.lesson import PlayLesson, lesson_body, lesson_from_body
    from bgboard.store import Progress

    lesson = PlayLesson(0, "4HPwATDgc/ABMA", "31", "8/5 6/5", "8/5 6/5", 0.0, "good", None, "gnubg-nn")
    assert lesson_from_body(lesson_body(lesson)) == lesson
    three = select_drills(("Opening 3-1", "Opening 4-2", "Enter two checkers"))
    room = PracticeRoom(three, grade=lambda *a: lesson)
    room.index, room.phase, room.lessons = 1, "graded", [lesson]
    room.outcomes = [DrillResult("Opening 3-1", "opening", "31", lesson.record())]
    store = Progress(tmp_path / "practice.sqlite")
    store.save(room.progress(lesson_body))
    store.close()
    body = Progress(tmp_path / "practice.sqlite").load()
    assert body is not None and body["next"] == 2
    again = PracticeRoom(three, grade=lambda *a: None)
    assert again.resume(body, lesson_from_body) == [lesson] and again.index == 2 and again.phase == "setup"
    other = PracticeRoom(three[:2], grade=lambda *a: None)
    assert other.resume(body, lesson_from_body) is None and other.index == 0
    for damaged in ({**body, "next": 7}, {**body, "lessons": [{"kind": "chess"}]}, {"next": 1}):
        fresh = PracticeRoom(three, grade=lambda *a: None)
        assert fresh.resume(damaged, lesson_from_body) is None and fresh.index == 0 and fresh.lessons == []


def test_a_progress_file_that_is_no_database_is_one_sentence(tmp_path) -> None:
    from bgboard.errors import InputError
    from bgboard.store import Progress

    damaged = tmp_path / "practice.sqlite"
    damaged.write_bytes(b"not a database " * 20)
    with pytest.raises(InputError, match=r"practice.sqlite cannot hold the practice progress .*move it aside"):
        Progress(damaged)


def test_a_drills_result_is_its_json_object_and_back_and_junk_in_a_kept_progress_is_left_out() -> None:
    """The results the room keeps are ``DrillResult`` values; the progress beside the journal
    and ``bgboard sim --json`` hold their JSON objects, read back as they were written."""
    graded = DrillResult("Opening 3-1", "opening", "31", {"play": "8/5 6/5", "grade": "good"})
    skipped = DrillResult("Enter two checkers", "bar", skipped=True)
    assert graded.record() == {"drill": "Opening 3-1", "kind": "opening", "dice": "31",
                               "lesson": {"play": "8/5 6/5", "grade": "good"}}
    assert skipped.record() == {"drill": "Enter two checkers", "kind": "bar", "skipped": True}
    for result in (graded, skipped, DrillResult("Opening 4-2", "opening", "42")):
        assert DrillResult.from_record(result.record()) == result
    for junk in (None, [], "x", {"drill": 3, "kind": "opening"}, {"drill": "d", "kind": "k", "dice": 31},
                 {"drill": "d", "kind": "k", "dice": "31", "lesson": "good"}):
        assert DrillResult.from_record(junk) is None
    three = [OPENING, OPENING, OPENING]
    room = PracticeRoom(three, grade=lambda *a: None)
    body = {"drills": room.progress(lambda lesson: {})["drills"], "next": 1, "lessons": [], "results": [graded.record(), "junk", {"drill": 1}]}
    assert room.resume(body, lambda x: x) == [] and room.outcomes == [graded] and room.results == [graded.record()]
