"""A backgammon board as SVG text (pure, deterministic): the club's live board pages and the
learner report's worst positions draw with it.

The picture is seen from player 0 (white, at the bottom), as gnubg draws it: white's home
board (points 1-6) bottom right, the bar in the middle, the bear-off tray on the right
(white's borne-off checkers at the bottom, black's at the top), the cube left of the board
(in the middle when centred, at its owner's edge when owned), the dice in the half of the
player on roll.  A stack taller than :data:`STACK` shows its count on its top checker.
``sides[p]`` is player ``p``'s 26-tuple from ``p``'s own view (0 off, 1..24, 25 bar), as
``bgboard.match.MatchState.board`` and ``Position(mine, theirs)`` hold them.  The only text
from outside is the label, escaped here.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["HEIGHT", "STACK", "WIDTH", "board_svg"]

Sides = tuple[Sequence[int], Sequence[int]]

STACK = 5      # checkers drawn on a point before the count is written on the top one
BAR_STACK = 3  # the same for the bar
D = 16         # checker diameter
W = 18         # point width
CUBE_W = 24
BORDER = 6
BAR_W = 22
TRAY_W = 26
HALF_H = STACK * D
MID_H = 24
LEFT = CUBE_W + BORDER
BAR_X = LEFT + 6 * W
RIGHT = BAR_X + BAR_W
TRAY_X = RIGHT + 6 * W + BORDER
WIDTH = TRAY_X + TRAY_W + BORDER
TOP = BORDER
MID_Y = TOP + HALF_H
BOTTOM = MID_Y + MID_H + HALF_H
HEIGHT = BOTTOM + BORDER

FILL = ("#f6f2e6", "#2a2622")
INK = ("#2a2622", "#f6f2e6")
POINT_FILL = ("#b5835a", "#6e4326")
PIPS = {
    1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)],
    4: [(1, 1), (3, 1), (1, 3), (3, 3)], 5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
    6: [(1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)],
}


def _column_x(point: int) -> int:
    """Left edge of physical point ``point`` (white's numbering)."""
    column = 12 - point if point <= 12 else point - 13
    return LEFT + column * W + (BAR_W if column >= 6 else 0)


def _checker(cx: float, cy: float, player: int, label: str | None = None) -> str:
    out = (f'<circle cx="{cx:g}" cy="{cy:g}" r="{D / 2 - 0.5:g}" fill="{FILL[player]}" '
           f'stroke="{INK[0]}" stroke-width="1"/>')
    if label is not None:
        out += (f'<text x="{cx:g}" y="{cy + 3.5:g}" font-size="10" text-anchor="middle" '
                f'font-weight="bold" fill="{INK[player]}">{label}</text>')
    return out


def _stack(cx: float, start: float, step: float, count: int, player: int, most: int) -> list[str]:
    """``count`` checkers from ``start`` going ``step`` each; the top one labelled if cut."""
    shown = min(count, most)
    return [
        _checker(cx, start + i * step, player, str(count) if count > most and i == shown - 1 else None)
        for i in range(shown)
    ]


def _points(numbers: bool) -> list[str]:
    out: list[str] = []
    for point in range(1, 25):
        x = _column_x(point)
        colour = POINT_FILL[point % 2]
        if point <= 12:
            path = f"M{x} {BOTTOM} L{x + W // 2} {BOTTOM - HALF_H + 4} L{x + W} {BOTTOM} Z"
        else:
            path = f"M{x} {TOP} L{x + W // 2} {TOP + HALF_H - 4} L{x + W} {TOP} Z"
        out.append(f'<path d="{path}" fill="{colour}"/>')
        if numbers:  # in the bottom player's numbering, on the frame beside the point's base
            y = BOTTOM + BORDER - 1 if point <= 12 else BORDER - 1
            out.append(f'<text class="point-number" x="{x + W / 2:g}" y="{y}" font-size="6" '
                       f'text-anchor="middle" fill="{FILL[0]}">{point}</text>')
    return out


def _checkers(sides: Sides) -> list[str]:
    white, black = sides
    out: list[str] = []
    for point in range(1, 25):
        cx = _column_x(point) + W / 2
        for player, count in ((0, white[point]), (1, black[25 - point])):
            if count:
                if point <= 12:
                    out += _stack(cx, BOTTOM - D / 2, -D, count, player, STACK)
                else:
                    out += _stack(cx, TOP + D / 2, D, count, player, STACK)
    bar_cx = BAR_X + BAR_W / 2
    if white[25]:
        out += _stack(bar_cx, MID_Y - D / 2, -D, white[25], 0, BAR_STACK)
    if black[25]:
        out += _stack(bar_cx, MID_Y + MID_H + D / 2, D, black[25], 1, BAR_STACK)
    for player, count in ((0, white[0]), (1, black[0])):
        for i in range(count):
            y = BOTTOM - 5 * (i + 1) if player == 0 else TOP + 5 * i
            out.append(f'<rect x="{TRAY_X + 3}" y="{y}" width="{TRAY_W - 6}" height="4" '
                       f'fill="{FILL[player]}" stroke="#b89b7a" stroke-width="0.6"/>')
        if count:
            y = BOTTOM - 5 * count - 4 if player == 0 else TOP + 5 * count + 10
            out.append(f'<text x="{TRAY_X + TRAY_W / 2:g}" y="{y}" font-size="10" '
                       f'text-anchor="middle" fill="{FILL[0]}">{count}</text>')
    return out


def _cube(cube: int, owner: int | None) -> str:
    size = 20
    x = (CUBE_W - size) // 2
    if owner is None:
        y = MID_Y + MID_H // 2 - size // 2
    elif owner == 0:
        y = BOTTOM - size
    else:
        y = TOP
    value = 64 if owner is None and cube == 1 else cube
    font = 11 if value < 100 else 8
    return (f'<g class="cube"><rect x="{x}" y="{y}" width="{size}" height="{size}" rx="3" '
            f'fill="#fffdf6" stroke="{INK[0]}"/><text x="{x + size // 2}" y="{y + size // 2 + 4}" '
            f'font-size="{font}" text-anchor="middle" font-weight="bold" fill="{INK[0]}">{value}</text></g>')


def _dice(dice: tuple[int, int] | None, turn: int | None) -> list[str]:
    if dice is None or turn is None:
        return []
    size = 16
    half_x = RIGHT if turn == 0 else LEFT
    x0 = half_x + 3 * W - size - 3
    y = MID_Y + (MID_H - size) // 2
    out = ['<g class="dice">']
    for i, die in enumerate(dice):
        x = x0 + i * (size + 6)
        out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="3" '
                   f'fill="{FILL[turn]}" stroke="{INK[0]}"/>')
        for px, py in PIPS[die]:
            out.append(f'<circle cx="{x + px * 4}" cy="{y + py * 4}" r="1.6" fill="{INK[turn]}"/>')
    out.append("</g>")
    return out


def board_svg(sides: Sides | None, label: str, *, cube: int = 1, cube_owner: int | None = None,
              dice: tuple[int, int] | None = None, turn: int | None = None, numbers: bool = False,
              css_class: str = "board-svg") -> str:
    """The board as a standalone ``<svg>`` element (a string; safe to put in HTML): the
    checkers of ``sides`` (none when unknown), the cube, the dice of the player on roll;
    ``numbers`` writes the points' numbers (white's); ``label`` is its accessible name."""
    text = escape(label, quote=True)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="{escape(css_class, quote=True)}" role="img" aria-label="{text}">',
        f"<title>{text}</title>",
        f'<rect x="{CUBE_W}" y="0" width="{WIDTH - CUBE_W}" height="{HEIGHT}" rx="4" fill="#5a3a20"/>',
        f'<rect x="{LEFT}" y="{TOP}" width="{6 * W}" height="{BOTTOM - TOP}" fill="#e9dcc0"/>',
        f'<rect x="{RIGHT}" y="{TOP}" width="{6 * W}" height="{BOTTOM - TOP}" fill="#e9dcc0"/>',
        f'<rect x="{TRAY_X}" y="{TOP}" width="{TRAY_W}" height="{BOTTOM - TOP}" fill="#3f2816"/>',
        *_points(numbers),
    ]
    if sides is not None:
        parts += _checkers(sides)
    parts.append(_cube(cube, cube_owner))
    parts += _dice(dice, turn)
    parts.append("</svg>")
    return "".join(parts)
