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
from bgboard.language import ENGLISH, N_, Phrase, Words, said, say, say_n
from bgboard.boardsvg import board_svg
from bgboard.hints.grade import GRADES
from bgboard.hints.lesson import CubeLesson, PlayLesson, mistakes_by_kind
from bgboard.rules import legal_plays
from bgboard.rules.ids import position_from_id
from bgboard.rules.position import Position

__all__ = ["DRILL_KINDS", "LearnerReport", "chart_svg", "counted", "drill_kinds", "grade_word", "history_svg", "learner_pr", "learner_section",
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
    # each text a Phrase: the display says it in the players' language
    plays = Phrase.counted("%(n)d play", "%(n)d plays", report.plays)
    if report.plays and not report.graded:  # the engine only ranks (pubeval): no equity to grade with
        return (Phrase("%(plays)s ranked; this engine gives no equity to grade them", plays=plays),
                Phrase("%(plays)s ranked, not graded", plays=plays), Phrase("%(plays)s ranked", plays=plays))
    m = report.mistakes
    errors = m["doubtful"] + m["bad"] + m["very bad"]
    mistakes = Phrase.counted("%(n)d mistake", "%(n)d mistakes", errors)
    per_play = f"{report.loss_per_play:.3f}"
    if report.cube_decisions:
        head = Phrase("%(plays)s, %(mistakes)s (%(very_bad)d very bad), %(cube)s, %(lost)s lost per play",
                      plays=plays, mistakes=mistakes, very_bad=m["very bad"],
                      cube=Phrase.counted("%(n)d cube error", "%(n)d cube errors", m["cube"]), lost=per_play)
    else:
        head = Phrase("%(plays)s, %(mistakes)s (%(very_bad)d very bad), %(lost)s lost per play",
                      plays=plays, mistakes=mistakes, very_bad=m["very bad"], lost=per_play)
    worst = report.worst[0] if report.worst else None
    longest = (head,) if worst is None else (
        Phrase("%(head)s; worst: %(play)s with %(dice)s, -%(loss)s (best %(best)s)", head=head, play=worst.play,
               dice=worst.dice, loss=f"{worst.loss:.3f}", best=worst.best),)
    return (
        *longest,
        head,
        Phrase("%(plays)s, %(mistakes)s, %(lost)s/play", plays=plays, mistakes=mistakes, lost=per_play),
        Phrase("%(mistakes)s in %(n)d", mistakes=mistakes, n=report.plays),
    )


def grade_word(grade: str | None, w: Words = ENGLISH, missing: str = "-") -> str:
    """A lesson's grade in ``w``'s language (``missing`` when it has none)."""
    if grade is None:
        return missing
    return said(GRADES[grade], w) if grade in GRADES else grade


def chart_svg(lessons: Sequence[PlayLesson | CubeLesson], w: Words = ENGLISH) -> str:
    """A bar chart of the equity lost on each play, coloured by grade, as SVG text."""
    plays = [lesson for lesson in lessons if isinstance(lesson, PlayLesson) and lesson.play]
    figure = _figure()(figsize=CHART_INCHES, dpi=100)
    ax = figure.add_subplot()
    xs = list(range(1, len(plays) + 1))
    ax.bar(xs, [p.loss for p in plays], color=[GRADE_COLOURS.get(p.grade, "#888888") for p in plays], width=0.8)
    for threshold, grade in ((0.04, "doubtful"), (0.08, "bad"), (0.16, "very bad")):
        ax.axhline(threshold, color="#999999", linewidth=0.6, linestyle="--")
        ax.annotate(grade_word(grade, w), (1.0, threshold), xycoords=("axes fraction", "data"), color="#666666",
                    xytext=(2, 0), textcoords="offset points", va="center")
    ax.set_xlabel(say(w, "play"))
    ax.set_ylabel(say(w, "equity lost"))
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


#: The drill kinds as the report says them.
# source: bar = "bar" seeds/002, "Bar" seeds/004; bear-off = "uitspelen" seeds/002, "Abtragen" seeds/004
DRILL_KINDS = {"cube": Phrase("cube"), "bar": Phrase("bar"), "bear-off": Phrase("bear-off"),
               "opening": Phrase("opening")}


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


def history_svg(rows: Sequence[Mapping[str, Any]], w: Words = ENGLISH) -> str:
    """The PR of each match, oldest first, with its 95 % interval as error bars (a match
    whose interval is not known has none), as SVG text."""
    figure = _figure()(figsize=CHART_INCHES, dpi=100)
    ax = figure.add_subplot()
    xs = list(range(1, len(rows) + 1))
    prs = [float(r["pr"]) for r in rows]
    below = [float(r["pr"]) - float(r["pr_low"]) if r.get("pr_low") is not None else 0.0 for r in rows]
    above = [float(r["pr_high"]) - float(r["pr"]) if r.get("pr_high") is not None else 0.0 for r in rows]
    ax.errorbar(xs, prs, yerr=[below, above], fmt="o-", color="#2c6fb0", ecolor="#7aa6d6", capsize=4, linewidth=1)
    ax.set_xlabel(say(w, "match"))
    ax.set_ylabel(say(w, "PR (lower is better)"))
    ax.set_xticks(xs)
    ax.set_xlim(0.5, max(len(rows), 1) + 0.5)
    ax.set_ylim(bottom=0)
    return _svg_text(figure)


def _history(rows: Sequence[Mapping[str, Any]], w: Words = ENGLISH) -> str:
    if not rows:
        return ""
    esc = html.escape
    lines = "".join(
        "<tr><td>{n}</td><td>{played}</td><td>{pr:.1f}</td><td>{interval}</td><td>{decisions}</td></tr>".format(
            n=n, played=esc(str(r["played"])[:32]), pr=float(r["pr"]),
            interval=(f"{float(r['pr_low']):.1f}–{float(r['pr_high']):.1f}"
                      if r.get("pr_low") is not None and r.get("pr_high") is not None else esc(say(w, "not known"))),
            decisions=int(r["decisions"]))
        for n, r in enumerate(rows, start=1))
    heads = [esc(say(w, text)) for text in (N_("PR match by match"), N_("date"))]
    heads += [esc(say(w, "%(level)d %% interval", level=95)), esc(say(w, "decisions"))]
    return (f"<h3>{heads[0]}</h3><div class=\"scroll\"><table class=\"history\"><tr><th>#</th><th>{heads[1]}</th>"
            f"<th>PR</th><th>{heads[2]}</th><th>{heads[3]}</th></tr>{lines}</table></div>"
            f"<figure class=\"history-chart\">{history_svg(rows, w)}</figure>")


def learner_section(lessons: Sequence[PlayLesson | CubeLesson], player: int, name: str,
                    figures: Mapping[str, object] | None = None,
                    history: Sequence[Mapping[str, Any]] = (), w: Words = ENGLISH) -> str:
    """One learner's report: their PR (and luck) from the match's analysis when there is
    one (else from their graded decisions), their plays, mistakes and the equity lost per
    *unforced* play, each of their worst positions drawn, the drills to practise next
    (kinds, and their own worst positions as ``[teach] drills`` entries), their PR match by
    match (``history``: table and chart with the 95 % interval), the chart of the equity
    lost on each of their plays and every decision of theirs."""
    mine = [lesson for lesson in lessons if lesson.player == player]
    plays = [p for p in mine if isinstance(p, PlayLesson) and p.play]
    cubes = [c for c in mine if isinstance(c, CubeLesson)]
    worst = worst_plays(lessons, player)
    t = {k: html.escape(say(w, k)) for k in (
        N_("Cube decisions"), N_("position"), N_("decision"), N_("best"), N_("loss"), N_("grade"),
        N_("Equity lost per play"), N_("Worst positions"), N_("Practise next"), N_("Every play"), N_("dice"),
        N_("play"))}
    chart = (f"<h3>{t['Equity lost per play']}</h3><figure class=\"chart\">{chart_svg(mine, w)}</figure>"
             if plays else "")
    return f"""<section class="learner" id="learner-{player}"><h2>{html.escape(name[:_NAME_MAX])}</h2>
<p class="pr">{_pr_line(lessons, player, plays, figures, w)}</p>
<p class="plays">{_counts(mine, plays, cubes, w)}</p>
<h3>{t['Worst positions']}</h3><ol class="worst-boards">{_worst_pictures(worst, w)}</ol>
<h3>{t['Practise next']}</h3><ul class="practise">{_practise(mine, w)}</ul>{_own_drills(worst, w)}
{_history(history, w)}
{chart}
<h3>{t['Every play']}</h3><div class="scroll"><table class="plays"><tr><th>#</th><th>{t['dice']}</th><th>{t['play']}</th><th>{t['best']}</th>
<th>{t['loss']}</th><th>{t['grade']}</th></tr>{_every_play(plays, w)}</table></div>
{_cube_table(cubes, t, w)}</section>
"""


def _pr_line(lessons: Sequence[PlayLesson | CubeLesson], player: int, plays: Sequence[PlayLesson],
             figures: Mapping[str, object] | None, w: Words) -> str:
    """The learner's PR (escaped): with its interval and their luck from the match's
    analysis when there is one, else from their graded decisions; when the engine only
    ranked plays, why there is no equity lost to report."""
    esc = html.escape
    if figures:
        lo, hi = figures.get("pr_low"), figures.get("pr_high")
        interval = f"{lo:.1f}–{hi:.1f}" if isinstance(lo, float) and isinstance(hi, float) else say(w, "not known")
        note = figures.get("pr_note")
        wide = f" ({note})" if isinstance(note, str) and note else ""
        pr = esc(say(w, "PR %(pr)s (95 %% interval %(interval)s%(note)s) over %(decisions)s decisions; "
                        "error rate %(rate)s mEMG, %(rating)s. Luck %(luck)s (%(luck_rating)s).",
                     pr=f"{figures['pr']:.1f}", interval=interval, note=wide, decisions=figures["decisions"],
                     rate=f"{figures['error_rate_memg']:.1f}", rating=str(figures["overall_rating"]),
                     luck=f"{figures['luck_emg']:+.2f}", luck_rating=str(figures["luck_rating"])))
    else:
        value, decisions = learner_pr(lessons, player)
        pr = esc(say(w, "PR %(pr)s from the graded decisions (%(decisions)d); no match analysis to show luck.",
                     pr=f"{value:.1f}", decisions=decisions))
    if plays and not any(p.grade is not None for p in plays):
        pr = esc(say_n(w, "%(n)d play ranked: the engine only ranks plays, so there is no equity lost to report; "
                          "choose gnubg-nn or bgsage for grades.",
                       "%(n)d plays ranked: the engine only ranks plays, so there is no equity lost to report; "
                       "choose gnubg-nn or bgsage for grades.", len(plays)))
    return pr


def _counts(mine: Sequence[PlayLesson | CubeLesson], plays: Sequence[PlayLesson], cubes: Sequence[CubeLesson],
            w: Words) -> str:
    """The learner's plays (and how many had a choice), cube decisions, equity lost per
    unforced play and mistakes by kind, escaped."""
    free = [p for p in plays if unforced(p)]
    per_play = sum(p.loss for p in free) / len(free) if free else 0.0
    m = mistakes_by_kind(mine)
    return html.escape(say(
        w, "%(plays)s (%(free)d with a choice), %(cubes)s;\n%(lost)s lost per unforced play; mistakes: "
           "%(doubtful)d doubtful, %(bad)d bad, %(very_bad)d very bad,\n%(cube)d at the cube.",
        plays=say_n(w, "%(n)d play", "%(n)d plays", len(plays)), free=len(free),
        cubes=say_n(w, "%(n)d cube decision", "%(n)d cube decisions", len(cubes)),
        lost=f"{per_play:.3f}", doubtful=m["doubtful"], bad=m["bad"], very_bad=m["very bad"], cube=m["cube"]))


def _worst_pictures(worst: Sequence[PlayLesson], w: Words) -> str:
    """Each of the worst plays as a list item: its position drawn, what was played and lost,
    the better play and why, and the position's ID."""
    esc = html.escape
    return "".join(
        "<li><figure>{svg}<figcaption><b>{dice}</b>: {said}{why} <small><code>{pid}</code></small></figcaption>"
        "</figure></li>".format(
            svg=_board(pos, p.position) if (pos := _position(p)) is not None else "",
            dice=esc(p.dice),
            # the catalogue's own text, the parameters escaped: the page's markup stays the code's
            said=say(w, "played %(play)s, lost %(loss)s (%(grade)s); better %(best)s.",
                     play=f"<code>{_moves(p.play)}</code>", loss=f"{p.loss:.3f}",
                     grade=esc(grade_word(p.grade, w, say(w, "not graded"))), best=f"<code>{_moves(p.best)}</code>"),
            why=f" {esc(said(p.why, w))}" if p.why else "", pid=esc(p.position))
        for p in worst) or "<li>{}</li>".format(esc(say(w, "No play lost equity.")))


def _practise(mine: Sequence[PlayLesson | CubeLesson], w: Words) -> str:
    """The kinds of drill to practise next as list items, the costliest first."""
    esc = html.escape
    return "".join(
        "<li>{}</li>".format(esc(say_n(w, "%(kind)s drills: %(n)d mistake, %(lost)s lost",
                                       "%(kind)s drills: %(n)d mistakes, %(lost)s lost", n,
                                       kind=said(DRILL_KINDS.get(k, k), w), lost=f"{e:.3f}")))
        for k, n, e in drill_kinds(mine)) or "<li>{}</li>".format(esc(say(w, "No mistakes: any drill set keeps the eye in.")))


def _own_drills(worst: Sequence[PlayLesson], w: Words) -> str:
    """The learner's own worst positions as ``[teach] drills`` entries ('' when none)."""
    own = ", ".join(f'"{html.escape(p.position)}:{html.escape(p.dice)}"' for p in worst)
    return ("<p>" + say(w, "Your own worst positions as drills: %(list)s, or %(mine)s for the worst of every match kept.",
                        list=f"<code>[teach] drills = [{own}]</code>",
                        mine="<code>[teach] drills = \"mine\"</code>") + "</p>" if own else "")


def _every_play(plays: Sequence[PlayLesson], w: Words) -> str:
    """A table row per play: its number, dice, the play, the best play, the loss, the grade."""
    esc = html.escape
    return "".join(
        "<tr><td>{n}</td><td>{dice}</td><td><code>{play}</code></td><td><code>{best}</code></td>"
        "<td>{loss:.3f}</td><td>{grade}</td></tr>".format(
            n=i, dice=esc(p.dice), play=_moves(p.play), best=_moves(p.best), loss=p.loss,
            grade=esc(grade_word(p.grade, w)))
        for i, p in enumerate(plays, start=1))


def _cube_table(cubes: Sequence[CubeLesson], t: Mapping[str, str], w: Words) -> str:
    """The learner's cube decisions as a table under its heading ('' when none); ``t`` the
    headings said and escaped."""
    esc = html.escape
    rows = "".join(
        f"<tr><td><code>{esc(c.position)}</code></td><td>{esc(c.decision)}</td>"
        f"<td>{esc(c.best)}</td><td>{c.loss:.3f} {esc(c.unit)}</td><td>{esc(grade_word(c.grade, w))}</td></tr>"
        for c in cubes)
    return (f"<h3>{t['Cube decisions']}</h3><div class=\"scroll\"><table class=\"cubes\"><tr><th>{t['position']}</th>"
            f"<th>{t['decision']}</th><th>{t['best']}</th><th>{t['loss']}</th><th>{t['grade']}</th></tr>{rows}"
            "</table></div>" if cubes else "")


def report_html(lessons: Sequence[PlayLesson | CubeLesson], title: str = "Learner report",
                names: tuple[str, str] | None = None, figures: Sequence[Mapping[str, object]] = (),
                learners: Sequence[int] | None = None,
                histories: Mapping[int, Sequence[Mapping[str, Any]]] | None = None, w: Words = ENGLISH) -> str:
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
    cubes = say_n(w, "%(n)d cube decision", "%(n)d cube decisions", report.cube_decisions)
    summary = esc(say_n(w, "%(n)d play graded, %(cubes)s;\nequity lost: %(total)s in all, %(per_play)s per play.",
                        "%(n)d plays graded, %(cubes)s;\nequity lost: %(total)s in all, %(per_play)s per play.",
                        report.plays, cubes=cubes, total=f"{report.total_loss:.3f}",
                        per_play=f"{report.loss_per_play:.3f}"))
    if report.plays and not report.graded:
        summary = esc(say_n(w, "%(n)d play ranked, %(cubes)s; the engine only ranks plays, so there is no equity lost "
                               "to report: choose gnubg-nn or bgsage for grades.",
                            "%(n)d plays ranked, %(cubes)s; the engine only ranks plays, so there is no equity lost "
                            "to report: choose gnubg-nn or bgsage for grades.", report.plays, cubes=cubes))
    sections = "".join(
        learner_section(lessons, side, names[side] if names is not None else say(w, "Player %(side)d", side=side),
                        figures[side] if len(figures) == 2 else None, (histories or {}).get(side, ()), w)
        for side in sides)
    lang = esc(str(getattr(w, "info", dict)().get("language", "en")))
    title = said(title, w)
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{esc(title)}</title>
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
