"""Legal plays of a roll, and the legal next steps of a roll being played.

Rules (docs/rules.md names the seed text of each): a checker moves by a die's value; a
double gives four moves; a point with two or more opposing checkers is blocked; a lone
opposing checker (a blot) is hit and goes to the bar; checkers on the bar enter (die ``n``
→ the opponent's ``n``-point, my point ``25 - n``) before anything else moves; bearing off
only with every checker in the home board, with the exact die or with a larger die from
the highest occupied point; as many dice as possible must be played, and when only one
of two different dice can be played, the larger one if either could.

A play is identified by its resulting position: :func:`legal_plays` lists every distinct
resulting position once.  The generator works on flat lists and builds positions with the
unchecked constructor; for doubles it only tries steps in non-increasing order of starting
point, which reaches every resulting position (moving the higher checker first never
makes a later step illegal: points only ever open, checkers only ever come home).
"""

from __future__ import annotations

from typing import Sequence

from bgboard.language import Phrase
from bgboard.errors import InputError
from bgboard.rules.play import Play, format_play
from bgboard.rules.position import BAR, Position
from bgboard.rules.step import STEPS, Step

Dice = tuple[int, int]


class InvalidDiceError(InputError):
    """Dice that are not two numbers from 1 to 6."""


class IllegalStepError(InputError):
    """A step that the roll does not allow at this point of the turn."""


def check_dice(dice: Sequence[int]) -> Dice:
    """Return ``dice`` as a pair, or raise :class:`InvalidDiceError`."""
    if len(dice) != 2 or any(not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6 for d in dice):  # pyright: ignore[reportUnnecessaryIsInstance] - input from outside is checked at run time
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6, not {tuple(dice)!r}")
    return dice[0], dice[1]


# A state during generation: (my counts as a list, their counts as a tuple, steps so far).
_State = tuple[list[int], tuple[int, ...], tuple[Step, ...]]


def _next(me: list[int], th: tuple[int, ...], steps: tuple[Step, ...], die: int, top: int) -> list[_State]:
    """Every legal single step with ``die`` whose start point is at most ``top``."""
    out: list[_State] = []
    if me[BAR]:
        if top < BAR:
            return out
        n = th[die]  # their checkers on my point 25 - die are on their point ``die``
        if n < 2:
            m = me.copy()
            m[BAR] -= 1
            m[BAR - die] += 1
            if n:
                t = list(th)
                t[die] = 0
                t[BAR] += 1
                out.append((m, tuple(t), steps + (STEPS[BAR, BAR - die, die, True],)))
            else:
                out.append((m, th, steps + (STEPS[BAR, BAR - die, die, False],)))
        return out
    hi = 24
    while not me[hi]:
        hi -= 1
        if not hi:
            return out
    s = hi if hi < top else top
    while s > 0:
        if me[s]:
            to = s - die
            if to > 0:
                n = th[BAR - to]
                if n < 2:
                    m = me.copy()
                    m[s] -= 1
                    m[to] += 1
                    if n:
                        t = list(th)
                        t[BAR - to] = 0
                        t[BAR] += 1
                        out.append((m, tuple(t), steps + (STEPS[s, to, die, True],)))
                    else:
                        out.append((m, th, steps + (STEPS[s, to, die, False],)))
            else:
                if hi > 6:
                    break
                if to == 0 or s == hi:
                    m = me.copy()
                    m[s] -= 1
                    m[0] += 1
                    out.append((m, th, steps + (STEPS[s, 0, die, False],)))
                elif to < 0:
                    break  # a larger die bears off only from the highest point
        s -= 1
    return out


def _collect(states: list[_State]) -> tuple[Play, ...]:
    seen: dict[tuple[tuple[int, ...], tuple[int, ...]], Play] = {}
    for me, th, steps in states:
        key = (tuple(me), th)
        if key not in seen:
            seen[key] = Play(steps, Position(key[0], th))
    return tuple(seen.values())


def cached_plays(position: Position, d1: int, d2: int) -> tuple[Play, ...]:
    me = list(position.mine)
    th = position.theirs
    if d1 == d2:
        level: list[_State] = [(me, th, ())]
        for _ in range(4):
            deeper: list[_State] = []
            for m, t, steps in level:
                deeper += _next(m, t, steps, d1, steps[-1].frm if steps else BAR)
            if not deeper:
                break
            level = deeper
        if not level[0][2]:
            return ()
        return _collect(level)
    hi_die, lo_die = (d1, d2) if d1 > d2 else (d2, d1)
    full: list[_State] = []
    singles: list[_State] = []
    single_dice: set[int] = set()
    for a, b in ((hi_die, lo_die), (lo_die, hi_die)):
        for m, t, steps in _next(me, th, (), a, BAR):
            more = _next(m, t, steps, b, BAR)
            if more:
                full += more
            elif not full:
                singles.append((m, t, steps))
                single_dice.add(a)
    if full:
        return _collect(full)
    if not singles:
        return ()
    if hi_die in single_dice:  # only one die can be played: the larger if either can
        singles = [s for s in singles if s[2][0].die == hi_die]
    return _collect(singles)


def legal_plays(position: Position, dice: Sequence[int]) -> tuple[Play, ...]:
    """Every legal play of ``dice`` from ``position`` (the player on roll moves).

    One :class:`Play` per distinct resulting position, in a deterministic order (the order
    the generator meets them: larger die first, higher points first).  An empty tuple means
    there is no legal play: the player passes.
    """
    d1, d2 = check_dice(dice)
    return cached_plays(position, d1, d2)


def _one_step(me: list[int], th: tuple[int, ...], frm: int, to: int, die: int) -> tuple[list[int], tuple[int, ...]] | None:
    """The counts after moving a checker ``frm``/``to`` with ``die`` if that is a legal single
    step now (the rules of :func:`_next`, for one given step), else None."""
    if me[BAR]:
        if frm != BAR or to != BAR - die or th[die] > 1:
            return None
    else:
        if not 1 <= frm < BAR or not me[frm]:
            return None
        land = frm - die
        if land > 0:
            if to != land or th[BAR - to] > 1:
                return None
        else:
            if to != 0 or any(me[p] for p in range(7, BAR)):
                return None  # bearing off: every checker home, and
            if land < 0 and any(me[p] for p in range(frm + 1, 7)):
                return None  # a larger die only from the highest point
    m = me.copy()
    m[frm] -= 1
    m[to] += 1
    if to and th[BAR - to] == 1:  # a blot is hit
        t = list(th)
        t[BAR - to] = 0
        t[BAR] += 1
        return m, tuple(t)
    return m, th


def every_die_play(position: Position, dice: Sequence[int], steps: Sequence[tuple[int, int]]) -> Position | None:
    """The position after ``steps`` (``(from, to)`` pairs, in the order played) when they play
    every die of the roll — two steps, four with a double — each a legal single step in turn;
    None otherwise.

    Such a play is always legal: it plays as many dice as there are, so neither the rule to
    play as many dice as possible nor the larger-die rule (only one die playable) can forbid
    it.  Checking one play this way needs no generation of every play; None decides nothing
    (a play of fewer dice, or steps in an order that is not legal one by one): ask
    :func:`legal_plays`.
    """
    d1, d2 = check_dice(dice)
    orders = ((d1, d1, d1, d1),) if d1 == d2 else ((d1, d2), (d2, d1))
    for order in orders:
        if len(steps) != len(order):
            return None
        me: list[int] = list(position.mine)
        th = position.theirs
        for (frm, to), die in zip(steps, order):
            after = _one_step(me, th, frm, to, die)
            if after is None:
                break
            me, th = after
        else:
            return Position(tuple(me), th)
    return None


def _remaining(dice: Dice, used: Sequence[Step]) -> list[int]:
    left = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    for step in used:
        if step.die not in left:
            raise IllegalStepError(Phrase("the roll %(roll)s has no %(die)d left for %(step)s",
                                          roll=f"{dice[0]}-{dice[1]}", die=step.die, step=str(step)))
        left.remove(step.die)
    return left


def _all_steps(me: list[int], th: tuple[int, ...], dice: Sequence[int]) -> list[_State]:
    out: list[_State] = []
    for die in sorted(set(dice), reverse=True):
        out += _next(me, th, (), die, BAR)
    return out


class _Roll:
    """A roll being played: the counts after ``steps_so_far``, the dice left, and whether a
    state can still be completed to one of the roll's legal plays."""

    def __init__(self, position: Position, dice: Sequence[int], steps_so_far: Sequence[Step]) -> None:
        d = check_dice(dice)
        self.targets = {(p.position.mine, p.position.theirs) for p in cached_plays(position, *d)}
        me = list(position.mine)
        th = position.theirs
        self.left = _remaining(d, steps_so_far)
        for step in steps_so_far:
            # the board decides whether a step hits: match on from, to and die only
            nxt = [(m, t) for m, t, (s,) in _all_steps(me, th, [step.die]) if (s.frm, s.to) == (step.frm, step.to)]
            if not nxt:
                raise IllegalStepError(Phrase("%(step)s is not a legal step with a %(die)d", step=str(step), die=step.die))
            me, th = nxt[0]
        self.me, self.th = me, th
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], bool] = {}
        if steps_so_far and not self.completes(me, th, self.left):
            raise IllegalStepError(Phrase("%(steps)s cannot be completed to a legal play of %(roll)s",
                                          steps=format_play(steps_so_far), roll=f"{d[0]}-{d[1]}"))

    def completes(self, m: list[int], t: tuple[int, ...], rest: list[int]) -> bool:
        key = (tuple(m), t, tuple(rest))
        if key in self.memo:
            return self.memo[key]
        ok = (key[0], t) in self.targets
        if not ok and rest:
            for m2, t2, (s,) in _all_steps(m, t, rest):
                rest2 = rest.copy()
                rest2.remove(s.die)
                if self.completes(m2, t2, rest2):
                    ok = True
                    break
        self.memo[key] = ok
        return ok

    def next_steps(self, m: list[int], t: tuple[int, ...], rest: list[int]) -> list[tuple[list[int], tuple[int, ...], Step, list[int]]]:
        out: list[tuple[list[int], tuple[int, ...], Step, list[int]]] = []
        for m2, t2, (s,) in _all_steps(m, t, rest):
            rest2 = rest.copy()
            rest2.remove(s.die)
            if self.completes(m2, t2, rest2):
                out.append((m2, t2, s, rest2))
        return out


def legal_steps(position: Position, dice: Sequence[int], steps_so_far: Sequence[Step] = ()) -> tuple[Step, ...]:
    """The single-checker steps that may come next after ``steps_so_far``.

    ``position`` is the position before the roll was started.  A step is offered when,
    after it, the rest of the roll can still be played so that the result is one of
    :func:`legal_plays` — in any order, one checker at a time, as on a real board.  An
    empty tuple means nothing more can be played (the roll is complete, or there was
    nothing to play).  A position may already be a legal result while steps are still
    offered (bearing off with a larger die can finish the same way in one step or two).
    Raises :class:`IllegalStepError` if ``steps_so_far`` is not a legal beginning (their
    ``hit`` flags are not trusted: the board decides).
    """
    roll = _Roll(position, dice, steps_so_far)
    return tuple(s for _, _, s, _ in roll.next_steps(roll.me, roll.th, roll.left))


def steps_to(
    position: Position, dice: Sequence[int], steps_so_far: Sequence[Step], mine: Sequence[int]
) -> list[tuple[tuple[Step, ...], Position, bool]]:
    """Every way to go on after ``steps_so_far`` with steps :func:`legal_steps` offers until
    the mover's checkers stand as ``mine``: one ``(steps, position, whole)`` per distinct
    resulting position, ``whole`` when that position is a legal play of the roll.

    Only checkers that stand where ``mine`` has fewer move (a checker moved away and
    another brought back is the same as the second moved on), so the search is short.
    """
    roll = _Roll(position, dice, steps_so_far)
    target = tuple(mine)
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[Step, ...], Position, bool]] = {}

    def walk(m: list[int], t: tuple[int, ...], rest: list[int], steps: tuple[Step, ...]) -> None:
        if tuple(m) == target:
            key = (target, t)
            if steps and key not in found:
                found[key] = (steps, Position(target, t), key in roll.targets)
            return
        for m2, t2, s, rest2 in roll.next_steps(m, t, rest):
            if m[s.frm] > target[s.frm]:
                walk(m2, t2, rest2, (*steps, s))

    walk(roll.me, roll.th, roll.left, ())
    return list(found.values())
