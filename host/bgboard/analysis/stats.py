"""Match statistics as gnubg's ``show statistics match`` counts them, and XG's PR.

Pure: decisions already graded by an engine (:mod:`bgboard.analysis.walk`) go in, per-player
figures come out.  The definitions follow gnubg's analysis.c (``updateStatcontext``,
``getMWCFromError``, ``GetRating``) and formatgs.c; docs/analysis.md states each one.

Every error and luck figure here is **positive for a loss** (gnubg prints errors with a
minus sign) and in normalised money equity (EMG: one point at a 1-cube); ``*_mwc`` figures
are match winning chance (0..1) in a match and points (cube value × EMG) in a money session.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence, TypedDict

__all__ = [
    "CheckerDecision",
    "CubeDecision",
    "LuckRoll",
    "MatchAnalysis",
    "PlayerStats",
    "SKILL_LEVELS",
    "luck_rating",
    "half_width",
    "mark",
    "pr_note",
    "rating",
    "summarise",
]

#: gnubg's arSkillLevel (gnubg.c): a play or cube decision losing at least this much EMG
#: is marked very bad / bad / doubtful.
SKILL_LEVELS = (("very bad", 0.12), ("bad", 0.06), ("doubtful", 0.03))
#: gnubg's arThrsRating (analysis.c) over the error per decision (EMG), best word first.
RATINGS = (
    ("Super Grandmaster", 0.005),
    ("Grandmaster", 0.008),
    ("Master", 0.013),
    ("Advanced", 0.020),
    ("Intermediate", 0.032),
)
#: gnubg's luck words (``getLuckRating``: ``Luck(rate × 10)`` with arLuckLevel 0.3 / 0.6).
LUCK_WORDS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
#: Two-sided 95 % normal quantile for the PR interval.
Z95 = 1.959964
#: Below this many decisions, or above this half-width (PR points), the PR interval is
#: called wide.
FEW_DECISIONS = 100
WIDE_HALF_WIDTH = 2.0


def pr_note(decisions: int, half: float) -> str:
    """Why a PR's interval is wide, in words ('' when it is not)."""
    if decisions < FEW_DECISIONS:
        return "few decisions: the interval is wide"
    if half > WIDE_HALF_WIDTH:
        return "the interval is wide: one match says little of a PR"
    return ""


def mark(error: float) -> str | None:
    """gnubg's mark for a decision losing ``error`` EMG (``Skill``), or None."""
    for word, level in SKILL_LEVELS:
        if error > level:
            return word
    return None


def rating(error_per_decision: float) -> str:
    """gnubg's rating word for an error per decision in EMG (``GetRating``)."""
    for word, level in RATINGS:
        if error_per_decision < level:
            return word
    return "Beginner"


def luck_rating(luck_per_move: float) -> str:
    """gnubg's luck word for a luck rate in EMG per move (``getLuckRating``)."""
    r = luck_per_move * 10.0
    if r > 0.6:
        return LUCK_WORDS[4]
    if r > 0.3:
        return LUCK_WORDS[3]
    if r < -0.6:
        return LUCK_WORDS[0]
    if r < -0.3:
        return LUCK_WORDS[1]
    return LUCK_WORDS[2]


@dataclass(frozen=True, slots=True)
class CheckerDecision:
    """One play: ``legal`` distinct legal plays (1 = forced, 0 = no play), ``error`` the EMG
    it lost to ``best`` (0 for the best), ``cost`` the same in MWC (points at money)."""

    player: int
    game: int
    line: int
    position_id: str
    dice: tuple[int, int]
    played: str
    best: str
    legal: int
    error: float
    cost: float

    @property
    def unforced(self) -> bool:
        """gnubg's unforced move: more than one legal play."""
        return self.legal > 1


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """One cube decision of ``player``: ``kind`` is ``no double`` (rolled with the cube
    available), ``double``, ``take`` or ``pass``; ``nd``/``dt``/``dp`` the doubler's EMG;
    ``close`` gnubg's "close or actual" (every actual double, take and pass, and a no
    double when doubling was right or loses less than 0.16); ``error`` in EMG, ``cost`` in
    MWC; ``mistake`` gnubg's category or None; ``better`` the right action's words."""

    player: int
    game: int
    line: int
    position_id: str
    kind: str
    nd: float
    dt: float
    dp: float
    close: bool
    error: float
    cost: float
    mistake: str | None
    better: str


@dataclass(frozen=True, slots=True)
class LuckRoll:
    """One roll's luck for ``player``: EMG and MWC (points at money), + = lucky."""

    player: int
    luck: float
    cost: float


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A match's graded decisions (see :func:`summarise` for the figures).
    ``total_moves`` counts every roll played or passed (gnubg's "Total moves");
    ``result`` is each player's actual result (MWC − 0.5 of a decided match, points at
    money) or None when it cannot be told."""

    players: tuple[str, str]
    length: int
    engine: str
    plies: int
    checker: tuple[CheckerDecision, ...]
    cube: tuple[CubeDecision, ...]
    luck: tuple[LuckRoll, ...]
    total_moves: tuple[int, int]
    result: tuple[float, float] | None = None
    problems: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures (:func:`summarise`); :meth:`to_dict` is the ``--json`` shape."""

    name: str
    total_moves: int
    unforced_moves: int
    marks: dict[str, int]
    checker_error_emg: float
    checker_error_mwc: float
    checker_rate_memg: float
    cube_decisions: int
    close_cube_decisions: int
    doubles: int
    takes: int
    passes: int
    cube_mistakes: dict[str, tuple[int, float, float]]
    cube_error_emg: float
    cube_error_mwc: float
    cube_rate_memg: float
    error_emg: float
    error_mwc: float
    error_rate_memg: float
    snowie_error_rate: float
    pr: float
    pr_low: float
    pr_high: float
    decisions: int
    pr_wide: bool
    pr_note: str  # why the interval is wide, in words ('' when it is not)
    checker_rating: str
    cube_rating: str
    overall_rating: str
    luck_emg: float
    luck_mwc: float
    luck_rate_memg: float
    luck_rating: str
    actual_result: float | None
    luck_adjusted_result: float | None
    worst: tuple[CheckerDecision | CubeDecision, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (floats rounded to 6 places)."""
        out: dict[str, Any] = {}
        for name in self.__slots__:  # type: ignore[attr-defined]
            value = getattr(self, name)
            if name == "worst":
                value = [_decision_dict(d) for d in value]
            elif name == "cube_mistakes":
                value = {k: {"count": n, "emg": round(e, 6), "mwc": round(c, 6)} for k, (n, e, c) in value.items()}
            elif isinstance(value, float):
                value = round(value, 6) if math.isfinite(value) else None
            out[name] = value
        return out


def _decision_dict(d: CheckerDecision | CubeDecision) -> dict[str, Any]:
    if isinstance(d, CheckerDecision):
        return {"type": "play", "game": d.game, "line": d.line, "position_id": d.position_id, "dice": list(d.dice),
                "played": d.played, "better": d.best, "error_emg": round(d.error, 6), "error_mwc": round(d.cost, 6)}
    return {"type": "cube", "game": d.game, "line": d.line, "position_id": d.position_id, "played": d.kind,
            "better": d.better, "error_emg": round(d.error, 6), "error_mwc": round(d.cost, 6)}


#: gnubg's cube mistake categories, in its table's order.
CUBE_MISTAKES = (
    "missed doubles below CP",
    "missed doubles above CP",
    "wrong doubles below DP",
    "wrong doubles above TG",
    "wrong takes",
    "wrong passes",
)


def _ratio(total: float, count: int) -> float:
    return total / count if count else 0.0


class _CheckerFigures(TypedDict):
    """A player's checker play in :class:`PlayerStats`."""

    unforced_moves: int
    marks: dict[str, int]
    checker_error_emg: float
    checker_error_mwc: float
    checker_rate_memg: float
    checker_rating: str


class _CubeFigures(TypedDict):
    """A player's cube handling in :class:`PlayerStats`."""

    cube_decisions: int
    close_cube_decisions: int
    doubles: int
    takes: int
    passes: int
    cube_mistakes: dict[str, tuple[int, float, float]]
    cube_error_emg: float
    cube_error_mwc: float
    cube_rate_memg: float
    cube_rating: str


class _OverallFigures(TypedDict):
    """A player's error over checker play and cube together, and PR, in :class:`PlayerStats`."""

    error_emg: float
    error_mwc: float
    error_rate_memg: float
    snowie_error_rate: float
    pr: float
    pr_low: float
    pr_high: float
    decisions: int
    pr_wide: bool
    pr_note: str
    overall_rating: str


class _LuckFigures(TypedDict):
    """A player's luck and results in :class:`PlayerStats`."""

    luck_emg: float
    luck_mwc: float
    luck_rate_memg: float
    luck_rating: str
    actual_result: float | None
    luck_adjusted_result: float | None


def summarise(analysis: MatchAnalysis, player: int, worst: int = 5) -> PlayerStats:
    """``player``'s figures, as gnubg's statistics count them (docs/analysis.md):

    * error rate (mEMG) = 1000 × (checker error + cube error) / (unforced moves + close or
      actual cube decisions); checker rate per unforced move, cube rate per close decision;
    * Snowie error rate = 1000 × the player's error / the total moves of *both* players;
    * PR = 500 × the same error / the same decisions (so PR = error rate ÷ 2), with a 95 %
      interval from the spread of the per-decision errors.
    """
    checker = [d for d in analysis.checker if d.player == player]
    cube = [d for d in analysis.cube if d.player == player]
    unforced = [d for d in checker if d.unforced]
    close = [d for d in cube if d.close]
    plays, cubes = _checker_figures(checker, unforced), _cube_figures(cube, close)
    graded: list[CheckerDecision | CubeDecision] = [d for d in unforced if d.error > 0] + [d for d in cube if d.error > 0]
    graded.sort(key=lambda d: -d.error)
    return PlayerStats(
        name=analysis.players[player],
        total_moves=analysis.total_moves[player],
        **plays,
        **cubes,
        **_overall_figures(analysis, plays, cubes, [d.error for d in unforced] + [d.error for d in close]),
        **_luck_figures(analysis, player),
        worst=tuple(graded[:worst]),
    )


def _checker_figures(checker: list[CheckerDecision], unforced: list[CheckerDecision]) -> _CheckerFigures:
    """The marks of a player's plays, and the error and its rate over the unforced ones."""
    marks = {word: 0 for word, _ in SKILL_LEVELS}
    for d in checker:
        word = mark(d.error) if d.legal > 0 else None
        if word:
            marks[word] += 1
    checker_emg = sum(d.error for d in unforced)
    return _CheckerFigures(
        unforced_moves=len(unforced),
        marks=marks,
        checker_error_emg=checker_emg,
        checker_error_mwc=sum(d.cost for d in unforced),
        checker_rate_memg=1000.0 * _ratio(checker_emg, len(unforced)),
        checker_rating=rating(_ratio(checker_emg, len(unforced))),
    )


def _cube_figures(cube: list[CubeDecision], close: list[CubeDecision]) -> _CubeFigures:
    """A player's cube decisions counted by kind, their mistakes by gnubg's category, and
    the error and its rate over the close ones."""
    mistakes: dict[str, tuple[int, float, float]] = {k: (0, 0.0, 0.0) for k in CUBE_MISTAKES}
    for d in cube:
        if d.mistake:
            n, e, c = mistakes[d.mistake]
            mistakes[d.mistake] = (n + 1, e + d.error, c + d.cost)
    cube_emg = sum(e for _, e, _ in mistakes.values())
    return _CubeFigures(
        cube_decisions=len(cube),
        close_cube_decisions=len(close),
        doubles=sum(1 for d in cube if d.kind == "double"),
        takes=sum(1 for d in cube if d.kind == "take"),
        passes=sum(1 for d in cube if d.kind == "pass"),
        cube_mistakes=mistakes,
        cube_error_emg=cube_emg,
        cube_error_mwc=sum(c for _, _, c in mistakes.values()),
        cube_rate_memg=1000.0 * _ratio(cube_emg, len(close)),
        cube_rating=rating(_ratio(cube_emg, len(close))),
    )


def _overall_figures(analysis: MatchAnalysis, plays: _CheckerFigures, cubes: _CubeFigures,
                     samples: list[float]) -> _OverallFigures:
    """The error over the unforced plays and close cube decisions together (``samples``,
    each decision's error), its rates, and the PR with its 95 % interval."""
    decisions = plays["unforced_moves"] + cubes["close_cube_decisions"]
    error_emg = plays["checker_error_emg"] + cubes["cube_error_emg"]
    both_moves = analysis.total_moves[0] + analysis.total_moves[1]
    pr = 500.0 * _ratio(error_emg, decisions)
    half = half_width([500.0 * s for s in samples])
    return _OverallFigures(
        error_emg=error_emg,
        error_mwc=plays["checker_error_mwc"] + cubes["cube_error_mwc"],
        error_rate_memg=1000.0 * _ratio(error_emg, decisions),
        snowie_error_rate=1000.0 * _ratio(error_emg, both_moves),
        pr=pr,
        pr_low=max(0.0, pr - half),
        pr_high=pr + half,
        decisions=decisions,
        pr_wide=decisions < FEW_DECISIONS or half > WIDE_HALF_WIDTH,
        pr_note=pr_note(decisions, half),
        overall_rating=rating(_ratio(error_emg, decisions)),
    )


def _luck_figures(analysis: MatchAnalysis, player: int) -> _LuckFigures:
    """A player's luck (EMG and MWC, + = lucky), its rate per move, the actual result and
    the result with both players' luck taken out."""
    luck = [r for r in analysis.luck if r.player == player]
    luck_emg = sum(r.luck for r in luck)
    luck_mwc = sum(r.cost for r in luck)
    other_luck = sum(r.cost for r in analysis.luck if r.player != player)
    actual = analysis.result[player] if analysis.result is not None else None
    total_moves = analysis.total_moves[player]
    return _LuckFigures(
        luck_emg=luck_emg,
        luck_mwc=luck_mwc,
        luck_rate_memg=1000.0 * _ratio(luck_emg, total_moves),
        luck_rating=luck_rating(_ratio(luck_emg, total_moves)),
        actual_result=actual,
        luck_adjusted_result=actual - luck_mwc + other_luck if actual is not None else None,
    )


def half_width(values: Sequence[float]) -> float:
    """Half the width of a 95 % normal interval for the mean of ``values`` (infinite for
    fewer than two)."""
    n = len(values)
    if n < 2:
        return math.inf
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Z95 * math.sqrt(var / n)
