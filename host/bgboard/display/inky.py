"""Pimoroni Inky pHAT / wHAT through the ``inky`` package (imported only here).

The renderer already gives a palette image with Inky's own indices (0 white, 1 black,
2 red or yellow), so the driver hands it to ``set_image`` and calls ``show``.  Inky
panels have no partial refresh: every ``show`` is a full refresh (~15 s on the
three-colour panels), which the refresh policy knows from the panel caps.
"""

from __future__ import annotations

import logging
from typing import Any

from PIL import Image

from bgboard.display.panel import PanelError, check_frame
from bgboard.display.panels import PanelSpec, panel_spec

log = logging.getLogger(__name__)


class InkyPanel:
    """Driver for an Inky display object (``inky.auto.auto()`` or ``InkyPHAT("red")``)."""

    def __init__(self, caps: PanelSpec, display: Any) -> None:
        size = (int(display.width), int(display.height))
        if size != (caps.width, caps.height):
            raise PanelError(
                f"the Inky display found is {size[0]}x{size[1]}, but {caps.name} is "
                f"{caps.width}x{caps.height}: choose the matching --panel"
            )
        self.caps = caps
        self.display = display
        self.closed = False
        display.set_border(display.WHITE)

    def show(self, image: Image.Image, full: bool) -> None:
        """Always a full refresh (Inky has no partial refresh)."""
        if self.closed:
            raise PanelError(f"the {self.caps.name} panel is closed")
        check_frame(self.caps, image)
        self.display.set_image(image)
        self.display.show()

    def sleep(self) -> None:
        """Inky panels draw no power between refreshes; nothing to do."""

    def close(self) -> None:
        """Idempotent; the ``inky`` package needs no explicit release."""
        self.closed = True


def open_inky(panel: str) -> InkyPanel:  # pragma: no cover - needs an Inky on a Pi
    """Find the Inky by its EEPROM (``inky.auto.auto``) and wrap it."""
    try:
        from inky.auto import auto  # type: ignore[import-not-found]
    except ImportError:
        raise PanelError("the inky package is not installed: pip install 'bgboard[pi]'") from None
    caps = panel_spec(panel)
    try:
        display = auto()
    except RuntimeError as exc:
        raise PanelError(f"no Inky display found ({exc})") from None
    log.info("the Inky display is open as the %s panel", caps.name)
    return InkyPanel(caps, display)
