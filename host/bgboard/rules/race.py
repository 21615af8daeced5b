"""Backgammon Race and Anti Backgammon: backgammon's board with a different start or aim.

Race (VARIANTS.md, M): all 15 start off the board; they enter into the opponent's home
board as from the bar, but entering is optional (a checker already on the board may move
instead); a hit checker goes to the bar and must re-enter before anything else moves;
hitting, blocking and bearing off as usual (every checker entered and home).  Written as a
backgammon step from the bar (``bar/22``): the bar when a checker is on it, else the
reserve.

Anti (VARIANTS.md, M/L): backgammon's start and moves — its plays come from backgammon's own
generator, unchanged — with the aim reversed: whoever bears off all checkers first loses.
"""

from __future__ import annotations

from bgboard.rules.play import Play
from bgboard.rules.board import Board, side_problems
from bgboard.language import Phrase
from bgboard.rules.explain import BEAR_OFF_HIGHEST, BEAR_OFF_OUTSIDE, ENTER_FIRST, blocked
from bgboard.rules.legal import cached_plays
from bgboard.rules.position import BAR, CHECKERS, OFF
from bgboard.rules.result import result_of
from bgboard.rules.step import STEPS, Step
from bgboard.rules.starts import start_position


# ------------------------------------------------------------------------- Race
def race_start() -> Board:
    side = (0,) * 26
    return Board(side, side, (0, 0), (CHECKERS, CHECKERS))


def race_steps_from(board: Board, die: int) -> list[tuple[Step, Board]]:
    """Every legal single step of ``die`` in Race (the mover is ``mine``)."""
    me, th = board.mine, board.theirs
    waiting = board.reserve[0]
    out: list[tuple[Step, Board]] = []
    to = BAR - die
    if me[BAR] or waiting:
        n = th[die]  # their checkers on my point 25 - die
        if n < 2:
            m = list(me)
            reserve = board.reserve
            if me[BAR]:
                m[BAR] -= 1
            else:
                reserve = (waiting - 1, reserve[1])
            m[to] += 1
            t = th
            if n:
                hit = list(th)
                hit[die] = 0
                hit[BAR] += 1
                t = tuple(hit)
            out.append((STEPS[BAR, to, die, bool(n)], Board(tuple(m), t, (0, 0), reserve)))
        if me[BAR]:
            return out  # a hit checker enters before anything else moves
    hi = 24
    while hi and not me[hi]:
        hi -= 1
    may_bear_off = not waiting and not any(me[7:BAR + 1])
    for s in range(hi, 0, -1):
        if not me[s]:
            continue
        to = s - die
        t = th
        hit = False
        if to >= 1:
            n = th[BAR - to]
            if n >= 2:
                continue
            if n:
                hit = True
                lst = list(th)
                lst[BAR - to] = 0
                lst[BAR] += 1
                t = tuple(lst)
        elif not may_bear_off or (to < 0 and s != hi):
            continue
        else:
            to = OFF
        m = list(me)
        m[s] -= 1
        m[to] += 1
        out.append((STEPS[s, to, die, hit], Board(tuple(m), t, (0, 0), board.reserve)))
    return out


def why_not(board: Board, frm: int, die: int) -> str | None:
    """The rule that forbids moving my checker on ``frm`` (the bar: the bar or the reserve)
    by ``die`` in Race or Anti, for a step :func:`race_steps_from` does not offer."""
    me, th = board.mine, board.theirs
    if frm != BAR and me[BAR]:
        return ENTER_FIRST
    to = frm - die
    if to >= 1:
        return blocked(to) if th[BAR - to] >= 2 else None
    if board.reserve[0]:
        return Phrase("you cannot bear off while a checker waits to enter")
    if any(me[7 : BAR + 1]):
        return BEAR_OFF_OUTSIDE
    if to < 0 and any(me[frm + 1 : 7]):
        return BEAR_OFF_HIGHEST
    return None


def race_outcome(board: Board) -> tuple[str | None, str, int] | None:
    """Backgammon's single, gammon and backgammon; a checker never entered counts as one on
    the bar for the backgammon (an open point: docs/rules.md)."""
    for winner, side, loser, waiting in (
        ("mine", board.mine, board.theirs, board.reserve[1]),
        ("theirs", board.theirs, board.mine, board.reserve[0]),
    ):
        if side[OFF] == CHECKERS:
            counted = list(loser)
            counted[BAR] += waiting
            r = result_of(winner, tuple(counted))
            return (r.winner, r.kind, r.points)
    return None


def race_problems(board: Board) -> list[str]:
    found = side_problems(board, CHECKERS)
    if found:
        return found
    if board.pins != (0, 0):
        found.append("Race has no pins")
    for p in range(1, 25):
        if board.mine[p] and board.theirs[BAR - p]:
            found.append(f"point {p} holds checkers of both colours")
    return found


# ------------------------------------------------------------------------- Anti
def anti_start() -> Board:
    return Board.of(start_position("standard"))


def anti_plays(board: Board, dice: tuple[int, int]) -> list[Play[Board]]:
    """Backgammon's legal plays (its fast generator), as variant plays."""
    return [
        Play(p.steps, Board(p.position.mine, p.position.theirs), p.position.mine[OFF] == sum(p.position.mine))
        for p in cached_plays(board.plain(), *dice)
    ]


def anti_steps_from(board: Board, die: int) -> list[tuple[Step, Board]]:
    """Single steps in Anti: backgammon's, from a Race board with nobody waiting."""
    return race_steps_from(board, die)


def anti_outcome(board: Board) -> tuple[str | None, str, int] | None:
    """Whoever has borne off every checker **loses**, one point (no gammons: docs/rules.md)."""
    if board.mine[OFF] == CHECKERS:
        return ("theirs", "single", 1)
    if board.theirs[OFF] == CHECKERS:
        return ("mine", "single", 1)
    return None


def anti_problems(board: Board) -> list[str]:
    found = race_problems(board)
    if board.reserve != (0, 0):
        found.append("Anti starts on the board: no checkers wait to enter")
    return found
