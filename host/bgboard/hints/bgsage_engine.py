"""The bgsage backend (Open Sage neural nets, MPL-2.0): the default engine.

``bgsage`` is imported only here.  Its board is one 26-int list from the on-roll view
(``Position.to_bgsage``); a play's result comes back the same way, the mover still
positive.  Checker play without a cube state uses a cubeless analyzer (about ten times
faster than the cubeful one, and what the benchmarks measure); with a cube state (match
score, cube value and owner) and for cube advice a cubeful one.
"""

from __future__ import annotations

from typing import Any, Sequence

from bgboard.hints.hint_engine import CubeHint, classify_cube, CubeState, EngineUnavailableError
from bgboard.hints.terminal import finished_equity
from bgboard.rules.position import Position

_OWNER = {"centred": "centered", "mine": "player", "theirs": "opponent"}


def _import() -> Any:
    try:
        import bgsage
    except ImportError as exc:  # includes a blocked or broken install
        raise EngineUnavailableError(f"the bgsage engine is not installed: pip install 'bgboard[hints]' ({exc})") from exc
    return bgsage


class BgsageEngine:
    """bgsage at ``eval_level`` ("1ply" = gnubg's 0-ply; "2ply", "3ply" look further)."""

    name = "bgsage"
    calibrated = True

    def __init__(self, eval_level: str = "1ply", threads: int = 1) -> None:
        bgsage = _import()
        self._bgsage = bgsage
        self.eval_level = eval_level
        self._checker = bgsage.BgBotAnalyzer(eval_level=eval_level, cubeful=False, parallel_threads=threads)
        self._cube: Any = None
        self._threads = threads

    def _cubeful(self) -> Any:
        if self._cube is None:
            self._cube = self._bgsage.BgBotAnalyzer(eval_level=self.eval_level, cubeful=True, parallel_threads=self._threads)
        return self._cube

    def rank(
        self, position: Position, dice: tuple[int, int], results: Sequence[Position], state: CubeState | None = None
    ) -> list[float]:
        """bgsage's equity of each resulting position (the mover's view): cubeless money
        equity without ``state``, else cubeful for that cube and match score."""
        checkers = sum(position.mine)
        if state is None:
            analysis = self._checker.checker_play(position.to_bgsage(), dice[0], dice[1])
        else:
            analysis = self._cubeful().checker_play(
                position.to_bgsage(),
                dice[0],
                dice[1],
                **_cube_arguments(state),
            )
        by_board = {tuple(move.board): float(move.equity) for move in analysis.moves}
        scores = []
        for after in results:
            key = tuple(after.to_bgsage())
            if key in by_board:
                scores.append(by_board[key])
                continue
            done = finished_equity(after, checkers)  # bgsage omits the game-winning play
            if done is None:
                raise RuntimeError(f"bgsage did not list the play giving {after}")
            scores.append(done)
        return scores

    def cube(self, position: Position, state: CubeState) -> CubeHint:
        """bgsage's cube action: money or match, Crawford-aware."""
        result = self._cubeful().cube_action(
            position.to_bgsage(),
            **_cube_arguments(state),
        )
        # bgsage says "No Double" both when it is too early and when it is too good
        action = classify_cube(
            bool(result.should_double), bool(result.should_take), float(result.equity_nd), float(result.equity_dp)
        )
        return CubeHint(
            engine=self.name,
            action=action,
            take=bool(result.should_take),
            no_double=float(result.equity_nd),
            double_take=float(result.equity_dt),
            double_pass=float(result.equity_dp),
        )

    def close(self) -> None:
        """Drop the analyzers (idempotent)."""
        self._cube = None


def _cube_arguments(state: CubeState) -> dict[str, object]:
    """bgsage's keyword arguments for a cube and match score (checker play and cube action)."""
    return {
        "cube_value": state.value,
        "cube_owner": _OWNER[state.owner],
        "away1": state.my_away,
        "away2": state.their_away,
        "is_crawford": state.crawford,
        "jacoby": state.jacoby,
        "beaver": state.beaver,
    }
