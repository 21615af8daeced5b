"""Open the panel driver for a panel name (wiring for the app; hardware imports are lazy).

``open_panel("waveshare-2in13")`` opens the real panel on a Raspberry Pi;
``open_panel("waveshare-2in13", frames_dir="out/")`` gives a :class:`FilePanel` with the
same caps, for development and the simulator.
"""

from __future__ import annotations

from pathlib import Path

from bgboard.display.panel import FilePanel, Panel
from bgboard.display.panels import panel_spec
from bgboard.hardware import DisplayPins


def open_panel(name: str, frames_dir: str | Path | None = None, pins: DisplayPins | None = None) -> Panel:
    """The driver for panel ``name`` on ``pins`` (default: pins.toml's ``[pi.display]``),
    or a file panel writing into ``frames_dir``."""
    caps = panel_spec(name)
    if frames_dir is not None:
        return FilePanel(caps, frames_dir)
    if caps.controller in ("ssd1680", "ssd1683"):  # pragma: no cover - needs a Pi
        from bgboard.display.waveshare import open_waveshare

        return open_waveshare(name, pins)
    if caps.controller == "uc8179":  # pragma: no cover - needs a Pi
        from bgboard.display.uc8179 import open_uc8179

        return open_uc8179(name, pins)
    from bgboard.display.inky import open_inky  # pragma: no cover - needs an Inky

    return open_inky(name)  # pragma: no cover
