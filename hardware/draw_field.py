"""Draw hardware/coverage.png: what a slot reads as, for a stack of 1-5 white checkers lying
0 to half a slot pitch off its sensor, alone or on a crowded board (the sensing physics of
hardware/sensing.toml, from its magpylib field table; the classifier's thresholds).

Usage: python3 hardware/draw_field.py   (Pillow; run hardware/make_field.py first after
editing sensing.toml)
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from bgboard.hardware.physics import (  # noqa: E402
    Magnet,
    crowd,
    crowded_tolerance_mm,
    field_mt,
    load_design,
    load_table,
    reads_as,
    response,
    single_tolerance_mm,
)

OUT = Path(__file__).resolve().parent / "coverage.png"
STEP = 0.5
CONTEXTS = (("alone", None), ("crowded, white around", 1), ("crowded, black around", -1))
COLOURS = {
    "one": (120, 200, 120),  # reads as one white checker
    "stack": (30, 120, 60),  # reads as a stack (two or more)
    "missed": (200, 200, 200),  # reads empty: the checker is not seen (safe: the host waits)
    "short": (235, 200, 90),  # a stack read as one checker
    "wrong": (220, 60, 60),  # the next slot reads it too, or the wrong colour, or out of range
}


def cell(design, table, resp, stack: int, x: float, side: int | None) -> str:
    ms = [Magnet(x, 0.0, k, 1) for k in range(stack)]
    if side is not None:
        ms += crowd(design, x, 1, side)
    here = reads_as(field_mt(table, 0.0, 0.0, ms) / resp.b0_mt, resp)
    # alone, the next sensor along must stay empty; crowded, the row's next checker lies there
    nxt = "empty" if side is not None else reads_as(field_mt(table, design.slot_pitch_mm, 0.0, ms) / resp.b0_mt, resp)
    if nxt != "empty" or here in ("black", "black stack", "out of range"):
        return "wrong"
    if here == "empty":
        return "missed"
    if stack == 1:
        return "one" if here == "white" else "wrong"
    return "stack" if here == "white stack" else "short"


def main() -> int:
    design = load_design()
    table = load_table(design)
    resp = response(design, table)
    offsets = [i * STEP for i in range(int(design.slot_pitch_mm / 2 / STEP) + 1)]
    font = ImageFont.load_default()
    cw, ch, left, top = 14, 16, 190, 60
    height = top + len(CONTEXTS) * (5 * ch + 24) + 70
    img = Image.new("RGB", (left + len(offsets) * cw + 20, height), "white")
    draw = ImageDraw.Draw(img)
    draw.text((10, 8), f"What a slot reads as: {design.magnet_diameter_mm:g} x {design.magnet_thickness_mm:g} mm "
              f"{design.grade} magnet, gap {design.gap_mm:g} mm, {design.sensor.name}, slot pitch "
              f"{design.slot_pitch_mm:g} mm", fill="black", font=font)
    draw.text((10, 24), f"one checker reads right to {single_tolerance_mm(design, table):g} mm off its sensor alone, "
              f"{crowded_tolerance_mm(design, table):g} mm on a crowded board (any direction)", fill="black", font=font)
    y = top
    for name, side in CONTEXTS:
        draw.text((10, y), name, fill="black", font=font)
        y += 14
        for stack in range(1, 6):
            draw.text((20, y + 2), f"{stack} checker{'s' if stack > 1 else ''}", fill="black", font=font)
            for i, x in enumerate(offsets):
                colour = COLOURS[cell(design, table, resp, stack, x, side)]
                draw.rectangle([left + i * cw, y, left + (i + 1) * cw - 1, y + ch - 1], fill=colour)
            y += ch
        y += 10
    for i, x in enumerate(offsets):
        if x == int(x) and int(x) % 2 == 0:
            draw.text((left + i * cw, y), f"{int(x)}", fill="black", font=font)
    draw.text((left, y + 14), "offset from the sensor, mm (half a slot pitch at the right)", fill="black", font=font)
    lx = 10
    for label, key in (("one white", "one"), ("a stack", "stack"), ("not seen", "missed"),
                       ("stack read as one", "short"), ("wrong", "wrong")):
        draw.rectangle([lx, y + 34, lx + 12, y + 46], fill=COLOURS[key])
        draw.text((lx + 16, y + 35), label, fill="black", font=font)
        lx += 30 + 7 * len(label)
    img.save(OUT)
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
