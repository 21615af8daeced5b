"""Teaching: grading a completed play or cube decision as gnubg grades it, the best play,
and one sentence on why, only where the numbers say so (pure).

A *lesson* is what the board shows after a play in the teaching mode: the grade (good,
doubtful, bad, very bad: :mod:`bgboard.hints.grade`, gnubg's thresholds) with the equity
lost, the engine's best play and, for a mistake, a reason measured on the two resulting
positions — never a sentence the numbers do not support:

* **does not make a point**: a new point the best play makes and the play does not
  ("does not make the 5-point, as 8/5 6/5 does");
* **breaks a point**: a point made before the roll and kept by the best play is left with
  fewer than two checkers ("breaks the 6-point");
* **leaves more shots**: the rolls out of 36 on which the opponent can hit a blot, counted
  with the rules engine on both resulting positions ("leaves 20 shots; 13/7 13/10 leaves 11");
* **bears off fewer**: the best play bears off more checkers.

The first that holds is the reason; if none holds, there is no sentence.  Points are named
in the mover's own numbering, as notation and gnubg name them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Sequence

from bgboard.language import Phrase
from bgboard.hints.advice import play_hints
from bgboard.hints.hint_engine import CubeHint, CubeState, HintEngine, PlaysHint
from bgboard.hints.grade import GRADES, grade
from bgboard.rules import legal_plays, position_id
from bgboard.rules.position import BAR, OFF, Position

__all__ = [
    "CubeLesson",
    "DECISIONS",
    "Lesson",
    "PlayLesson",
    "grade_cube",
    "grade_turn",
    "lesson_body",
    "lesson_from_body",
    "lesson_of",
    "shots",
    "why",
]

#: The cube decisions a player makes: the doubler's two and the taker's two.
DECISIONS = ("double", "no double", "take", "pass")

_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


def shots(after: Position) -> int:
    """Rolls out of 36 on which the opponent can hit a checker of the mover of ``after``
    (the mover still ``mine``; the opponent rolls next)."""
    their = after.swap()
    on_bar = their.theirs[BAR]
    count = 0
    for roll in _ROLLS:
        if any(p.position.theirs[BAR] > on_bar for p in legal_plays(their, roll)):
            count += 1 if roll[0] == roll[1] else 2
    return count


def _made(position: Position) -> set[int]:
    return {p for p in range(1, 25) if position.mine[p] >= 2}


def _point_name(point: int) -> str:
    # source: bar-point = "Balkenpunkt" seeds/004 (the 7-point)
    return {25: Phrase("bar"), 7: Phrase("bar-point")}.get(point) or Phrase("%(point)d-point", point=point)


def why(before: Position, played: Position, best: Position, best_notation: str) -> str | None:
    """One sentence on why ``played`` is worse than ``best`` (both resulting positions of a
    roll from ``before``, mover still ``mine``), or None when no measure says so."""
    made_before, made_played, made_best = _made(before), _made(played), _made(best)
    missed = (made_best - made_before) - made_played
    if missed:
        return Phrase("It does not make the %(where)s, as %(best)s does.", where=_point_name(max(missed)),
                      best=best_notation)
    broken = (made_before & made_best) - made_played
    if broken:
        return Phrase("It breaks the %(where)s, which %(best)s keeps.", where=_point_name(max(broken)),
                      best=best_notation)
    if played.mine[OFF] == best.mine[OFF]:  # hitting chances matter while there is contact
        s_played, s_best = shots(played), shots(best)
        if s_played > s_best:
            return Phrase("It leaves %(shots)d shots out of 36; %(best)s leaves %(fewest)d.", shots=s_played,
                          best=best_notation, fewest=s_best)
    fewer = best.mine[OFF] - played.mine[OFF]
    if fewer > 0:
        return Phrase.counted("It bears off %(n)d checker fewer than %(best)s.",
                              "It bears off %(n)d checkers fewer than %(best)s.", fewer, best=best_notation)
    return None


@dataclass(frozen=True, slots=True)
class PlayLesson:
    """The grade of one completed play.

    ``position`` is the gnubg Position ID before the play (player on roll = the mover),
    ``dice`` like ``"31"``, ``play`` and ``best`` in gnubg notation (``""`` = no legal
    play), ``loss`` the equity lost against the best (cubeless money equity, or cubeful
    at the match score where the engine supports it), ``grade`` gnubg's word (None from an
    engine that only ranks), ``why`` one measured sentence for a mistake (or None).
    """

    player: int | None
    position: str
    dice: str
    play: str
    best: str
    loss: float
    grade: str | None
    why: str | None = None
    engine: str = ""
    choices: int = 0  # the legal plays of the roll, as the grader saw them (0: not known)

    @property
    def mistake(self) -> bool:
        """A play graded doubtful or worse."""
        return self.grade not in (None, "good")

    def record(self) -> dict[str, Any]:
        """The ``grades`` entry of ``bgboard sim --teach --json`` (``loss`` null from an
        engine that only ranks: its numbers are no equity)."""
        return {"player": self.player, "position": self.position, "dice": self.dice,
                "play": self.play, "best": self.best,
                "loss": None if self.grade is None else round(self.loss, 6), "grade": self.grade}

    @property
    def text(self) -> tuple[str, ...]:
        """The display's lesson in several lengths, longest first."""
        play = self.play or Phrase("no play")
        if self.grade is None:
            if self.play == self.best:
                return (Phrase("%(play)s: the engine's choice", play=play), play)
            return (Phrase("%(play)s: the engine prefers %(best)s", play=play, best=self.best),
                    Phrase("best %(best)s", best=self.best))
        if self.loss <= 0 or self.play == self.best:
            return (Phrase("%(play)s: good, the best play", play=play), Phrase("%(play)s: best", play=play),
                    Phrase("best"))
        grade = GRADES.get(self.grade, self.grade)
        loss = f"-{self.loss:.3f}"
        forms = [Phrase("%(play)s: %(grade)s, %(loss)s; best %(best)s", play=play, grade=grade, loss=loss, best=self.best),
                 Phrase("%(grade)s %(loss)s; best %(best)s", grade=grade, loss=loss, best=self.best),
                 Phrase("%(grade)s %(loss)s", grade=grade, loss=loss)]
        if self.why:
            forms.insert(0, Phrase("%(play)s: %(grade)s, %(loss)s; best %(best)s. %(why)s", play=play, grade=grade,
                                   loss=loss, best=self.best, why=self.why))
        return tuple(forms)


def lesson_of(hint: PlaysHint, before: Position, played: Position, *, player: int | None = None) -> PlayLesson:
    """The lesson of the play that led from ``before`` to ``played`` within ``hint`` (every
    play of the roll ranked: ``limit=None``).  Raises ``ValueError`` if ``played`` is not one
    of the hint's plays."""
    dice = f"{max(hint.dice)}{min(hint.dice)}"
    pid = position_id(before)
    best = hint.best
    if best is None:  # no legal play: nothing to grade
        return PlayLesson(player, pid, dice, "", "", 0.0, "good", None, hint.engine, len(hint.plays))
    for candidate in hint.plays:
        if candidate.position == played:
            if not hint.calibrated:
                return PlayLesson(player, pid, dice, candidate.notation, best.notation, 0.0, None, None,
                                  hint.engine, len(hint.plays))
            word = grade(candidate.loss)
            reason = why(before, played, best.position, best.notation) if word != "good" else None
            return PlayLesson(player, pid, dice, candidate.notation, best.notation, candidate.loss, word,
                              reason, hint.engine, len(hint.plays))
    raise ValueError("the play is not among the hint's plays")


def grade_turn(
    engine: HintEngine,
    before: Position,
    dice: tuple[int, int],
    played: Position,
    *,
    player: int | None = None,
    state: CubeState | None = None,
) -> PlayLesson:
    """Grade the play of ``dice`` from ``before`` that led to ``played`` with ``engine``
    (at the cube and score of ``state`` where the engine supports it)."""
    return lesson_of(play_hints(engine, before, dice, limit=None, state=state), before, played, player=player)


@dataclass(frozen=True, slots=True)
class CubeLesson:
    """The grade of one cube decision (``decision`` one of :data:`DECISIONS`).

    ``loss`` is in normalised money equity, as gnubg measures cube errors (bgsage's
    cubeful equity; gnubg-nn's match winning chances turned into it with gnubg's
    ``mwc2eq``), graded with the same thresholds as plays; in ``unit`` (ungraded) only
    when an engine gives no way to normalise its numbers.
    """

    player: int | None
    position: str
    decision: str
    best: str
    loss: float
    grade: str | None
    unit: str = "equity"

    @property
    def mistake(self) -> bool:
        return self.grade not in (None, "good")

    @property
    def text(self) -> tuple[str, ...]:
        if self.decision == self.best:
            return (f"{self.decision}: right", self.decision)
        if self.grade is None:
            return (f"{self.decision}: the engine says {self.best} ({self.loss:.3f} {self.unit})",
                    f"{self.decision}; best {self.best}")
        return (f"{self.decision}: {self.grade}, -{self.loss:.3f}; best {self.best}",
                f"{self.grade} -{self.loss:.3f}; {self.best}")


#: A lesson of either kind: what the controller and the practice room show and keep.
Lesson = PlayLesson | CubeLesson


def grade_cube(hint: CubeHint, decision: str, *, player: int | None = None, position: str = "") -> CubeLesson:
    """Grade ``decision`` against the engine's cube hint (the doubler's view numbers: no
    double, double/take, double/pass).  The doubler chooses between no double and the
    taker's best answer; the taker chooses the smaller of take and pass."""
    if decision not in DECISIONS:
        raise ValueError(f"a cube decision is one of {', '.join(DECISIONS)}, not {decision!r}")
    nd, dt, dp = hint.no_double, hint.double_take, hint.double_pass
    if nd is None or dt is None or dp is None:
        raise ValueError(f"the engine gave no cube numbers ({hint.reason or hint.basis or 'no reason'})")
    answer = min(dt, dp)
    if decision in ("double", "no double"):
        best = "double" if answer > nd else "no double"
        chosen = answer if decision == "double" else nd
        loss = max(answer, nd) - chosen
    else:
        best = "take" if dt <= dp else "pass"
        chosen = dt if decision == "take" else dp
        loss = chosen - answer
    loss = max(0.0, loss)
    if hint.equity_scale is None:  # numbers we cannot normalise: shown, never graded
        return CubeLesson(player, position, decision, best, loss, None, hint.unit)
    loss *= hint.equity_scale
    return CubeLesson(player, position, decision, best, loss, grade(loss), "equity")


def mistakes_by_kind(lessons: Sequence[PlayLesson | CubeLesson]) -> dict[str, int]:
    """Counts of doubtful, bad and very bad plays and of cube errors."""
    out = {"doubtful": 0, "bad": 0, "very bad": 0, "cube": 0}
    for lesson in lessons:
        if not lesson.mistake:
            continue
        if isinstance(lesson, CubeLesson):
            out["cube"] += 1
        elif lesson.grade in out:
            out[lesson.grade] += 1
    return out


def lesson_body(lesson: PlayLesson | CubeLesson) -> dict[str, Any]:
    """A lesson as a JSON object (every field, and which kind), for the practice progress
    kept beside the journal; :func:`lesson_from_body` reads it back."""
    return {"kind": "cube" if isinstance(lesson, CubeLesson) else "play", **asdict(lesson)}


def lesson_from_body(body: Any) -> PlayLesson | CubeLesson:
    """The lesson of a :func:`lesson_body` (ValueError for anything else)."""
    if not isinstance(body, dict):
        raise ValueError("a lesson is a JSON object")
    cls = {"play": PlayLesson, "cube": CubeLesson}.get(str(body.get("kind")))
    if cls is None:
        raise ValueError(f"a lesson's kind is play or cube, not {body.get('kind')!r}")
    names = {f.name for f in fields(cls)}
    if set(body) - {"kind"} - names:
        raise ValueError(f"a {body['kind']} lesson has no field {sorted(set(body) - {'kind'} - names)[0]!r}")
    try:
        return cls(**{k: v for k, v in body.items() if k != "kind"})
    except TypeError as exc:
        raise ValueError(str(exc)) from None
