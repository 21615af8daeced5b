"""A backgammon position as a small SVG picture (pure: a Position in, SVG text out), for
the learner report's worst positions.

The board is drawn from the view of the player on roll (``mine``, white checkers): their
home board bottom right, points 1–24 in their own numbering, the bar in the middle, the
checkers borne off at the right.  More than five checkers on a point show their count.
"""

from __future__ import annotations

from bgboard.rules.position import Position

__all__ = ["board_svg"]

_W, _H = 300, 220
_MARGIN, _BAR, _OFF = 8, 18, 22
_PIP = (_W - 2 * _MARGIN - _BAR - _OFF) / 12
_R = _PIP / 2 - 1


def _x(point: int) -> float:
    """The centre of ``point`` (1..24, the mover's numbering) across the board."""
    col = 12 - point if point <= 12 else point - 13  # 0 = leftmost
    x = _MARGIN + col * _PIP + _PIP / 2
    return x + _BAR if col >= 6 else x


def _stack(x: float, top: bool, count: int, fill: str, stroke: str) -> list[str]:
    out = []
    for k in range(min(count, 5)):
        y = _MARGIN + _R + 1 + 2 * _R * k if top else _H - _MARGIN - _R - 1 - 2 * _R * k
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_R:.1f}" fill="{fill}" stroke="{stroke}"/>')
    if count > 5:
        y = _MARGIN + _R + 1 + 8 * _R if top else _H - _MARGIN - _R - 1 - 8 * _R
        text = "#000" if fill == "#fff" else "#fff"
        out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle" fill="{text}">{count}</text>')
    return out


def board_svg(position: Position, title: str = "") -> str:
    """``position`` (the player on roll's view) as an SVG element ``viewBox`` 300×220 that
    scales to its container; ``title`` (escaped by the caller) is its accessible name."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" role="img" '
             f'aria-label="{title}" class="board">',
             f'<rect width="{_W}" height="{_H}" fill="#d9c7a0"/>']
    inner = _W - 2 * _MARGIN - _OFF
    parts.append(f'<rect x="{_MARGIN}" y="{_MARGIN}" width="{inner}" height="{_H - 2 * _MARGIN}" fill="#efe3c8" stroke="#6b5a3a"/>')
    bar_x = _MARGIN + 6 * _PIP
    parts.append(f'<rect x="{bar_x:.1f}" y="{_MARGIN}" width="{_BAR}" height="{_H - 2 * _MARGIN}" fill="#8a6d45"/>')
    for point in range(1, 25):
        x, top = _x(point), point > 12
        tip = _MARGIN + 0.42 * (_H - 2 * _MARGIN) if top else _H - _MARGIN - 0.42 * (_H - 2 * _MARGIN)
        base = _MARGIN if top else _H - _MARGIN
        colour = "#a0522d" if point % 2 else "#556b2f"
        parts.append(f'<polygon points="{x - _PIP / 2:.1f},{base} {x + _PIP / 2:.1f},{base} {x:.1f},{tip:.1f}" fill="{colour}"/>')
        label_y = base - 2 if not top else base + 9
        parts.append(f'<text x="{x:.1f}" y="{label_y:.1f}" font-size="7" text-anchor="middle" fill="#333">{point}</text>')
        mine, theirs = position.mine[point], position.theirs[25 - point]
        if mine:
            parts += _stack(x, top, mine, "#fff", "#333")
        elif theirs:
            parts += _stack(x, top, theirs, "#222", "#000")
    centre = bar_x + _BAR / 2
    if position.mine[25]:
        parts += _stack(centre, False, position.mine[25], "#fff", "#333")
    if position.theirs[25]:
        parts += _stack(centre, True, position.theirs[25], "#222", "#000")
    off_x = _W - _MARGIN - _OFF / 2
    parts.append(f'<text x="{off_x:.1f}" y="{_H - _MARGIN - 4}" font-size="10" text-anchor="middle">{position.mine[0]}</text>')
    parts.append(f'<text x="{off_x:.1f}" y="{_MARGIN + 10}" font-size="10" text-anchor="middle" fill="#222">{position.theirs[0]}</text>')
    parts.append("</svg>")
    return "".join(parts)
