"""The analysis a board shows at a match's end (adapter: opens an engine).

:func:`figures_for_actions` is what the app hands to its hint worker (a module-level
function, so a worker in a child process can run it): the finished match's action log in,
both players' figures out (:meth:`~bgboard.analysis.stats.PlayerStats.to_dict`).  It runs on
the hint worker's thread or process, never on the event loop; :func:`summary_lines` turns
the figures into the end screen's text (pure).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from bgboard.analysis.stats import summarise
from bgboard.analysis.walk import Evaluator, analyse_match
from bgboard.match.mat_read import import_mat
from bgboard.match.mat_write import export_mat
from bgboard.rules.games import variant
from bgboard.errors import EnvironmentFailure

__all__ = ["figures_for_actions", "summary_lines"]

_EVALUATORS: dict[str, Evaluator] = {}


def summary_lines(figures: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Both players' PR and error rate, longest form first (pure)."""
    if len(figures) != 2:
        return ()
    a, b = figures
    an, bn = a["name"], b["name"]
    ap, bp, ar, br = a["pr"], b["pr"], a["error_rate_memg"], b["error_rate_memg"]
    return (
        f"{an} PR {ap:.1f} ({ar:.1f} mEMG) · {bn} PR {bp:.1f} ({br:.1f} mEMG)",
        f"PR {ap:.1f} / {bp:.1f} · error rate {ar:.1f} / {br:.1f}",
        f"PR {ap:.1f} · {bp:.1f} ({ar:.0f} · {br:.0f} mEMG)",
        f"PR {ap:.1f} · {bp:.1f}",
    )


def figures_for_actions(actions: tuple[object, ...], engine: str) -> tuple[dict[str, Any], ...]:
    """Both players' figures for a match's action log with the hint engine ``engine``
    (``gnubg-nn`` or ``bgsage``; for another engine — pubeval's numbers are no equities —
    the gnubg program where it is installed, as on a Raspberry Pi with Debian's ``gnubg``,
    else none), through its ``.mat`` text (writing and reading it replays the match: work
    for the worker, not the loop); none for a match the analysis does not cover (a seed
    variant, a match longer than 25 points)."""
    try:
        text = export_mat(actions)  # type: ignore[arg-type]
        match = import_mat(text)
        if not variant(match.variant).analysis:
            return ()
        if engine not in ("gnubg-nn", "bgsage"):
            from bgboard.analysis.gnubg_program import GnubgProgram

            program = GnubgProgram()
            try:
                return tuple(program.analyse_mat(text)["players"])
            finally:
                program.close()
        evaluator = _EVALUATORS.get(engine)
        if evaluator is None:
            from bgboard.analysis.evaluators import open_evaluator

            evaluator = _EVALUATORS[engine] = open_evaluator(engine)
        analysis = analyse_match(match, evaluator)
    except (ValueError, EnvironmentFailure):  # a match the analysis does not cover, no engine
        return ()
    return tuple(summarise(analysis, p).to_dict() for p in (0, 1))
