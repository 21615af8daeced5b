"""Match analysis as gnubg and XG report it: error rates, PR, luck (docs/analysis.md).

:mod:`~bgboard.analysis.stats` (the definitions) and :mod:`~bgboard.analysis.walk` (the
walk over a match record with an injected engine) are pure; :mod:`~bgboard.analysis.evaluators`
opens the engines and :mod:`~bgboard.analysis.file_batch` analyses files and folders with a
results cache.
"""

from bgboard.analysis.stats import (
    CheckerDecision,
    CubeDecision,
    LuckRoll,
    MatchAnalysis,
    PlayerStats,
    luck_rating,
    mark,
    rating,
    summarise,
)
from bgboard.analysis.walk import Evaluator, analyse_match, cube_state

__all__ = [
    "CheckerDecision",
    "CubeDecision",
    "Evaluator",
    "LuckRoll",
    "MatchAnalysis",
    "PlayerStats",
    "analyse_match",
    "cube_state",
    "luck_rating",
    "mark",
    "rating",
    "summarise",
]
