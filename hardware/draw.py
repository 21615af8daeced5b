"""Draw hardware/layout.png from hardware/grid.toml and hardware/pins.toml (Pillow).

The board as seen from above, white's side at the bottom: every sensing slot as a dot in
the colour of its multiplexer (legend on the right, with the channel of each slot's mux),
each place's LED (its window past the place's last slot), and the Pico/Pi pin table.  ``python hardware/draw.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

import strip_plan  # noqa: E402  (the strips' layout: where each LED is)
from make_board import load  # the one reader of pins.toml and grid.toml (hardware/ is on sys.path)

HARDWARE = Path(__file__).resolve().parent
OUTPUT = HARDWARE / "layout.png"

WIDTH, HEIGHT = 1320, 820
BOARD = (40, 60, 1000, 760)  # left, top, right, bottom of the playing surface + trays
POINT_W = 64
HALF_W = 6 * POINT_W
BAR_W = 70
TRAY_W = 90
SLOT_STEP = 52
SLOT_R = 11
MUX_COLOURS = [
    (230, 25, 75), (60, 180, 75), (255, 225, 25), (0, 130, 200), (245, 130, 48),
    (145, 30, 180), (70, 240, 240), (240, 50, 230), (128, 128, 0),
    (250, 190, 212), (0, 128, 128), (220, 190, 255), (170, 110, 40), (255, 250, 200),
    (128, 0, 0), (170, 255, 195), (0, 0, 128), (160, 160, 160),
    (255, 160, 120), (100, 100, 255), (200, 255, 100), (190, 60, 60), (60, 100, 60),
    (255, 215, 140), (90, 200, 160), (180, 120, 220), (120, 180, 255), (230, 230, 230),
]  # one per multiplexer: 28, one on each strip
WOOD = (222, 196, 150)
DARK = (120, 72, 40)
LIGHT = (245, 235, 210)


def point_column(point: int) -> tuple[float, bool]:
    """x of the centre of physical ``point`` and whether its base is at the bottom."""
    x0 = BOARD[0]  # the trays are on the right
    if 1 <= point <= 6:  # white's home: bottom right, point 1 at the right edge
        return x0 + HALF_W + BAR_W + (6 - point) * POINT_W + POINT_W / 2, True
    if 7 <= point <= 12:  # bottom left
        return x0 + (12 - point) * POINT_W + POINT_W / 2, True
    if 13 <= point <= 18:  # top left
        return x0 + (point - 13) * POINT_W + POINT_W / 2, False
    return x0 + HALF_W + BAR_W + (point - 19) * POINT_W + POINT_W / 2, False


def sensors_of(slot: dict) -> list[tuple[int, int]]:
    """A grid.toml slot's sensors as (mux, channel): its centre's first, then the one half a pitch further."""
    if "sensors" in slot:
        return [(int(m), int(c)) for m, c in slot["sensors"]]
    return [(int(slot["mux"]), int(slot["channel"]))]


def slot_xy(place: str, index: float) -> tuple[int, int]:
    """Pixel centre of slot ``index`` of ``place`` in the picture (index + 0.5: the sensor half a
    pitch beyond the slot's centre)."""
    left, top, right, bottom = BOARD
    if place.isdigit():
        x, from_bottom = point_column(int(place))
    elif place.startswith("bar"):
        x, from_bottom = left + HALF_W + BAR_W / 2, place == "bar-white"
    else:
        x, from_bottom = left + 2 * HALF_W + BAR_W + TRAY_W / 2, place == "off-white"
    y = bottom - 30 - index * SLOT_STEP if from_bottom else top + 30 + index * SLOT_STEP
    return int(x), int(y)


def render(pins: dict, grid: dict) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    left, top, right, bottom = BOARD
    board_right = left + 2 * HALF_W + BAR_W + TRAY_W
    draw.rectangle((left, top, board_right, bottom), fill=WOOD, outline="black", width=3)
    draw.rectangle((left + HALF_W, top, left + HALF_W + BAR_W, bottom), fill=DARK)
    draw.rectangle((board_right - TRAY_W, top, board_right, bottom), fill=(200, 170, 120), outline="black")
    middle = (top + bottom) // 2
    draw.line((board_right - TRAY_W, middle, board_right, middle), fill="black", width=2)
    draw.line((left + HALF_W, middle, left + HALF_W + BAR_W, middle), fill="white", width=2)
    for point in range(1, 25):
        x, from_bottom = point_column(point)
        colour = DARK if point % 2 else LIGHT
        base = bottom if from_bottom else top
        tip = middle + 40 if from_bottom else middle - 40
        draw.polygon([(x - POINT_W / 2 + 2, base), (x + POINT_W / 2 - 2, base), (x, tip)], fill=colour,
                     outline="black")
        label_y = bottom + 8 if from_bottom else top - 20
        draw.text((x - 6, label_y), str(point), fill="black", font=font)
    for slot in grid["slot"]:
        pairs = sensors_of(slot)
        for part, (m, channel) in enumerate(pairs):
            x, y = slot_xy(slot["place"], slot["index"] + part / len(pairs))
            draw.ellipse((x - SLOT_R, y - SLOT_R, x + SLOT_R, y + SLOT_R), fill=MUX_COLOURS[m], outline="black")
            draw.text((x - 7, y - 6), f"{channel:>2}", fill="black", font=font)
    slots: dict[str, int] = {}
    for slot in grid["slot"]:
        slots[slot["place"]] = max(slots.get(slot["place"], 0), int(slot["index"]) + 1)
    for place, count in slots.items():  # each place's LED under its window, past its last slot (README, "Stack-up")
        strip = strip_plan.plan(count)  # where the board and the stack-up put it, in slots from slot 0
        x, y = slot_xy(place, (strip.led[0] - strip.pitch / 2) / strip.pitch)
        # an open square over the last sensor's dot: the window is 5.5 mm past that sensor
        draw.rectangle((x - 5, y - 4, x + 5, y + 4), outline=(255, 255, 255), width=2)
    draw.text((left + HALF_W + 8, bottom + 8), "bar", fill="black", font=font)
    draw.text((board_right - TRAY_W + 10, bottom + 8), "off-white", fill="black", font=font)
    draw.text((board_right - TRAY_W + 10, top - 20), "off-black", fill="black", font=font)
    draw.text((left, 10), "bgboard sensor grid (white's side at the bottom): dot = hall sensor (two per slot: "
              "its centre and half a pitch further), colour = multiplexer, number = channel; squares = LEDs (windows past each place's last slot)",
              fill="black", font=font)

    x = board_right + 40
    y = top
    mux = pins["pico"]["mux"]
    draw.text((x, y), "Multiplexers (CD74HC4067), one per strip:", fill="black", font=font)
    y += 16
    banks = len(mux["enable"])  # mux m feeds ADC m // banks and is enabled by line m % banks
    draw.text((x, y), "  mux m: SIG -> column's ADC, /E <- row's line", fill="black", font=font)
    y += 20
    for k, gp in enumerate(mux["adc"]):
        draw.text((x + 70 + k * 72, y), f"GP{gp}", fill="black", font=font)
    y += 18
    for e in range(banks):
        draw.text((x, y), f"/E GP{mux['enable'][e]}", fill="black", font=font)
        for k in range(len(mux["adc"])):
            m = k * banks + e
            if m < mux["count"]:
                draw.ellipse((x + 70 + k * 72, y, x + 84 + k * 72, y + 14), fill=MUX_COLOURS[m], outline="black")
                draw.text((x + 90 + k * 72, y), f"{m}", fill="black", font=font)
        y += 20
    y += 10
    lines = [
        "Pico (GPn)",
        f"  S0..S3 (all muxes): GP{', GP'.join(map(str, mux['select']))}",
        f"  dice button: GP{pins['pico']['dice']['button']} (to GND, pull-up)",
        f"  WS2812 data: GP{pins['pico']['leds']['data']} via 74AHCT125, {pins['pico']['leds']['count']} LEDs",
        f"  status LED: GP{pins['pico']['status']['led']}",
        f"  regulator PWM mode: GP{pins['pico']['power']['smps_mode']} high",
        f"  5 V present: GP{pins['pico']['power']['supply_sense']} (lines high-Z until then)",
        "",
        "Raspberry Pi (BCM)",
    ]
    d = pins["pi"]["display"]
    lines.append(f"  e-paper: RST {d['rst']}, DC {d['dc']}, CS {d['cs']}, BUSY {d['busy']}, "
                 f"MOSI {d['mosi']}, SCLK {d['sclk']}")
    for who in ("white", "black"):
        b = pins["pi"]["buttons"][who]
        lines.append(f"  {who}: roll {b['roll']}, double {b['double']}, drop {b['drop']}")
    lines += ["", "Pico USB -> Pi USB (CDC serial)", "5 V 4 A supply -> LEDs, VSYS (Schottky), a 3V3 regulator", "  on each strip -> its sensors and multiplexer (hardware/boards/)"]
    for line in lines:
        draw.text((x, y), line, fill="black", font=font)
        y += 18
    return image


def main() -> int:
    render(*load()).save(OUTPUT, optimize=True)
    print(f"wrote {OUTPUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
