"""The renderer's three layouts (pure), one per panel size class (small strips ~250×122,
medium 400×300, large 800×480): font sizes and spacing, raised to a panel's readable minimum."""

from __future__ import annotations

from dataclasses import dataclass

from bgboard.display.panels import PanelSpec


@dataclass(frozen=True, slots=True)
class Layout:
    """Font sizes (pixels per em) and spacing of one size class."""

    pad: int
    name_px: int
    score_px: int
    info_px: int
    foot_px: int
    foot_lines: int
    die_px: int
    line: int  # stroke width


LAYOUTS = {
    "small": Layout(pad=2, name_px=15, score_px=36, info_px=15, foot_px=15, foot_lines=2,
                    die_px=30, line=2),
    "medium": Layout(pad=6, name_px=26, score_px=84, info_px=24, foot_px=24, foot_lines=4,
                     die_px=58, line=3),
    "large": Layout(pad=10, name_px=50, score_px=170, info_px=44, foot_px=44, foot_lines=4,
                    die_px=110, line=5),
}


def layout_for(panel: PanelSpec) -> Layout:
    """The layout of ``panel``'s size class, with every text size raised to the panel's
    readable minimum."""
    base = LAYOUTS[panel.size_class]
    m = panel.min_text_px
    return Layout(base.pad, max(base.name_px, m), max(base.score_px, m), max(base.info_px, m),
                  max(base.foot_px, m), base.foot_lines, base.die_px, base.line)


__all__ = ["Layout", "LAYOUTS", "layout_for"]
