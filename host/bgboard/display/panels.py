"""The panels bgboard draws for: size, colours, refresh abilities, readable text size.

Pure facts, no drivers.  Every panel is used in landscape.  Pixel pitch comes from the
vendors' active-area sizes; the minimum text size is the font size (pixels per em) whose
capital letters are at least :data:`MIN_CAP_MM` high, readable at arm's length (~70 cm).
The renderer never draws text smaller than :attr:`PanelSpec.min_text_px`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bgboard.errors import InputError

MIN_CAP_MM = 2.0
"""Smallest capital-letter height drawn on any panel (readable at arm's length)."""

CAP_HEIGHT_EM = 0.73
"""Capital height of the bundled DejaVu Sans Condensed Bold, as a fraction of the em."""


class UnknownPanelError(InputError):
    """A panel name that bgboard does not know (the message lists the known ones)."""


@dataclass(frozen=True, slots=True)
class PanelSpec:
    """One panel model.

    ``colours`` is ``"bw"`` (1-bit image) or ``"bwr"`` / ``"bwy"`` (palette image: index 0
    white, 1 black, 2 red or yellow).  Refresh times are the vendors' figures in
    milliseconds; ``partial_ms`` is ``None`` for panels without partial refresh.
    ``controller`` names the driver family.
    """

    name: str
    width: int
    height: int
    colours: str
    full_ms: int
    partial_ms: int | None
    pitch_mm: float
    controller: str
    title: str

    @property
    def partial(self) -> bool:
        """True when the panel supports partial refresh."""
        return self.partial_ms is not None

    @property
    def min_text_px(self) -> int:
        """Smallest font size (pixels per em) the renderer may use on this panel."""
        return math.ceil(MIN_CAP_MM / self.pitch_mm / CAP_HEIGHT_EM)

    @property
    def size_class(self) -> str:
        """``"small"`` (strip panels, ~120 px high), ``"medium"`` (400×300), ``"large"``."""
        if self.height < 200:
            return "small"
        if self.width < 600:
            return "medium"
        return "large"


PANELS: dict[str, PanelSpec] = {
    p.name: p
    for p in (
        # Waveshare 2.13" V4 (SSD1680): active area 48.55 x 23.71 mm.
        PanelSpec("waveshare-2in13", 250, 122, "bw", 2000, 300, 0.194, "ssd1680",
                  'Waveshare 2.13" V4 e-Paper (SSD1680)'),
        # Waveshare 2.9" V2 (SSD1680): 66.89 x 29.05 mm.
        PanelSpec("waveshare-2in9", 296, 128, "bw", 2000, 300, 0.226, "ssd1680",
                  'Waveshare 2.9" V2 e-Paper (SSD1680)'),
        # Waveshare 4.2" V2 (SSD1683, the SSD1680 command set): 84.8 x 63.6 mm.
        PanelSpec("waveshare-4in2", 400, 300, "bw", 4000, 500, 0.212, "ssd1683",
                  'Waveshare 4.2" V2 e-Paper (SSD1683)'),
        # Waveshare 7.5" V2 (UC8179): 163.2 x 97.92 mm.
        PanelSpec("waveshare-7in5", 800, 480, "bw", 5000, 500, 0.204, "uc8179",
                  'Waveshare 7.5" V2 e-Paper (UC8179)'),
        # Pimoroni Inky pHAT, current SSD1608 model, red variant: 250 x 122, 48.55 x 23.71 mm.
        PanelSpec("inky-phat", 250, 122, "bwr", 15000, None, 0.194, "inky",
                  "Pimoroni Inky pHAT 250x122 (red/black/white)"),
        # Pimoroni Inky wHAT, red variant: 400 x 300, 84.8 x 63.6 mm.
        PanelSpec("inky-what", 400, 300, "bwr", 15000, None, 0.212, "inky",
                  "Pimoroni Inky wHAT 400x300 (red/black/white)"),
    )
}


def panel_spec(name: str) -> PanelSpec:
    """The :class:`PanelSpec` called ``name``; :class:`UnknownPanelError` lists the others."""
    try:
        return PANELS[name]
    except KeyError:
        raise UnknownPanelError(
            f"unknown panel {name!r}: choose one of {', '.join(PANELS)}"
        ) from None
