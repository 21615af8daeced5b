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


@lru_cache(maxsize=128)
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels per em (bold by default)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)
