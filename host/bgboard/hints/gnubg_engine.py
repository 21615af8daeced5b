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

from typing import Any, Sequence

from bgboard.hints.engine import CubeHint, classify_cube, CubeState, EngineUnavailableError, UnsupportedError
from bgboard.hints.terminal import finished_equity
from bgboard.rules.position import Position


def _import() -> Any:
    try:
        import gnubg_nn
    except ImportError as exc:
        raise EngineUnavailableError(f"the gnubg-nn engine is not installed ({exc})") from exc
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
