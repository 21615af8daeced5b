"""Opening an engine for the analysis (adapter): gnubg's 0-ply arithmetic over gnubg-nn's
probabilities (:class:`GnubgEvaluator`, the one that agrees with gnubg's own analysis) or
bgsage's cubeful evaluation (:class:`BgsageEvaluator`)."""

from __future__ import annotations

from bgboard.analysis import cubeful as cf
from bgboard.analysis.money import money_decision, money_on_roll_value, money_utility
from bgboard.analysis.walk import SWAP_OWNER, Evaluator, swap_cube
from bgboard.hints.terminal import finished_equity
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from bgboard.errors import InputError
from bgboard.hints.hint_engine import CubeState
from bgboard.rules import Position, legal_plays

if TYPE_CHECKING:
    from bgboard.analysis.gnubg_program import GnubgProgram

__all__ = ["ANALYSIS_ENGINES", "BgsageEvaluator", "GnubgEvaluator", "open_engine", "open_evaluator"]

#: The analysis engines, the first installed of them the default (``auto``): gnubg-nn (x86-64
#: wheels), the gnubg program (Debian's ``gnubg``: the Raspberry Pi's engine), bgsage.
ANALYSIS_ENGINES = ("gnubg-nn", "gnubg", "bgsage")
_LEVELS = {0: "1ply", 1: "2ply", 2: "3ply"}


_OWNER = {"centred": -1, "mine": 0, "theirs": 1}


class GnubgEvaluator:
    """gnubg's own 0-ply analysis arithmetic over gnubg-nn's 0-ply probabilities: each play
    valued by the position it leaves, the opponent on roll there with their cube options
    (gnubg's ``ScoreMove`` → ``GetECF3``), cube decisions by ``Cl2CfMatch`` /
    ``Cl2CfMoney`` (:mod:`bgboard.analysis.cubeful`, :mod:`bgboard.analysis.money`).
    Every value is the mover's normalised money equity (EMG).

    gnubg values every play cubefully; here the ``top`` best by cubeless equity are (and
    the play made), for the luck of the rolls not thrown the ``luck_top`` best within
    ``luck_margin`` of the best one's cubeless equity.
    """

    name = "gnubg-nn"

    def __init__(self, top: int = 12, luck_top: int = 3, luck_margin: float = 0.05) -> None:
        from bgboard.hints.gnubg_engine import RawEvaluations

        self.raw = RawEvaluations()
        self.top = top
        self.luck_top = luck_top
        self.luck_margin = luck_margin

    @staticmethod
    @lru_cache(maxsize=1024)
    def cube_of(state: CubeState) -> cf.Cube:
        """gnubg's cube information with the mover as player 0."""
        return cf.Cube.checked((state.my_away, state.their_away), state.value, _OWNER[state.owner], 0, state.crawford)

    def _after_value(self, after: Position, board: Sequence[Sequence[int]], probs: tuple[float, ...], kind: str,
                     pips: int, state: CubeState) -> float:
        """The mover's EMG of ``after`` (``board``: the opponent on roll with ``probs``)."""
        ts = None
        if sum(after.mine[1:]) == 0:  # the mover bore off the last checker
            done = finished_equity(after, sum(after.mine)) or 1.0
            points = int(round(abs(done)))
            probs = (0.0, 0.0, 0.0, 1.0 if points >= 2 else 0.0, 1.0 if points >= 3 else 0.0)
            kind = "over"
        elif kind == "ts":
            ts = self.raw.two_sided(board)
        x = cf.cube_efficiency(kind, pips)
        if state.money:
            return -money_on_roll_value(probs, SWAP_OWNER[state.owner], x, state.jacoby, ts)
        cube = self.cube_of(state)
        eff: cf.Efficiency = x if ts is None else (lambda c: cf.ts_efficiency(ts, probs, c))
        return cf.mwc2eq(1.0 - cf.on_roll_value(probs, cube.swapped(), eff), cube)

    def _ranked(self, position: Position, dice: tuple[int, int], state: CubeState, top: int,
                played: Position | None, luck: bool = False) -> tuple[int, list[tuple[Position, float]]]:
        # the luck of the rolls not thrown: gnubg-nn's own order (cubeless money) picks the
        # few plays valued cubefully; a play made: every play ordered at the match score
        found = self.raw.candidates(position, dice, 2 * top if luck else None)
        if not found:
            return 0, []
        if state.money:
            found.sort(key=lambda c: money_utility(c[1]))
        else:
            opp = self.cube_of(state).swapped()
            found.sort(key=lambda c: cf.utility(c[1], opp))
        chosen = found[:top]
        if luck and not state.money:
            # the rolls not thrown: only plays whose cubeless equity is near the best's can
            # be the best cubefully
            first = cf.utility(chosen[0][1], opp)
            # the first is the best of this order and always stays (a filtered-empty list raised
            # IndexError once, in a full run: only a NaN utility can compare so)
            chosen = chosen[:1] + [c for c in chosen[1:] if cf.utility(c[1], opp) <= first + self.luck_margin]
        if played is not None:
            target = self.raw.key(played)
            chosen += [c for c in found[top:] if c[0] == target]
        checkers = sum(position.mine)
        ranked = []
        for key, _probs in chosen:
            board = self.raw.board(key)
            after = self.raw.after(board, checkers)
            kind, pips = self.raw.kind(board)
            ranked.append((after, self._after_value(after, board, self.raw.exact(board), kind, pips, state)))
        ranked.sort(key=lambda item: -item[1])
        return len(found), ranked

    def plays(
        self, position: Position, dice: tuple[int, int], state: CubeState, played: Position | None = None
    ) -> tuple[int, list[tuple[Position, float]]]:
        return self._ranked(position, dice, state, self.top, played)

    def best_value(self, position: Position, dice: tuple[int, int], state: CubeState) -> float:
        count, ranked = self._ranked(position, dice, state, self.luck_top, None, luck=True)
        if count:
            return ranked[0][1]
        board = position.swap().to_gnubg()
        probs, kind, pips = self.raw.on_roll(position.swap())
        return self._after_value(position, board, probs, kind, pips, state)

    def cube(self, position: Position, state: CubeState) -> tuple[float, float, float] | None:
        probs, kind, pips = self.raw.on_roll(position)
        x = cf.cube_efficiency(kind, pips)
        ts = self.raw.two_sided(position.to_gnubg()) if kind == "ts" else None
        if state.money:
            return money_decision(probs, state.owner, x, state.jacoby, ts)
        cube = self.cube_of(state)
        eff: cf.Efficiency = x if ts is None else (lambda c: cf.ts_efficiency(ts, probs, c))
        nd, dt, dp = cf.decision(probs, cube, eff)
        return cf.mwc2eq(nd, cube), cf.mwc2eq(dt, cube), cf.mwc2eq(dp, cube)

    def win_lose(self, state: CubeState) -> tuple[float, float]:
        cube = self.cube_of(state)
        return cf.match_equity(cube, 0, state.value, 0), cf.match_equity(cube, 0, state.value, 1)

    def close(self) -> None:
        """Nothing to release."""


class BgsageEvaluator:
    """bgsage's cubeful equities (EMG) at the match score; its ``1ply`` is gnubg's 0-ply."""

    name = "bgsage"

    def __init__(self, plies: int = 0) -> None:
        from bgboard.hints.bgsage_engine import BgsageEngine

        self.engine = BgsageEngine(_LEVELS[plies])

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
        hint = self.engine.cube(position.swap(), swap_cube(state))
        nd = hint.no_double or 0.0
        return -nd

    def cube(self, position: Position, state: CubeState) -> tuple[float, float, float] | None:
        hint = self.engine.cube(position, state)
        if hint.no_double is None or hint.double_take is None or hint.double_pass is None:
            return None
        return hint.no_double, hint.double_take, hint.double_pass

    def win_lose(self, state: CubeState) -> tuple[float, float]:
        """MWC per EMG from gnubg's table (bgsage's own table may differ slightly)."""
        cube = GnubgEvaluator.cube_of(state)
        return cf.match_equity(cube, 0, state.value, 0), cf.match_equity(cube, 0, state.value, 1)


def open_evaluator(name: str, plies: int = 0) -> Evaluator:
    """The analysis engine ``name`` (one of :data:`ANALYSIS_ENGINES`) at ``plies`` that
    grades decision by decision (the gnubg program analyses whole matches instead:
    :func:`open_engine`); :class:`~bgboard.hints.EngineUnavailableError` (one sentence)
    when it is not installed."""
    if name not in ANALYSIS_ENGINES or name == "gnubg":
        raise InputError(f"unknown analysis engine {name!r}: choose one of gnubg-nn, bgsage")
    if plies not in _LEVELS:
        raise InputError(f"--ply must be 0, 1 or 2, not {plies}")
    if name == "gnubg-nn":
        if plies != 0:
            raise InputError("the gnubg-nn analysis runs at 0-ply only (gnubg-nn's cube evaluation): use --engine bgsage for 1 or 2 plies")
        return GnubgEvaluator()
    return BgsageEvaluator(plies)


def open_engine(name: str, plies: int = 0) -> "Evaluator | GnubgProgram":
    """The analysis engine ``name`` (one of :data:`ANALYSIS_ENGINES`, or ``auto``: the first
    of them installed) at ``plies``; one sentence naming what to install when none is."""
    from bgboard.analysis.gnubg_program import GnubgProgram
    from bgboard.hints.hint_engine import EngineUnavailableError

    if plies not in _LEVELS:
        raise InputError(f"--ply must be 0, 1 or 2, not {plies}")
    if name == "gnubg":
        return GnubgProgram(plies)
    if name != "auto":
        if name not in ANALYSIS_ENGINES:
            raise InputError(f"unknown analysis engine {name!r}: choose one of auto, {', '.join(ANALYSIS_ENGINES)}")
        return open_evaluator(name, plies)
    reasons = []
    for candidate in ANALYSIS_ENGINES if plies == 0 else ("gnubg", "bgsage"):
        try:
            return open_engine(candidate, plies)
        except EngineUnavailableError as exc:
            reasons.append(str(exc))
    raise EngineUnavailableError(
        "no analysis engine is installed (" + "; ".join(reasons) + "): pip install 'bgboard[hints]' "
        "on x86-64, or sudo apt-get install gnubg (Debian, Raspberry Pi OS)")
