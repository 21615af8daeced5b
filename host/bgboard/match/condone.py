"""Which illegal plays may be condoned (recorded as played).

Older tournament rules let the opponent condone an illegal play by rolling; the USBGF
"Legal Moves" policy (2014) and the WBGF default have it corrected instead.  Even where
condoning is allowed, some plays never are: moving a checker backwards, bearing off
before all the mover's checkers are home, moving an opponent's checker (other than
hitting a blot) and, of course, checkers appearing or vanishing.

:func:`condone_refusal` decides this for a position before the roll and the position the
mover left, both from the mover's view.  A play is condonable when the result can be
reached by moving only the mover's checkers, forwards, by any amounts, sending to the bar
only opponent blots that a moving checker passed or landed on.  Pure code.
"""

from __future__ import annotations

from bgboard.rules import BAR, OFF, Position

Refusal = tuple[str, str]  # (rule key, one sentence)


def _above(side: tuple[int, ...], point: int) -> int:
    """Checkers of ``side`` on ``point`` or further from home (the bar counts as 25)."""
    return sum(side[point:BAR + 1])


def condone_refusal(before: Position, after: Position, checkers: int) -> Refusal | None:
    """Why the play from ``before`` to ``after`` (mover = mine in both) may not be
    condoned, as ``(rule key, sentence)``; ``None`` when it may be."""
    for name, side in (("your", after.mine), ("your opponent's", after.theirs)):
        if len(side) != BAR + 1 or any(n < 0 for n in side) or sum(side) != checkers:
            return (
                "checkers",
                f"the board must show all {checkers} of {name} checkers: checkers may not appear or vanish",
            )
    for point in range(1, BAR):
        if after.mine[point] and after.theirs[BAR - point]:
            return ("checkers", f"point {point} cannot hold checkers of both sides")
    # the mover's checkers only move forwards: never more checkers at or beyond any point
    for point in range(BAR, 0, -1):
        if _above(after.mine, point) > _above(before.mine, point):
            where = "the bar" if point == BAR else f"point {point} or further from home"
            return (
                "backwards",
                f"a checker went back to {where}: moving backwards is never condoned",
            )
    if after.mine[OFF] > before.mine[OFF] and any(after.mine[7:BAR + 1]):
        return (
            "bear-off",
            "a checker was borne off before all your checkers were home: "
            "an illegal bear-off is never condoned",
        )
    # the opponent's checkers: unchanged except blots hit and sent to the bar
    if after.theirs[OFF] != before.theirs[OFF]:
        return ("opponent-checker", "an opponent's checker was moved: that is never condoned")
    hit = 0
    for their_point in range(1, BAR):
        was, now = before.theirs[their_point], after.theirs[their_point]
        if now == was:
            continue
        my_point = BAR - their_point
        passed = _above(after.mine, my_point + 1) < _above(before.mine, my_point + 1)
        if was != 1 or now != 0 or not passed:
            return (
                "opponent-checker",
                f"an opponent's checker was moved on your point {my_point}: that is never condoned",
            )
        hit += 1
    if after.theirs[BAR] != before.theirs[BAR] + hit:
        return ("opponent-checker", "an opponent's checker was moved to or from the bar: that is never condoned")
    return None
