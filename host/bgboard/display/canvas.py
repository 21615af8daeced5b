"""The renderer's canvas (pure): a greyscale Pillow image with three inks — white, black and
*accent* — text without anti-aliasing, fitted and wrapped to a width, and the shapes of the
board (dice, the cube, a checker).  :meth:`Canvas.result` turns it into the panel's own image:

* black/white panels: mode ``"1"``; the accent ink becomes black;
* red/yellow panels: mode ``"P"`` with palette index 0 white, 1 black, 2 accent (what
  Pimoroni's ``inky`` expects).

``placed`` collects the items (:data:`bgboard.display.renderer.ITEMS`) drawn whole;
``drawn`` the text and the box of each item's texts (``bgboard render --json``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bgboard.display.fonts import font
from bgboard.display.panels import PanelSpec
from bgboard.display.display_state import Text
from bgboard.language import ENGLISH, Words

Box = tuple[int, int, int, int]

WHITE = 255
BLACK = 0
ACCENT = 128

_PALETTE = {"bwr": (255, 0, 0), "bwy": (255, 215, 0)}


#: Where texts are measured: a 1-pixel canvas in the frames' mode and font mode (a text's
#: length and box depend on nothing else).
_RULER = ImageDraw.Draw(Image.new("L", (1, 1), WHITE))
_RULER.fontmode = "1"


@lru_cache(maxsize=16384)
def text_width(text: str, f: ImageFont.FreeTypeFont) -> int:
    """``text``'s width in pixels in ``f`` (kept across frames: a match redraws the same
    names, scores and messages hundreds of times, and measuring was a third of a frame)."""
    return int(_RULER.textlength(text, font=f))


@lru_cache(maxsize=4096)
def _text_box(text: str, f: ImageFont.FreeTypeFont, anchor: str) -> tuple[float, float, float, float]:
    """``text``'s box drawn at (0, 0) (a box drawn elsewhere is this one moved there)."""
    return _RULER.textbbox((0, 0), text, font=f, anchor=anchor)


@lru_cache(maxsize=1024)  # (a panel's texts of a match: a few hundred masks of a few kB)
def _glyphs(text: str, f: ImageFont.FreeTypeFont, anchor: str, ink: int) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
    """``text``'s 1-bit mask and its offset from the anchor point, as Pillow's
    ``ImageDraw.text`` makes them for one line at a whole-pixel place (kept: rasterising the
    glyphs again was over a third of a frame)."""
    return f.getmask2(text, "1", None, None, None, 0, anchor, ink, (0.0, 0.0), stroke_filled=True)


def _kept_mask_drawn(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str,
                     f: ImageFont.FreeTypeFont, fill: int, anchor: str) -> None:
    """Draw ``text`` one line at a whole-pixel place from its kept mask (:func:`_glyphs`)."""
    ink = draw.draw.draw_ink(fill)
    mask, (dx, dy) = _glyphs(text, f, anchor, ink)
    draw.draw.draw_bitmap((xy[0] + dx, xy[1] + dy), mask, ink)


@lru_cache(maxsize=1)
def masks_draw_as_pillow() -> bool:
    """Whether the kept masks draw, with this Pillow, exactly what its ``ImageDraw.text`` draws
    (asked once, on a probe line in two sizes and anchors).  The kept masks lean on Pillow's
    drawing internals, which ``Pillow>=10`` does not promise; where they differ or are missing,
    every text goes through Pillow's own ``text``, as before the masks were kept."""
    try:
        for size, anchor in ((14, "la"), (23, "mm")):
            f = font(size, True)
            pictures = []
            for kept in (False, True):
                image = Image.new("L", (120, 40), WHITE)
                draw = ImageDraw.Draw(image)
                draw.fontmode = "1"
                if kept:
                    _kept_mask_drawn(draw, (60, 20), "Ag 12 ÆØÅ", f, BLACK, anchor)
                else:
                    draw.text((60, 20), "Ag 12 ÆØÅ", font=f, fill=BLACK, anchor=anchor)
                pictures.append(image.tobytes())
            if pictures[0] != pictures[1]:
                return False
        return True
    except (AttributeError, TypeError, ValueError):  # an internal renamed or changed: Pillow's own way
        return False


class Canvas:
    """A greyscale canvas with helpers for fitted text, boxes, dice and the cube."""

    def __init__(self, panel: PanelSpec, accent: bool, words: Words = ENGLISH) -> None:
        self.panel = panel
        self.words = words  # the players' language: the texts the renderer makes itself
        self.image = Image.new("L", (panel.width, panel.height), WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"  # crisp 1-bit glyphs: e-ink has no grey
        self.accent = ACCENT if accent else BLACK
        self.min_px = panel.min_text_px
        self.placed: set[str] = set()
        self.drawn: dict[str, tuple[list[str], Box]] = {}  # item -> its texts, their box
        # the footer tries several sizes and line counts: fit each text once per frame
        self._fits: dict[tuple[Text, int, int, int], tuple[list[str], int, bool]] = {}

    # text ------------------------------------------------------------------
    def width(self, text: str, f: ImageFont.FreeTypeFont) -> int:
        return text_width(text, f)

    def text(self, xy: tuple[int, int], text: str, size: int, fill: int = BLACK,
             anchor: str = "la", bold: bool = True, item: str | tuple[str, ...] = ()) -> None:
        """Draw ``text``; ``item`` names the item(s) it shows, for the placed-items report."""
        f = font(size, bold)
        if "\n" in text or not all(isinstance(v, int) for v in xy) or not masks_draw_as_pillow():
            self.draw.text(xy, text, font=f, fill=fill, anchor=anchor)  # Pillow's own layout
        else:  # what ImageDraw.text draws, the mask kept
            _kept_mask_drawn(self.draw, (int(xy[0]), int(xy[1])), text, f, fill, anchor)
        for name in (item,) if isinstance(item, str) else item:
            x0, y0, x1, y1 = _text_box(text, f, anchor)
            box = (int(x0 + xy[0]), int(y0 + xy[1]), int(x1 + xy[0]), int(y1 + xy[1]))
            texts, old = self.drawn.get(name, ([], box))
            self.drawn[name] = (texts + [text], (min(old[0], box[0]), min(old[1], box[1]),
                                                 max(old[2], box[2]), max(old[3], box[3])))

    def mark(self, item: str, box: Box) -> None:
        """Record the box of an item drawn without text (the dice, the diagram)."""
        texts, old = self.drawn.get(item, ([], box))
        self.drawn[item] = (texts, (min(old[0], box[0]), min(old[1], box[1]),
                                    max(old[2], box[2]), max(old[3], box[3])))

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
        self.text((x + size // 2, y + size // 2), label, s, fill=ink, anchor="mm", item="cube")

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


__all__ = ["WHITE", "BLACK", "ACCENT", "Canvas"]
