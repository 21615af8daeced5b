"""Plakoto (Greek tavli): no hitting, a lone checker landed on is pinned.

Rules (VARIANTS.md; docs/rules.md names the source and confidence of each): all 15 start on
the own 24-point; opposite directions as in backgammon; landing on a single opposing checker
pins it until every pinning checker has left, and more of the pinner's checkers may join;
a point with two or more opposing checkers, or where the opponent pins one of mine, is
blocked (touch-downs of a combined move too); no bar; the **mother checker** — the last
checker on the own starting point — pinned there loses at once, unless the pinner still has
checkers on his own starting point; both mothers pinned is a draw; bearing off as in
backgammon, not while a checker of mine is pinned in my home board.
"""

from __future__ import annotations

from bgboard.rules.board import Board, borne_off_outcome, side_problems
from bgboard.language import Phrase
from bgboard.rules.explain import BEAR_OFF_HIGHEST, BEAR_OFF_OUTSIDE
from bgboard.rules.position import BAR, CHECKERS, OFF
from bgboard.rules.step import STEPS, Step

START = 24


def start() -> Board:
    side = (0,) * 24 + (CHECKERS, 0)
    return Board(side, side)


def steps_from(board: Board, die: int) -> list[tuple[Step, Board]]:
    """Every legal single step of ``die`` (the mover is ``mine``)."""
    me, th = board.mine, board.theirs
    mine_pins, their_pins = board.pins
    out: list[tuple[Step, Board]] = []
    hi = 24
    while hi and not me[hi]:
        hi -= 1
    may_bear_off = not any(me[7:BAR]) and not mine_pins
    for s in range(hi, 0, -1):
        if not me[s] or mine_pins >> s & 1:
            continue
        to = s - die
        pins_t = their_pins
        pinned_now = False
        if to >= 1:
            if mine_pins >> to & 1:
                continue  # the opponent pins one of mine there
            q = BAR - to
            n = th[q]
            if n >= 2:
                continue
            if n == 1 and not their_pins >> q & 1:
                pins_t |= 1 << q
                pinned_now = True
        else:
            if not may_bear_off or (to < 0 and s != hi):
                continue
            to = OFF
        m = list(me)
        m[s] -= 1
        m[to] += 1
        if not m[s] and pins_t >> (BAR - s) & 1:
            pins_t &= ~(1 << (BAR - s))  # my last pinner left: their checker is free
        out.append((STEPS[s, to, die, pinned_now], Board(tuple(m), th, (mine_pins, pins_t))))
    return out


def why_not(board: Board, frm: int, die: int) -> str | None:
    """The rule (VARIANTS.md, Plakoto) that forbids moving my checker on ``frm`` by ``die``,
    for a step :func:`steps_from` does not offer (None if none of these applies)."""
    me, th = board.mine, board.theirs
    mine_pins = board.pins[0]
    if mine_pins >> frm & 1:
        # source: pin = "πλακώνω" (Plakoto: "pinned"), not in the seeds: VARIANTS.md
        return Phrase("your checker on point %(point)d is pinned: it cannot move until every checker pinning it has left",
                      point=frm)
    to = frm - die
    if to >= 1:
        if mine_pins >> to & 1:
            return Phrase("point %(point)d is blocked: the opponent pins one of your checkers there", point=to)
        if th[BAR - to] >= 2:
            return Phrase("point %(point)d is blocked: two or more of the opponent's checkers hold it", point=to)
        return None
    if any(me[7:BAR]):
        return BEAR_OFF_OUTSIDE
    if mine_pins:
        return Phrase("you cannot bear off while one of your checkers is pinned in your home board")
    if to < 0 and any(me[frm + 1 : 7]):
        return BEAR_OFF_HIGHEST
    return None


def mother_pinned(side: tuple[int, ...], pins: int) -> bool:
    """The side's last checker on its starting point is pinned there."""
    return side[START] == 1 and bool(pins >> START & 1)


def outcome(board: Board) -> tuple[str | None, str, int] | None:
    """``(winner, kind, points)`` once the game is over (winner ``"mine"``, ``"theirs"`` or
    None for a draw), else None."""
    me, th = board.mine, board.theirs
    mine_caught = mother_pinned(me, board.pins[0])
    theirs_caught = mother_pinned(th, board.pins[1])
    if mine_caught and theirs_caught:
        return (None, "draw", 0)
    if theirs_caught and not me[START]:
        return ("mine", "mother", 2)
    if mine_caught and not th[START]:
        return ("theirs", "mother", 2)
    return borne_off_outcome(board)


def problems(board: Board) -> list[str]:
    """Why ``board`` cannot occur in Plakoto (empty if it can)."""
    found = side_problems(board, CHECKERS)
    if found:
        return found
    if board.mine[BAR] or board.theirs[BAR]:
        found.append("Plakoto has no bar")
    if board.reserve != (0, 0):
        found.append("Plakoto starts on the board: no checkers wait to enter")
    for p in range(1, 25):
        q = BAR - p
        a, b = board.mine[p], board.theirs[q]
        mine_pinned, theirs_pinned = board.pins[0] >> p & 1, board.pins[1] >> q & 1
        if mine_pinned and theirs_pinned:
            found.append(f"point {p}: both sides cannot pin each other")
        elif mine_pinned and not (a == 1 and b >= 1):
            found.append(f"point {p}: a pinned checker is one checker under at least one opposing checker")
        elif theirs_pinned and not (b == 1 and a >= 1):
            found.append(f"point {p}: a pinned checker is one checker under at least one opposing checker")
        elif a and b and not (mine_pinned or theirs_pinned):
            found.append(f"point {p} holds both colours without a pin")
    if board.pins[0] & 1 or board.pins[1] & 1 or board.pins[0] >> 25 or board.pins[1] >> 25:
        found.append("pins are on points 1 to 24")
    return found
