"""The footer (pure): the message, the put-back list, the prompt, the teaching grade and the
hint below the scoreboard, each given lines by priority and drawn only when it fits whole."""

from __future__ import annotations

from bgboard.display.canvas import BLACK, WHITE, Canvas
from bgboard.display.layouts import Layout
from bgboard.display.display_state import DisplayState, Text
from bgboard.display.texts import prompt
from bgboard.language import say


def instruction_is_message(state: DisplayState) -> bool:
    """A warning or an error says what to do now: it is the current instruction (the
    phase prompt is then shown only if there is room)."""
    return bool(state.message) and state.severity != "info"


def footer(c: Canvas, lay: Layout, s: DisplayState, top: int) -> None:
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
    title = s.title or prompt(s, c.words)
    if s.phase == "match-over" and s.ending is None:
        title = ()  # the old match-over screen says it in its title bar
    hint: Text = tuple(say(c.words, "Hint: %(hint)s", hint=h) for h in s.hint) + s.hint if s.hint else ()
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
        tags = (key, "instruction") if key == ("message" if message_first else "prompt") else key
        for i, text in enumerate(text_lines):
            ty = y + pad // 2 + i * lh + lh // 2 + 1
            bold = style != "hint"
            if boxed:
                c.text((W // 2, ty), text, size, fill=ink, anchor="mm", bold=bold, item=tags)
            else:
                indent = 3 * lay.line + 2 if style == "lesson" else 2
                c.text((pad + indent, ty), text, size, fill=ink, anchor="lm", bold=bold, item=tags)
        y += block_h + pad + (pad if boxed else 0)
        if whole:
            c.placed.add(key)
            if key == ("message" if message_first else "prompt"):
                c.placed.add("instruction")


__all__ = ["footer", "instruction_is_message"]
