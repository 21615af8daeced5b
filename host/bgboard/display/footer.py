"""The footer (pure): the message, the put-back list, the prompt, the teaching grade and the
hint below the scoreboard, each given lines by priority and drawn only when it fits whole."""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.display.canvas import BLACK, WHITE, Canvas
from bgboard.display.layouts import Layout
from bgboard.display.display_state import DisplayState, Text
from bgboard.display.texts import prompt
from bgboard.language import say

BOXED = ("error", "warning")
"""The styles drawn in a box (a filled one for an error, an outlined one for a warning)."""

Allotment = tuple[dict[str, int], dict[str, int]]
"""Lines and font size per item key."""


@dataclass(frozen=True)
class _Item:
    """One thing the footer may say: its forms (longest first), style and priority (0 first)."""

    key: str
    variants: Text
    style: str
    priority: int


def instruction_is_message(state: DisplayState) -> bool:
    """A warning or an error says what to do now: it is the current instruction (the
    phase prompt is then shown only if there is room)."""
    return bool(state.message) and state.severity != "info"


def _items(c: Canvas, s: DisplayState) -> list[_Item]:
    """The items that have something to say, in drawing order: the put-back list and the
    current instruction (the message when it is a warning or an error, else the prompt)
    first, then the grade, the other of message and prompt, and the hint."""
    message_first = instruction_is_message(s)
    title = s.title or prompt(s, c.words)
    if s.phase == "match-over" and s.ending is None:
        title = ()  # the old match-over screen says it in its title bar
    hint: Text = tuple(say(c.words, "Hint: %(hint)s", hint=h) for h in s.hint) + s.hint if s.hint else ()
    items = [
        _Item("message", s.message, s.severity, 1 if message_first else 3),
        _Item("put-back", s.put_back, "put-back", 0),
        _Item("prompt", title, "prompt", 3 if message_first else 1),
        _Item("lesson", s.lesson, "lesson", 2),
        _Item("hint", hint, "hint", 4),
    ]
    return [item for item in items if item.variants]


def _inner(c: Canvas, lay: Layout, style: str) -> int:
    """The width a line of ``style`` has for its text."""
    W, pad = c.panel.width, lay.pad
    if style == "lesson":
        return W - 2 * pad - 3 * lay.line - 4
    return W - 2 * pad - (4 * pad + 8 if style in BOXED else 0)


def _cost(lay: Layout, style: str, n: int, size: int) -> int:
    """The height ``n`` lines of ``style`` at ``size`` take, with their padding."""
    return n * int(size * 1.2) + lay.pad + (lay.pad if style in BOXED else 0)


def _most_lines(c: Canvas) -> int:
    """The most lines one item may take."""
    return 2 if c.panel.size_class == "small" else 3


def _allot(c: Canvas, lay: Layout, items: list[_Item], top: int, base: int) -> Allotment:
    """Lines and font size per item with ``base`` as the footer's font size: an item gets a
    line only if all of it fits (in its longest form that does), then spare lines go to the
    items whose longer forms need them."""
    room = c.panel.height - lay.pad - top
    most = _most_lines(c)
    lines: dict[str, int] = {}
    sizes: dict[str, int] = {}
    by_priority = sorted(items, key=lambda item: item.priority)
    for item in by_priority:
        # one line (two if need be), if some form of the item fits whole in it; at the
        # bottom of the panel, a line up to a quarter smaller (never below the minimum)
        inner = _inner(c, lay, item.style)
        for n in (1, 2)[:most]:
            if _cost(lay, item.style, n, base) <= room and c.fit_lines(item.variants, inner, base, n)[2]:
                lines[item.key], sizes[item.key] = n, base
                room -= _cost(lay, item.style, n, base)
                break
        else:
            size = int((room - _cost(lay, item.style, 0, base)) / 1.2)
            if max(c.min_px, base * 3 // 4) <= size < base and c.fit_lines(
                    item.variants, inner, size, 1)[2]:
                lines[item.key], sizes[item.key] = 1, size
                room -= _cost(lay, item.style, 1, size)
    line_h = int(base * 1.2)
    for item in by_priority:
        if item.key not in lines or sizes[item.key] != base:
            continue
        want = min(most, c.lines_wanted(item.variants, _inner(c, lay, item.style), base))
        while lines[item.key] < want and line_h <= room:
            lines[item.key] += 1
            room -= line_h
    return lines, sizes


def _best_allotment(c: Canvas, lay: Layout, items: list[_Item], top: int) -> Allotment:
    """The footer's own size if everything fits in it, else smaller sizes down to the panel
    minimum; else the size that shows the most items."""
    priority = {item.key: item.priority for item in items}

    def worth(tried: Allotment) -> int:
        """Higher-priority items first: one of them outweighs every lower one together."""
        return sum(1 << (8 - priority[key]) for key in tried[0])

    best: Allotment | None = None
    for base in range(lay.foot_px, c.min_px - 1, -max(1, lay.foot_px // 15)):
        tried = _allot(c, lay, items, top, base)
        if best is None or worth(tried) > worth(best):
            best = tried
        if len(tried[0]) == len(items):
            break
    assert best is not None
    return best


def _draw_item(c: Canvas, lay: Layout, item: _Item, lines: int, size: int, y: int,
               instruction: str) -> int:
    """Draw ``item`` in ``lines`` lines at ``size`` from ``y`` (boxed, barred or plain by
    its style), mark it placed when it fitted whole, and give the ``y`` below it."""
    W, pad, style = c.panel.width, lay.pad, item.style
    boxed = style in BOXED
    text_lines, size, whole = c.fit_lines(item.variants, _inner(c, lay, style), size, lines)
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
    tags = (item.key, "instruction") if item.key == instruction else item.key
    for i, text in enumerate(text_lines):
        ty = y + pad // 2 + i * lh + lh // 2 + 1
        bold = style != "hint"
        if boxed:
            c.text((W // 2, ty), text, size, fill=ink, anchor="mm", bold=bold, item=tags)
        else:
            indent = 3 * lay.line + 2 if style == "lesson" else 2
            c.text((pad + indent, ty), text, size, fill=ink, anchor="lm", bold=bold, item=tags)
    if whole:
        c.placed.add(item.key)
        if item.key == instruction:
            c.placed.add("instruction")
    return y + block_h + pad + (pad if boxed else 0)


def footer(c: Canvas, lay: Layout, s: DisplayState, top: int) -> None:
    """The message, the put-back list, the prompt, the teaching grade and the hint, in
    that order, in the space left below ``top``.

    Room is handed out by priority: the put-back list and the current instruction (the
    message when it is a warning or an error, else the prompt) first, then the grade, the
    other of message and prompt, and the hint; an item gets a line only if all of it fits
    (in its longest form that does), then spare lines go to the items whose longer forms
    need them.  An item that gets no line is not drawn (and not reported as placed)."""
    items = _items(c, s)
    lines, sizes = _best_allotment(c, lay, items, top)
    instruction = "message" if instruction_is_message(s) else "prompt"
    y = top
    for item in items:
        if item.key in lines:
            y = _draw_item(c, lay, item, lines[item.key], sizes[item.key], y, instruction)


__all__ = ["footer", "instruction_is_message"]
