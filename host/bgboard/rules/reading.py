"""Reading a play as players write it: the one reader of plays (pure).

:func:`read_play` takes every way players type a play — gnubg's, FIBS' and XG's notation:
whole plays (``13/7 8/7``, ``24/18(2)``, ``bar/22*``), one checker over several dice
(``13/10``, ``13/11/10``, ``6/off``), hits marked with ``*`` or not, ``off`` or ``0``,
``bar`` or ``25`` — in the mover's own numbering or, when asked, in the other player's (as a
display names the other side's points).  The text is read as where the checkers end up: each
move takes one checker from its first point to its last, and the legal plays (or, for a play
being made one checker at a time, the legal steps) that leave the mover's checkers so are
found.  They differ only in which blots were hit on the way: the one whose hits are those
written (a ``*``, or a move ending on a blot) is the play meant; when that leaves two, the
text is ambiguous and :class:`AmbiguousPlayError` lists them.

The terminal board, ``bgboard legal --play``, ``bgboard hint --grade`` and
:func:`parse_play` all read plays here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from bgboard.language import Phrase
from bgboard.rules.explain import explain
from bgboard.rules.legal import IllegalStepError, cached_plays, check_dice, steps_to
from bgboard.rules.notation import (
    PASS_WORDS,
    IllegalPlayError,
    NotationError,
    flip_points,
    normalise,
    parse_moves,
    play_out,
)
from bgboard.rules.play import Play, format_play
from bgboard.rules.position import BAR, OFF, Position
from bgboard.rules.step import Step, apply_step


class AmbiguousPlayError(NotationError):
    """Text that two or more plays fit: ``plays`` are their texts, to ask which was meant."""

    def __init__(self, text: str, plays: Sequence[str]) -> None:
        self.plays = tuple(plays)
        super().__init__(f"{text!r} could be {' or '.join(self.plays)}: type the one you mean")


@dataclass(frozen=True, slots=True)
class Reading:
    """What a text says to do now.

    ``steps`` are single-die steps, legal one after the other after the steps already made,
    that carry the text out; ``position`` is the board after them (the mover still
    ``mine``); ``play`` is the whole legal play when they finish the roll (None while the
    roll is still being played); ``flipped`` when the text was read in the other player's
    numbering.
    """

    steps: tuple[Step, ...]
    position: Position
    play: Play | None
    flipped: bool = False

    @property
    def notation(self) -> str:
        """The steps in canonical notation (the mover's own numbering)."""
        return format_play(self.steps)


def _hits(before: Position, after: Position) -> frozenset[int]:
    """The points (mover's numbering) where a blot of the opponent was hit."""
    return frozenset(p for p in range(1, 25) if before.theirs[BAR - p] == 1 and after.theirs[BAR - p] == 0)


def _target(moves: list[tuple[list[int], set[int]]], now: Position) -> tuple[list[int], frozenset[int]]:
    """Where the mover's checkers end up, and the hits the text writes (a ``*``, or a move
    ending on a blot: landing on one always hits it)."""
    mine = list(now.mine)
    written: set[int] = set()
    for points, stars in moves:
        mine[points[0]] -= 1
        mine[points[-1]] += 1
        written |= stars
        if points[-1] != OFF and now.theirs[BAR - points[-1]] == 1:
            written.add(points[-1])
    for point, count in enumerate(mine):
        if count < 0:
            if point == BAR:
                raise IllegalPlayError(Phrase("there is no checker of yours on the bar to move"))
            raise IllegalPlayError(Phrase("there is no checker of yours on point %(point)d to move", point=point))
    return mine, frozenset(written - {OFF})


def _choose(text: str, now: Position, found: list[tuple[tuple[Step, ...], Position, bool]],
            written: frozenset[int], stars: frozenset[int], flipped: bool):
    """The one way that fits the hits written (see the module's text)."""
    if len(found) > 1:
        exact = [f for f in found if _hits(now, f[1]) == written]
        if not exact:
            exact = [f for f in found if stars <= _hits(now, f[1])]
        if len(exact) != 1:
            names = sorted(format_play(f[0]) for f in (exact or found))
            raise AmbiguousPlayError(text.strip(), [flip_points(n) if flipped else n for n in names])
        found = exact
    return found[0]


def _read(text: str, position: Position, dice: tuple[int, int], done: Sequence[Step], whole: bool,
          flipped: bool) -> Reading:
    moves = parse_moves(text, flipped)
    now = position
    for step in done:
        now = apply_step(now, step)
    try:
        mine, written = _target(moves, now)
    except IllegalPlayError as exc:
        raise IllegalPlayError(_not_legal(text, reason_of(exc), flipped)) from None
    stars = frozenset(p for _, marked in moves for p in marked) - {OFF}
    plays = cached_plays(position, *dice)
    if whole and not done:
        found = [(p.steps, p.position, True) for p in plays if list(p.position.mine) == mine]
    else:
        try:
            found = steps_to(position, dice, done, mine)
        except IllegalStepError as exc:
            raise IllegalPlayError(reason_of(exc)) from None
        if whole:
            found = [f for f in found if f[2]]
    if found:
        steps, after, complete = _choose(text, now, found, written, stars, flipped)
        play = next((p for p in plays if p.position == after), None) if complete else None
        return Reading(tuple(steps), after, play, flipped)
    try:
        result = play_out(text, now, flipped)
    except IllegalPlayError as exc:
        raise IllegalPlayError(_not_legal(text, reason_of(exc), flipped)) from None
    reason = explain(position, dice, result)
    if reason is None:
        roll = f"{dice[0]}-{dice[1]}"
        reason = (Phrase("that is not a play of %(roll)s", roll=roll) if whole
                  else Phrase("that is not a part of a play of %(roll)s", roll=roll))
    raise IllegalPlayError(_not_legal(text, reason, flipped))


def reason_of(exc: Exception) -> str:
    """An error's sentence as it was raised (a :class:`~bgboard.language.Phrase` stays one)."""
    return exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)


def _not_legal(text: str, reason: str, flipped: bool) -> str:
    return Phrase("%(play)s is not legal: %(reason)s", play=text.strip(),
                  reason=flip_points(reason) if flipped else reason)


def read_play(
    text: str,
    position: Position,
    dice: Sequence[int],
    done: Sequence[Step] = (),
    *,
    whole: bool = True,
    numberings: Sequence[bool] = (False,),
) -> Reading:
    """What ``text`` says to play from ``position`` with ``dice``, after the single-die
    steps ``done`` already made.

    ``whole`` asks for a whole play (``bgboard legal``, ``hint --grade``); without it the text
    may be a part of the play (a terminal's one checker at a time) and the reading's ``play``
    is None until the roll is finished.  ``numberings`` are the numberings tried, in order:
    ``False`` the mover's own, ``True`` the other player's; the first that reads the text as
    a legal play is used, and when none does the error is the first reading's that got as far
    as the board.  ``"pass"`` (or nothing) is read when there is no legal play.

    Raises :class:`NotationError` for text that is not notation, :class:`AmbiguousPlayError`
    when two plays fit it, :class:`IllegalPlayError` (with the rule's reason, in the numbering
    the text was written in) for a play the rules do not allow.
    """
    d = check_dice(dice)
    if text.strip().lower() in PASS_WORDS:
        if not cached_plays(position, *d) and not done:
            return Reading((), position, Play((), position))
        raise IllegalPlayError(Phrase("%(roll)s can be played: you cannot pass", roll=f"{d[0]}-{d[1]}"))
    text = normalise(text)
    errors: list[NotationError | IllegalPlayError] = []
    for flipped in numberings:
        try:
            return _read(text, position, d, done, whole, flipped)
        except AmbiguousPlayError:
            raise
        except (NotationError, IllegalPlayError) as exc:
            errors.append(exc)
    board = [e for e in errors if isinstance(e, IllegalPlayError)]
    raise (board or errors)[0]


def parse_play(text: str, position: Position, dice: Sequence[int]) -> Play:
    """The legal :class:`Play` that ``text`` describes in the mover's own numbering
    (:func:`read_play` of a whole play)."""
    play = read_play(text, position, dice).play
    assert play is not None  # (a whole reading always has its play)
    return play
