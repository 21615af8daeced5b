"""The learner report on a 390 px phone, read in a real Chromium: nothing overflows the page,
no play is broken inside a move, and every word of the charts reads at 11 px or more (the
rendered size measured, the grades' labels inside the picture)."""

from __future__ import annotations

from pathlib import Path

from bgboard.hints.lesson import PlayLesson
from bgboard.hints.learner_report import report_html
from tests.club.webrun import chromium

PLAYS = ["23/21 13/7", "24/18(2) 13/7(2)", "bar/22* 13/11", "8/5* 6/5", "6/off 5/off", "13/11/10", "24/13",
         "10/4* 6/4", "bar/20 13/11", "8/2 6/2"]
GRADES = [("good", 0.0), ("doubtful", 0.05), ("bad", 0.1), ("very bad", 0.3)]


def _report(tmp_path: Path) -> Path:
    lessons = [PlayLesson(i % 2, "4HPwATDgc/ABMA", "31", PLAYS[i % len(PLAYS)], PLAYS[(i + 3) % len(PLAYS)],
                          GRADES[i % 4][1], GRADES[i % 4][0]) for i in range(40)]
    history = [{"played": f"2026-11-{d:02d}", "pr": 8.0 + d, "pr_low": 5.0 + d, "pr_high": 11.0 + d, "decisions": 40}
               for d in range(1, 6)]
    page = tmp_path / "learner-report.html"
    page.write_text(report_html(lessons, "Learner report: 5-point match", ("Ann Example-Longname", "Bob"),
                                histories={0: history, 1: history}))
    return page


MEASURE = """
const out = {overflow: [document.documentElement.scrollWidth, window.innerWidth], small: [], clipped: [], broken: []};
for (const svg of document.querySelectorAll('figure.chart svg, figure.history-chart svg')) {
  const box = svg.getBoundingClientRect();
  for (const t of svg.querySelectorAll('text')) {
    const m = t.getScreenCTM();  // (a turned label: its scale is the length of the first column)
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (px < 11) out.small.push([t.textContent, px]);
    const r = t.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
      out.clipped.push(t.textContent);
  }
  out.texts = (out.texts || 0) + svg.querySelectorAll('text').length;
}
for (const mv of document.querySelectorAll('.mv')) if (mv.getClientRects().length > 1) out.broken.push(mv.textContent);
out.moves = document.querySelectorAll('.mv').length;
return out;
"""


def test_the_learner_report_reads_on_a_390_px_phone(tmp_path: Path) -> None:
    page = _report(tmp_path)
    driver = chromium()
    try:
        driver.set_window_size(390, 900)
        driver.get(page.as_uri())
        seen = driver.execute_script(MEASURE)
    finally:
        driver.quit()
    width, inner = seen["overflow"]
    assert width <= inner <= 390, "the page scrolls sideways on a phone"
    assert seen["texts"] >= 20  # (the charts' words are text, and were measured)
    assert seen["small"] == [], "chart text under 11 px on a phone"
    assert seen["clipped"] == [], "chart text outside its picture"
    assert seen["moves"] >= 80 and seen["broken"] == [], "a move broken across lines"
