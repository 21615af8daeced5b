"""The bundled font: DejaVu Sans Condensed (Bitstream Vera licence, see LICENSE-DejaVu.txt).

Loading is cached per size; the files ship inside the package so the renderer draws the
same pixels on every machine (the golden-image tests depend on it).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"


@lru_cache(maxsize=1024)
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels per em (bold by default).  Kept for every size
    asked (the renderer asks a few hundred at most: the footer tries sizes from each
    layout's down to the panel's minimum), so a glyph is rasterised once per size, not
    again after the font was dropped from a small cache."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


__all__ = ["BOLD", "FONT_DIR", "REGULAR", "font"]
