"""The set-up screen (pure): a board diagram from white's view above the footer — 13–24 along
the top, 12–1 along the bottom, the bar in the middle, each occupied point with one checker
and its count, the points to change marked at the board's edge."""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.display.canvas import BLACK, WHITE, Canvas
from bgboard.display.layouts import Layout
from bgboard.display.display_state import BoardDiagram, DisplayState


def setup_screen(c: Canvas, lay: Layout, s: DisplayState, d: BoardDiagram) -> int:
    """The setup diagram above the footer; the footer keeps room for its lines."""
    W, H = c.panel.width, c.panel.height
    pad = lay.pad
    foot_h = lay.foot_lines * int(lay.foot_px * 1.2) if c.panel.size_class != "small" else (
        int(lay.foot_px * 1.2) * 2)
    area_h = H - foot_h - 2 * pad
    diagram(c, lay, d, pad, pad, W - 2 * pad, area_h)
    c.placed.add("diagram")
    c.mark("diagram", (pad, pad, W - pad, pad + area_h))
    return pad + area_h + pad


@dataclass(frozen=True)
class _Grid:
    """Where a diagram's parts go: its box, the width of a column and of the bar, the
    checkers' radius, the marks' height, the line width and the size of the counts."""

    x: int
    y: int
    w: int
    h: int
    col: float
    bar_w: int
    mark_h: int
    r: int
    line: int
    num: int

    @property
    def half(self) -> int:
        return self.h // 2

    @property
    def bar_x(self) -> int:
        """The bar's left edge."""
        return self.x + int(6 * self.col)

    def col_x(self, i: int) -> int:
        """The left edge of column ``i`` (0..11 from the left)."""
        return self.x + int(i * self.col) + (self.bar_w if i >= 6 else 0)


def _grid(c: Canvas, lay: Layout, x: int, y: int, w: int, h: int) -> _Grid:
    """The diagram's geometry in the box ``x, y, w, h``."""
    bar_w = max(12, w // 14)
    col = (w - bar_w) / 12
    r = int(min(col * 0.42, h // 2 * 0.22))
    num = c.min_px if c.panel.size_class == "small" else max(c.min_px, int(r * 1.5))
    return _Grid(x, y, w, h, col, bar_w, max(3, lay.line + 1), r, max(1, lay.line - 1), num)


def diagram(c: Canvas, lay: Layout, d: BoardDiagram, x: int, y: int, w: int, h: int) -> None:
    """A board from white's view: 13–24 along the top, 12–1 along the bottom, the bar in
    the middle; each occupied point shows one checker and its count; marked points get a
    thick bar at the board edge."""
    g = _grid(c, lay, x, y, w, h)
    c.draw.rectangle((x, y, x + w - 1, y + h - 1), outline=BLACK, width=g.line)
    c.draw.rectangle((g.bar_x, y, g.bar_x + g.bar_w - 1, y + h - 1), fill=BLACK)
    for point in range(1, 25):
        _point(c, lay, d, g, point)
    _bar(c, d, g)


def _point(c: Canvas, lay: Layout, d: BoardDiagram, g: _Grid, point: int) -> None:
    """One point: its triangle, its mark when it is to change, its number (not on a small
    panel) and one checker with the count when more than one stands on it."""
    y, h, half, r, mark_h = g.y, g.h, g.half, g.r, g.mark_h
    if point >= 13:
        i, top = point - 13, True
    else:
        i, top = 12 - point, False
    x0 = g.col_x(i)
    x1 = x0 + int(g.col)
    tip = y + int(half * 0.8) if top else y + h - int(half * 0.8)
    base = y + mark_h if top else y + h - 1 - mark_h
    c.draw.polygon([(x0 + 1, base), (x1 - 1, base), ((x0 + x1) // 2, tip)],
                   outline=BLACK)
    if point in d.marked:
        edge = y + g.line if top else y + h - g.line - mark_h
        c.draw.rectangle((x0, edge, x1 - 1, edge + mark_h), fill=c.accent)
        far = y + half - 1 if top else y + half + 1
        c.draw.rectangle((x0, min(edge, far), x1 - 1, max(edge + mark_h, far)),
                         outline=c.accent, width=max(2, lay.line))
    if c.panel.size_class != "small":  # point numbers along the middle
        ly = y + half - 2 if top else y + half + 2
        c.text(((x0 + x1) // 2, ly), str(point), c.min_px, anchor="md" if top else "ma",
               bold=False)
    n = d.points[point - 1]
    if n:
        cx = (x0 + x1) // 2
        cy = base + (r + 2 if top else -r - 2)
        c.checker(cx, cy, r, 0 if n > 0 else 1, g.line)
        if abs(n) > 1:
            ny = cy + (r + 2 if top else -r - 2)
            c.text((cx, ny), str(abs(n)), g.num, anchor="ma" if top else "md")


def _bar(c: Canvas, d: BoardDiagram, g: _Grid) -> None:
    """The checkers on the bar (white in the bottom half, black in the top half) and its
    mark when it is to change."""
    y, h, half, bx0, bar_w = g.y, g.h, g.half, g.bar_x, g.bar_w
    bcx = bx0 + bar_w // 2
    for player, count in ((0, d.bar[0]), (1, d.bar[1])):
        if count:
            cy = y + h - half // 2 if player == 0 else y + half // 2
            rr = min(g.r, bar_w // 2 - 1)
            c.draw.ellipse((bcx - rr, cy - rr, bcx + rr, cy + rr),
                           fill=WHITE if player == 0 else BLACK, outline=WHITE, width=g.line)
            if count > 1:
                c.text((bcx, cy + (rr + 2 if player == 1 else -rr - 2)), str(count), g.num,
                       fill=WHITE, anchor="ma" if player == 1 else "md")
    if 25 in d.marked:
        c.draw.rectangle((bx0, y + half - g.mark_h, bx0 + bar_w - 1, y + half + g.mark_h),
                         fill=c.accent if c.accent != BLACK else WHITE)


__all__ = ["setup_screen", "diagram"]
