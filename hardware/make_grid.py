"""Write a sensor grid (grid.toml) and the multiplexer pins it needs, for one or two hall
sensors per slot.

``--per-slot 2`` is the design of hardware/README.md, "A lone checker anywhere": each slot has
a sensor at its centre (where a row's checker lies, so stacks are read as before) and one
half a slot pitch further from the base (between it and the next slot), so no spot along a
place is more than a quarter pitch (9.75 mm) from a sensor.  Each strip (one per place)
carries its own CD74HC4067: multiplexer *m* is place *m* (in the protocol's place order) and
channel *j* is the place's sensor *j* counted from its base (slot *i*'s sensors are 2i and
2i + 1), so every strip is wired alike and only its controller header tells its place.
With one sensor per slot (the design before) the nine multiplexers sit on the controller and
sensor *n* is multiplexer *n* // 16, channel *n* % 16.  Multiplexer *m* feeds ADC input
*m* // banks and is enabled by line *m* % banks, banks = ceil(multiplexers / 3) (the Pico
has three ADC inputs on GP26-28); the enable lines are GP6 upwards, skipping the pins
pins.toml gives the dice button, the LED data and the status LED.

Usage: python hardware/make_grid.py [--per-slot 1|2] [--out DIR]
(DIR gets grid.toml and pins.toml, the repository's pins.toml with its ``[pico.mux]``
enable lines and count for that many multiplexers; without --out the grid is printed.)
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

HARDWARE = Path(__file__).resolve().parent
PLACES = [(str(p), 5) for p in range(1, 25)] + [("bar-white", 4), ("bar-black", 4), ("off-white", 5), ("off-black", 5)]
CHANNELS = 16
ADC_INPUTS = 3
FIRST_ENABLE = 6  # GP6 upwards (GP2-5 are the select lines)

HEADER = """\
# Every sensing slot of the board: the place it sits under, its index along the place
# (0 = the base of a point / the end of a bar or tray where the first checker lies), and the
# multiplexer channels of its hall sensors.  The order of the entries is the slot numbering
# of the wire protocol (docs/protocol.md).  Written by hardware/make_grid.py --per-slot {per}.
# {what}
# Places: "1".."24" physical points numbered from white's view (white's home = 1..6),
# "bar-white", "bar-black", "off-white" (white's bear-off tray), "off-black".
# Points have 5 slots, bar halves 4, trays 5; a taller stack lies on the last slot.
"""
WHAT = {
    1: "One sensor under each slot's centre: { place, index, mux, channel }.",
    2: "Two sensors per slot, at its centre and half a pitch further from the base:\n"
       "# { place, index, sensors = [[mux, channel], [mux, channel]] }; the firmware turns each\n"
       "# place's runs of lit sensors into its slot states (hardware/README.md).",
}


MUX_COMMENT_2 = """\
# {count} x CD74HC4067 16-channel analog multiplexers, one on each strip ({channels} channels, {used} used):
# multiplexer m is place m of grid.toml, channel j its sensor j from the base.
# Multiplexer m drives ADC input adc[m // {banks}] and is enabled by enable[m % {banks}] (active low),
# so one enable line switches on one multiplexer per ADC input.
"""


def muxes(per_slot: int) -> int:
    if per_slot == 2:
        return len(PLACES)  # one on each strip
    return math.ceil(sum(n for _, n in PLACES) * per_slot / CHANNELS)


def sensor_channels(per_slot: int) -> list[list[tuple[int, int]]]:
    """Each slot's (multiplexer, channel) pairs, in the protocol's slot order."""
    out, n = [], 0
    for m, (_, slots) in enumerate(PLACES):
        for index in range(slots):
            if per_slot == 2:
                out.append([(m, 2 * index + k) for k in range(2)])
            else:
                out.append([(n // CHANNELS, n % CHANNELS)])
                n += 1
    return out


def grid_text(per_slot: int) -> str:
    lines = [HEADER.format(per=per_slot, what=WHAT[per_slot]), "slot = ["]
    channels = iter(sensor_channels(per_slot))
    for place, slots in PLACES:
        for index in range(slots):
            pairs = next(channels)
            if per_slot == 1:
                (m, c), = pairs
                lines.append(f'  {{ place = "{place}", index = {index}, mux = {m}, channel = {c} }},')
            else:
                sensors = ", ".join(f"[{m}, {c}]" for m, c in pairs)
                lines.append(f'  {{ place = "{place}", index = {index}, sensors = [{sensors}] }},')
    lines += ["]", "", "[sizes]", "point = 5", "bar = 4", "off = 5", ""]
    return "\n".join(lines)


def pins_text(per_slot: int, pins: str) -> str:
    """pins.toml with ``[pico.mux]`` enable lines and count for the grid's multiplexers."""
    count = muxes(per_slot)
    banks = math.ceil(count / ADC_INPUTS)
    taken = {int(v) for v in re.findall(r"(?m)^(?:button|data|led) = (\d+)", pins.split("\n[pi.")[0])}
    lines = [g for g in range(FIRST_ENABLE, 23) if g not in taken][:banks]
    enable = ", ".join(map(str, lines))
    if per_slot == 2:
        pins = re.sub(r"(?ms)^\[pico\.mux\]\n(#[^\n]*\n)+", "[pico.mux]\n" + MUX_COMMENT_2.format(
            count=count, banks=banks, channels=count * CHANNELS, used=sum(n for _, n in PLACES) * 2), pins, count=1)
        pins = re.sub(r"(?m)^(enable = \[[^\]]*\])\s*#.*$", r"\1  # /E of banks 0.." + str(banks - 1), pins, count=1)
    pins = re.sub(r"(?m)^enable = \[[^\]]*\]", f"enable = [{enable}]", pins, count=1)
    return re.sub(r"(?m)^count = \d+(?=\s+#|\s*$)", f"count = {count}", pins, count=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-slot", type=int, choices=(1, 2), default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    text = grid_text(args.per_slot)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "grid.toml").write_text(text)
    (args.out / "pins.toml").write_text(pins_text(args.per_slot, (HARDWARE / "pins.toml").read_text()))
    print(f"wrote {args.out / 'grid.toml'} and pins.toml ({muxes(args.per_slot)} multiplexers)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
