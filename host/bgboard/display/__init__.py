"""The e-ink display: the display state (pure data), the renderer that draws it with Pillow
(pure: no I/O, no clock), the refresh policy, the painter thread and the panel drivers
(adapters; SPI and GPIO libraries are imported when a panel is opened).

The controller imports only ``display.display_state``, so the public names are imported on first
use (:mod:`bgboard.exports`) and importing the state does not load Pillow.  ``renderer`` is
the renderer's module (its :func:`~bgboard.display.renderer.render` draws a state)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.exports import exports

if TYPE_CHECKING:
    from bgboard.display import fonts, painter, renderer
    from bgboard.display.demos import DEMOS, demo_state
    from bgboard.display.drivers import open_panel
    from bgboard.display.inky import InkyPanel
    from bgboard.display.layouts import layout_for
    from bgboard.display.painter import Painter
    from bgboard.display.panel import FilePanel, Panel, PanelError
    from bgboard.display.panels import PANELS, PanelSpec, UnknownPanelError, panel_spec
    from bgboard.display.refresh import RefreshConfig, RefreshPolicy, RefreshState, changed_fraction
    from bgboard.display.renderer import (
        ITEMS,
        MAX_NAME,
        MAX_TEXT,
        MAX_VARIANTS,
        bounded,
        render_report,
        required_items,
    )
    from bgboard.display.screen import Screen
    from bgboard.display.display_state import (
        CRAWFORD_STAGES,
        ENDINGS,
        LEVELS,
        PHASES,
        SEVERITIES,
        BoardDiagram,
        ClockState,
        DisplayPhase,
        DisplayState,
        Ending,
        InvalidDisplayStateError,
        Severity,
        state_from_dict,
        state_from_json,
    )
    from bgboard.display.uc8179 import WaveshareUC8179, uc8179_bytes
    from bgboard.display.waveshare import GEOMETRY, WaveshareSSD1680, frame_bytes

#: Each submodule and the public names it defines (imported when a name is first used).
__getattr__ = exports(__name__, {
    ".": "fonts painter renderer",
    "demos": "DEMOS demo_state",
    "drivers": "open_panel",
    "inky": "InkyPanel",
    "layouts": "layout_for",
    "painter": "Painter",
    "panel": "FilePanel Panel PanelError",
    "panels": "PANELS PanelSpec UnknownPanelError panel_spec",
    "refresh": "RefreshConfig RefreshPolicy RefreshState changed_fraction",
    "renderer": "ITEMS MAX_NAME MAX_TEXT MAX_VARIANTS bounded render_report required_items",
    "screen": "Screen",
    "display_state": (
        "CRAWFORD_STAGES ENDINGS LEVELS PHASES SEVERITIES BoardDiagram ClockState "
        "DisplayPhase DisplayState Ending InvalidDisplayStateError Severity state_from_dict "
        "state_from_json"
    ),
    "uc8179": "WaveshareUC8179 uc8179_bytes",
    "waveshare": "GEOMETRY WaveshareSSD1680 frame_bytes",
})

__all__ = [
    "CRAWFORD_STAGES", "DEMOS", "ENDINGS", "GEOMETRY", "ITEMS", "LEVELS", "MAX_NAME", "MAX_TEXT",
    "MAX_VARIANTS", "PANELS", "PHASES", "SEVERITIES", "BoardDiagram", "ClockState", "DisplayPhase",
    "DisplayState", "Ending", "FilePanel", "InkyPanel", "InvalidDisplayStateError", "Painter",
    "Panel", "PanelError", "PanelSpec", "RefreshConfig", "RefreshPolicy", "RefreshState", "Screen",
    "Severity", "UnknownPanelError", "WaveshareSSD1680", "WaveshareUC8179", "bounded",
    "changed_fraction", "demo_state", "fonts", "frame_bytes", "layout_for", "open_panel", "painter",
    "panel_spec", "render_report", "renderer", "required_items", "state_from_dict", "state_from_json",
    "uc8179_bytes",
]
