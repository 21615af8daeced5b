"""Draw hardware/coverage.png, the coverage map of the board as built: what a point reads as
for a stack of 1-5 white checkers set down anywhere along it (every 0.5 mm from the frame to
the point's end), and for one checker off its row's line, alone or on a crowded board.

Each cell is the whole chain of the built board: the field of every magnet at every sensor of
grid.toml (hardware/sensing.toml's magpylib field table, bgboard.sim.placement), the
firmware's own classifier at its default calibration, its run rule and its crowd correction
(firmware/classify.py, runs.py, crowd.py under CPython), and the host's place code
(bgboard.sense.slots).

Usage: python3 hardware/draw_field.py   (Pillow; run hardware/make_field.py first after
editing sensing.toml)
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "firmware"))

import calibration as fw_calibration  # noqa: E402  (the firmware's own modules)
import classify as fw_classify  # noqa: E402
from crowd import Crowd, settle  # noqa: E402
from runs import Runs  # noqa: E402

from bgboard.hardware import Grid, load_grid  # noqa: E402
from bgboard.hardware.physics import Magnet, load_design, load_table  # noqa: E402
from bgboard.sense.places import CAPPED, SensorFaultError  # noqa: E402
from bgboard.sense.slots import PLACE_NUMBERS, SlotMap  # noqa: E402
from bgboard.sim.placement import fields_mt, rows  # noqa: E402

OUT = Path(__file__).resolve().parent / "coverage.png"
PLACE = "16"  # a point with a point on either side
STEP = 0.5
CONTEXTS = (("alone", 0), ("crowded: both neighbouring points full of white", 1),
            ("crowded: both neighbouring points full of black", -1))
COLOURS = {
    "one": (120, 200, 120),  # reads as one white checker
    "stack": (30, 120, 60),  # reads as a stack (two or more)
    "missed": (200, 200, 200),  # reads empty: the checker is not seen (safe: the host waits)
    "short": (235, 200, 90),  # a stack read as one checker
    "wrong": (220, 60, 60),  # more checkers than lie there, or the wrong colour, or a fault
}


class Chain:
    """The built board's reading of magnets on the table: one place's host code."""

    def __init__(self, grid: Grid) -> None:
        self.design = load_design()
        self.table = load_table(self.design)
        self.grid = grid
        self.rows = rows(self.design)
        self.slot_map = SlotMap.from_slots(grid.slots)
        self.sensors = grid.sensors()

    def at(self, place: str, along: float, across: float = 0.0) -> tuple[float, float]:
        row = self.rows[place]
        return row.x + row.dx * along + row.dy * across, row.y + row.dy * along + row.dx * across

    def code(self, magnets: list[Magnet], place: str) -> int | None:
        fields = fields_mt(self.design, self.grid, self.table, magnets)
        raw = [int(round(32768 + fields[s] * self.design.counts_per_mt)) for s in self.sensors]
        classifier = fw_classify.Classifier(fw_calibration.defaults(len(raw)), len(raw))
        runs = Runs(*self.grid.firmware_layout())
        states = settle(classifier, runs, Crowd(classifier, len(self.grid.slots)), raw)
        try:
            return self.slot_map.observation(bytes(states)).codes[PLACE_NUMBERS[place] - 1]
        except SensorFaultError:
            return None

    def crowd(self, colour: int) -> list[Magnet]:
        """Both neighbouring points full: a row of five on their slots."""
        n = int(PLACE)
        out = []
        for other in (str(n - 1), str(n + 1)):
            for k in range(5):
                x, y = self.at(other, self.design.base_mm + k * self.design.slot_pitch_mm)
                out.append(Magnet(x, y, 0, colour))
        return out


def verdict(code: int | None, stack: int) -> str:
    if code is None or code < 0:
        return "wrong"
    if code == 0:
        return "missed"
    if stack == 1:
        return "one" if code == 1 else "wrong"
    if code > CAPPED:
        return "stack" if code - CAPPED <= stack + 1 else "wrong"
    return "short" if code == 1 else "wrong"


def main() -> int:
    grid = load_grid()
    chain = Chain(grid)
    d = chain.design
    pitch = d.slot_pitch_mm
    length = d.base_mm + (len(grid.of(PLACE)) - 1) * pitch + pitch / 2  # the point's end
    alongs = [d.checker_diameter_mm / 2 + i * STEP for i in range(int((length - d.checker_diameter_mm / 2) / STEP) + 1)]
    sensors_along = sorted(d.base_mm + (slot.index + k / grid.per_slot) * pitch
                           for slot in grid.of(PLACE) for k in range(grid.per_slot))
    font = ImageFont.load_default()
    cw, ch, left, top = 3, 14, 300, 60
    height = top + len(CONTEXTS) * (5 * ch + 24) + 2 * (7 * ch + 24) + 2 * (5 * ch + 24) + 130
    img = Image.new("RGB", (left + len(alongs) * cw + 30, height), "white")
    draw = ImageDraw.Draw(img)
    array = f"{d.magnet_count} x " if d.magnet_count > 1 else ""
    apart = f" {d.magnet_spacing_mm:g} mm apart" if d.magnet_count > 1 else ""
    draw.text((10, 8), f"What point {PLACE} reads as, on the board as built: {array}{d.magnet_diameter_mm:g} x "
              f"{d.magnet_thickness_mm:g} mm {d.grade} discs{apart}, gap {d.gap_mm:g} mm, {d.sensor.name}, "
              f"{grid.per_slot} sensor(s) per slot ({len(grid.sensors())}), slot pitch {pitch:g} mm", fill="black", font=font)
    draw.text((10, 24), "(the field at every sensor, the firmware's classifier, run rule and crowd correction, the host's reading; "
              "ticks: the sensors)", fill="black", font=font)
    counts: dict[str, int] = {}
    y = top

    def cells(label: str, magnets_of) -> None:
        nonlocal y
        draw.text((20, y + 1), label, fill="black", font=font)
        for i, along in enumerate(alongs):
            key = magnets_of(along)
            counts[key] = counts.get(key, 0) + 1
            draw.rectangle([left + i * cw, y, left + (i + 1) * cw - 1, y + ch - 2], fill=COLOURS[key])
        y += ch

    for name, side in CONTEXTS:
        draw.text((10, y), f"a stack set down along the point, {name}", fill="black", font=font)
        y += 14
        crowd = chain.crowd(side) if side else []
        for stack in range(1, 6):
            def at_along(along: float, stack: int = stack) -> str:
                x, yy = chain.at(PLACE, along)
                return verdict(chain.code([Magnet(x, yy, k, 1) for k in range(stack)] + crowd, PLACE), stack)
            cells(f"{stack} checker{'s' if stack > 1 else ''}", at_along)
        y += 10
    for name, side in (("alone", 0), ("crowded, black around", -1)):
        draw.text((10, y), f"one checker off its row's line (across), {name}", fill="black", font=font)
        y += 14
        crowd = chain.crowd(side) if side else []
        for across in (0.0, 2.0, 4.0, 5.0, 6.0, 8.0, 10.0):
            def off_line(along: float, across: float = across) -> str:
                x, yy = chain.at(PLACE, along, across)
                return verdict(chain.code([Magnet(x, yy, 0, 1)] + crowd, PLACE), 1)
            cells(f"{across:g} mm across", off_line)
        y += 10
    draw.text((20, y), "sensors", fill=(40, 60, 200), font=font)
    for s in sensors_along:
        i = (s - alongs[0]) / STEP
        x = left + i * cw
        draw.polygon([(x, y), (x - 4, y + 8), (x + 4, y + 8)], fill=(40, 60, 200))
    y += 12
    for mm in range(20, int(length) + 1, 20):
        i = (mm - alongs[0]) / STEP
        draw.line([left + i * cw, y, left + i * cw, y + 4], fill="black")
        draw.text((left + i * cw - 6, y + 6), f"{mm}", fill="black", font=font)
    draw.text((left, y + 20), "where the checker's centre lies along the point, mm from the frame", fill="black", font=font)
    y += 40
    # a full row shifted along its point, a sixth checker stacked on one of its five
    shifts = [i * STEP for i in range(int(pitch / 2 / STEP) + 1)]
    sw = len(alongs) * cw // len(shifts)
    for name, side in (("white", 1), ("black", -1)):
        draw.text((10, y), f"a full row of five shifted along the point, a sixth stacked on one of them; "
                  f"both neighbouring points full of {name}", fill="black", font=font)
        y += 14
        crowd = chain.crowd(side)
        for on in range(5):
            draw.text((20, y + 1), f"stack on checker {on + 1}", fill="black", font=font)
            for i, shift in enumerate(shifts):
                row = [chain.at(PLACE, d.base_mm + k * pitch + shift) for k in range(5)]
                ms = [Magnet(x, yy, 0, 1) for x, yy in row] + [Magnet(*row[on], 1, 1)] + crowd
                code = chain.code(ms, PLACE)
                key = "stack" if code == CAPPED + 6 else "short" if code == 5 else "wrong"
                counts[key] = counts.get(key, 0) + 1
                draw.rectangle([left + i * sw, y, left + (i + 1) * sw - 1, y + ch - 2], fill=COLOURS[key])
            y += ch
        y += 10
    for i, shift in enumerate(shifts):
        if shift == int(shift) and int(shift) % 3 == 0:
            draw.text((left + i * sw, y), f"{int(shift)}", fill="black", font=font)
    draw.text((left, y + 12), "the row's shift from its slots' centres, mm (half a pitch at the right)", fill="black", font=font)
    y += 34
    lx = 10
    for label, key in (("one white", "one"), ("a stack", "stack"), ("not seen", "missed"),
                       ("stack read as one", "short"), ("wrong", "wrong")):
        draw.rectangle([lx, y + 4, lx + 12, y + 16], fill=COLOURS[key])
        draw.text((lx + 16, y + 5), f"{label} ({counts.get(key, 0)})", fill="black", font=font)
        lx += 60 + 7 * len(label)
    img.save(OUT, optimize=True)
    print(f"wrote {OUT}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
