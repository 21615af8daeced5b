"""Grading a play as gnubg grades it (pure).

gnubg's analysis marks a decision by its equity loss against the best:
``arSkillLevel = {0.16 very bad, 0.08 bad, 0.04 doubtful}`` (gnubg.c), and ``Skill(r)``
(analysis.c) takes the first threshold the loss *exceeds* (strictly).  Current gnubg
shows "very bad" as "blunder" and "bad" as "error"; we use the older, plainer words.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.hints.hint_engine import PlaysHint
from bgboard.language import Phrase
from bgboard.rules.position import Position

__all__ = ["DOUBTFUL", "BAD", "VERY_BAD", "GRADES", "Grade", "grade", "grade_play"]

DOUBTFUL = 0.04
BAD = 0.08
VERY_BAD = 0.16


#: The grades as the players read them (a lesson or a verdict keeps the English word).  Not in
#: the seeds: gnubg's older, plainer words, translated.
GRADES = {"good": Phrase("good"), "doubtful": Phrase("doubtful"), "bad": Phrase("bad"),
          "very bad": Phrase("very bad")}


def grade(loss: float) -> str:
    """``"very bad"``, ``"bad"``, ``"doubtful"`` or ``"good"`` for an equity loss ≥ 0."""
    if loss > VERY_BAD:
        return "very bad"
    if loss > BAD:
        return "bad"
    if loss > DOUBTFUL:
        return "doubtful"
    return "good"


@dataclass(frozen=True, slots=True)
class Grade:
    """The verdict on one play: its loss against the engine's best and gnubg's word."""

    notation: str
    best: str
    loss: float
    grade: str | None

    @property
    def verdict(self) -> str:
        """The verdict beside a play already named (a replay's "13/7 8/7 - doubtful, 0.044
        worse than 13/11 6/5"): :attr:`text` without the play."""
        if self.grade is None:
            return (Phrase("the engine's choice") if self.notation == self.best
                    else Phrase("the engine prefers %(best)s", best=self.best))
        if self.loss <= 0:
            return Phrase("the best play")
        return Phrase("%(grade)s, %(loss)s worse than %(best)s", grade=GRADES.get(self.grade, self.grade),
                      loss=f"{self.loss:.3f}", best=self.best)

    @property
    def text(self) -> str:
        """One sentence for the display."""
        if self.grade is None:
            if self.notation == self.best:
                return Phrase("%(play)s is the engine's choice.", play=self.notation)
            return Phrase("The engine prefers %(best)s to %(play)s (it cannot measure by how much).",
                          best=self.best, play=self.notation)
        if self.loss <= 0:
            return Phrase("%(play)s is the best play.", play=self.notation)
        return Phrase("%(play)s: %(grade)s, %(loss)s worse than %(best)s.", play=self.notation,
                      grade=GRADES.get(self.grade, self.grade), loss=f"{self.loss:.3f}", best=self.best)


def grade_play(hint: PlaysHint, played: Position) -> Grade:
    """Grade the play that led to ``played`` (the mover still ``mine``) within ``hint``.

    Raises ``ValueError`` if ``played`` is not one of the hint's plays (ask for every play,
    ``limit=None``, and check legality first with the rules engine's ``explain``).
    A hint from an uncalibrated engine (pubeval) ranks but gives no grade.
    """
    best = hint.best
    for play in hint.plays:
        if play.position == played:
            assert best is not None
            if not hint.calibrated:
                return Grade(play.notation, best.notation, 0.0, None)
            return Grade(play.notation, best.notation, play.loss, grade(play.loss))
    raise ValueError("the play is not among the hint's plays")

