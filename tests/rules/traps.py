"""Detectors for the rule traps of REFERENCE.md ("Rule traps that engines test").

Each detector looks at a (position, dice) with single-die moves only — not through
``legal_plays`` — so the rule table can prove its positions really contain the trap.
"""

from __future__ import annotations

from bgboard.rules import BAR, Position
from bgboard.rules.legal import _next


def singles(position: Position, die: int) -> list:
    return _next(list(position.mine), position.theirs, (), die, BAR)


def continues(state, die: int) -> bool:
    me, th, steps = state
    return bool(_next(me, th, steps, die, BAR))


def _all_home(position: Position) -> bool:
    return not any(position.mine[7:])


def both_dice_order(position: Position, dice: tuple[int, int]) -> bool:
    """Some first step strands the other die, yet both dice can be played."""
    a, b = dice
    if a == b:
        return False
    stranded = any(not continues(s, b) for s in singles(position, a)) or any(
        not continues(s, a) for s in singles(position, b)
    )
    full = any(continues(s, b) for s in singles(position, a)) or any(continues(s, a) for s in singles(position, b))
    return stranded and full and position.mine[BAR] == 0


def larger_die(position: Position, dice: tuple[int, int]) -> bool:
    """Either die alone can be played but not both: the larger must be."""
    a, b = dice
    if a == b:
        return False
    one = singles(position, a)
    two = singles(position, b)
    return bool(one and two) and not any(continues(s, b) for s in one) and not any(continues(s, a) for s in two)


def bar_either_die_one_fits_later(position: Position, dice: tuple[int, int]) -> bool:
    """One checker on the bar enters with either die, but only one order plays both."""
    a, b = dice
    if a == b or position.mine[BAR] != 1:
        return False
    ea, eb = singles(position, a), singles(position, b)
    if not (ea and eb):
        return False
    return any(continues(s, b) for s in ea) != any(continues(s, a) for s in eb)


def smaller_first_then_bear_off(position: Position, dice: tuple[int, int]) -> bool:
    """Not all home; the smaller die brings the last checker home, then the larger bears off."""
    a, b = sorted(dice)
    if a == b or _all_home(position) or position.mine[BAR]:
        return False
    for me, th, steps in singles(position, a):
        if not any(me[7:]):
            if any(st[-1].to == 0 for _, _, st in _next(me, th, steps, b, BAR)):
                return True
    return False


def larger_die_from_highest(position: Position, dice: tuple[int, int]) -> bool:
    """All home and a die larger than the highest point: it bears off from the highest."""
    if not _all_home(position) or position.mine[BAR]:
        return False
    hi = max((p for p in range(1, 7) if position.mine[p]), default=0)
    return hi > 0 and max(dice) > hi and any(position.mine[p] for p in range(1, hi))


def larger_die_must_move_inside(position: Position, dice: tuple[int, int]) -> bool:
    """All home, no checker on a die's point but some higher: that die moves inside."""
    if not _all_home(position) or position.mine[BAR]:
        return False
    hi = max((p for p in range(1, 7) if position.mine[p]), default=0)
    return any(d < hi and not position.mine[d] for d in dice)


def double_partly_playable(position: Position, dice: tuple[int, int]) -> bool:
    """A double of which only one, two or three moves can be played."""
    if dice[0] != dice[1]:
        return False
    level = [(list(position.mine), position.theirs, ())]
    depth = 0
    while level and depth < 4:
        level = [n for me, th, st in level for n in _next(me, th, st, dice[0], BAR)]
        if level:
            depth += 1
    return 1 <= depth <= 3


def hit_while_bearing_off(position: Position, dice: tuple[int, int]) -> bool:
    """Checkers already borne off and one on the bar: it must come home first."""
    return position.mine[0] > 0 and position.mine[BAR] > 0


def closed_board_on_bar(position: Position, dice: tuple[int, int]) -> bool:
    """A checker on the bar against a closed board: no play at all."""
    return position.mine[BAR] > 0 and all(position.theirs[p] >= 2 for p in range(1, 7))


TRAPS = {
    "must use both dice when any sequence does": both_dice_order,
    "only one die can be played: the larger one": larger_die,
    "enter from the bar with either die but only one fits later": bar_either_die_one_fits_later,
    "forced smaller die first, then bear off": smaller_first_then_bear_off,
    "bear off from the highest point with a larger die": larger_die_from_highest,
    "a larger die moves inside while a checker is higher": larger_die_must_move_inside,
    "doubles partly playable": double_partly_playable,
    "hit while bearing off: come home first": hit_while_bearing_off,
    "closed board with a checker on the bar: no play": closed_board_on_bar,
}
