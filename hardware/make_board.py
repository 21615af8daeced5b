"""Write firmware/board.py from hardware/pins.toml, hardware/grid.toml and the sensing
physics (hardware/sensing.toml and its field table, host/bgboard/hardware/field_table.json).

The TOML files are the one source of truth; MicroPython has no TOML reader, so the
firmware gets the same facts as a generated module of constants.  A test regenerates it
and fails if the committed file differs.  Usage: ``python hardware/make_board.py``.
"""

from __future__ import annotations

import struct
import sys
import tomllib
from pathlib import Path

HARDWARE = Path(__file__).resolve().parent
TARGET = HARDWARE.parent / "firmware" / "board.py"
sys.path.insert(0, str(HARDWARE.parent / "host"))

from bgboard.hardware import Grid, Slot, physics  # noqa: E402  (pure: reads the committed field table)


def sensing() -> tuple[int, int, tuple[int, ...]]:
    """The default calibration the physics gives: one centred checker's swing in ADC counts,
    what the second checker of a stack adds (thousandths of one checker), and the stack
    levels' thresholds (:func:`bgboard.hardware.physics.level_shape`)."""
    design = physics.load_design(HARDWARE / "sensing.toml")
    resp = physics.response(design, physics.load_table(design))
    return resp.swing, round(resp.stack_gain * 1000), physics.level_shape(resp)


#: A neighbour's field at a sensor is corrected for only from this far (mm): beyond the rim's
#: steep return field (hardware/README.md, "Crowds") a checker's field changes slowly with
#: where it lies, so its slot's centre stands for it; nearer, it does not.
CROWD_FROM_MM = 30.0
#: Coefficients smaller than this (checker units) are left out: a third of one conversion's
#: noise allowance (0.1 mT, 0.016 of a checker: sensing.toml's DRV5055A1), two thirds of a
#: reading's (the mean of ADC_SAMPLES conversions, physics.reading_noise_mt: 0.05 mT), and the
#: table fits the firmware's heap (tests/firmware/test_scan.py).
CROWD_LEAST = 0.005
#: The finest unit of the coefficients: 1/8000 of a checker's field (every product of
#: firmware/classify.py then stays below 2**30, a small int on the RP2040).  A coarser one,
#: 1/1000 less at a time, where the largest coefficient would not fit one byte (a wider magnet's
#: return field reaches further: :func:`crowd_scale`).
CROWD_SCALE = 8000


def _neighbours(grid: "Grid") -> list[list[tuple[int, float, float]]]:
    """For every slot, ``(sensor, distance mm, field in checker units)`` of the sensors a
    checker on the slot's centre reaches from CROWD_FROM_MM on with at least CROWD_LEAST."""
    import math

    from bgboard.sim.placement import sensor_spots

    design = physics.load_design(HARDWARE / "sensing.toml")
    table = physics.load_table(design)
    b0 = table.at(0, 0.0)
    spots = sensor_spots(design, grid)
    index = {sensor: n for n, sensor in enumerate(grid.sensors())}
    out = []
    for slot in grid.slots:
        cx, cy = spots[index[slot, 0]]
        row = []
        for n, (sx, sy) in enumerate(spots):
            d = math.hypot(sx - cx, sy - cy)
            k = table.at(0, d) / b0
            if d >= CROWD_FROM_MM and abs(k) >= CROWD_LEAST:
                row.append((n, d, k))
        out.append(row)
    return out


def crowd_scale(grid: "Grid") -> int:
    """The coefficients' unit (1/scale of a checker): CROWD_SCALE, or the largest multiple of
    1000 below it at which the largest coefficient still fits one byte (the design's 28 mm disc:
    0.029 at 39 mm, 230 at 1/8000; an array of stock discs: 0.041, 1/6000)."""
    largest = max((abs(k) for row in _neighbours(grid) for _, _, k in row), default=0.0)
    scale = CROWD_SCALE
    while scale > 1000 and round(largest * scale) > 255:
        scale -= 1000
    return scale


def crowd_table(grid: "Grid") -> tuple[list[int], list[int], list[int]]:
    """For every slot j, the sensors a checker lying on j reaches from CROWD_FROM_MM on, with
    its field there (one checker's magnet, in 1/:func:`crowd_scale` of B0): CROWD_FIRST (slot
    j's entries are CROWD_FIRST[j] .. CROWD_FIRST[j + 1] - 1), CROWD_SENSOR, CROWD_FIELD.  The
    firmware subtracts the field of the checkers its slots report from every sensor's reading
    (firmware/crowd.py): a stack among crowded neighbours is then told from one checker."""
    scale = crowd_scale(grid)
    first, sensors, fields = [0], [], []
    for row in _neighbours(grid):
        for n, d, k in row:
            if not -255 <= round(k * scale) < 0:
                raise SystemExit(f"make_board.py: a neighbour's field of {k:+.4f} of a checker {d:.1f} mm away "
                                 "does not fit crowd.py's one negative byte: change CROWD_FROM_MM")
            sensors.append(n)
            fields.append(round(k * scale))
        first.append(len(sensors))
    return first, sensors, fields


def packed(code: str, values: list[int]) -> bytes:
    """``values`` as raw bytes (``code``: '<H' or '<h'), for an array of board.py."""
    return struct.pack(code[0] + code[1] * len(values), *values)


def grid_of(grid_toml: dict) -> Grid:
    """grid.toml's slots as the package's :class:`~bgboard.hardware.Grid`."""
    slots = []
    for entry in grid_toml["slot"]:
        (mux, channel), *more = sensors_of(entry)
        slots.append(Slot(entry["place"], int(entry["index"]), mux, channel, tuple(more)))
    return Grid(tuple(slots))


def crowd_bytes(grid: Grid) -> tuple[bytes, bytes, bytes]:
    """:func:`crowd_table` as board.py writes it (firmware/crowd.py reads these bytes)."""
    first, sensors, fields = crowd_table(grid)
    return packed("<H", first), packed("<H", sensors), bytes(-f for f in fields)


def sensors_of(slot: dict) -> list[tuple[int, int]]:
    """A grid.toml slot's sensors as (mux, channel), base side first."""
    if "sensors" in slot:
        return [(int(m), int(c)) for m, c in slot["sensors"]]
    return [(int(slot["mux"]), int(slot["channel"]))]


def render(pins: dict, grid: dict) -> str:
    """The text of firmware/board.py."""
    mux, leds = pins["pico"]["mux"], pins["pico"]["leds"]
    board = grid_of(grid)
    slots = board.slots
    per_slot, slot_place, slot_index = board.firmware_layout()  # the run rule's arguments
    swing, gain, shape = sensing()  # the physics, computed once
    sensors = [pair for s in slots for pair in s.sensors]
    places = board.places()
    last = [1 if i + 1 == len(slots) or slots[i + 1].place != s.place else 0 for i, s in enumerate(slots)]

    def ints(values: list[int]) -> str:  # a bytes literal: far less heap to compile than a tuple
        return repr(bytes(values))

    crowd = crowd_bytes(board)
    lines = [
        '"""Board constants generated by hardware/make_board.py from hardware/pins.toml and',
        'hardware/grid.toml and the sensing physics: do not edit by hand."""',
        "",
        f"MUX_SELECT = {tuple(mux['select'])}",
        f"MUX_ENABLE = {tuple(mux['enable'])}",
        f"MUX_ADC = {tuple(mux['adc'])}",
        f"MUX_COUNT = {mux['count']}",
        f"MUX_CHANNELS = {mux['channels']}",
        f"SETTLE_US = {mux['settle_us']}",
        "# conversions averaged into one reading (bgboard.hardware.physics.ADC_SAMPLES: the noise / sqrt(N))",
        f"ADC_SAMPLES = {physics.ADC_SAMPLES}",
        f"DICE_BUTTON = {pins['pico']['dice']['button']}",
        f"LED_DATA = {leds['data']}",
        f"LED_COUNT = {leds['count']}",
        f"HOST_LEDS = {leds['host']}",
        f"LED_BRIGHTNESS = {leds['brightness']}",
        f"STATUS_LED = {pins['pico']['status']['led']}",
        f"SMPS_MODE = {pins['pico']['power']['smps_mode']}",
        f"SUPPLY_SENSE = {pins['pico']['power']['supply_sense']}",
        f"SLOT_COUNT = {len(slots)}",
        f"PLACES = {tuple(places)!r}",
        "# sensor n belongs to slot n // PER_SLOT: part 0 under its centre, part 1 half a pitch further",
        f"PER_SLOT = {per_slot}",
        f"SENSOR_COUNT = {len(sensors)}",
        f"SENSOR_MUX = {ints([m for m, _ in sensors])}",
        f"SENSOR_CHANNEL = {ints([c for _, c in sensors])}",
        f"SLOT_PLACE = {ints(list(slot_place))}",
        f"SLOT_INDEX = {ints(list(slot_index))}",
        f"SLOT_LAST = {ints(last)}",
        "# the sensing physics (hardware/sensing.toml, field_table.json): the default calibration",
        f"SWING = {swing}",
        f"STACK_GAIN_MILLI = {gain}",
        f"STACK_SHAPE_MILLI = {shape!r}",
        "# the field each slot's checker gives the sensors 30 mm and more away (1/CROWD_SCALE of B0):",
        "# slot j reaches CROWD_SENSOR[k] with CROWD_FIELD[k] for CROWD_FIRST[j] <= k < CROWD_FIRST[j + 1]",
        f"CROWD_SCALE = {crowd_scale(board)}",
        "# (raw bytes, read by firmware/crowd.py: FIRST and SENSOR 16-bit little-endian, FIELD one",
        "# byte each, the field's size (a neighbour's field there is the rim's return: negative);",
        "# MicroPython keeps a bytes literal in far less heap than a tuple or an array of numbers)",
        f"CROWD_FIRST = {crowd[0]!r}",
        f"CROWD_SENSOR = {crowd[1]!r}",
        f"CROWD_FIELD = {crowd[2]!r}",
        "",
    ]
    return "\n".join(lines)


def load() -> tuple[dict, dict]:
    """pins.toml and grid.toml, parsed."""
    with open(HARDWARE / "pins.toml", "rb") as f:
        pins = tomllib.load(f)
    with open(HARDWARE / "grid.toml", "rb") as f:
        grid = tomllib.load(f)
    return pins, grid


def main() -> int:
    TARGET.write_text(render(*load()))
    print(f"wrote {TARGET}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
