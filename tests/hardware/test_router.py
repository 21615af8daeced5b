"""hardware/router.py's prewired tracks (the controller's supply trunks and header buses): laid
before routing, checked against other nets' pads and the edge, and joined to their net like a
pad.  The boards it routes are checked by KiCad's own DRC in tests/hardware/test_kicad.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import router as rt  # noqa: E402


def pads() -> list[rt.Pad]:
    # net 1 (a supply): two pads on a row and one below; net 2: a pad beside the row
    return [rt.Pad(5.08, 5.08, 1.7, 1.7, "circle", (0, 1), 1, "A.1"),
            rt.Pad(25.4, 5.08, 1.7, 1.7, "circle", (0, 1), 1, "B.1"),
            rt.Pad(15.24, 15.24, 1.7, 1.7, "circle", (0, 1), 1, "C.1"),
            rt.Pad(15.24, 7.62, 1.7, 1.7, "circle", (0, 1), 2, "D.1")]


def test_a_prewired_trunk_is_joined_to_its_nets_pads() -> None:
    router = rt.Router(0.0, 0.0, 30.48, 20.32, pads())
    router.prewire(1, 0, 5.08, 5.08, 25.4, 5.08, 2.0, "+5V")
    route = router.route(1, [p for p in pads() if p.net == 1], rt.POWER, "+5V")
    assert route.tracks[0] == (0, 5.08, 5.08, 25.4, 5.08, 2.0)  # the trunk itself, first
    assert len(route.tracks) > 1  # and C.1, off the trunk, joined to it
    reached = {(round(x, 2), round(y, 2)) for _, xa, ya, xb, yb, _ in route.tracks for x, y in ((xa, ya), (xb, yb))}
    assert (15.24, 15.24) in reached


def test_a_prewired_trunk_too_close_to_another_nets_pad_is_refused() -> None:
    router = rt.Router(0.0, 0.0, 30.48, 20.32, pads())
    with pytest.raises(rt.RoutingError, match=r"passes -?[\d.]+ mm from D\.1"):
        router.prewire(1, 0, 5.08, 6.35, 25.4, 6.35, 2.0, "+5V")  # 1.27 mm from D.1's centre


def test_a_prewired_trunk_off_the_grid_or_askew_is_refused() -> None:
    router = rt.Router(0.0, 0.0, 30.48, 20.32, pads())
    with pytest.raises(rt.RoutingError, match="off the 0.635 mm grid"):
        router.prewire(1, 0, 5.0, 5.08, 25.4, 5.08, 0.6, "+5V")
    with pytest.raises(rt.RoutingError, match="along one axis"):
        router.prewire(1, 0, 5.08, 5.08, 25.4, 15.24, 0.6, "+5V")
    with pytest.raises(rt.RoutingError, match="board edge"):
        router.prewire(1, 0, 0.0, 5.08, 25.4, 5.08, 0.6, "+5V")
