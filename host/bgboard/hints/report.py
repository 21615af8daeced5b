"""The learner report of a teaching session: plays, mistakes by kind, equity lost per play,
the worst three positions with their best plays (pure: text in, HTML text out).

The chart is drawn by matplotlib on its Agg back end (no display, no files) into an SVG
that the HTML carries inline, so the report is one file that opens anywhere.  matplotlib
comes with the ``teach`` extra (``pip install 'bgboard[teach]'``); it is imported only
when a report is drawn.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from typing import Sequence

from bgboard.errors import InputError
from bgboard.hints.lesson import CubeLesson, PlayLesson, mistakes_by_kind

__all__ = ["LearnerReport", "chart_svg", "counted", "report_html", "short_report"]

GRADE_COLOURS = {"good": "#4a9a4a", "doubtful": "#d9b43a", "bad": "#d9822b", "very bad": "#c0392b", None: "#888888"}
_NAME_MAX = 40


@dataclass(frozen=True, slots=True)
class LearnerReport:
    """The figures of one session."""

    plays: int
    cube_decisions: int
    mistakes: dict[str, int]
    total_loss: float
    worst: tuple[PlayLesson, ...]
    graded: int = 0  # plays with a grade (an engine that only ranks gives none: no equity lost to sum)

    @property
    def loss_per_play(self) -> float:
        """Average equity lost per graded play."""
        return self.total_loss / self.plays if self.plays else 0.0

    @classmethod
    def of(cls, lessons: Sequence[PlayLesson | CubeLesson]) -> "LearnerReport":
        plays = [lesson for lesson in lessons if isinstance(lesson, PlayLesson) and lesson.play]
        cubes = [lesson for lesson in lessons if isinstance(lesson, CubeLesson)]
        worst = sorted((p for p in plays if p.loss > 0), key=lambda p: -p.loss)[:3]
        return cls(len(plays), len(cubes), mistakes_by_kind(lessons), sum(p.loss for p in plays), tuple(worst),
                   sum(1 for p in plays if p.grade is not None))


def counted(count: int, thing: str) -> str:
    """``count`` things in words: "1 play", "2 plays", "0 mistakes"."""
    return f"{count} {thing}{'' if count == 1 else 's'}"


def short_report(report: LearnerReport) -> tuple[str, ...]:
    """The report in short for the display at the end (the renderer wraps it over a few
    lines): plays, mistakes, average loss and the worst play with the best; longest first."""
    if report.plays and not report.graded:  # the engine only ranks (pubeval): no equity to grade with
        plays = counted(report.plays, "play")
        return (f"{plays} ranked; this engine gives no equity to grade them",
                f"{plays} ranked, not graded", f"{plays} ranked")
    m = report.mistakes
    errors = m["doubtful"] + m["bad"] + m["very bad"]
    cube = f", {counted(m['cube'], 'cube error')}" if report.cube_decisions else ""
    head = (f"{counted(report.plays, 'play')}, {counted(errors, 'mistake')} ({m['very bad']} very bad){cube}, "
            f"{report.loss_per_play:.3f} lost per play")
    worst = report.worst[0] if report.worst else None
    longest = (head,) if worst is None else (
        f"{head}; worst: {worst.play} with {worst.dice}, -{worst.loss:.3f} (best {worst.best})",)
    return (
        *longest,
        head,
        f"{counted(report.plays, 'play')}, {counted(errors, 'mistake')}, {report.loss_per_play:.3f}/play",
        f"{counted(errors, 'mistake')} in {report.plays}",
    )


def chart_svg(lessons: Sequence[PlayLesson | CubeLesson]) -> str:
    """A bar chart of the equity lost on each play, coloured by grade, as SVG text."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - the teach extra is part of test
        raise InputError(f"the learner report needs matplotlib: pip install 'bgboard[teach]' ({exc})") from None
    plays = [lesson for lesson in lessons if isinstance(lesson, PlayLesson) and lesson.play]
    figure = Figure(figsize=(7.5, 2.6), dpi=100)
    ax = figure.add_subplot()
    xs = list(range(1, len(plays) + 1))
    ax.bar(xs, [p.loss for p in plays], color=[GRADE_COLOURS.get(p.grade, "#888888") for p in plays], width=0.8)
    for threshold, label in ((0.04, "doubtful"), (0.08, "bad"), (0.16, "very bad")):
        ax.axhline(threshold, color="#999999", linewidth=0.6, linestyle="--")
        ax.annotate(label, (1.0, threshold), xycoords=("axes fraction", "data"), fontsize=7, color="#666666",
                    xytext=(2, 0), textcoords="offset points", va="center")
    ax.set_xlabel("play")
    ax.set_ylabel("equity lost")
    ax.set_xlim(0.4, max(len(plays), 1) + 0.6)
    ax.set_ylim(bottom=0)
    figure.tight_layout()
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})  # no clock in the file
    svg = out.getvalue()
    return svg[svg.index("<svg"):]


def report_html(lessons: Sequence[PlayLesson | CubeLesson], title: str = "Learner report",
                names: tuple[str, str] | None = None) -> str:
    """The whole report as one HTML page (every text escaped, names bounded)."""
    report = LearnerReport.of(lessons)
    esc = html.escape

    def who(player: int | None) -> str:
        if player is None or names is None:
            return ""
        return esc(names[player][:_NAME_MAX])

    rows = "".join(
        f"<tr><td>{kind}</td><td>{count}</td></tr>" for kind, count in report.mistakes.items()
    )
    worst = "".join(
        "<li><p><b>{who}{dice}</b> from <code>{pid}</code>: played <code>{play}</code>, "
        "lost {loss:.3f} ({grade}); best <code>{best}</code>.{why}</p></li>".format(
            who=(who(p.player) + ", ") if who(p.player) else "", dice=esc(p.dice), pid=esc(p.position),
            play=esc(p.play), loss=p.loss, grade=esc(p.grade or "not graded"), best=esc(p.best),
            why=f" {esc(p.why)}" if p.why else "",
        )
        for p in report.worst
    ) or "<li>No play lost equity.</li>"
    plays = "".join(
        "<tr><td>{n}</td><td>{who}</td><td>{dice}</td><td><code>{play}</code></td><td><code>{best}</code></td>"
        "<td>{loss:.3f}</td><td>{grade}</td></tr>".format(
            n=i, who=who(p.player), dice=esc(p.dice), play=esc(p.play), best=esc(p.best), loss=p.loss,
            grade=esc(p.grade or "-"))
        for i, p in enumerate((p for p in lessons if isinstance(p, PlayLesson) and p.play), start=1)
    )
    cubes = "".join(
        f"<tr><td>{who(c.player)}</td><td><code>{esc(c.position)}</code></td><td>{esc(c.decision)}</td>"
        f"<td>{esc(c.best)}</td><td>{c.loss:.3f} {esc(c.unit)}</td><td>{esc(c.grade or '-')}</td></tr>"
        for c in lessons if isinstance(c, CubeLesson)
    )
    cube_table = (
        "<h2>Cube decisions</h2><table id=\"cubes\"><tr><th>player</th><th>position</th><th>decision</th><th>best</th>"
        f"<th>loss</th><th>grade</th></tr>{cubes}</table>" if cubes else ""
    )
    summary = (f"{counted(report.plays, 'play')} graded, {counted(report.cube_decisions, 'cube decision')};\n"
               f"equity lost: {report.total_loss:.3f} in all, {report.loss_per_play:.3f} per play.")
    if report.plays and not report.graded:
        summary = (f"{counted(report.plays, 'play')} ranked, {counted(report.cube_decisions, 'cube decision')}; "
                   "the engine only ranks "
                   "plays, so there is no equity lost to report: choose gnubg-nn or bgsage for grades.")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>body{{font-family:sans-serif;max-width:50em;margin:1em auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 6px;text-align:left}}</style></head>
<body><h1>{esc(title)}</h1>
<p id="summary">{summary}</p>
<h2>Mistakes by kind</h2><table id="mistakes"><tr><th>kind</th><th>count</th></tr>{rows}</table>
<h2>Equity lost per play</h2><figure id="chart">{chart_svg(lessons)}</figure>
<h2>The worst three positions</h2><ol id="worst">{worst}</ol>
{cube_table}
<h2>Every play</h2><table id="plays"><tr><th>#</th><th>player</th><th>dice</th><th>play</th><th>best</th>
<th>loss</th><th>grade</th></tr>{plays}</table>
</body></html>
"""
