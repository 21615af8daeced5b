"""The learner report of a teaching session, one section per learner (``[teach] learner``):
PR and luck, plays, mistakes by kind, equity lost per unforced play, the worst three
positions drawn with their best plays, the drills to practise next, the PR match by match
with its 95 % interval, every decision (pure: lessons, figures and history in, HTML out).

The charts are drawn by matplotlib on its Agg back end (no display, no files) into an SVG
that the HTML carries inline, so the report is one file that opens anywhere.  matplotlib
comes with the ``teach`` extra (``pip install 'bgboard[teach]'``); it is imported only
when a report is drawn.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from bgboard.errors import InputError
from bgboard.boardsvg import board_svg
from bgboard.hints.lesson import CubeLesson, PlayLesson, mistakes_by_kind
from bgboard.rules import legal_plays
from bgboard.rules.ids import position_from_id
from bgboard.rules.position import Position

__all__ = ["LearnerReport", "chart_svg", "counted", "drill_kinds", "history_svg", "learner_pr", "learner_section",
           "report_html", "short_report", "unforced", "worst_plays"]

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
    plays = [lesson for lesson in lessons if isinstance(lesson, PlayLesson) and lesson.play]
    figure = _figure()(figsize=CHART_INCHES, dpi=100)
    ax = figure.add_subplot()
    xs = list(range(1, len(plays) + 1))
    ax.bar(xs, [p.loss for p in plays], color=[GRADE_COLOURS.get(p.grade, "#888888") for p in plays], width=0.8)
    for threshold, label in ((0.04, "doubtful"), (0.08, "bad"), (0.16, "very bad")):
        ax.axhline(threshold, color="#999999", linewidth=0.6, linestyle="--")
        ax.annotate(label, (1.0, threshold), xycoords=("axes fraction", "data"), color="#666666",
                    xytext=(2, 0), textcoords="offset points", va="center")
    ax.set_xlabel("play")
    ax.set_ylabel("equity lost")
    ax.set_xlim(0.4, max(len(plays), 1) + 0.6)
    ax.set_ylim(bottom=0)
    return _svg_text(figure)


def _position(lesson: PlayLesson | CubeLesson) -> Position | None:
    try:
        return position_from_id(lesson.position)
    except ValueError:
        return None


def _board(position: Position, label: str) -> str:
    """A worst position as the club draws boards: the player on roll at the bottom (white),
    the points in their numbering, the cube in the middle."""
    return board_svg((position.mine, position.theirs), label, numbers=True, css_class="board")


def unforced(lesson: PlayLesson) -> bool:
    """The play had a choice: more than one legal play of its roll (gnubg's unforced move).
    The grader counted them (every play of the roll is ranked); a lesson kept before it did
    has them counted again here."""
    if lesson.choices:
        return lesson.choices > 1
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


def learner_pr(lessons: Sequence[PlayLesson | CubeLesson], player: int) -> tuple[float, int]:
    """``player``'s PR from their graded decisions (500 × the mean equity lost over their
    unforced plays and cube decisions) and how many decisions that is."""
    mine = [lesson for lesson in lessons if lesson.player == player]
    free = [p for p in mine if isinstance(p, PlayLesson) and p.play and unforced(p)]
    cubes = [c for c in mine if isinstance(c, CubeLesson)]
    decisions = len(free) + len(cubes)
    lost = sum(p.loss for p in free) + sum(c.loss for c in cubes)
    return (500.0 * lost / decisions if decisions else 0.0), decisions


def worst_plays(lessons: Sequence[PlayLesson | CubeLesson], player: int, count: int = 3) -> list[PlayLesson]:
    """``player``'s costliest unforced plays, the worst first (only plays that lost equity)."""
    free = [p for p in lessons if isinstance(p, PlayLesson) and p.player == player and p.play and unforced(p)]
    return sorted((p for p in free if p.loss > 0), key=lambda p: -p.loss)[:count]


def _figure() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - the teach extra is part of test
        raise InputError(f"the learner report needs matplotlib: pip install 'bgboard[teach]' ({exc})") from None
    return Figure


#: The charts' size and type: drawn for a 390 px phone (about 370 px of page), where the
#: 4-inch figure (288 pt of SVG) is shown at about 1.3 CSS px per point, so 11-point text
#: reads at about 14 px and never below 11 px; on a wider screen the chart keeps that size.
CHART_INCHES = (4.0, 2.6)
CHART_STYLE: dict[Any, Any] = {"font.size": 11, "svg.fonttype": "none"}  # text as text: it scales and can be read (and found)


def _svg_text(figure: Any) -> str:
    import matplotlib

    with matplotlib.rc_context(CHART_STYLE):
        for text in figure.findobj(lambda artist: hasattr(artist, "set_fontsize")):
            text.set_fontsize(CHART_STYLE["font.size"])
        figure.tight_layout()
        out = io.StringIO()
        # bbox "tight": the labels beside the axes (the grades' lines) are inside the picture
        figure.savefig(out, format="svg", metadata={"Date": None}, bbox_inches="tight")  # no clock in the file
    svg = out.getvalue()
    return svg[svg.index("<svg"):]


def _moves(play: str) -> str:
    """A play for the page: each move kept whole on one line (``23/21 13/7``: a line may
    break between moves, never inside one)."""
    return " ".join(f'<span class="mv">{html.escape(move)}</span>' for move in play.split())


def history_svg(rows: Sequence[Mapping[str, Any]]) -> str:
    """The PR of each match, oldest first, with its 95 % interval as error bars (a match
    whose interval is not known has none), as SVG text."""
    figure = _figure()(figsize=CHART_INCHES, dpi=100)
    ax = figure.add_subplot()
    xs = list(range(1, len(rows) + 1))
    prs = [float(r["pr"]) for r in rows]
    below = [float(r["pr"]) - float(r["pr_low"]) if r.get("pr_low") is not None else 0.0 for r in rows]
    above = [float(r["pr_high"]) - float(r["pr"]) if r.get("pr_high") is not None else 0.0 for r in rows]
    ax.errorbar(xs, prs, yerr=[below, above], fmt="o-", color="#2c6fb0", ecolor="#7aa6d6", capsize=4, linewidth=1)
    ax.set_xlabel("match")
    ax.set_ylabel("PR (lower is better)")
    ax.set_xticks(xs)
    ax.set_xlim(0.5, max(len(rows), 1) + 0.5)
    ax.set_ylim(bottom=0)
    return _svg_text(figure)


def _history(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return ""
    esc = html.escape
    lines = "".join(
        "<tr><td>{n}</td><td>{played}</td><td>{pr:.1f}</td><td>{interval}</td><td>{decisions}</td></tr>".format(
            n=n, played=esc(str(r["played"])[:32]), pr=float(r["pr"]),
            interval=(f"{float(r['pr_low']):.1f}–{float(r['pr_high']):.1f}"
                      if r.get("pr_low") is not None and r.get("pr_high") is not None else "not known"),
            decisions=int(r["decisions"]))
        for n, r in enumerate(rows, start=1))
    return (f"<h3>PR match by match</h3><div class=\"scroll\"><table class=\"history\"><tr><th>#</th><th>date</th>"
            f"<th>PR</th><th>95 % interval</th><th>decisions</th></tr>{lines}</table></div>"
            f"<figure class=\"history-chart\">{history_svg(rows)}</figure>")


def learner_section(lessons: Sequence[PlayLesson | CubeLesson], player: int, name: str,
                    figures: Mapping[str, object] | None = None,
                    history: Sequence[Mapping[str, Any]] = ()) -> str:
    """One learner's report: their PR (and luck) from the match's analysis when there is
    one (else from their graded decisions), their plays, mistakes and the equity lost per
    *unforced* play, each of their worst positions drawn, the drills to practise next
    (kinds, and their own worst positions as ``[teach] drills`` entries), their PR match by
    match (``history``: table and chart with the 95 % interval), the chart of the equity
    lost on each of their plays and every decision of theirs."""
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
        note = figures.get("pr_note")
        wide = f" ({esc(note)})" if isinstance(note, str) and note else ""
        pr = (f"PR {figures['pr']:.1f} (95 % interval {interval}{wide}) over {figures['decisions']} decisions; "
              f"error rate {figures['error_rate_memg']:.1f} mEMG, {esc(str(figures['overall_rating']))}. "
              f"Luck {figures['luck_emg']:+.2f} ({esc(str(figures['luck_rating']))}).")
    else:
        value, decisions = learner_pr(lessons, player)
        pr = f"PR {value:.1f} from the graded decisions ({decisions}); no match analysis to show luck."
    if plays and not any(p.grade is not None for p in plays):
        pr = (f"{counted(len(plays), 'play')} ranked: the engine only ranks plays, so there is no equity lost "
              "to report; choose gnubg-nn or bgsage for grades.")
    worst = worst_plays(lessons, player)
    pictures = "".join(
        "<li><figure>{svg}<figcaption><b>{dice}</b>: played <code>{play}</code>, lost {loss:.3f} ({grade}); "
        "better <code>{best}</code>.{why} <small><code>{pid}</code></small></figcaption></figure></li>".format(
            svg=_board(pos, p.position) if (pos := _position(p)) is not None else "",
            dice=esc(p.dice), play=_moves(p.play), loss=p.loss, grade=esc(p.grade or "not graded"), best=_moves(p.best),
            why=f" {esc(p.why)}" if p.why else "", pid=esc(p.position))
        for p in worst) or "<li>No play lost equity.</li>"
    kinds = drill_kinds(mine)
    practise = "".join(f"<li>{esc(k)} drills: {counted(n, 'mistake')}, {e:.3f} lost</li>" for k, n, e in kinds) \
        or "<li>No mistakes: any drill set keeps the eye in.</li>"
    own = ", ".join(f'"{esc(p.position)}:{esc(p.dice)}"' for p in worst)
    config = (f"<p>Your own worst positions as drills: <code>[teach] drills = [{own}]</code>, or "
              "<code>[teach] drills = \"mine\"</code> for the worst of every match kept.</p>" if own else "")
    m = mistakes_by_kind(mine)
    every = "".join(
        "<tr><td>{n}</td><td>{dice}</td><td><code>{play}</code></td><td><code>{best}</code></td>"
        "<td>{loss:.3f}</td><td>{grade}</td></tr>".format(
            n=i, dice=esc(p.dice), play=_moves(p.play), best=_moves(p.best), loss=p.loss, grade=esc(p.grade or "-"))
        for i, p in enumerate(plays, start=1))
    cube_rows = "".join(
        f"<tr><td><code>{esc(c.position)}</code></td><td>{esc(c.decision)}</td>"
        f"<td>{esc(c.best)}</td><td>{c.loss:.3f} {esc(c.unit)}</td><td>{esc(c.grade or '-')}</td></tr>" for c in cubes)
    cube_table = ("<h3>Cube decisions</h3><div class=\"scroll\"><table class=\"cubes\"><tr><th>position</th>"
                  f"<th>decision</th><th>best</th><th>loss</th><th>grade</th></tr>{cube_rows}</table></div>"
                  if cubes else "")
    chart = f"<h3>Equity lost per play</h3><figure class=\"chart\">{chart_svg(mine)}</figure>" if plays else ""
    return f"""<section class="learner" id="learner-{player}"><h2>{who}</h2>
<p class="pr">{pr}</p>
<p class="plays">{counted(len(plays), 'play')} ({len(free)} with a choice), {counted(len(cubes), 'cube decision')};
{per_play:.3f} lost per unforced play; mistakes: {m['doubtful']} doubtful, {m['bad']} bad, {m['very bad']} very bad,
{m['cube']} at the cube.</p>
<h3>Worst positions</h3><ol class="worst-boards">{pictures}</ol>
<h3>Practise next</h3><ul class="practise">{practise}</ul>{config}
{_history(history)}
{chart}
<h3>Every play</h3><div class="scroll"><table class="plays"><tr><th>#</th><th>dice</th><th>play</th><th>best</th>
<th>loss</th><th>grade</th></tr>{every}</table></div>
{cube_table}</section>
"""


def report_html(lessons: Sequence[PlayLesson | CubeLesson], title: str = "Learner report",
                names: tuple[str, str] | None = None, figures: Sequence[Mapping[str, object]] = (),
                learners: Sequence[int] | None = None,
                histories: Mapping[int, Sequence[Mapping[str, Any]]] | None = None) -> str:
    """The report as one HTML page (every text escaped, names bounded): a line on the
    decisions of the learners shown, then one section per learner (``learners``: the sides
    taught, ``[teach] learner``; by default each side with a lesson; ``figures``: both
    players' match analysis, :mod:`bgboard.analysis`; ``histories``: each side's PR match by
    match, :class:`bgboard.store.LearnerHistory`).  It reads on a 390 px phone (the tables
    scroll inside their box)."""
    esc = html.escape
    sides = [side for side in (list(learners) if learners is not None
                               else sorted({p.player for p in lessons if p.player is not None})) if side in (0, 1)]
    shown = [lesson for lesson in lessons if lesson.player in sides] if learners is not None else list(lessons)
    report = LearnerReport.of(shown)
    summary = (f"{counted(report.plays, 'play')} graded, {counted(report.cube_decisions, 'cube decision')};\n"
               f"equity lost: {report.total_loss:.3f} in all, {report.loss_per_play:.3f} per play.")
    if report.plays and not report.graded:
        summary = (f"{counted(report.plays, 'play')} ranked, {counted(report.cube_decisions, 'cube decision')}; "
                   "the engine only ranks "
                   "plays, so there is no equity lost to report: choose gnubg-nn or bgsage for grades.")
    sections = "".join(
        learner_section(lessons, side, names[side] if names is not None else f"Player {side}",
                        figures[side] if len(figures) == 2 else None, (histories or {}).get(side, ()))
        for side in sides)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:50em;margin:1em auto;padding:0 .5em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 6px;text-align:left}}
.scroll{{overflow-x:auto;max-width:100%}} svg{{max-width:100%;height:auto}} code{{overflow-wrap:anywhere}}
.mv{{white-space:nowrap}}
.worst-boards{{padding-left:1.2em}} .worst-boards svg{{width:300px}} figure{{margin:0 0 .8em 0}}
section.learner{{border-top:2px solid #999;margin-top:1em}}</style></head>
<body><h1>{esc(title)}</h1>
<p id="summary">{summary}</p>
{sections}
</body></html>
"""
