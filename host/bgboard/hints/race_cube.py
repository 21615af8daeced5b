"""Cube advice in a money race without an engine: Tom Keith's count (pure).

Source: Tom Keith, "Cube Handling In Noncontact Positions" (bkgm.com), summarised at
http://bgonline.org/keith.html.  Each side's pip count, plus 2 for each checker beyond one
on its 1-point, 1 for each beyond one on its 2-point, 1 for each beyond three on its
3-point, and 1 for each empty point among 4, 5 and 6; the player on roll adds one seventh
(rounded down).  Double if the roller's count exceeds the opponent's by no more than 4
(redouble: 3); take if it exceeds it by at least 2.  Money play only; gammons are ignored,
so it never says "too good".
"""

from __future__ import annotations

from bgboard.hints.hint_engine import CubeAction, CubeHint, CubeState
from bgboard.rules.position import Position

__all__ = ["keith_count", "keith_cube"]


def keith_count(side: tuple[int, ...]) -> int:
    """The Keith count of one side (a 26-tuple from its owner's view, 25 = bar)."""
    count = sum(p * n for p, n in enumerate(side))
    count += 2 * max(side[1] - 1, 0)
    count += max(side[2] - 1, 0)
    count += max(side[3] - 3, 0)
    count += sum(1 for p in (4, 5, 6) if side[p] == 0)
    return count


def keith_cube(position: Position, state: CubeState, engine: str = "keith") -> CubeHint:
    """Keith's money-race cube action for the player on roll (``state.owner`` "mine" =
    a redouble)."""
    mine = keith_count(position.mine)
    mine += mine // 7
    theirs = keith_count(position.theirs)
    lead = mine - theirs
    limit = 3 if state.owner == "mine" else 4
    double = lead <= limit
    take = lead >= 2
    if double:
        action = CubeAction.DOUBLE_TAKE if take else CubeAction.DOUBLE_PASS
    else:
        action = CubeAction.NO_DOUBLE
    return CubeHint(engine=engine, action=action, take=take, basis=f"Keith count {mine} against {theirs}")
