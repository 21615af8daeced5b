"""Opening an engine for the analysis (adapter): gnubg-nn's cubeful 0-ply match equities
(:class:`bgboard.hints.gnubg_engine.MatchEvaluator`, the one that agrees with gnubg) or
bgsage's cubeful evaluation (:class:`BgsageEvaluator`)."""

from __future__ import annotations

from bgboard.analysis.walk import Evaluator
from bgboard.errors import InputError
from bgboard.hints.engine import CubeState
from bgboard.rules import Position, legal_plays

__all__ = ["ANALYSIS_ENGINES", "BgsageEvaluator", "open_evaluator"]

ANALYSIS_ENGINES = ("gnubg-nn", "bgsage")
_LEVELS = {0: "1ply", 1: "2ply", 2: "3ply"}


class BgsageEvaluator:
    """bgsage's cubeful equities (EMG) at the match score; its ``1ply`` is gnubg's 0-ply."""

    name = "bgsage"

    def __init__(self, plies: int = 0) -> None:
        from bgboard.hints.bgsage_engine import BgsageEngine

        self.engine = BgsageEngine(_LEVELS[plies])
        self._met: object | None = None

    def plays(
        self, position: Position, dice: tuple[int, int], state: CubeState, played: Position | None = None
    ) -> tuple[int, list[tuple[Position, float]]]:
        results = [p.position for p in legal_plays(position, dice)]
        if not results:
            return 0, []
        values = self.engine.rank(position, dice, results, state)
        return len(results), sorted(zip(results, values), key=lambda item: -item[1])

    def best_value(self, position: Position, dice: tuple[int, int], state: CubeState) -> float:
        count, ranked = self.plays(position, dice, state)
        if count:
            return ranked[0][1]
        hint = self.engine.cube(position.swap(), _swap(state))
        nd = hint.no_double or 0.0
        return -nd

    def cube(self, position: Position, state: CubeState) -> tuple[float, float, float] | None:
        hint = self.engine.cube(position, state)
        if hint.no_double is None or hint.double_take is None or hint.double_pass is None:
            return None
        return hint.no_double, hint.double_take, hint.double_pass

    def win_lose(self, state: CubeState) -> tuple[float, float]:
        """bgsage gives no match equity table here: gnubg-nn's when installed, else a
        linear stand-in (MWC figures then only approximate)."""
        try:
            from bgboard.hints.gnubg_engine import MatchEvaluator

            if self._met is None:
                self._met = MatchEvaluator()
            return self._met.win_lose(state)  # type: ignore[attr-defined]
        except InputError:
            return 0.5 + 0.25 * state.value / max(state.my_away, 1), 0.5 - 0.25 * state.value / max(state.their_away, 1)


def _swap(state: CubeState) -> CubeState:
    owner = {"centred": "centred", "mine": "theirs", "theirs": "mine"}[state.owner]
    return CubeState(value=state.value, owner=owner, my_away=state.their_away, their_away=state.my_away,
                     crawford=state.crawford, jacoby=state.jacoby, beaver=state.beaver)


def open_evaluator(name: str, plies: int = 0) -> Evaluator:
    """The analysis engine ``name`` (one of :data:`ANALYSIS_ENGINES`) at ``plies``;
    :class:`~bgboard.hints.EngineUnavailableError` (one sentence) when it is not installed."""
    if name not in ANALYSIS_ENGINES:
        raise InputError(f"unknown analysis engine {name!r}: choose one of {', '.join(ANALYSIS_ENGINES)}")
    if plies not in _LEVELS:
        raise InputError(f"--ply must be 0, 1 or 2, not {plies}")
    if name == "gnubg-nn":
        if plies != 0:
            raise InputError("the gnubg-nn analysis runs at 0-ply only (gnubg-nn's cube evaluation): use --engine bgsage for 1 or 2 plies")
        from bgboard.hints.gnubg_engine import MatchEvaluator

        return MatchEvaluator()
    return BgsageEvaluator(plies)
