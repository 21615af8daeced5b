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
from bgboard.hints.boardsvg import board_svg
from bgboard.hints.lesson import CubeLesson, PlayLesson, mistakes_by_kind
from bgboard.rules import legal_plays
from bgboard.rules.ids import position_from_id
from bgboard.rules.position import Position

__all__ = ["LearnerReport", "chart_svg", "counted", "drill_kinds", "learner_section", "report_html", "short_report",
           "unforced"]

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


def _position(lesson: PlayLesson | CubeLesson) -> Position | None:
    try:
        return position_from_id(lesson.position)
    except ValueError:
        return None


def unforced(lesson: PlayLesson) -> bool:
    """The play had a choice: more than one legal play of its roll (gnubg's unforced move)."""
    position = _position(lesson)
    if position is None or len(lesson.dice) != 2 or not lesson.dice.isdigit():
        return True
    return len(legal_plays(position, (int(lesson.dice[0]), int(lesson.dice[1])))) > 1


def _kind(lesson: PlayLesson | CubeLesson) -> str:
    """The drill kind a mistake belongs to (drills.toml's kinds): cube, bar, bear-off, or
    opening (the middle game's mistakes are practised as openings' structures)."""
    if isinstance(lesson, CubeLesson):
        return "cube"
    position = _position(lesson)
    if position is None:
        return "opening"
    if position.mine[25]:
        return "bar"
    if sum(position.mine[7:25]) == 0:
        return "bear-off"
    return "opening"


def drill_kinds(lessons: Sequence[PlayLesson | CubeLesson]) -> list[tuple[str, int, float]]:
    """The drill kinds to practise next: (kind, mistakes, equity lost) for each kind the
    learner made mistakes in, the costliest first."""
    lost: dict[str, tuple[int, float]] = {}
    for lesson in lessons:
        if lesson.mistake:
            n, e = lost.get(_kind(lesson), (0, 0.0))
            lost[_kind(lesson)] = (n + 1, e + lesson.loss)
    return sorted(((k, n, e) for k, (n, e) in lost.items()), key=lambda item: -item[2])


def learner_section(lessons: Sequence[PlayLesson | CubeLesson], player: int, name: str,
                    figures: dict[str, object] | None = None) -> str:
    """One learner's part of the report: their PR (and luck) from the match's analysis when
    there is one (else from their graded decisions), their plays and the equity lost per
    *unforced* play, each of their worst positions drawn, and the drills to practise next
    (kinds, and their own worst positions as ``[teach] drills`` entries)."""
    esc = html.escape
    mine = [lesson for lesson in lessons if lesson.player == player]
    plays = [p for p in mine if isinstance(p, PlayLesson) and p.play]
    free = [p for p in plays if unforced(p)]
    cubes = [c for c in mine if isinstance(c, CubeLesson)]
    lost = sum(p.loss for p in free)
    per_play = lost / len(free) if free else 0.0
    who = esc(name[:_NAME_MAX])
    if figures:
        lo, hi = figures.get("pr_low"), figures.get("pr_high")
        interval = f"{lo:.1f}–{hi:.1f}" if isinstance(lo, float) and isinstance(hi, float) else "not known"
        wide = " (few decisions: the interval is wide)" if figures.get("pr_wide") else ""
        pr = (f"PR {figures['pr']:.1f} (95 % interval {interval}{wide}) over {figures['decisions']} decisions; "
              f"error rate {figures['error_rate_memg']:.1f} mEMG, {esc(str(figures['overall_rating']))}. "
              f"Luck {figures['luck_emg']:+.2f} ({esc(str(figures['luck_rating']))}).")
    else:
        decisions = len(free) + len(cubes)
        value = 500.0 * (lost + sum(c.loss for c in cubes)) / decisions if decisions else 0.0
        pr = f"PR {value:.1f} from the graded decisions ({decisions}); no match analysis to show luck."
    worst = sorted((p for p in free if p.loss > 0), key=lambda p: -p.loss)[:3]
    pictures = "".join(
        "<li><figure>{svg}<figcaption><b>{dice}</b>: played <code>{play}</code>, lost {loss:.3f} ({grade}); "
        "better <code>{best}</code>.{why} <small><code>{pid}</code></small></figcaption></figure></li>".format(
            svg=board_svg(pos, esc(p.position)) if (pos := _position(p)) is not None else "",
            dice=esc(p.dice), play=esc(p.play), loss=p.loss, grade=esc(p.grade or "not graded"), best=esc(p.best),
            why=f" {esc(p.why)}" if p.why else "", pid=esc(p.position))
        for p in worst) or "<li>No play lost equity.</li>"
    kinds = drill_kinds(mine)
    practise = "".join(f"<li>{esc(k)} drills: {counted(n, 'mistake')}, {e:.3f} lost</li>" for k, n, e in kinds) \
        or "<li>No mistakes: any drill set keeps the eye in.</li>"
    own = ", ".join(f'"{esc(p.position)}:{esc(p.dice)}"' for p in worst)
    config = (f"<p>Your own worst positions as drills: <code>[teach] drills = [{own}]</code></p>" if own else "")
    return f"""<section class="learner" id="learner-{player}"><h2>{who}</h2>
<p class="pr">{pr}</p>
<p class="plays">{counted(len(plays), 'play')} ({len(free)} with a choice), {counted(len(cubes), 'cube decision')};
{per_play:.3f} lost per unforced play.</p>
<h3>Worst positions</h3><ol class="worst-boards">{pictures}</ol>
<h3>Practise next</h3><ul class="practise">{practise}</ul>{config}</section>
"""


def report_html(lessons: Sequence[PlayLesson | CubeLesson], title: str = "Learner report",
                names: tuple[str, str] | None = None, figures: Sequence[dict[str, object]] = (),
                learners: Sequence[int] | None = None) -> str:
    """The whole report as one HTML page (every text escaped, names bounded): first one
    section per learner (``learners``: the sides taught, by default each side with a
    lesson; ``figures``: both players' match analysis, :mod:`bgboard.analysis`), then the
    session's tables.  It reads on a 390 px phone (the tables scroll inside their box)."""
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
        "<h2>Cube decisions</h2><div class=\"scroll\"><table id=\"cubes\"><tr><th>player</th><th>position</th><th>decision</th>"
        f"<th>best</th><th>loss</th><th>grade</th></tr>{cubes}</table></div>" if cubes else ""
    )
    summary = (f"{counted(report.plays, 'play')} graded, {counted(report.cube_decisions, 'cube decision')};\n"
               f"equity lost: {report.total_loss:.3f} in all, {report.loss_per_play:.3f} per play.")
    if report.plays and not report.graded:
        summary = (f"{counted(report.plays, 'play')} ranked, {counted(report.cube_decisions, 'cube decision')}; "
                   "the engine only ranks "
                   "plays, so there is no equity lost to report: choose gnubg-nn or bgsage for grades.")
    sides = list(learners) if learners is not None else sorted({p.player for p in lessons if p.player is not None})
    sections = "".join(
        learner_section(lessons, side, names[side] if names is not None else f"Player {side}",
                        figures[side] if len(figures) == 2 else None)
        for side in sides if side in (0, 1))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:50em;margin:1em auto;padding:0 .5em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 6px;text-align:left}}
.scroll{{overflow-x:auto;max-width:100%}} svg{{max-width:100%;height:auto}} code{{word-break:break-all}}
.worst-boards{{padding-left:1.2em}} .worst-boards svg{{width:300px}} figure{{margin:0 0 .8em 0}}
section.learner{{border-top:2px solid #999;margin-top:1em}}</style></head>
<body><h1>{esc(title)}</h1>
{sections}
<h2>The session</h2>
<p id="summary">{summary}</p>
<h2>Mistakes by kind</h2><div class="scroll"><table id="mistakes"><tr><th>kind</th><th>count</th></tr>{rows}</table></div>
<h2>Equity lost per play</h2><figure id="chart">{chart_svg(lessons)}</figure>
<h2>The worst three positions</h2><ol id="worst">{worst}</ol>
{cube_table}
<h2>Every play</h2><div class="scroll"><table id="plays"><tr><th>#</th><th>player</th><th>dice</th><th>play</th><th>best</th>
<th>loss</th><th>grade</th></tr>{plays}</table></div>
</body></html>
"""
