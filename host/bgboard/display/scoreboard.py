"""The scoreboard (pure): a player column on each side — the name bar (inverted for the player
on roll), the big score, the pip count, the clock — and a centre column — the match length,
the dice or the offered cube, the Crawford label.  One scoreboard for every panel: the small
strips (~250×122) pack each player's column tighter (:func:`_small_column`: the owned cube at
the name bar's inner end, the pip count stacked beside the score, the clocks and the Crawford
label in a thin row only when there are any), so that the footer keeps three lines.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Callable

from bgboard.display.canvas import BLACK, WHITE, Canvas
from bgboard.display.fonts import font
from bgboard.display.layouts import Layout
from bgboard.display.display_state import ClockState, DisplayState, Text
from bgboard.display.texts import crawford_label, format_clock, match_label
from bgboard.language import say, say_n

CLOCK_LOW_MS = 60_000
"""A reserve below this is drawn highlighted."""


@dataclass(frozen=True, slots=True)
class _Frame:
    """Where the scoreboard's rows are: the name bars, the scores, the row below them (the
    pip counts on the larger panels, the Crawford label on all) and the clocks' row."""

    side_w: int
    centre_w: int
    mid: int
    name_h: int
    score_top: int
    score_h: int
    row_top: int
    row_h: int
    clock_top: int
    clock_h: int
    clock_px: int


def scoreboard(c: Canvas, lay: Layout, s: DisplayState) -> int:
    """Both player columns and the centre column; returns the y where the footer starts."""
    W = c.panel.width
    pad = lay.pad
    small = c.panel.size_class == "small"
    side_w = int(W * 0.34)
    centre_x0, centre_x1 = side_w, W - side_w
    name_h = int(lay.name_px * 1.3)
    score_top = pad + name_h + pad
    score_h = int(lay.score_px * 0.78) + 2 * pad
    craw = crawford_label(s, c.words)
    row_top = score_top + score_h + pad
    row_h = int(lay.info_px * 1.25) if not small or s.clock is not None or craw else 0
    if small:   # the clocks share the thin row with the Crawford label
        clock_top, clock_h, clock_px = row_top, row_h, c.min_px
        bottom = row_top + row_h + (pad if row_h else 0)
    else:       # with clocks, the larger panels give them their own row in a bigger size
        two_rows = s.clock is not None
        clock_px = int(lay.info_px * 1.25) if two_rows else lay.info_px
        clock_top = row_top + row_h + pad if two_rows else row_top
        clock_h = int(clock_px * 1.25) if two_rows else row_h
        bottom = max(row_top + row_h, clock_top + clock_h) + pad
    f = _Frame(side_w, centre_x1 - centre_x0, (centre_x0 + centre_x1) // 2, name_h, score_top, score_h,
               row_top, row_h, clock_top, clock_h, clock_px)
    column = _small_column if small else _column
    labelled = clocks = 0
    for p in (0, 1):
        x0 = pad if p == 0 else W - side_w + pad
        x1 = side_w - pad if p == 0 else W - pad
        pips, clock = column(c, lay, s, f, p, x0, x1)
        labelled += pips
        clocks += clock
    c.placed.add("score")
    if labelled == 2:
        c.placed.add("pips")
    if clocks == 2:
        c.placed.add("clock")
    _centre(c, lay, s, f, craw, c.min_px if small else lay.info_px)
    return bottom


def _column(c: Canvas, lay: Layout, s: DisplayState, f: _Frame, p: int, x0: int, x1: int) -> tuple[bool, bool]:
    """Player ``p``'s column on the medium and large panels, from ``x0`` to ``x1``: whether
    its pip count was labelled and its clock fitted."""
    pad = lay.pad
    labelled = clocks = False
    two_rows = s.clock is not None
    _name_bar(c, lay, s, p, x0, x1, f.name_h)
    # score, big
    score = str(s.score[p])
    sx = x0 + 2 if p == 0 else x1 - 2
    c.text((sx, f.score_top + f.score_h // 2), score, lay.score_px, anchor="lm" if p == 0 else "rm",
           item="score")
    # cube owned by this player: beside the score, towards the centre
    if s.cube_owner == p and s.phase != "cube-offered":
        size_c = min(lay.die_px, int(f.score_h * 0.7))
        score_w = c.width(score, font(lay.score_px))
        cx0 = x0 + score_w + 3 * pad + 4 if p == 0 else x1 - score_w - 3 * pad - 4 - size_c
        c.cube(cx0, f.score_top + (f.score_h - size_c) // 2, size_c, s.cube, False, lay.line)
        c.placed.add("cube")
    # pips, clock (own row on the larger panels) and the delay left this turn
    pips: Text = ()
    if s.pips is not None:
        # source: pips = "ogen" seeds/000 (the dice's), "Augenzahl" seeds/004; counts as written
        pips = (say_n(c.words, "%(n)d pip", "%(n)d pips", s.pips[p]),
                say(c.words, "%(n)dp", n=s.pips[p]), str(s.pips[p]))
    outward = "lm" if p == 0 else "rm"
    inward = "rm" if p == 0 else "lm"
    if s.clock is None or two_rows:
        if s.pips is not None:
            # one form for both players ("88 pips" / "64 pips", never "88" / "64 pips")
            wide = max(s.pips, key=lambda n: len(str(n)))
            forms: tuple[Callable[[int], str], ...] = (
                lambda n: say_n(c.words, "%(n)d pip", "%(n)d pips", n),
                lambda n: say(c.words, "%(n)dp", n=n), str)
            text, size = c.fit(tuple(fm(wide) for fm in forms), x1 - x0, lay.info_px)
            form = next((fm for fm in forms if fm(wide) == text), str)
            c.text((x0 if p == 0 else x1, f.row_top + f.row_h // 2),
                   form(s.pips[p]), size, anchor=outward, bold=False, item="pips")
            labelled = form is not str
    if s.clock is not None:
        top, bottom = f.clock_top, f.clock_top + f.clock_h - 1
        box = _clock(c, lay, s.clock, p, x0, x1, top, bottom, f.clock_px, pad)
        running = s.clock.running == p
        clocks = box[2] - box[0] <= x1 - x0
        extra: Text = () if two_rows else pips
        if running and s.clock.delay_ms > 0:
            # the delay left this turn: the reserve runs only once it is used up
            d = f"+{-(-s.clock.delay_ms // 1000)}"
            extra = (d + "s", d)  # on the small panels it takes the place of the pips
        if extra:
            # on its own row the clock may use the empty centre of that row too
            rest_w = (x1 - x0) - (box[2] - box[0]) - 2 * pad + (
                f.centre_w // 2 - pad if two_rows else 0)
            reach = f.centre_w // 2 if two_rows else 0
            text, size = c.fit(extra, rest_w, lay.info_px)
            c.text((x1 + reach if p == 0 else x0 - reach, (top + bottom) // 2 + 1), text,
                   size, anchor=inward, bold=False)
    return labelled, clocks


def _small_column(c: Canvas, lay: Layout, s: DisplayState, f: _Frame, p: int, x0: int, x1: int) -> tuple[bool, bool]:
    """Player ``p``'s column on the small strips: the name bar with the owned cube as a box at
    its inner end, the big score at the outer edge with the pip count stacked beside it ("88"
    over "pips"), the clock in the thin row; whether the pip count and the clock fitted."""
    pad = lay.pad
    labelled = clocks = False
    # the name bar, with the owned cube as a box at its inner end
    owned = s.cube_owner == p and s.phase != "cube-offered"
    value = str(s.cube)
    cube_h = f.name_h - 2
    cube_w = max(cube_h, c.width(value, font(c.min_px)) + 2 * lay.line + 4) if owned else 0
    _name_bar(c, lay, s, p, x0, x1, f.name_h, cube_w + pad if owned else 0)
    if owned:
        cx0 = x1 - cube_w if p == 0 else x0
        c.draw.rectangle((cx0, pad + 1, cx0 + cube_w - 1, pad + cube_h), fill=WHITE,
                         outline=BLACK, width=lay.line)
        c.text((cx0 + cube_w // 2, pad + 1 + cube_h // 2), value, c.min_px, anchor="mm", item="cube")
        c.placed.add("cube")
    # the score, big, at the outer edge
    score = str(s.score[p])
    score_px = lay.score_px
    while score_px > c.min_px and c.width(score, font(score_px)) > (x1 - x0) // 2 + 8:
        score_px -= 1
    score_w = c.width(score, font(score_px))
    sx = x0 + 1 if p == 0 else x1 - 1
    c.text((sx, f.score_top + f.score_h // 2), score, score_px, anchor="lm" if p == 0 else "rm",
           item="score")
    # the pip count stacked at the inner edge: the number over the word "pips"
    if s.pips is not None:
        # source: pips, see _column
        number, word = str(s.pips[p]), say(c.words, "pips")
        stack_w = max(c.width(number, font(c.min_px, False)), c.width(word, font(c.min_px, False)))
        if score_w + 2 * pad + stack_w <= x1 - x0:
            anchor = "rm" if p == 0 else "lm"
            ix = x1 if p == 0 else x0
            c.text((ix, f.score_top + f.score_h // 4 + 1), number, c.min_px, anchor=anchor,
                   bold=False, item="pips")
            c.text((ix, f.score_top + (3 * f.score_h) // 4), word, c.min_px, anchor=anchor,
                   bold=False, item="pips")
            labelled = True
    # the clock, in the thin row
    if s.clock is not None:
        top, bottom = f.clock_top, f.clock_top + f.clock_h - 1
        box = _clock(c, lay, s.clock, p, x0, x1, top, bottom, c.min_px, pad)
        running = s.clock.running == p
        clocks = box[2] - box[0] <= x1 - x0
        if running and s.clock.delay_ms > 0:
            d = f"+{-(-s.clock.delay_ms // 1000)}"
            rest_w = (x1 - x0) - (box[2] - box[0]) - 2 * pad
            text, size, whole = c.fit_whole((d + "s", d), rest_w, c.min_px)
            if whole:
                c.text((x1 if p == 0 else x0, (top + bottom) // 2 + 1), text, size,
                       anchor="rm" if p == 0 else "lm", bold=False)
    return labelled, clocks


def _centre(c: Canvas, lay: Layout, s: DisplayState, f: _Frame, craw: Text, craw_px: int) -> None:
    """The centre column: the match length over the dice (or the offered cube), the Crawford
    label in the row below the scores (inverted in the Crawford game)."""
    pad = lay.pad
    label, size, whole = c.fit_whole(match_label(s, c.words), f.centre_w - 2 * pad, lay.name_px)
    c.text((f.mid, pad + f.name_h // 2), label, size, anchor="mm", item="match")
    if whole:
        c.placed.add("match")
    die = min(lay.die_px, f.score_h, (f.centre_w - 3 * pad) // 2)
    _centre_dice(c, lay, s, f.mid, f.score_top + (f.score_h - die) // 2, die)
    if craw:
        text, size, whole = c.fit_whole(craw, f.centre_w - 2 * pad, craw_px)
        cy = f.row_top + f.row_h // 2
        if s.crawford == "crawford":
            w = c.width(text, font(size))
            c.draw.rectangle((f.mid - w // 2 - pad - 2, f.row_top, f.mid + w // 2 + pad + 2,
                              f.row_top + f.row_h - 1), fill=c.accent)
            c.text((f.mid, cy), text, size, fill=WHITE, anchor="mm", item="crawford")
        else:
            c.text((f.mid, cy), text, size, anchor="mm", item="crawford")
        if whole:
            c.placed.add("crawford")


def _name_bar(c: Canvas, lay: Layout, s: DisplayState, p: int, x0: int, x1: int,
              name_h: int, inner_w: int = 0) -> None:
    """Player ``p``'s name bar from ``x0`` to ``x1``: checker icon (ring = white, disc =
    black) and name, inverted for the player on roll; ``inner_w`` pixels at the inner end
    (towards the centre) are left free."""
    pad = lay.pad
    on_roll = s.turn == p and s.phase not in ("game-over", "match-over")
    ink = WHITE if on_roll else BLACK
    if on_roll:
        c.draw.rectangle((x0 - pad + (pad if p == 0 else 0), pad, x1, pad + name_h - 1),
                         fill=BLACK)
    r = max(3, lay.name_px // 3)
    icon_x = x0 + r + 2 if p == 0 else x1 - r - 2
    cy = pad + name_h // 2
    c.draw.ellipse((icon_x - r, cy - r, icon_x + r, cy + r),
                   fill=(BLACK if p else WHITE) if not on_roll else (WHITE if p else BLACK),
                   outline=ink, width=max(1, lay.line - 1))
    gap = 2 * r + 2 + max(4, lay.name_px // 4)  # icon and the space after it
    name, size, whole = c.fit_whole(name_forms(s.names[p]), (x1 - x0) - gap - 2 - inner_w, lay.name_px)
    if p == 0:
        c.text((x0 + gap, cy), name, size, fill=ink, anchor="lm", item="names")
    else:
        c.text((x1 - gap, cy), name, size, fill=ink, anchor="rm", item="names")
    if whole:
        c.placed.add(f"name{p}")


_LEVELLED = re.compile(r"^(?P<who>.+?) \((?P<level>[^()]{4,})\)$")


def name_forms(name: str) -> tuple[str, ...]:
    """A player's name, longest form first: an engine and its level ("gnubg-nn (intermediate)")
    shortens to "gnubg-nn (int.)" and then "gnubg-nn", never to "gnubg-nn (a…"."""
    found = _LEVELLED.match(name)
    if found is None:
        return (name,)
    who, level = found.group("who"), found.group("level")
    return (name, f"{who} ({level[:3]}.)", who)


def _clock(c: Canvas, lay: Layout, clock: ClockState, p: int, x0: int, x1: int, top: int,
           bottom: int, px: int, pad: int) -> tuple[int, int, int, int]:
    """Draw player ``p``'s reserve in a box at its side of ``x0..x1`` (filled when low,
    outlined while running); the box drawn."""
    reserve = clock.reserve_ms[p]
    text = format_clock(reserve)
    low = reserve < CLOCK_LOW_MS
    clock_w = c.width(text, font(px))
    box = (x0, top, x0 + clock_w + 2 * pad + 4, bottom)
    if p == 1:
        box = (x1 - clock_w - 2 * pad - 4, top, x1, bottom)
    if low:
        c.draw.rectangle(box, fill=c.accent)
    elif clock.running == p:
        c.draw.rectangle(box, outline=BLACK, width=max(1, lay.line - 1))
    c.text(((box[0] + box[2]) // 2 + 1, (top + bottom) // 2 + 1), text, px,
           fill=WHITE if low else BLACK, anchor="mm", item="clock")
    return box


def _centre_dice(c: Canvas, lay: Layout, s: DisplayState, mid: int, dy: int, die: int) -> None:
    """The dice of the player on roll (one of each colour at the opening roll), or the
    offered cube, centred on ``mid``."""
    pad = lay.pad
    if s.phase == "cube-offered":
        c.cube(mid - die // 2, dy, die, s.cube * 2, True, lay.line)
        c.placed.add("cube")
    elif s.dice is not None:
        gap = max(pad, die // 6)
        if s.phase == "opening":
            darks = (False, True)  # player 0's die, player 1's die
        else:
            darks = (s.turn == 1, s.turn == 1)
        c.die(mid - gap // 2 - die, dy, die, s.dice[0], darks[0], lay.line)
        c.die(mid + (gap + 1) // 2, dy, die, s.dice[1], darks[1], lay.line)
        c.placed.add("dice")
        c.mark("dice", (mid - gap // 2 - die, dy, mid + (gap + 1) // 2 + die, dy + die))


__all__ = ["CLOCK_LOW_MS", "name_forms", "scoreboard"]
