"""The learner report in German (docs/languages.md): every heading, count and grade in the
players' language, the page's lang attribute, plurals by German's rule; notation and
Position IDs as written."""

from __future__ import annotations

import re

from bgboard.hints.lesson import CubeLesson, PlayLesson
from bgboard.hints.learner_report import report_html, short_report, LearnerReport
from bgboard.language import Phrase, said
from bgboard.language.catalogues import words_for
from bgboard.rules import position_id
from bgboard.rules.starts import start_position

START = position_id(start_position())


def _play(player: int, dice: str, loss: float, grade: str) -> PlayLesson:
    return PlayLesson(player, START, dice, "13/10 13/12", "8/5 6/5", loss, grade,
                      Phrase("It leaves %(shots)d shots out of 36; %(best)s leaves %(fewest)d.", shots=11,
                             best="8/5 6/5", fewest=2))


def test_the_learner_report_in_german():
    de = words_for("de")
    lessons = [_play(0, "31", 0.2, "very bad"), _play(0, "42", 0.0, "good"),
               CubeLesson(0, START, "double", "no double", 0.1, "bad")]
    page = report_html(lessons, Phrase("Learner report: %(who)s", who="Anna"), ("Anna", "Bert"), learners=[0], w=de)
    assert '<html lang="de">' in page and "<title>Lernbericht: Anna</title>" in page
    for german in ("2 Züge bewertet, 1 Würfelentscheidung;", "Schlechteste Stellungen", "Als Nächstes üben",
                   "Jeder Zug", "Würfelentscheidungen", "sehr schlecht", "Verlorene Equity je Zug",
                   "Er lässt 11 von 36 Schüssen; 8/5 6/5 lässt 2.", "PR 50.0 aus den bewerteten Entscheidungen (3)",
                   "Übungen Eröffnung: 1 Fehler, 0.200 verloren"):
        assert german in page, german
    assert '<span class="mv">13/10</span>' in page and START in page  # notation and IDs as written
    visible = re.sub(r"<svg.*?</svg>|<[^>]+>", " ", page, flags=re.S)  # the text a reader sees
    for english in ("Worst positions", "Practise next", "Every play", "very bad", "lost per", "graded",
                    "Cube decisions", "It leaves"):
        assert english not in visible, english


def test_the_short_report_follows_the_plural_rule_of_each_language():
    report = LearnerReport.of([_play(0, "31", 0.2, "very bad")])
    first = short_report(report)[-1]
    assert first == "1 mistake in 1"
    assert said(first, words_for("de")) == "1 Fehler in 1"
    assert said(short_report(LearnerReport.of([_play(0, "31", 0.2, "bad")] * 2))[-1], words_for("nl")) == "2 fouten in 2"
