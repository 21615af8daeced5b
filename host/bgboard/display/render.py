"""The pure renderer: :class:`DisplayState` + :class:`PanelSpec` → Pillow image.

No I/O, no clock.  Drawing happens on a greyscale canvas with three inks (white, black and
*accent*) and text without anti-aliasing, then the canvas becomes the panel's own image:

* black/white panels: mode ``"1"``; the accent ink becomes black (error boxes and the
  offered cube are drawn inverted so they still stand out);
* red/yellow panels: mode ``"P"`` with palette index 0 white, 1 black, 2 accent
  (what Pimoroni's ``inky`` expects).

Three layouts, chosen by :attr:`PanelSpec.size_class` (small strips ~250×122, medium
400×300, large 800×480), share one structure: a player column on each side (name, score,
pip count, clock; the player on roll has an inverted name bar), a centre column (match
length, Crawford, dice, cube) and a footer for the message, the put-back list, the prompt,
the teaching grade and the hint.  The small strips pack the pip counts beside the scores
and the owned cube into the name bar, so that the footer keeps three lines (two with
clocks or a Crawford label).

:func:`render_report` also says which items it placed whole (not cut): :func:`required_items`
names the items a state must show, and the tests check that every one was placed on every
panel.  When the footer has too little room, items are dropped by priority (the put-back
list and the current instruction last), never cut silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from PIL import Image, ImageDraw, ImageFont

from bgboard.display.fonts import font
from bgboard.display.panels import PanelSpec
from bgboard.display.state import BoardDiagram, ClockState, DisplayState, Text
from bgboard.display.texts import (combined, crawford_label, ending_how, ending_points,
                                   ending_title, format_clock, match_label, prompt, sent_label)

WHITE = 255
BLACK = 0
ACCENT = 128

CLOCK_LOW_MS = 60_000
"""A reserve below this is drawn highlighted."""

_PALETTE = {"bwr": (255, 0, 0), "bwy": (255, 215, 0)}


@dataclass(frozen=True, slots=True)
class Layout:
    """Font sizes (pixels per em) and spacing of one size class."""

    pad: int
    name_px: int
    score_px: int
    info_px: int
    foot_px: int
    foot_lines: int
    die_px: int
    line: int  # stroke width


LAYOUTS = {
    "small": Layout(pad=2, name_px=15, score_px=36, info_px=15, foot_px=15, foot_lines=2,
                    die_px=30, line=2),
    "medium": Layout(pad=6, name_px=26, score_px=84, info_px=24, foot_px=24, foot_lines=4,
                     die_px=58, line=3),
    "large": Layout(pad=10, name_px=50, score_px=170, info_px=44, foot_px=44, foot_lines=4,
                    die_px=110, line=5),
}


def layout_for(panel: PanelSpec) -> Layout:
    """The layout of ``panel``'s size class, with every text size raised to the panel's
    readable minimum."""
    base = LAYOUTS[panel.size_class]
    m = panel.min_text_px
    return Layout(base.pad, max(base.name_px, m), max(base.score_px, m), max(base.info_px, m),
                  max(base.foot_px, m), base.foot_lines, base.die_px, base.line)


# --------------------------------------------------------------------------- helpers
class _Canvas:
    """A greyscale canvas with helpers for fitted text, boxes, dice and the cube."""

    def __init__(self, panel: PanelSpec, accent: bool) -> None:
        self.panel = panel
        self.image = Image.new("L", (panel.width, panel.height), WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"  # crisp 1-bit glyphs: e-ink has no grey
        self.accent = ACCENT if accent else BLACK
        self.min_px = panel.min_text_px
        self.placed: set[str] = set()
        # the footer tries several sizes and line counts: measure each text once per frame
        self._widths: dict[tuple[str, int, float], int] = {}
        self._fits: dict[tuple[Text, int, int, int], tuple[list[str], int, bool]] = {}

    # text ------------------------------------------------------------------
    def width(self, text: str, f: ImageFont.FreeTypeFont) -> int:
        key = (text, id(f), f.size)
        w = self._widths.get(key)
        if w is None:
            w = self._widths[key] = int(self.draw.textlength(text, font=f))
        return w

    def text(self, xy: tuple[int, int], text: str, size: int, fill: int = BLACK,
             anchor: str = "la", bold: bool = True) -> None:
        self.draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)

    def fit(self, variants: Text, max_w: int, size: int) -> tuple[str, int]:
        """The longest variant that fits ``max_w`` at ``size`` shrinking to the panel
        minimum; else the shortest variant at the minimum, cut with an ellipsis."""
        text, s, _ = self.fit_whole(variants, max_w, size)
        return text, s

    def fit_whole(self, variants: Text, max_w: int, size: int) -> tuple[str, int, bool]:
        """:meth:`fit`, and whether a whole variant fitted (False: it was cut)."""
        for sizes in self._size_passes(size):
            for v in variants:
                for s in sizes:
                    if self.width(v, font(s)) <= max_w:
                        return v, s, True
        v = variants[-1] if variants else ""
        f = font(self.min_px)
        if self.width(v + "…", f) > max_w:  # the longest prefix that fits, by bisection
            low, high = 0, len(v)
            while low < high:
                mid = (low + high + 1) // 2
                if self.width(v[:mid] + "…", f) <= max_w:
                    low = mid
                else:
                    high = mid - 1
            v = v[:low]
        whole = v == (variants[-1] if variants else "")
        return (v if whole else v + "…"), self.min_px, whole

    def _size_passes(self, size: int) -> tuple[range, range]:
        """Sizes to try: first down to 80 % of ``size`` (a shorter text beats a much
        smaller one), then on down to the panel minimum."""
        size = max(size, self.min_px)
        floor = max(self.min_px, int(size * 0.8))
        return range(size, floor - 1, -1), range(floor - 1, self.min_px - 1, -1)

    def wrap(self, text: str, max_w: int, size: int) -> list[str]:
        """Greedy word wrap of ``text`` at ``size``."""
        f = font(size)
        lines: list[str] = []
        current = ""
        for word in text.split():
            trial = f"{current} {word}".strip()
            if current and self.width(trial, f) > max_w:
                lines.append(current)
                current = word
            else:
                current = trial
        if current:
            lines.append(current)
        return lines

    def fit_lines(self, variants: Text, max_w: int, size: int,
                  max_lines: int) -> tuple[list[str], int, bool]:
        """Wrapped lines of the longest variant fitting ``max_lines`` (shrinking to the
        panel minimum), and True; else the last variant's first lines, the last one cut,
        and False."""
        key = (variants, max_w, size, max_lines)
        if key not in self._fits:
            self._fits[key] = self._fit_lines(variants, max_w, size, max_lines)
        lines, s, whole = self._fits[key]
        return list(lines), s, whole

    def _fit_lines(self, variants: Text, max_w: int, size: int,
                   max_lines: int) -> tuple[list[str], int, bool]:
        for sizes in self._size_passes(size):
            for v in variants:
                for s in sizes:
                    lines = self.wrap(v, max_w, s)
                    if len(lines) <= max_lines and all(
                        self.width(line, font(s)) <= max_w for line in lines
                    ):
                        return lines, s, True
        lines = self.wrap(variants[-1], max_w, self.min_px)[:max_lines]
        # a word wider than the panel is cut with an ellipsis wherever it is
        return [self.fit((line,), max_w, self.min_px)[0] for line in lines], self.min_px, False

    def lines_wanted(self, variants: Text, max_w: int, size: int) -> int:
        """How many lines the longest variant needs at ``size`` (at least 1)."""
        return max(1, len(self.wrap(variants[0], max_w, size))) if variants else 1

    # shapes ----------------------------------------------------------------
    def die(self, x: int, y: int, size: int, value: int, dark: bool, line: int) -> None:
        """A die face: white die = outline with black pips, black die = filled."""
        r = max(2, size // 6)
        body, pip = (BLACK, WHITE) if dark else (WHITE, BLACK)
        self.draw.rounded_rectangle((x, y, x + size - 1, y + size - 1), radius=r,
                                    fill=body, outline=BLACK, width=line)
        if value == 0:
            self.text((x + size // 2, y + size // 2), "?", int(size * 0.7), fill=pip,
                      anchor="mm")
            return
        q = size / 4
        spots = {
            1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)],
            4: [(1, 1), (3, 1), (1, 3), (3, 3)], 5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
            6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
        }[value]
        pr = max(2, size // 10)
        for gx, gy in spots:
            cx, cy = x + gx * q, y + gy * q
            self.draw.ellipse((cx - pr, cy - pr, cx + pr, cy + pr), fill=pip)

    def cube(self, x: int, y: int, size: int, value: int, highlight: bool, line: int) -> None:
        """The doubling cube: a square with its value; ``highlight`` = offered."""
        fill, ink = (self.accent, WHITE) if highlight else (WHITE, BLACK)
        self.draw.rectangle((x, y, x + size - 1, y + size - 1), fill=fill, outline=BLACK,
                            width=line)
        label, s = self.fit((str(value),), size - 2 * line - 2, int(size * 0.62))
        self.text((x + size // 2, y + size // 2), label, s, fill=ink, anchor="mm")

    def checker(self, cx: int, cy: int, r: int, player: int, line: int = 1) -> None:
        """A checker: white = ring, black = disc."""
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r),
                          fill=BLACK if player else WHITE, outline=BLACK, width=line)

    def result(self) -> Image.Image:
        if self.panel.colours == "bw":
            return self.image.point(lambda v: 255 if v == WHITE else 0, mode="1")
        index = self.image.point(lambda v: 0 if v == WHITE else (1 if v == BLACK else 2))
        out = Image.frombytes("P", self.image.size, index.tobytes())
        out.putpalette([255, 255, 255, 0, 0, 0, *_PALETTE[self.panel.colours]] + [0] * 759)
        return out


# --------------------------------------------------------------------------- render
ITEMS = ("score", "match", "cube", "crawford", "dice", "pips", "clock", "instruction",
         "prompt", "message", "put-back", "lesson", "hint", "names", "ending", "points", "sent",
         "diagram", "analysis")
"""Everything the renderer can place; :attr:`Rendered.placed` is a subset."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered frame and the items (:data:`ITEMS`) placed on it whole."""

    image: Image.Image
    placed: frozenset[str] = field(default_factory=frozenset)


def render(state: DisplayState, panel: PanelSpec) -> Image.Image:
    """Draw ``state`` for ``panel``: mode ``"1"`` for black/white panels, else ``"P"``."""
    return render_report(state, panel).image


#: The most text the renderer takes: characters of a name, of one variant of a text, and
#: variants per text (a 4.2-inch panel shows about 400 characters in all).  Longer input
#: (a name, a message, a hint) is cut first, so the layout's work is bounded.
MAX_NAME = 40
MAX_TEXT = 400
MAX_VARIANTS = 8


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bounded(state: DisplayState) -> DisplayState:
    """``state`` with every text cut to the limits above (the same state when it fits)."""
    texts = {
        name: tuple(_cut(v, MAX_TEXT) for v in getattr(state, name)[:MAX_VARIANTS])
        for name in ("hint", "message", "title", "put_back", "lesson", "analysis")
    }
    names = tuple(_cut(n, MAX_NAME) for n in state.names)
    if names == state.names and all(texts[k] == getattr(state, k) for k in texts):
        return state
    return replace(state, names=names, **texts)  # type: ignore[arg-type]


def render_report(state: DisplayState, panel: PanelSpec) -> Rendered:
    """Draw ``state`` for ``panel`` and report which items were placed whole."""
    state = bounded(state)
    c = _Canvas(panel, accent=panel.colours != "bw")
    lay = layout_for(panel)
    if state.phase == "match-over" or (state.phase == "game-over" and state.ending is not None):
        foot_top = _ending_screen(c, lay, state)
    elif state.phase == "setup" and state.diagram is not None:
        foot_top = _setup(c, lay, state, state.diagram)
    elif panel.size_class == "small":
        foot_top = _small_scoreboard(c, lay, state)
    else:
        foot_top = _scoreboard(c, lay, state)
    _footer(c, lay, state, foot_top)
    if {"name0", "name1"} <= c.placed:
        c.placed.add("names")
    c.placed -= {"name0", "name1"}
    return Rendered(c.result(), frozenset(c.placed))


def instruction_is_message(state: DisplayState) -> bool:
    """A warning or an error says what to do now: it is the current instruction (the
    phase prompt is then shown only if there is room)."""
    return bool(state.message) and state.severity != "info"


def required_items(state: DisplayState) -> frozenset[str]:
    """The items every panel must show for ``state`` (checked against
    :attr:`Rendered.placed`): score, match length, the cube when it is not a centred 1,
    Crawford, dice, both pip counts (labelled), the clocks, the current instruction and
    the put-back list; on the end screens who won, how, the points and the new score, and
    at the match's end its analysis when there is one."""
    need = {"instruction"} if (instruction_is_message(state) or state.title or prompt(state)) else set()
    if state.put_back:
        need.add("put-back")
    if state.phase == "setup" and state.diagram is not None:
        return frozenset(need | {"diagram"})
    need |= {"score", "match"}
    if state.phase == "match-over" or (state.phase == "game-over" and state.ending is not None):
        need |= {"ending"} if state.ending is not None or state.phase == "match-over" else set()
        if state.analysis and state.phase == "match-over":
            need.add("analysis")
        if state.ending is not None:
            need.add("points")
            if state.ending.sent is not None:
                need.add("sent")
        return frozenset(need)
    if state.cube > 1 or state.cube_owner is not None or state.phase == "cube-offered":
        need.add("cube")
    if state.crawford != "none" and state.match_length:
        need.add("crawford")
    if state.dice is not None and state.phase in ("opening", "moving"):
        need.add("dice")
    if state.pips is not None:
        need.add("pips")
    if state.clock is not None:
        need.add("clock")
    return frozenset(need)


def _name_bar(c: _Canvas, lay: Layout, s: DisplayState, p: int, x0: int, x1: int,
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
    name, size, whole = c.fit_whole((s.names[p],), (x1 - x0) - gap - 2 - inner_w, lay.name_px)
    if p == 0:
        c.text((x0 + gap, cy), name, size, fill=ink, anchor="lm")
    else:
        c.text((x1 - gap, cy), name, size, fill=ink, anchor="rm")
    if whole:
        c.placed.add(f"name{p}")


def _scoreboard(c: _Canvas, lay: Layout, s: DisplayState) -> int:
    """Player columns and centre column (medium and large panels); returns the y where the
    footer starts."""
    W = c.panel.width
    pad = lay.pad
    side_w = int(W * 0.34)
    centre_x0, centre_x1 = side_w, W - side_w
    centre_w = centre_x1 - centre_x0
    name_h = int(lay.name_px * 1.3)
    score_top = pad + name_h + pad
    score_h = int(lay.score_px * 0.78) + 2 * pad
    info_top = score_top + score_h + pad
    info_h = int(lay.info_px * 1.25)
    # with clocks, the larger panels give them their own row in a bigger size
    two_rows = s.clock is not None
    placed_scores = labelled = clocks = 0
    clock_px = int(lay.info_px * 1.25) if two_rows else lay.info_px
    clock_top = info_top + info_h + pad if two_rows else info_top
    clock_h = int(clock_px * 1.25) if two_rows else info_h

    for p in (0, 1):
        x0 = pad if p == 0 else W - side_w + pad
        x1 = side_w - pad if p == 0 else W - pad
        _name_bar(c, lay, s, p, x0, x1, name_h)
        # score, big
        score = str(s.score[p])
        sx = x0 + 2 if p == 0 else x1 - 2
        c.text((sx, score_top + score_h // 2), score, lay.score_px, anchor="lm" if p == 0 else "rm")
        placed_scores += 1
        # cube owned by this player: beside the score, towards the centre
        if s.cube_owner == p and s.phase != "cube-offered":
            size_c = min(lay.die_px, int(score_h * 0.7))
            score_w = c.width(score, font(lay.score_px))
            cx0 = x0 + score_w + 3 * pad + 4 if p == 0 else x1 - score_w - 3 * pad - 4 - size_c
            c.cube(cx0, score_top + (score_h - size_c) // 2, size_c, s.cube, False, lay.line)
            c.placed.add("cube")
        # pips, clock (own row on the larger panels) and the delay left this turn
        pips: Text = ()
        if s.pips is not None:
            pips = (f"{s.pips[p]} pip{'' if s.pips[p] == 1 else 's'}", f"{s.pips[p]}p", str(s.pips[p]))
        outward = "lm" if p == 0 else "rm"
        inward = "rm" if p == 0 else "lm"
        if s.clock is None or two_rows:
            if s.pips is not None:
                # one form for both players ("88 pips" / "64 pips", never "88" / "64 pips")
                wide = max(s.pips, key=lambda n: len(str(n)))
                forms = ("{} pips", "{}p", "{}")
                text, size = c.fit(tuple(f.format(wide) for f in forms), x1 - x0, lay.info_px)
                form = next((f for f in forms if f.format(wide) == text), "{}")
                said = form.format(s.pips[p])
                c.text((x0 if p == 0 else x1, info_top + info_h // 2),
                       said[:-1] if s.pips[p] == 1 and form == "{} pips" else said, size, anchor=outward, bold=False)
                labelled += form != "{}"
        if s.clock is not None:
            top, bottom = clock_top, clock_top + clock_h - 1
            box = _clock(c, lay, s.clock, p, x0, x1, top, bottom, clock_px, pad)
            running = s.clock.running == p
            clocks += box[2] - box[0] <= x1 - x0
            extra: Text = () if two_rows else pips
            if running and s.clock.delay_ms > 0:
                # the delay left this turn: the reserve runs only once it is used up
                d = f"+{-(-s.clock.delay_ms // 1000)}"
                extra = (d + "s", d)  # on the small panels it takes the place of the pips
            if extra:
                # on its own row the clock may use the empty centre of that row too
                rest_w = (x1 - x0) - (box[2] - box[0]) - 2 * pad + (
                    centre_w // 2 - pad if two_rows else 0)
                reach = centre_w // 2 if two_rows else 0
                text, size = c.fit(extra, rest_w, lay.info_px)
                c.text((x1 + reach if p == 0 else x0 - reach, (top + bottom) // 2 + 1), text,
                       size, anchor=inward, bold=False)

    if placed_scores == 2:
        c.placed.add("score")
    if labelled == 2:
        c.placed.add("pips")
    if clocks == 2:
        c.placed.add("clock")
    # centre column: match length, Crawford, dice or offered cube
    mid = (centre_x0 + centre_x1) // 2
    label, size, whole = c.fit_whole(match_label(s), centre_w - 2 * pad, lay.name_px)
    c.text((mid, pad + name_h // 2), label, size, anchor="mm")
    if whole:
        c.placed.add("match")
    craw = crawford_label(s)
    if craw:
        text, size, whole = c.fit_whole(craw, centre_w - 2 * pad, lay.info_px)
        if whole:
            c.placed.add("crawford")
        if s.crawford == "crawford":
            w = c.width(text, font(size))
            c.draw.rectangle((mid - w // 2 - pad - 2, info_top, mid + w // 2 + pad + 2,
                              info_top + info_h - 1), fill=c.accent)
            c.text((mid, info_top + info_h // 2), text, size, fill=WHITE, anchor="mm")
        else:
            c.text((mid, info_top + info_h // 2), text, size, anchor="mm")
    die = min(lay.die_px, score_h, (centre_w - 3 * pad) // 2)
    dy = score_top + (score_h - die) // 2
    _centre_dice(c, lay, s, mid, dy, die)
    return max(info_top + info_h, clock_top + clock_h) + pad


def _clock(c: _Canvas, lay: Layout, clock: ClockState, p: int, x0: int, x1: int, top: int,
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
           fill=WHITE if low else BLACK, anchor="mm")
    return box


def _centre_dice(c: _Canvas, lay: Layout, s: DisplayState, mid: int, dy: int, die: int) -> None:
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


def _small_scoreboard(c: _Canvas, lay: Layout, s: DisplayState) -> int:
    """The small strips (~250×122): name bars with the owned cube at their inner end and
    the match length between them; the big scores with the pip counts stacked beside them
    ("88" over "pips") and the dice between them; a thin row for the clocks and the
    Crawford label only when there are any.  Returns the y where the footer starts."""
    W = c.panel.width
    pad = lay.pad
    side_w = int(W * 0.34)
    centre_x0, centre_x1 = side_w, W - side_w
    centre_w = centre_x1 - centre_x0
    mid = (centre_x0 + centre_x1) // 2
    name_h = int(lay.name_px * 1.3)
    score_top = pad + name_h + pad
    score_h = int(lay.score_px * 0.78) + 2 * pad
    craw = crawford_label(s)
    row_top = score_top + score_h + pad
    row_h = int(lay.info_px * 1.25) if (s.clock is not None or craw) else 0
    small_px = c.min_px
    placed_scores = labelled = clocks = 0

    for p in (0, 1):
        x0 = pad if p == 0 else W - side_w + pad
        x1 = side_w - pad if p == 0 else W - pad
        # the name bar, with the owned cube as a box at its inner end
        owned = s.cube_owner == p and s.phase != "cube-offered"
        value = str(s.cube)
        cube_h = name_h - 2
        cube_w = max(cube_h, c.width(value, font(small_px)) + 2 * lay.line + 4) if owned else 0
        _name_bar(c, lay, s, p, x0, x1, name_h, cube_w + pad if owned else 0)
        if owned:
            cx0 = x1 - cube_w if p == 0 else x0
            c.draw.rectangle((cx0, pad + 1, cx0 + cube_w - 1, pad + cube_h), fill=WHITE,
                             outline=BLACK, width=lay.line)
            c.text((cx0 + cube_w // 2, pad + 1 + cube_h // 2), value, small_px, anchor="mm")
            c.placed.add("cube")
        # the score, big, at the outer edge
        score = str(s.score[p])
        score_px = lay.score_px
        while score_px > c.min_px and c.width(score, font(score_px)) > (x1 - x0) // 2 + 8:
            score_px -= 1
        score_w = c.width(score, font(score_px))
        sx = x0 + 1 if p == 0 else x1 - 1
        c.text((sx, score_top + score_h // 2), score, score_px, anchor="lm" if p == 0 else "rm")
        placed_scores += 1
        # the pip count stacked at the inner edge: the number over the word "pips"
        if s.pips is not None:
            number, word = str(s.pips[p]), "pips"
            stack_w = max(c.width(number, font(small_px, False)), c.width(word, font(small_px, False)))
            if score_w + 2 * pad + stack_w <= x1 - x0:
                anchor = "rm" if p == 0 else "lm"
                ix = x1 if p == 0 else x0
                c.text((ix, score_top + score_h // 4 + 1), number, small_px, anchor=anchor,
                       bold=False)
                c.text((ix, score_top + (3 * score_h) // 4), word, small_px, anchor=anchor,
                       bold=False)
                labelled += 1
        # the clock, in the thin row
        if s.clock is not None:
            top, bottom = row_top, row_top + row_h - 1
            box = _clock(c, lay, s.clock, p, x0, x1, top, bottom, small_px, pad)
            running = s.clock.running == p
            clocks += box[2] - box[0] <= x1 - x0
            if running and s.clock.delay_ms > 0:
                d = f"+{-(-s.clock.delay_ms // 1000)}"
                rest_w = (x1 - x0) - (box[2] - box[0]) - 2 * pad
                text, size, whole = c.fit_whole((d + "s", d), rest_w, small_px)
                if whole:
                    c.text((x1 if p == 0 else x0, (top + bottom) // 2 + 1), text, size,
                           anchor="rm" if p == 0 else "lm", bold=False)
    if placed_scores == 2:
        c.placed.add("score")
    if labelled == 2:
        c.placed.add("pips")
    if clocks == 2:
        c.placed.add("clock")
    # centre: the match length over the dice (or the offered cube); Crawford below
    label, size, whole = c.fit_whole(match_label(s), centre_w - 2 * pad, lay.name_px)
    c.text((mid, pad + name_h // 2), label, size, anchor="mm")
    if whole:
        c.placed.add("match")
    die = min(lay.die_px, score_h, (centre_w - 3 * pad) // 2)
    _centre_dice(c, lay, s, mid, score_top + (score_h - die) // 2, die)
    if craw:
        text, size, whole = c.fit_whole(craw, centre_w - 2 * pad, small_px)
        cy = row_top + row_h // 2
        if s.crawford == "crawford":
            w = c.width(text, font(size))
            c.draw.rectangle((mid - w // 2 - pad - 2, row_top, mid + w // 2 + pad + 2,
                              row_top + row_h - 1), fill=c.accent)
            c.text((mid, cy), text, size, fill=WHITE, anchor="mm")
        else:
            c.text((mid, cy), text, size, anchor="mm")
        if whole:
            c.placed.add("crawford")
    return row_top + row_h + (pad if row_h else 0)


def _ending_screen(c: _Canvas, lay: Layout, s: DisplayState) -> int:
    """The end of a game or of the match: who won and how in a full-width bar, the new
    score big with the names beside it, the points with the cube and the match length,
    and at a club match's end whether the result was sent."""
    W = c.panel.width
    pad = lay.pad
    e = s.ending
    winner = e.winner if e is not None else (
        s.winner if s.winner is not None else (0 if s.score[0] >= s.score[1] else 1))
    name = s.names[winner]
    if s.phase == "match-over":
        title: Text = (f"{name} wins the match", f"{name} wins", "Match over")
    else:
        title = ending_title(s)
    small = c.panel.size_class == "small"
    text, size, whole = c.fit_whole(title, W - 2 * pad, lay.name_px if small else int(lay.name_px * 1.3))
    top = pad
    h = int(size * (1.2 if small else 1.35))
    c.draw.rectangle((0, top, W - 1, top + h - 1), fill=c.accent)
    c.text((W // 2, top + h // 2), text, size, fill=WHITE, anchor="mm")
    if whole:
        c.placed.add("ending")
    # the score, big, and the names on either side where they fit
    score = f"{s.score[0]} – {s.score[1]}"
    score_top = top + h + pad
    score_h = int(lay.score_px * 0.78) + 2 * pad
    cy = score_top + score_h // 2
    c.text((W // 2, cy), score, lay.score_px, anchor="mm")
    c.placed.add("score")
    side = (W - c.width(score, font(lay.score_px))) // 2 - 3 * pad
    names = 0
    for p in (0, 1):
        label, nsize, nwhole = c.fit_whole((s.names[p],), side, lay.info_px)
        if side > c.min_px and nwhole:
            c.text((pad + 1 if p == 0 else W - pad - 1, cy), label, nsize,
                   anchor="lm" if p == 0 else "rm", bold=p == winner)
            names += 1
    if names == 2:
        c.placed.add("names")
    y = score_top + score_h + pad
    # how the game was won (on the match screen), its points with the cube, the match
    # length, and whether a club match's result was sent
    match, points, sent = match_label(s), ending_points(s), sent_label(s)
    # "+4 points (gammon, cube 2)" and "7 points" side by side read badly: not that form
    match_forms = tuple(m for m in match if not m.endswith(" points"))
    lines: list[Text] = []
    if e is not None and s.phase == "match-over":
        played_out = e.how in ("single", "gammon", "backgammon")
        how = ("Last game", "Last") if played_out else ending_how(s)
        lines.append(combined(how, points, ": " if played_out else ", ")[:-len(how)] + points)
    if points and s.phase == "game-over":
        lines.append(combined(points, match_forms))
    if sent:
        lines.append(combined(sent, match_forms))
    facts = {"points": points, "match": match, "sent": sent}
    line_h = int(lay.info_px * (1.1 if small else 1.25))
    for variants in lines:
        text, size, whole = c.fit_whole(variants, W - 2 * pad, lay.info_px)
        c.text((W // 2, y + line_h // 2), text, size, anchor="mm", bold=False)
        if whole:
            c.placed.update(k for k, forms in facts.items() if any(f in text for f in forms))
        y += line_h
    if s.analysis and s.phase == "match-over":
        # the match's analysis (both players' PR and error rate) on the line that says
        # the match length when that line is still to come, else on a line of its own
        forms = tuple(f"{a} · {m}" for a in s.analysis for m in match) if "match" not in c.placed else s.analysis
        text, size, whole = c.fit_whole(forms, W - 2 * pad, lay.info_px)
        c.text((W // 2, y + line_h // 2), text, size, anchor="mm", bold=False)
        if whole:
            c.placed.add("analysis")
            if any(text.endswith(m) for m in match):
                c.placed.add("match")
        y += line_h
    if "match" not in c.placed:
        text, size, whole = c.fit_whole(
            (f"{s.names[0]}  ·  {s.names[1]}  ·  {match[0]}",) + match, W - 2 * pad, lay.info_px)
        c.text((W // 2, y + line_h // 2), text, size, anchor="mm", bold=False)
        if whole:
            c.placed.add("match")
        y += line_h
    return y + pad


def _setup(c: _Canvas, lay: Layout, s: DisplayState, d: BoardDiagram) -> int:
    """The setup diagram above the footer; the footer keeps room for its lines."""
    W, H = c.panel.width, c.panel.height
    pad = lay.pad
    foot_h = lay.foot_lines * int(lay.foot_px * 1.2) if c.panel.size_class != "small" else (
        int(lay.foot_px * 1.2) * 2)
    area_h = H - foot_h - 2 * pad
    _diagram(c, lay, d, pad, pad, W - 2 * pad, area_h)
    c.placed.add("diagram")
    return pad + area_h + pad


def _diagram(c: _Canvas, lay: Layout, d: BoardDiagram, x: int, y: int, w: int, h: int) -> None:
    """A board from white's view: 13–24 along the top, 12–1 along the bottom, the bar in
    the middle; each occupied point shows one checker and its count; marked points get a
    thick bar at the board edge."""
    line = max(1, lay.line - 1)
    bar_w = max(12, w // 14)
    col = (w - bar_w) / 12
    half = h // 2
    mark_h = max(3, lay.line + 1)
    r = int(min(col * 0.42, half * 0.22))
    labels = c.panel.size_class != "small"  # point numbers along the middle
    num = c.min_px if c.panel.size_class == "small" else max(c.min_px, int(r * 1.5))
    c.draw.rectangle((x, y, x + w - 1, y + h - 1), outline=BLACK, width=line)
    bx0 = x + int(6 * col)
    c.draw.rectangle((bx0, y, bx0 + bar_w - 1, y + h - 1), fill=BLACK)

    def col_x(i: int) -> int:  # i = 0..11 column from the left
        return x + int(i * col) + (bar_w if i >= 6 else 0)

    for point in range(1, 25):
        if point >= 13:
            i, top = point - 13, True
        else:
            i, top = 12 - point, False
        x0 = col_x(i)
        x1 = x0 + int(col)
        tip = y + int(half * 0.8) if top else y + h - int(half * 0.8)
        base = y + mark_h if top else y + h - 1 - mark_h
        c.draw.polygon([(x0 + 1, base), (x1 - 1, base), ((x0 + x1) // 2, tip)],
                       outline=BLACK)
        if point in d.marked:
            edge = y + line if top else y + h - line - mark_h
            c.draw.rectangle((x0, edge, x1 - 1, edge + mark_h), fill=c.accent)
            far = y + half - 1 if top else y + half + 1
            c.draw.rectangle((x0, min(edge, far), x1 - 1, max(edge + mark_h, far)),
                             outline=c.accent, width=max(2, lay.line))
        if labels:
            ly = y + half - 2 if top else y + half + 2
            c.text(((x0 + x1) // 2, ly), str(point), c.min_px, anchor="md" if top else "ma",
                   bold=False)
        n = d.points[point - 1]
        if n:
            cx = (x0 + x1) // 2
            cy = base + (r + 2 if top else -r - 2)
            c.checker(cx, cy, r, 0 if n > 0 else 1, line)
            if abs(n) > 1:
                ny = cy + (r + 2 if top else -r - 2)
                c.text((cx, ny), str(abs(n)), num, anchor="ma" if top else "md")
    # checkers on the bar: white at the bottom half, black at the top half
    bcx = bx0 + bar_w // 2
    for player, count in ((0, d.bar[0]), (1, d.bar[1])):
        if count:
            cy = y + h - half // 2 if player == 0 else y + half // 2
            rr = min(r, bar_w // 2 - 1)
            c.draw.ellipse((bcx - rr, cy - rr, bcx + rr, cy + rr),
                           fill=WHITE if player == 0 else BLACK, outline=WHITE, width=line)
            if count > 1:
                c.text((bcx, cy + (rr + 2 if player == 1 else -rr - 2)), str(count), num,
                       fill=WHITE, anchor="ma" if player == 1 else "md")
    if 25 in d.marked:
        c.draw.rectangle((bx0, y + half - mark_h, bx0 + bar_w - 1, y + half + mark_h),
                         fill=c.accent if c.accent != BLACK else WHITE)


def _footer(c: _Canvas, lay: Layout, s: DisplayState, top: int) -> None:
    """The message, the put-back list, the prompt, the teaching grade and the hint, in
    that order, in the space left below ``top``.

    Room is handed out by priority: the put-back list and the current instruction (the
    message when it is a warning or an error, else the prompt) first, then the grade, the
    other of message and prompt, and the hint; an item gets a line only if all of it fits
    (in its longest form that does), then spare lines go to the items whose longer forms
    need them.  An item that gets no line is not drawn (and not reported as placed)."""
    W, H = c.panel.width, c.panel.height
    pad = lay.pad
    message_first = instruction_is_message(s)
    title = s.title or prompt(s)
    if s.phase == "match-over" and s.ending is None:
        title = ()  # the old match-over screen says it in its title bar
    hint: Text = tuple(f"Hint: {h}" for h in s.hint) + s.hint if s.hint else ()
    # (key, variants, style, priority); drawn in this order
    entries = [
        ("message", s.message, s.severity, 1 if message_first else 3),
        ("put-back", s.put_back, "put-back", 0),
        ("prompt", title, "prompt", 3 if message_first else 1),
        ("lesson", s.lesson, "lesson", 2),
        ("hint", hint, "hint", 4),
    ]
    entries = [e for e in entries if e[1]]
    most = 2 if c.panel.size_class == "small" else 3

    def inner(style: str) -> int:
        if style == "lesson":
            return W - 2 * pad - 3 * lay.line - 4
        return W - 2 * pad - (4 * pad + 8 if style in ("error", "warning") else 0)

    def cost(style: str, n: int, size: int) -> int:
        return n * int(size * 1.2) + pad + (pad if style in ("error", "warning") else 0)

    def allot(base: int) -> tuple[dict[str, int], dict[str, int]]:
        """Lines and font size per item with ``base`` as the footer's font size."""
        room = H - pad - top
        lines: dict[str, int] = {}
        sizes: dict[str, int] = {}
        by_priority = sorted(entries, key=lambda e: e[3])
        for key, variants, style, _ in by_priority:
            # one line (two if need be), if some form of the item fits whole in it; at the
            # bottom of the panel, a line up to a quarter smaller (never below the minimum)
            for n in (1, 2)[:most]:
                if cost(style, n, base) <= room and c.fit_lines(variants, inner(style), base, n)[2]:
                    lines[key], sizes[key] = n, base
                    room -= cost(style, n, base)
                    break
            else:
                size = int((room - cost(style, 0, base)) / 1.2)
                if max(c.min_px, base * 3 // 4) <= size < base and c.fit_lines(
                        variants, inner(style), size, 1)[2]:
                    lines[key], sizes[key] = 1, size
                    room -= cost(style, 1, size)
        line_h = int(base * 1.2)
        for key, variants, style, _ in by_priority:
            if key not in lines or sizes[key] != base:
                continue
            want = min(most, c.lines_wanted(variants, inner(style), base))
            while lines[key] < want and line_h <= room:
                lines[key] += 1
                room -= line_h
        return lines, sizes

    # the footer's own size if everything fits in it, else smaller sizes down to the
    # panel minimum; else the size that shows the most items
    priority = {e[0]: e[3] for e in entries}

    def worth(tried: tuple[dict[str, int], dict[str, int]]) -> int:
        """Higher-priority items first: one of them outweighs every lower one together."""
        return sum(1 << (8 - priority[key]) for key in tried[0])

    best: tuple[dict[str, int], dict[str, int]] | None = None
    for base in range(lay.foot_px, c.min_px - 1, -max(1, lay.foot_px // 15)):
        tried = allot(base)
        if best is None or worth(tried) > worth(best):
            best = tried
        if len(tried[0]) == len(entries):
            break
    assert best is not None
    lines, sizes = best
    y = top
    for key, variants, style, _ in entries:
        if key not in lines:
            continue
        boxed = style in ("error", "warning")
        text_lines, size, whole = c.fit_lines(variants, inner(style), sizes[key], lines[key])
        lh = int(size * 1.2)
        block_h = lh * len(text_lines)
        ink = BLACK
        if style == "error":
            c.draw.rectangle((pad, y, W - pad - 1, y + block_h + pad), fill=c.accent)
            ink = WHITE
        elif style == "warning":
            c.draw.rectangle((pad, y, W - pad - 1, y + block_h + pad), outline=c.accent,
                             width=lay.line)
        elif style == "lesson":
            c.draw.rectangle((pad, y + 1, pad + max(2, lay.line), y + block_h - 1), fill=c.accent)
        for i, text in enumerate(text_lines):
            ty = y + pad // 2 + i * lh + lh // 2 + 1
            bold = style != "hint"
            if boxed:
                c.text((W // 2, ty), text, size, fill=ink, anchor="mm", bold=bold)
            else:
                indent = 3 * lay.line + 2 if style == "lesson" else 2
                c.text((pad + indent, ty), text, size, fill=ink, anchor="lm", bold=bold)
        y += block_h + pad + (pad if boxed else 0)
        if whole:
            c.placed.add(key)
            if key == ("message" if message_first else "prompt"):
                c.placed.add("instruction")
