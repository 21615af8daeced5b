"""Fevga (Greek tavli): both sides go the same way round; a single checker holds a point.

Rules (VARIANTS.md; docs/rules.md names the source and confidence of each): all 15 start on
the own 24-point, the opponent's stack on my 12-point; both move counter-clockwise, each
bearing off in his own home board; no hitting: a point with any opposing checker is closed
(touch-downs of a combined move too); the first checker must pass the opponent's starting
point (my 12-point) before any other checker may leave the start; a player may never hold
all six points of his own starting quarter (19-24) at once; six points in a row are allowed,
but when all the opponent's remaining checkers stand on the point behind them, the prime
must be opened (when some play of the roll opens it).  No bar; bearing off as usual.
"""

from __future__ import annotations

from bgboard.rules.play import Play
from bgboard.rules.board import Board, borne_off_outcome, side_problems
from bgboard.language import Phrase
from bgboard.rules.explain import BEAR_OFF_HIGHEST, BEAR_OFF_OUTSIDE
from bgboard.rules.position import BAR, CHECKERS, OFF
from bgboard.rules.step import STEPS, Step

START = 24
THEIR_START = 12  # the opponent's starting point in my numbering


def theirs_at(p: int) -> int:
    """The index in the opponent's side of my point ``p`` (both go the same way round)."""
    return p + 12 if p <= 12 else p - 12


def start() -> Board:
    side = (0,) * 24 + (CHECKERS, 0)
    return Board(side, side)


def _first_checker_out(me: tuple[int, ...] | list[int]) -> bool:
    """True while the first checker to leave has not yet passed the opponent's start."""
    if me[START] != CHECKERS - 1:
        return False
    lead = max(p for p in range(1, START) if me[p]) if any(me[1:START]) else 0
    return lead >= THEIR_START


def steps_from(board: Board, die: int) -> list[tuple[Step, Board]]:
    """Every legal single step of ``die`` (the mover is ``mine``)."""
    me, th = board.mine, board.theirs
    out: list[tuple[Step, Board]] = []
    hi = 24
    while hi and not me[hi]:
        hi -= 1
    may_bear_off = not any(me[7:BAR])
    first_out = _first_checker_out(me)
    for s in range(hi, 0, -1):
        if not me[s] or (s == START and first_out):
            continue
        to = s - die
        if to >= 1:
            if th[theirs_at(to)]:
                continue
        elif not may_bear_off or (to < 0 and s != hi):
            continue
        else:
            to = OFF
        m = list(me)
        m[s] -= 1
        m[to] += 1
        if all(m[19:BAR]):
            continue  # never all six points of the starting quarter
        out.append((STEPS[s, to, die, False], Board(tuple(m), th)))
    return out


#: The prime rule's sentence (:func:`open_primes`).
PRIME_RULE = Phrase("six points in a row must be opened when all the opponent's remaining checkers wait behind them")


def why_not(board: Board, frm: int, die: int) -> str | None:
    """The rule (VARIANTS.md, Fevga) that forbids moving my checker on ``frm`` by ``die``,
    for a step :func:`steps_from` does not offer (None if none of these applies)."""
    me, th = board.mine, board.theirs
    if frm == START and _first_checker_out(me):
        return Phrase("your first checker must pass the opponent's starting point (your %(point)d-point) "
                      "before another checker leaves your start", point=12)
    to = frm - die
    if to >= 1:
        if th[theirs_at(to)]:
            return Phrase("point %(point)d is held by the opponent: in Fevga a single checker holds a point", point=to)
    else:
        if any(me[7:BAR]):
            return BEAR_OFF_OUTSIDE
        if to < 0 and any(me[frm + 1 : 7]):
            return BEAR_OFF_HIGHEST
        to = OFF
    m = list(me)
    m[frm] -= 1
    m[to] += 1
    if all(m[19:BAR]):
        return Phrase("you may never hold all six points of your starting quarter (19 to 24) at once")
    return None


def trapping_primes(board: Board) -> list[int]:
    """The top points (my numbering) of six points in a row that I hold just ahead of the
    point where every one of the opponent's remaining checkers stands, ahead **on his way
    round**: from his point ``s`` his points ``s - 1`` to ``s - 6`` (so ``s`` is 7 or more:
    from his 6-point down he bears off), which on my side of the board may run across my
    1-point to my 24-point (his 13 and 12) but never across my 12/13 (his start and his end)."""
    me, th = board.mine, board.theirs
    waiting = sum(th[1:BAR])
    if not waiting:
        return []
    for s in range(7, 25):
        if th[s] == waiting:
            ahead = [theirs_at(s - k) for k in range(1, 7)]  # theirs_at is its own inverse
            return [ahead[0]] if all(me[p] for p in ahead) else []
    return []


def open_primes(plays: list[Play[Board]]) -> list[Play[Board]]:
    """The prime rule: when some plays leave no trapping prime, only those are legal."""
    free = [p for p in plays if not trapping_primes(p.position)]
    return free if free and len(free) < len(plays) else plays


def outcome(board: Board) -> tuple[str | None, str, int] | None:
    """``(winner, kind, points)``: 1, or 2 when the loser has borne off nothing."""
    return borne_off_outcome(board)


def problems(board: Board) -> list[str]:
    """Why ``board`` cannot occur in Fevga (empty if it can)."""
    found = side_problems(board, CHECKERS)
    if found:
        return found
    if board.mine[BAR] or board.theirs[BAR]:
        found.append("Fevga has no bar")
    if board.pins != (0, 0) or board.reserve != (0, 0):
        found.append("Fevga has no pins and no checkers waiting to enter")
    for p in range(1, 25):
        if board.mine[p] and board.theirs[theirs_at(p)]:
            found.append(f"point {p} holds both colours (a single checker holds a point in Fevga)")
    for who, side in (("the player on roll", board.mine), ("the opponent", board.theirs)):
        if all(side[19:BAR]):
            found.append(f"{who} holds all six points of the starting quarter")
    return found
