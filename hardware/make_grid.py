"""Write a sensor grid (grid.toml) and the multiplexer pins it needs, for one or two hall
sensors per slot.

``--per-slot 2`` is the design of hardware/README.md, "A lone checker anywhere": each slot has
a sensor at its centre (where a row's checker lies, so stacks are read as before) and one
half a slot pitch further from the base (between it and the next slot), so no spot along a
place is more than a quarter pitch (9.75 mm) from a sensor.  Sensors are
numbered slot by slot in the protocol's slot order, each slot's base-side sensor first;
sensor *n* is read on multiplexer *n* // 16, channel *n* % 16.  Multiplexer *m* feeds ADC
input *m* // banks and is enabled by line *m* % banks, banks = ceil(multiplexers / 3) (the
Pico has three ADC inputs on GP26-28); the enable lines are GP6 upwards.

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


def muxes(per_slot: int) -> int:
    return math.ceil(sum(n for _, n in PLACES) * per_slot / CHANNELS)


def grid_text(per_slot: int) -> str:
    lines = [HEADER.format(per=per_slot, what=WHAT[per_slot]), "slot = ["]
    n = 0
    for place, slots in PLACES:
        for index in range(slots):
            pairs = []
            for _ in range(per_slot):
                pairs.append((n // CHANNELS, n % CHANNELS))
                n += 1
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
    enable = ", ".join(str(FIRST_ENABLE + b) for b in range(banks))
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
