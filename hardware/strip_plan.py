"""Where everything on a strip lies: the one plan both the boards and the stack-up read.

hardware/boards.py lays each strip's footprints out from :func:`plan` (under Debian's
/usr/bin/python3, with pcbnew) and hardware/stackup.py builds the strip's solids from the same
plan (under the project's Python, with build123d), so the board a fab makes and the model the
gap and the light path are measured on cannot drift apart: the strip's length and width, the
sensors' line, each part's place and face, and the guidance LED under the surface's window.
Standard library only (both Pythons import it).

The numbers come from sensing.toml (the slot pitch, the first slot's distance from the frame,
the checker) and stackup.toml ([strip]: the board's width, its sensors' line, its end past the
LED; [window]: the window's diameter and its clearance from the last checker).

Coordinates are the board's (KiCad's): x along the strip from its base edge (the end nearest
the frame), y across it from the header's edge, downward in KiCad's top view of the sensing
face, mm.  The stack-up's y (up from the sensors' line, seen from above the playing surface)
is ``sensor_line - y``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

HARDWARE = Path(__file__).resolve().parent
SENSING_FILE = HARDWARE / "sensing.toml"
STACKUP_FILE = HARDWARE / "stackup.toml"


@dataclass(frozen=True)
class StripPlan:
    """One strip: its size, where each part goes (ref -> (x, y, rotation degrees)) and which
    parts are on the back (the face away from the playing surface)."""

    slots: int
    pitch: float
    length: float  # along the place (x)
    width: float  # across (y)
    sensor_line: float  # the sensors' y
    led: tuple[float, float]  # the guidance LED's centre: under the surface's window
    place: dict[str, tuple[float, float, float]]
    back: frozenset[str]


def led_from_frame(sensing: dict, stack: dict, slots: int) -> float:
    """The LED's (and its window's) centre from the frame: past the last slot's checker by the
    window's clearance, so a place's own checkers never cover its light."""
    board, checker, window = sensing["board"], sensing["checker"], stack["window"]
    return (float(board["base_mm"]) + (slots - 1) * float(board["slot_pitch_mm"])
            + float(checker["diameter_mm"]) / 2 + float(window["clearance_mm"]) + float(window["diameter_mm"]) / 2)


def base_from_frame(sensing: dict) -> float:
    """The strip's base edge from the frame: slot 0's centre half a pitch from the base edge."""
    return float(sensing["board"]["base_mm"]) - float(sensing["board"]["slot_pitch_mm"]) / 2


def plan(slots: int, sensing: dict | None = None, stack: dict | None = None) -> StripPlan:
    """The strip of ``slots`` slots: two sensors per slot, sensor j (U{j + 1}) at
    ((j + 1) * pitch / 2, sensor line) -- slot i's at its centre ((i + 0.5) pitch) and half a
    pitch further -- with its 100 nF beside it; the guidance LED on the sensors' line past the
    last slot, under the window (on the sensing face: it rises into the window); along the
    header's edge, on the back, the 2x10 box header J1 and the multiplexer U20 (turned, its pins
    along the strip); the regulator between sensors 2 and 3 (slot 1's first sensor and slot 0's
    second); the LED's 100 nF and its two data resistors behind it on the back."""
    if sensing is None:
        sensing = tomllib.loads(SENSING_FILE.read_text())
    if stack is None:
        stack = tomllib.loads(STACKUP_FILE.read_text())
    pitch = float(sensing["board"]["slot_pitch_mm"])
    strip = stack["strip"]
    width, mid = float(strip["width_mm"]), float(strip["sensor_line_mm"])
    led_x = led_from_frame(sensing, stack, slots) - base_from_frame(sensing)
    length = led_x + float(strip["end_past_led_mm"])
    half = pitch / 2
    place: dict[str, tuple[float, float, float]] = {}
    for j in range(2 * slots):
        x = (j + 1) * half
        place[f"U{j + 1}"] = (x, mid, 0)
        place[f"C{j + 1}"] = (x, mid + 3.5, 0)
    place["D1"] = (led_x, mid, 90)  # turned: its silkscreen and pin-1 mark clear of the last sensor's pads
    place["C32"] = (led_x, mid - 5.0, 0)  # the LED's 100 nF, behind it
    place["R2"] = (led_x - 6.0, mid - 5.0, 90)  # its data input's series resistor, beside the 100 nF
    place["R3"] = (led_x - 3.0, mid - 5.0, 90)  # its data output's, between them
    place["J1"] = (11.43, 5.5, 90)  # on the back: pins along x, pin 1 first, the even row 2.54 mm further in
    mux_x = 53.34
    place["U20"] = (mux_x, 7.0, 270)  # channels 0-7 along the bottom row, channel 0 at the left
    place["C20"] = (mux_x - 10.16, 9.0, 90)
    place["U30"] = (1.25 * pitch, mid + 3.5, 0)
    place["R1"] = (mux_x + 11.43, 9.5, 90)  # /E pull-up, past the multiplexer's end
    place["U40"] = (17.78, 14.5, 0)  # the ESD clamps of the header's signals, below it
    place["U41"] = (30.48, 14.5, 0)
    place["C30"] = (1.25 * pitch - 4.0, mid + 3.5, 90)
    place["C31"] = (1.25 * pitch + 4.0, mid + 3.5, 90)
    # the sensing face (under the playing surface) holds the sensors and their 100 nF, no
    # taller than a sensor (SOT-23: 1.12 mm; 0603: 0.9 mm), and the LED, which rises into its
    # window; everything else -- the multiplexer, the regulator, their parts and the header,
    # which enters from the back -- is on the back
    front = {f"U{j + 1}" for j in range(2 * slots)} | {f"C{j + 1}" for j in range(2 * slots)} | {"D1"}
    return StripPlan(slots, pitch, length, width, mid, (led_x, mid), place, frozenset(set(place) - front))
