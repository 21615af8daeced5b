"""The end of a game or of the match (pure): who won and how in a full-width bar, the new
score big with the names beside it, the points with the cube and the match length, the
match's analysis, and at a club match's end whether the result was sent."""

from __future__ import annotations

from bgboard.display.canvas import WHITE, Canvas
from bgboard.display.fonts import font
from bgboard.display.layouts import Layout
from bgboard.display.display_state import DisplayState, Text
from bgboard.language import say
from bgboard.display.texts import combined, ending_how, ending_points, ending_title, match_label, sent_label


def ending_screen(c: Canvas, lay: Layout, s: DisplayState) -> int:
    """The end of a game or of the match: who won and how in a full-width bar, the new
    score big with the names beside it, the points with the cube and the match length,
    and at a club match's end whether the result was sent."""
    e = s.ending
    winner = e.winner if e is not None else (
        s.winner if s.winner is not None else (0 if s.score[0] >= s.score[1] else 1))
    y = _winner_bar(c, lay, s, winner)
    y = _score(c, lay, s, winner, y)
    match = match_label(s, c.words)
    line_h = int(lay.info_px * (1.1 if c.panel.size_class == "small" else 1.25))
    y = _facts(c, lay, s, match, y, line_h)
    if s.analysis and s.phase == "match-over":
        y = _analysis(c, lay, s, match, y, line_h)
    if "match" not in c.placed:
        text, size, whole = c.fit_whole(
            (f"{s.names[0]}  ·  {s.names[1]}  ·  {match[0]}",) + match, c.panel.width - 2 * lay.pad,
            lay.info_px)
        c.text((c.panel.width // 2, y + line_h // 2), text, size, anchor="mm", bold=False, item="match")
        if whole:
            c.placed.add("match")
        y += line_h
    return y + lay.pad


def _winner_bar(c: Canvas, lay: Layout, s: DisplayState, winner: int) -> int:
    """Who won (the match, or the game and how) in a full-width bar at the top; the ``y``
    below it."""
    W, pad, w = c.panel.width, lay.pad, c.words
    name = s.names[winner]
    if s.phase == "match-over":
        title: Text = (say(w, "%(who)s wins the match", who=name), say(w, "%(who)s wins", who=name),
                       say(w, "Match over"))
    else:
        title = ending_title(s, w)
    small = c.panel.size_class == "small"
    text, size, whole = c.fit_whole(title, W - 2 * pad, lay.name_px if small else int(lay.name_px * 1.3))
    top = pad
    h = int(size * (1.2 if small else 1.35))
    c.draw.rectangle((0, top, W - 1, top + h - 1), fill=c.accent)
    c.text((W // 2, top + h // 2), text, size, fill=WHITE, anchor="mm", item="ending")
    if whole:
        c.placed.add("ending")
    return top + h


def _score(c: Canvas, lay: Layout, s: DisplayState, winner: int, y: int) -> int:
    """The score, big, below ``y`` and the names on either side where they fit (the
    winner's bold); the ``y`` below it."""
    W, pad = c.panel.width, lay.pad
    score = f"{s.score[0]} – {s.score[1]}"
    score_top = y + pad
    score_h = int(lay.score_px * 0.78) + 2 * pad
    cy = score_top + score_h // 2
    c.text((W // 2, cy), score, lay.score_px, anchor="mm", item="score")
    c.placed.add("score")
    side = (W - c.width(score, font(lay.score_px))) // 2 - 3 * pad
    names = 0
    for p in (0, 1):
        label, nsize, nwhole = c.fit_whole((s.names[p],), side, lay.info_px)
        if side > c.min_px and nwhole:
            c.text((pad + 1 if p == 0 else W - pad - 1, cy), label, nsize,
                   anchor="lm" if p == 0 else "rm", bold=p == winner, item="names")
            names += 1
    if names == 2:
        c.placed.add("names")
    return score_top + score_h + pad


def _facts(c: Canvas, lay: Layout, s: DisplayState, match: Text, y: int, line_h: int) -> int:
    """How the game was won (on the match screen), its points with the cube, the match
    length, and whether a club match's result was sent, a line each from ``y``; the ``y``
    below them."""
    W, pad, w, e = c.panel.width, lay.pad, c.words, s.ending
    points, sent = ending_points(s, w), sent_label(s, w)
    # "+4 points (gammon, cube 2)" and "7 points" side by side read badly: not that form
    match_forms = tuple(m for i, m in enumerate(match) if not (s.match_length and i == 2))
    lines: list[Text] = []
    if e is not None and s.phase == "match-over":
        played_out = e.how in ("single", "gammon", "backgammon")
        how = (say(w, "Last game"), say(w, "Last")) if played_out else ending_how(s, w)
        lines.append(combined(how, points, ": " if played_out else ", ")[:-len(how)] + points)
    if points and s.phase == "game-over":
        lines.append(combined(points, match_forms))
    if sent:
        lines.append(combined(sent, match_forms))
    facts = {"points": points, "match": match, "sent": sent}
    for variants in lines:
        text, size, whole = c.fit_whole(variants, W - 2 * pad, lay.info_px)
        shown = tuple(k for k, forms in facts.items() if any(f in text for f in forms))
        c.text((W // 2, y + line_h // 2), text, size, anchor="mm", bold=False, item=shown)
        if whole:
            c.placed.update(shown)
        y += line_h
    return y


def _analysis(c: Canvas, lay: Layout, s: DisplayState, match: Text, y: int, line_h: int) -> int:
    """The match's analysis (both players' PR and error rate) on the line that says the
    match length when that line is still to come, else on a line of its own; the ``y``
    below it."""
    W = c.panel.width
    forms = tuple(f"{a} · {m}" for a in s.analysis for m in match) if "match" not in c.placed else s.analysis
    text, size, whole = c.fit_whole(forms, W - 2 * lay.pad, lay.info_px)
    c.text((W // 2, y + line_h // 2), text, size, anchor="mm", bold=False,
           item=("analysis", "match") if any(text.endswith(m) for m in match) else "analysis")
    if whole:
        c.placed.add("analysis")
        if any(text.endswith(m) for m in match):
            c.placed.add("match")
    return y + line_h


__all__ = ["ending_screen"]
