"""The gnubg-nn backend (GNU Backgammon's neural nets; GPL; x86-64 wheels only).

``gnubg_nn`` is imported only here.  Side convention (REFERENCE.md): a gnubg board is
``(opponent, player on roll)``, so the board after my play, with the opponent to roll,
is ``after.swap().to_gnubg()`` and ``probabilities`` answers for the *opponent*: the
mover's equity is minus the opponent's.  Cube advice uses
``evaluate_cube_decision(position_id, plies, -1, b"O", 1)`` after ``set.score``: match
play only (as gnubg-nn provides it).  Its three numbers are match winning chances; the
hint carries gnubg's ``mwc2eq`` slope (eval.c) so that cube errors are graded in
normalised money equity as gnubg grades them (``equity_scale``, see :func:`mwc_slope`).
"""

from __future__ import annotations

import os
import struct
from math import comb
from typing import Any, Sequence

from bgboard.hints.hint_engine import CubeHint, classify_cube, CubeState, EngineUnavailableError, UnsupportedError
from bgboard.hints.terminal import finished_equity
from bgboard.rules.position import Position


def _import() -> Any:
    try:
        import gnubg_nn
    except ImportError as exc:
        raise EngineUnavailableError(f"the gnubg-nn engine is not installed: pip install 'bgboard[hints]' ({exc})") from exc
    return gnubg_nn


def cubeless_equity(probs: Sequence[float]) -> float:
    """Money equity from gnubg's (win, win gammon, win backgammon, lose gammon, lose backgammon)."""
    win, wg, wbg, lg, lbg = probs[:5]
    return 2.0 * win - 1.0 + wg + wbg - lg - lbg


def mwc_slope(mwc_win: float, mwc_lose: float) -> float | None:
    """gnubg's ``mwc2eq`` is linear: normalised equity = ``(2 mwc - (win + lose)) / (win -
    lose)``, so a difference of match winning chances times ``2 / (win - lose)`` is a
    difference of normalised equity (None when win and lose coincide)."""
    spread = mwc_win - mwc_lose
    return 2.0 / spread if spread > 1e-9 else None


class GnubgEngine:
    """gnubg-nn evaluating every resulting position at ``plies`` (0 = the raw net)."""

    name = "gnubg-nn"
    calibrated = True

    def __init__(self, plies: int = 0) -> None:
        self._gnubg = _import()
        self.plies = plies

    def equity_after(self, after: Position, checkers: int = 15) -> float:
        """Cubeless equity for the mover of ``after`` (the mover still ``mine``)."""
        done = finished_equity(after, checkers)
        if done is not None:
            return done
        board = after.swap().to_gnubg()
        probs = self._gnubg.probabilities([list(board[0]), list(board[1])], self.plies)
        return -cubeless_equity(probs)

    def rank(
        self, position: Position, dice: tuple[int, int], results: Sequence[Position], state: CubeState | None = None
    ) -> list[float]:
        """gnubg-nn's cubeless money equity of each resulting position (the mover's view);
        the cube and the score are ignored by this backend."""
        checkers = sum(position.mine)
        return [self.equity_after(after, checkers) for after in results]

    def cube(self, position: Position, state: CubeState) -> CubeHint:
        """gnubg-nn's cube decision in match play (centred cube, or mine)."""
        if state.money:
            raise UnsupportedError("the gnubg-nn engine gives cube advice in match play only: use bgsage for money games")
        g = self._gnubg
        if state.owner == "centred" and state.value != 1:
            raise UnsupportedError("the gnubg-nn engine needs a centred cube at 1 in match play")
        try:
            g.set.score(state.my_away, state.their_away, 1 if state.crawford else 0)
            # Owner letters as gnubg-nn's ``set.cube`` takes them; the owner did not change
            # the answers in our trials, the value does (it moves the match equities).
            g.set.cube(state.value, b"O" if state.owner == "mine" else b"C")
            pid = g.position_id([list(side) for side in position.to_gnubg()])
            double, take, _, nd, dt, dp = g.evaluate_cube_decision(pid, self.plies, -1, b"O", 1)
            lose = self._mwc_losing(state)
        finally:
            # The score is global in gnubg-nn and changes its move choice: back to money.
            g.set.cube(1, b"C")
            g.set.score(0, 0, 0)
        return CubeHint(
            engine=self.name,
            action=classify_cube(bool(double), bool(take), float(nd), float(dp)),
            take=bool(take),
            no_double=float(nd),
            double_take=float(dt),
            double_pass=float(dp),
            unit="match winning chance",
            # double/pass is the match winning chance of winning the cube's value: gnubg's
            # rMwcWin; rMwcLose comes from the same match equity table
            equity_scale=mwc_slope(float(dp), lose),
        )

    def _mwc_losing(self, state: CubeState) -> float:
        """The player on roll's match winning chance after losing the cube's value now
        (gnubg's ``getME`` for the opponent winning ``nCube`` points), from gnubg-nn's own
        match equity table (``equities.value`` answers ``2 mwc - 1``).  The next game is
        then a post-Crawford one only when the opponent was 1-away (the match is then
        lost) or the player on roll was (a dead cube, never asked here)."""
        their_away = state.their_away - state.value
        if their_away <= 0:
            return 0.0
        return (float(self._gnubg.equities.value(state.my_away, their_away)) + 1.0) / 2.0

    def close(self) -> None:
        """Nothing to release."""


#: gnubg-nn's position classes (``classify``) by the names gnubg's cube efficiency uses.
_CLASSES = {0: "over", 1: "bearoff", 2: "bearoff", 3: "race", 4: "crashed", 5: "contact"}


def _pips(side: Sequence[int]) -> int:
    return sum((i + 1) * n for i, n in enumerate(side))


class TwoSidedBearoff:
    """gnubg's two-sided bear-off database ``gnubg_ts0.bd`` (up to 6 checkers each on the
    6 home points; exact cubeless and cubeful money equities), shipped with gnubg-nn and read
    as gnubg reads it (bearoff.c ``ReadTwoSidedBearoff``: a 40-byte header, then per pair of
    positions four little-endian 16-bit numbers, ``n / 32767.5 - 1``: cubeless, cube owned
    by the player on roll, centred, owned by the opponent)."""

    POINTS = 6
    CHECKERS = 6

    def __init__(self, data: bytes) -> None:
        if not data.startswith(b"gnubg-TS-06-06-1"):
            raise EngineUnavailableError("gnubg-nn's gnubg_ts0.bd is not a 6x6 cubeful two-sided bear-off database")
        self._data = data
        self._n = comb(self.POINTS + self.CHECKERS, self.POINTS)

    @classmethod
    def open(cls) -> "TwoSidedBearoff | None":
        """The database beside gnubg-nn's module, or None when it is not there."""
        module = _import()
        path = os.path.join(os.path.dirname(module.__file__), "data", "gnubg_ts0.bd")
        try:
            with open(path, "rb") as f:
                return cls(f.read())
        except OSError:
            return None

    def covers(self, board: Sequence[Sequence[int]]) -> bool:
        """Both sides have checkers left, at most 6, all on their first 6 points (gnubg's
        ``isBearoff``)."""
        for side in board:
            if any(side[self.POINTS:]) or not 0 < sum(side) <= self.CHECKERS:
                return False
        return True

    def _index(self, side: Sequence[int]) -> int:
        """gnubg's ``PositionBearoff``: the combinatorial rank of one side's position."""
        j = self.POINTS - 1 + sum(side[: self.POINTS])
        bits = 1 << j
        for i in range(self.POINTS - 1):
            j -= side[i] + 1
            bits |= 1 << j
        rank, n, r = 0, self.CHECKERS + self.POINTS, self.POINTS
        while n != r:
            if bits & (1 << (n - 1)):
                rank += comb(n - 1, r)
                r -= 1
            n -= 1
        return rank

    def equities(self, board: Sequence[Sequence[int]]) -> tuple[float, float, float, float]:
        """(cubeless, owned, centred, opponent owns) money equities of ``board[1]`` on roll."""
        at = 40 + 8 * (self._index(board[1]) * self._n + self._index(board[0]))
        a, b, c, d = struct.unpack_from("<4H", self._data, at)
        return a / 32767.5 - 1.0, b / 32767.5 - 1.0, c / 32767.5 - 1.0, d / 32767.5 - 1.0


class RawEvaluations:
    """gnubg-nn's 0-ply cubeless evaluations with what gnubg's cube arithmetic needs (the
    position class and the pip count of the player on roll), for the analysis
    (:mod:`bgboard.analysis.evaluators` turns them into cubeful match equities).  Nothing
    here touches gnubg-nn's global score or cube."""

    name = "gnubg-nn"

    def __init__(self) -> None:
        self._g = _import()
        self.bearoff = TwoSidedBearoff.open()

    def on_roll(self, position: Position) -> tuple[tuple[float, ...], str, int]:
        """(probabilities of the player on roll, class, their pips) for ``position``."""
        board = position.to_gnubg()
        kind, pips = self.kind(board)
        return self.exact(board), kind, pips

    def two_sided(self, board: Sequence[Sequence[int]]) -> tuple[float, float, float, float] | None:
        """gnubg's exact money equities for a two-sided bear-off (class ``ts``), else None."""
        if self.bearoff is None or not self.bearoff.covers(board):
            return None
        return self.bearoff.equities(board)

    def candidates(self, position: Position, dice: tuple[int, int], limit: int | None = None) -> list[tuple[str, tuple[float, ...]]]:
        """Every distinct play of ``dice`` in one call, cheaply: (gnubg's position key of
        the board it leaves, the opponent's probabilities on roll there).  Empty when no
        play exists.  gnubg-nn lists them best first by its cubeless money equity;
        ``limit`` keeps that many.  :meth:`board`, :meth:`after`, :meth:`kind` and
        :meth:`exact` give the rest for the few plays that need it."""
        board = position.to_gnubg()
        found = self._g.best_move([list(board[0]), list(board[1])], dice[0], dice[1], 0, list=1)
        listing = found[1] if isinstance(found, tuple) and len(found) > 1 else ()
        out = []
        for key, _move, probs, _score in listing[:limit]:
            values = tuple(probs[:5])
            if min(values) < 0.0 or max(values) > 1.0:
                values = self._probs(*self.board(key))
            out.append((key, values))
        return out

    def key(self, after: Position) -> str:
        """gnubg's position key of the board ``after`` leaves (the opponent to roll)."""
        return str(self._g.key_of_board([list(after.mine[1:]), list(after.theirs[1:])]))

    def board(self, key: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The board of a position key: the mover's side first, the opponent on roll second."""
        b0, b1 = self._g.board_from_position_key(key)
        return tuple(b0), tuple(b1)

    def _probs(self, b0: Sequence[int], b1: Sequence[int]) -> tuple[float, ...]:
        return tuple(float(p) for p in self._g.probabilities([list(b0), list(b1)], 0)[:5])

    @staticmethod
    def after(board: tuple[tuple[int, ...], tuple[int, ...]], checkers: int = 15) -> Position:
        """The :class:`Position` a candidate's board stands for (the mover still ``mine``;
        unchecked: the engine's boards are legal)."""
        b0, b1 = board
        return Position((checkers - sum(b0), *b0), (checkers - sum(b1), *b1))

    def kind(self, board: Sequence[Sequence[int]]) -> tuple[str, int]:
        """gnubg's position class of a board (``ts`` for the two-sided bear-off database)
        and the pips of its player on roll."""
        if self.bearoff is not None and self.bearoff.covers(board):
            return "ts", 0
        kind = _CLASSES.get(int(self._g.classify([list(board[0]), list(board[1])])), "contact")
        return kind, _pips(board[1]) if kind == "race" else 0

    def exact(self, board: Sequence[Sequence[int]]) -> tuple[float, ...]:
        """The probabilities of a candidate's board evaluated on their own: the listing's
        numbers are only good to order the plays (about 1 % of them differ, in every
        class, bear-offs most; we met values like -2e19).  A two-sided bear-off's come
        from the database, as gnubg takes them (no gammons)."""
        ts = self.two_sided(board)
        if ts is not None:
            return (ts[0] / 2.0 + 0.5, 0.0, 0.0, 0.0, 0.0)
        return self._probs(board[0], board[1])

    def close(self) -> None:
        """Nothing to release."""
