"""Teaching: grades as gnubg-nn's own numbers give them, measured reasons, cube grades,
the drill set (data) and the learner report."""

from __future__ import annotations

from html.parser import HTMLParser

import gnubg_nn  # required: the losses are checked against gnubg-nn itself
import pytest

from bgboard.hints.drills import DrillError, builtin_drills, drill_from_position_id, parse_drills
from bgboard.hints.hint_engine import CubeHint
from bgboard.hints.gnubg_engine import GnubgEngine, cubeless_equity
from bgboard.hints.lesson import CubeLesson, PlayLesson, grade_cube, grade_turn, shots, why
from bgboard.hints.learner_report import LearnerReport, report_html, short_report
from bgboard.rules import Position, legal_plays, position_from_id, position_id

START = position_from_id("4HPwATDgc/ABMA")
OPENINGS = [(a, b) for a in range(2, 7) for b in range(1, a)]


def _gnubg_equity(after: Position) -> float:
    """gnubg-nn's 0-ply cubeless equity of a resulting position for its mover, asked
    directly (the opponent is on roll: gnubg answers for them)."""
    board = after.swap().to_gnubg()
    return -cubeless_equity(gnubg_nn.probabilities([list(board[0]), list(board[1])], 0))


@pytest.fixture(scope="module")
def engine():
    return GnubgEngine()


@pytest.mark.parametrize("dice", OPENINGS)
def test_every_opening_play_loses_what_gnubg_nn_says(engine, dice):
    plays = legal_plays(START, dice)
    equities = {p.notation: _gnubg_equity(p.position) for p in plays}
    top = max(equities.values())
    for play in plays:
        lesson = grade_turn(engine, START, dice, play.position, player=0)
        assert lesson.position == "4HPwATDgc/ABMA" and lesson.dice == f"{dice[0]}{dice[1]}"
        assert lesson.play == play.notation
        assert lesson.loss == pytest.approx(top - equities[play.notation], abs=1e-9)
        assert equities[lesson.best] == top
        expected = ("very bad" if lesson.loss > 0.16 else "bad" if lesson.loss > 0.08
                    else "doubtful" if lesson.loss > 0.04 else "good")
        assert lesson.grade == expected
        assert (lesson.why is None) or lesson.mistake
        assert lesson.record() == {"player": 0, "position": "4HPwATDgc/ABMA", "dice": lesson.dice,
                                   "play": play.notation, "best": lesson.best,
                                   "loss": round(lesson.loss, 6), "grade": expected}


def test_a_lesson_counts_the_plays_of_its_roll_as_the_report_would(engine):
    from dataclasses import replace

    from bgboard.hints.learner_report import unforced

    for before, dice in ((START, (3, 1)), (START, (6, 6))):
        plays = legal_plays(before, dice)
        lesson = grade_turn(engine, before, dice, plays[0].position)
        assert lesson.choices == len(plays) > 1
        assert unforced(lesson) and unforced(replace(lesson, choices=0))  # counted again when not kept
    assert not unforced(replace(lesson, choices=1))


def test_a_mistake_says_why_from_the_numbers(engine):
    lesson = grade_turn(engine, START, (3, 1), legal_plays(START, (3, 1))[0].position)
    assert lesson.best == "8/5 6/5" and lesson.mistake
    assert lesson.why == "It does not make the 5-point, as 8/5 6/5 does."
    assert lesson.text[0].startswith(f"{lesson.play}: very bad, -{lesson.loss:.3f}; best 8/5 6/5. It does not")


def _blot_against_one(distance: int) -> Position:
    """My single blot on my point 13, one opposing checker ``distance``
    pips behind it (every other checker off, so nothing blocks)."""
    mine = [0] * 26
    theirs = [0] * 26
    mine[0], mine[13] = 14, 1
    theirs[0] = 14
    theirs[25 - 13 + distance] = 1  # their point from which my blot is `distance` away
    return Position(tuple(mine), tuple(theirs))


@pytest.mark.parametrize("distance,count", [(1, 11), (2, 12), (3, 14), (4, 15), (5, 15), (6, 17),
                                            (7, 6), (8, 6), (9, 5), (10, 3), (11, 2), (12, 3)])
def test_shots_are_the_classic_shot_table(distance, count):
    # the table every backgammon book prints for a blot and one hitter, no blocks
    assert shots(_blot_against_one(distance)) == count


def test_why_is_silent_when_no_measure_says_so():
    plays = legal_plays(START, (4, 3))
    a = next(p for p in plays if p.notation == "24/21 13/9")
    b = next(p for p in plays if p.notation == "24/20 13/10")
    # same points made and both leave blots; a says nothing unless b leaves fewer shots
    sentence = why(START, a.position, b.position, b.notation)
    assert sentence is None or "shots" in sentence
    if sentence:
        assert shots(a.position) > shots(b.position)


def test_cube_grades_follow_the_three_numbers():
    hint = CubeHint("bgsage", "double, take", True, no_double=0.40, double_take=0.55, double_pass=1.0)
    assert grade_cube(hint, "double").grade == "good"
    nd = grade_cube(hint, "no double")
    assert nd.best == "double" and nd.loss == pytest.approx(0.15) and nd.grade == "bad"
    assert grade_cube(hint, "take").grade == "good"
    dropped = grade_cube(hint, "pass")
    assert dropped.best == "take" and dropped.loss == pytest.approx(0.45) and dropped.grade == "very bad"
    mwc = CubeHint("gnubg-nn", "no double", True, 0.6, 0.55, 0.7, unit="match winning chance", equity_scale=None)
    lesson = grade_cube(mwc, "double")
    assert lesson.grade is None and lesson.loss == pytest.approx(0.05) and lesson.best == "no double"
    # the same numbers with gnubg's mwc2eq slope 2 / (0.7 - 0.3): 0.05 MWC is 0.25 equity
    scaled = grade_cube(CubeHint("gnubg-nn", "no double", True, 0.6, 0.55, 0.7, unit="match winning chance",
                                 equity_scale=5.0), "double")
    assert scaled.loss == pytest.approx(0.25) and scaled.grade == "very bad" and scaled.unit == "equity"
    with pytest.raises(ValueError):
        grade_cube(hint, "beaver")


def test_the_drill_set_is_data_with_every_opening_roll():
    drills = builtin_drills()
    openings = {d.dice for d in drills if d.kind == "opening"}
    assert openings == set(OPENINGS)
    assert {d.kind for d in drills} == {"opening", "bear-off", "bar", "cube"}
    for d in drills:
        assert position_id(d.position) == d.position_id
        assert not d.position.problems()
        if d.kind == "bar":
            assert d.position.mine[25] > 0
        if d.kind == "bear-off":
            assert d.position.mine[0] > 0 and all(n == 0 for n in d.position.mine[7:26])
        if d.dice is not None:
            assert legal_plays(d.position, d.dice)
    assert drill_from_position_id("4HPwATDgc/ABMA", "31").dice == (3, 1)


@pytest.mark.parametrize("text,words", [
    ("nothing = 1", "has no [[drill]] tables"),
    ("[[drill]]\nname='a'\nkind='opening'", "needs position"),
    ("[[drill]]\nname='a'\nkind='waltz'\nposition='4HPwATDgc/ABMA'", "kind must be one of"),
    ("[[drill]]\nname='a'\nkind='bar'\nposition='nope'", "drill 'a'"),
    ("[[drill]]\nname='a'\nkind='bar'\nposition='4HPwATDgc/ABMA'\ndice='71'", "dice must be two digits"),
    ("[[drill]]\nname='a'\nkind='cube'\nposition='4HPwATDgc/ABMA'\naway=[3, 0]", "away must be"),
    ("[[drill]]\nname='a'\nkind='bar'\nposition='4HPwATDgc/ABMA'\ncolour=1", "unknown field 'colour'"),
    ("[[drill", "not valid TOML"),
])
def test_a_bad_drill_file_is_one_sentence(text, words):
    with pytest.raises(DrillError) as err:
        parse_drills(text)
    assert words in str(err.value) and "\n" not in str(err.value)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[str, str] = {}
        self.tags: set[str] = set()
        self._open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        ident = dict(attrs).get("id")
        if ident:
            self._open.append(ident)
            self.ids.setdefault(ident, "")

    def handle_data(self, data):
        for ident in self._open:
            self.ids[ident] += data


def test_the_learner_report_counts_mistakes_and_shows_the_worst_three(engine):
    lessons: list[PlayLesson | CubeLesson] = []
    for dice in OPENINGS[:6]:
        for play in legal_plays(START, dice)[:3]:
            lessons.append(grade_turn(engine, START, dice, play.position, player=len(lessons) % 2))
    hint = CubeHint("bgsage", "double, take", True, no_double=0.40, double_take=0.55, double_pass=1.0)
    lessons.append(grade_cube(hint, "no double", player=0, position="4HPwATDgc/ABMA"))
    report = LearnerReport.of(lessons)
    plays = [x for x in lessons if isinstance(x, PlayLesson)]
    assert report.plays == len(plays) and report.cube_decisions == 1
    assert report.mistakes["cube"] == 1
    assert sum(report.mistakes[k] for k in ("doubtful", "bad", "very bad")) == sum(p.mistake for p in plays)
    assert [w.loss for w in report.worst] == sorted((p.loss for p in plays), reverse=True)[:3]
    page = _Page()
    page.feed(report_html(lessons, "Session <1>", names=("Ann <b>", "Ben")))
    assert "svg" in page.tags  # the chart, inline
    assert f"{report.plays} plays graded" in page.ids["summary"]
    for worst in report.worst:  # each in its learner's section
        section = page.ids[f"learner-{worst.player}"]
        assert worst.best in section and worst.position in section and f"lost {worst.loss:.3f}" in section
    assert "Ann <b>" in page.ids["learner-0"]  # escaped: text, not a tag
    assert short_report(report)[0].startswith(f"{report.plays} plays")
    if report.worst:  # the display's summary names the worst play and the best one
        w = report.worst[0]
        assert f"worst: {w.play} with {w.dice}, -{w.loss:.3f} (best {w.best})" in short_report(report)[0]


#: Match scores (my away, their away, cube, owner) at which the cube can be turned.
CUBE_SCORES = [(5, 7, 1, "centred"), (5, 3, 1, "centred"), (7, 7, 2, "mine"), (3, 1, 1, "centred"), (2, 4, 1, "centred")]


def _gnubg_nn_cube(pid: str, my_away: int, their_away: int, cube: int, owner: str) -> tuple[float, float, float, float]:
    """gnubg-nn asked directly: no double, double/take, double/pass (match winning chances)
    and the chance after losing the cube's value, from its match equity table."""
    gnubg_nn.set.score(my_away, their_away, 0)
    gnubg_nn.set.cube(cube, b"O" if owner == "mine" else b"C")
    try:
        *_, nd, dt, dp = gnubg_nn.evaluate_cube_decision(pid, 0, -1, b"O", 1)
    finally:
        gnubg_nn.set.cube(1, b"C")
        gnubg_nn.set.score(0, 0, 0)
    lose = 0.0 if their_away <= cube else (gnubg_nn.equities.value(my_away, their_away - cube) + 1) / 2
    return nd, dt, dp, lose


@pytest.mark.parametrize("drill", [d for d in builtin_drills() if d.kind == "cube"], ids=lambda d: d.name)
def test_gnubg_nn_cube_errors_get_gnubgs_words_in_normalised_equity(drill):
    """gnubg grades a cube decision by its loss in normalised money equity (mwc2eq:
    (2 mwc - (win + lose)) / (win - lose)) with the thresholds of plays: every decision
    of every cube drill, at several match scores, graded from gnubg-nn's own numbers."""
    from bgboard.hints.hint_engine import CubeState
    from bgboard.hints.grade import grade

    engine = GnubgEngine()
    for my_away, their_away, cube, owner in CUBE_SCORES:
        hint = engine.cube(drill.position, CubeState(value=cube, owner=owner, my_away=my_away, their_away=their_away))
        nd, dt, dp, lose = _gnubg_nn_cube(drill.position_id, my_away, their_away, cube, owner)

        def eq(mwc: float) -> float:
            return (2 * mwc - (dp + lose)) / (dp - lose)

        answer = min(eq(dt), eq(dp))
        expected = {"double": max(0.0, eq(nd) - answer), "no double": max(0.0, answer - eq(nd)),
                    "take": max(0.0, eq(dt) - eq(dp)), "pass": max(0.0, eq(dp) - eq(dt))}
        for decision, loss in expected.items():
            lesson = grade_cube(hint, decision)
            assert lesson.grade == grade(loss) and lesson.unit == "equity"
            assert lesson.loss == pytest.approx(loss, abs=1e-4), (drill.name, my_away, their_away, decision)


@pytest.mark.slow
@pytest.mark.parametrize("drill", [d for d in builtin_drills() if d.kind == "cube"], ids=lambda d: d.name)
def test_both_engines_grade_cube_decisions_on_one_scale(drill):
    """bgsage's cubeful equity is normalised already; gnubg-nn's normalised no-double
    equity lands near it (two nets, one scale), and both give a grade word to every
    decision, money and match."""
    from bgboard.hints.bgsage_engine import BgsageEngine
    from bgboard.hints.hint_engine import CubeState

    gnubg, sage = GnubgEngine(), BgsageEngine()
    states = [CubeState(value=1)] + [CubeState(value=c, owner=o, my_away=a, their_away=t) for a, t, c, o in CUBE_SCORES]
    for state in states:
        hints = [sage.cube(drill.position, state)] + ([] if state.money else [gnubg.cube(drill.position, state)])
        for hint in hints:
            for decision in ("double", "no double", "take", "pass"):
                lesson = grade_cube(hint, decision)
                assert lesson.grade in ("good", "doubtful", "bad", "very bad"), (hint.engine, decision)
        if not state.money and state.my_away != 2:  # at 2-away the nets part on the doubled game
            g, s = hints[1], hints[0]
            assert g.equity_scale is not None
            normalised_nd = 1 + (g.no_double - g.double_pass) * g.equity_scale
            assert abs(normalised_nd - s.no_double) < 0.1, (drill.name, state)


def test_an_engine_that_only_ranks_reports_no_equity_lost() -> None:
    """pubeval ranks plays but its numbers are no equity: no loss in the JSON, and the
    summary and report say the plays were ranked, not "0.000 lost per play"."""
    from bgboard.hints.registry import open_engine

    pubeval = open_engine("pubeval").engine
    plays = legal_plays(START, (3, 1))
    lessons = [grade_turn(pubeval, START, (3, 1), p.position, player=0) for p in plays[:3]]
    assert all(x.grade is None for x in lessons)
    assert all(x.record()["loss"] is None for x in lessons)
    short = short_report(LearnerReport.of(lessons))
    assert short[0] == "3 plays ranked; this engine gives no equity to grade them" and "lost" not in " ".join(short)
    html = report_html(lessons, "Learner report", ("Ann", "Bob"))
    assert "3 plays ranked" in html and "no equity lost to report" in html


def test_one_play_and_one_mistake_are_said_in_the_singular() -> None:
    """A session of one bad play: "1 play, 1 mistake", never "1 plays, 1 mistakes"."""
    bad = PlayLesson(0, "4HPwATDgc/ABMA", "65", "13/8 13/7", "24/13", 0.1, "bad")
    short = short_report(LearnerReport.of([bad]))
    assert short[0].startswith("1 play, 1 mistake (0 very bad), 0.100 lost per play")
    assert short[2:] == ("1 play, 1 mistake, 0.100/play", "1 mistake in 1")
    assert "1 play graded, 0 cube decisions;" in report_html([bad], "Learner report", ("Ann", "Bob"))
    two = short_report(LearnerReport.of([bad, bad]))
    assert two[0].startswith("2 plays, 2 mistakes (0 very bad)")
