"""The analysis a board shows at a match's end (adapter: opens an engine).

:func:`summary_text` is what the app hands to its hint worker (a module-level function, so
a worker in a child process can run it): the finished match as ``.mat`` text in, both
players' PR and error rate out, as display text (variants longest first).  It runs on the
hint worker's thread or process, never on the event loop.
"""

from __future__ import annotations

from bgboard.analysis.stats import PlayerStats, summarise
from bgboard.analysis.walk import Evaluator, analyse_match
from bgboard.match.mat_read import import_mat
from bgboard.match.mat_write import export_mat

__all__ = ["summary_for_actions", "summary_lines", "summary_text"]

_EVALUATORS: dict[str, Evaluator] = {}


def summary_lines(a: PlayerStats, b: PlayerStats) -> tuple[str, ...]:
    """Both players' PR and error rate, longest form first (pure)."""
    return (
        f"{a.name} PR {a.pr:.1f} ({a.error_rate_memg:.1f} mEMG) · {b.name} PR {b.pr:.1f} ({b.error_rate_memg:.1f} mEMG)",
        f"PR {a.pr:.1f} / {b.pr:.1f} · error rate {a.error_rate_memg:.1f} / {b.error_rate_memg:.1f}",
        f"PR {a.pr:.1f} · {b.pr:.1f} ({a.error_rate_memg:.0f} · {b.error_rate_memg:.0f} mEMG)",
        f"PR {a.pr:.1f} · {b.pr:.1f}",
    )


def summary_text(mat_text: str, engine: str) -> tuple[str, ...]:
    """The end-of-match analysis of ``mat_text`` with the hint engine ``engine``
    (``gnubg-nn`` or ``bgsage``; nothing for another engine: pubeval's numbers are no
    equities)."""
    if engine not in ("gnubg-nn", "bgsage"):
        return ()
    evaluator = _EVALUATORS.get(engine)
    if evaluator is None:
        from bgboard.analysis.evaluators import open_evaluator

        evaluator = _EVALUATORS[engine] = open_evaluator(engine)
    analysis = analyse_match(import_mat(mat_text), evaluator, luck=False)
    return summary_lines(summarise(analysis, 0), summarise(analysis, 1))


def summary_for_actions(actions: tuple[object, ...], engine: str) -> tuple[str, ...]:
    """:func:`summary_text` of a match's action log (what the app hands over: writing the
    ``.mat`` text replays the match, work for the worker, not the loop); nothing for a
    match the analysis does not cover (a seed variant, a match longer than 25 points)."""
    try:
        text = export_mat(actions)  # type: ignore[arg-type]
        if import_mat(text).variant != "standard":
            return ()
        return summary_text(text, engine)
    except ValueError:  # InputError: a match the analysis does not cover
        return ()
