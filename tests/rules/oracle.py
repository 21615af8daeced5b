"""The reference engines, gnubg-nn, gnubg's embedded module and bgsage, as test oracles.

Importing them is the only thing allowed to fail (the wheels exist for x86-64 only):
tests call :func:`require` which skips with a message only in that case.
"""

from __future__ import annotations

import pytest

from bgboard.rules import Play, Position, position_id

try:
    import gnubg_nn
except ImportError as exc:  # pragma: no cover - only off x86-64
    gnubg_nn = None
    GNUBG_NN_ERROR = str(exc)
else:
    GNUBG_NN_ERROR = ""

try:
    import gnubg
except ImportError as exc:  # pragma: no cover - only off x86-64
    gnubg = None
    GNUBG_ERROR = str(exc)
else:
    GNUBG_ERROR = ""

try:
    import bgsage
except ImportError as exc:  # pragma: no cover - only off x86-64
    bgsage = None
    BGSAGE_ERROR = str(exc)
else:
    BGSAGE_ERROR = ""


def require_gnubg_nn():
    if gnubg_nn is None:  # pragma: no cover
        pytest.skip(f"gnubg-nn cannot be imported on this machine ({GNUBG_NN_ERROR})")
    return gnubg_nn


def require_gnubg():
    if gnubg is None:  # pragma: no cover
        pytest.skip(f"gnubg cannot be imported on this machine ({GNUBG_ERROR})")
    return gnubg


def require_bgsage():
    if bgsage is None:  # pragma: no cover
        pytest.skip(f"bgsage cannot be imported on this machine ({BGSAGE_ERROR})")
    return bgsage


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg's board as lists (gnubg_nn wants lists)."""
    opp, me = position.to_gnubg()
    return [list(opp), list(me)]


def gnubg_ids(position: Position, dice: tuple[int, int]) -> set[str]:
    """Position IDs of gnubg-nn's resulting positions (before the swap)."""
    g = require_gnubg_nn()
    return {
        g.position_id([list(x) for x in g.board_from_position_key(key)])
        for key in g.moves(gnubg_board(position), *dice)
    }


def bgsage_boards(position: Position, dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """bgsage's resulting boards (26 ints, on-roll view); a pass gives the unchanged board."""
    b = require_bgsage()
    return {tuple(board) for board in b.possible_moves(position.to_bgsage(), *dice)}


def bgsage_ends_early(ours: set[tuple[int, ...]], sage: set[tuple[int, ...]]) -> bool:
    """bgsage's one known difference: when the mover can bear off the last checker with
    one die, it also lists that position although the other die could be played first
    (e.g. last checker on 2 with 2-1: only "2/1*/off" — hitting — is legal; gnubg agrees
    with us).  True when ``sage`` is ``ours`` plus only such finished positions."""
    extra = sage - ours
    return ours < sage and all(sum(v for v in board[1:25] if v > 0) + board[25] == 0 for board in extra)


def compare_engines(position: Position, dice: tuple[int, int], plays: tuple[Play, ...]) -> tuple[bool, str]:
    """Our legal ``plays`` of ``dice`` against both engines: (gnubg-nn lists the same
    resulting positions, bgsage's verdict: ``"agrees"``, ``"quirk"`` — only its known
    difference, see :func:`bgsage_ends_early` — or ``"differs"``)."""
    ours = {position_id(p.position) for p in plays}
    boards = {tuple(p.position.to_bgsage()) for p in plays} or {tuple(position.to_bgsage())}
    sage = bgsage_boards(position, dice)
    verdict = "agrees" if boards == sage else "quirk" if bgsage_ends_early(boards, sage) else "differs"
    return ours == gnubg_ids(position, dice), verdict
