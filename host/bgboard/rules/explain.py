"""Why a resulting position is not a legal play of a roll, in one plain sentence.

:func:`explain` first checks what can be seen on the board alone (checker counts, both
colours on a point, the opponent's checkers moved), then searches the ways the dice could
have been played with each rule relaxed in turn and names the first rule broken on the
closest way (fewest rules broken): the bar, a blocked point, bearing off too early, bearing
off from the wrong point.  When the position can be reached by legal steps but not by a
legal play, the dice rules are to blame: both dice (or more of a double) can be played, or
the larger die must be played.
"""

from __future__ import annotations

from typing import Sequence

from bgboard.rules.legal import cached_plays, check_dice
from bgboard.rules.position import BAR, OFF, Position
from bgboard.language import Phrase

#: The rule sentences shared with the seed variants (:mod:`bgboard.rules.refusal`); every
#: sentence here is a :class:`~bgboard.language.Phrase`, said in the players' language at
#: the edge that shows it.
# source: bar = "balk" seeds/000, "Bar" seeds/004, "barrieren" seeds/001;
# enter = "van de balk spelen" seeds/000, "eintreten" seeds/004
ENTER_FIRST = Phrase("a checker is on the bar: enter it first")
# source: bear off = "van het bord spelen" seeds/000, "uitspelen" seeds/002, "Abtragen" seeds/004,
# "flytte ut av brettet" seeds/001; home board = "thuisvak" seeds/002, "Heimfeld" seeds/004,
# "hjemmeområde" seeds/001
BEAR_OFF_OUTSIDE = Phrase("you cannot bear off while a checker is outside your home board")
BEAR_OFF_HIGHEST = Phrase("bear off from the highest point first")
_BAR, _OUTSIDE, _HIGHEST = ENTER_FIRST, BEAR_OFF_OUTSIDE, BEAR_OFF_HIGHEST


# source: white/black = "wit"/"zwart" seeds/000, "hvit"/"svart" seeds/001, "hvid"/"sort" seeds/003
_COLOURS = {"white": Phrase("white"), "black": Phrase("black")}


def blocked(point: int) -> str:
    """A point the opponent holds with two or more checkers."""
    # source: blocked = "blok" seeds/000, "blokk" seeds/001, "besetzt" seeds/004
    return Phrase("point %(point)d is blocked", point=point)


def _many(needed: int, die: int, used: int) -> Phrase:
    """"all four 5s can be played, this play uses only 3" (a double)."""
    # source: doubles = "doublet" seeds/002, "Doppel" seeds/004, "to like" seeds/001
    if needed == 4:
        return Phrase("all four %(die)ds can be played, this play uses only %(used)d", die=die, used=used)
    return Phrase("%(needed)d of the four %(die)ds can be played, this play uses only %(used)d",
                  needed=needed, die=die, used=used)


def _count_problem(position: Position, result: Position, colours: tuple[str, str] | None) -> str | None:
    sides = ((position.mine, result.mine), (position.theirs, result.theirs))
    for i, (before, after) in enumerate(sides):
        expected, seen = sum(before), sum(after)
        if expected != seen:
            if colours:
                colour = _COLOURS.get(colours[i], colours[i])
                return Phrase("%(expected)d %(colour)s checkers expected, %(seen)d seen",
                              expected=expected, colour=colour, seen=seen)
            if i == 0:
                return Phrase("%(expected)d checkers expected for the player on roll, %(seen)d seen",
                              expected=expected, seen=seen)
            return Phrase("%(expected)d checkers expected for the opponent, %(seen)d seen",
                          expected=expected, seen=seen)
        if any(n < 0 for n in after):
            return Phrase("a count of checkers is negative")
    for p in range(1, 25):
        if result.mine[p] and result.theirs[BAR - p]:
            if position.theirs[BAR - p] >= 2:
                return blocked(p)
            return Phrase("point %(point)d holds checkers of both colours", point=p)
    return None


def _opponent_problem(position: Position, result: Position) -> str | None:
    before, after = position.theirs, result.theirs
    hits = 0
    for p in range(1, 25):
        if after[p] == before[p]:
            continue
        if before[p] == 1 and after[p] == 0:
            hits += 1
            continue
        return Phrase("the opponent's checkers must not move")
    if after[OFF] != before[OFF] or after[BAR] != before[BAR] + hits:
        return Phrase("the opponent's checkers must not move")
    return None


_Way = tuple[int, str | None, int]
"""A way of playing towards a target: (rules broken, first broken rule, dice used)."""


def _step(me: list[int], th: tuple[int, ...], s: int, die: int) -> tuple[str | None, int, tuple[int, ...]]:
    """One checker moved from ``s`` by ``die`` with every rule relaxed: the first rule the
    step breaks (``None`` when it breaks none), where it lands (:data:`OFF` when borne
    off) and the opponent's checkers after it (one sent to the bar on a hit)."""
    broken: str | None = None
    if me[BAR] and s != BAR:
        broken = _BAR
    to = s - die
    t = th
    if to >= 1:
        n = th[BAR - to]
        if n >= 2:
            broken = broken or blocked(to)
        elif n == 1:
            hit = list(th)
            hit[BAR - to] = 0
            hit[BAR] += 1
            t = tuple(hit)
    else:
        if any(me[7:]):
            broken = broken or _OUTSIDE
        elif to < 0 and any(me[s + 1 : 7]):
            broken = broken or _HIGHEST
        to = OFF
    return broken, to, t


def _search(position: Position, dice: tuple[int, ...], target: Position) -> _Way | None:
    """The closest way to ``target``: (rules broken, first broken rule, dice used)."""
    goal_mine = target.mine
    goal_cum = [0] * 27
    for p in range(BAR, -1, -1):
        goal_cum[p] = goal_cum[p + 1] + goal_mine[p]
    memo: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], _Way | None] = {}

    def reachable(me: list[int]) -> bool:
        cum = 0
        for p in range(BAR, 0, -1):
            cum += me[p]
            if cum < goal_cum[p]:
                return False
        return True

    def best(me: list[int], th: tuple[int, ...], rest: tuple[int, ...]) -> _Way | None:
        key = (tuple(me), th, rest)
        if key in memo:
            return memo[key]
        found: _Way | None = None
        if key[0] == goal_mine and th == target.theirs:
            found = (0, None, 0)
        for die in sorted(set(rest), reverse=True):
            left = list(rest)
            left.remove(die)
            rest2 = tuple(left)
            for s in range(BAR, 0, -1):
                if not me[s]:
                    continue
                broken, to, t = _step(me, th, s, die)
                if t[BAR] > target.theirs[BAR]:
                    continue
                m = me.copy()
                m[s] -= 1
                m[to] += 1
                if not reachable(m):
                    continue
                below = best(m, t, rest2)
                if below is None:
                    continue
                cost = below[0] + (broken is not None)
                candidate = (cost, broken or below[1], below[2] + 1)
                if found is None or (candidate[0], -candidate[2]) < (found[0], -found[2]):
                    found = candidate
        memo[key] = found
        return found

    return best(list(position.mine), position.theirs, dice)


def _point_name(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def _mismatch(position: Position, result: Position, d1: int, d2: int) -> str:
    """The sentence when no way of playing the dice, even breaking rules, gives ``result``."""
    left = [p for p in range(BAR + 1) if result.mine[p] < position.mine[p]]
    arrived = [p for p in range(BAR + 1) if result.mine[p] > position.mine[p]]
    if left and arrived and max(arrived) > max(left):
        return Phrase("checkers move only towards home: one went backwards")
    if len(left) == 1 and len(arrived) == 1:
        a, b = left[0], arrived[0]
        if position.mine[a] - result.mine[a] == 1:
            return Phrase("%(move)s moves %(pips)d pips: the roll %(roll)s cannot play that",
                          move=f"{_point_name(a)}/{_point_name(b)}", pips=a - b, roll=f"{d1}-{d2}")
    return not_a_play(d1, d2)


def not_a_play(d1: int, d2: int) -> str:
    """The sentence for a result no way of playing ``d1``-``d2`` gives."""
    return Phrase("that is not a play of %(roll)s", roll=f"{d1}-{d2}")


def explain(
    position: Position,
    dice: Sequence[int],
    result: Position,
    colours: tuple[str, str] | None = None,
) -> str | None:
    """None if ``result`` is the result of a legal play of ``dice`` from ``position``
    (a pass when no play exists), else one plain sentence saying what is wrong.

    ``result`` is seen like ``position`` (the mover still ``mine``).  ``colours`` names the
    mover's and the opponent's checkers ("white", "black") in count messages.
    """
    d1, d2 = check_dice(dice)
    plays = cached_plays(position, d1, d2)
    if not plays:
        if result == position:
            return None
    elif any(p.position == result for p in plays):
        return None
    problem = _count_problem(position, result, colours) or _opponent_problem(position, result)
    if problem:
        return problem
    if not plays:
        return Phrase("there is no legal play of %(roll)s: the checkers must stay where they are",
                      roll=f"{d1}-{d2}")
    rolled = (d1,) * 4 if d1 == d2 else (d1, d2)
    found = _search(position, rolled, result)
    if found is None:
        return _mismatch(position, result, d1, d2)
    broken, first, used = found
    if broken:
        return first
    needed = len(plays[0].steps)
    if used == 0:
        return cannot_pass(d1, d2)
    if d1 == d2:
        return _many(needed, d1, used)
    if needed == 2:
        return BOTH_DICE
    return larger_die(d1, d2)


# source: "Als er de mogelijkheid bestaat beide dobbelstenen te gebruiken, dan dient dat te
# gebeuren" seeds/000; "müssen die Spieler ... bewegen" seeds/004
BOTH_DICE = Phrase("both dice can be played, this play uses only one")


def cannot_pass(d1: int, d2: int) -> str:
    """A pass when the roll can be played."""
    return Phrase("%(roll)s can be played: you cannot pass", roll=f"{d1}-{d2}")


def larger_die(d1: int, d2: int) -> str:
    """Only one die can be played, and it must be the larger."""
    # source: "dan dient dit degene met het hoogste aantal ogen te zijn" seeds/000
    return Phrase("the %(die)d must be played", die=max(d1, d2))
