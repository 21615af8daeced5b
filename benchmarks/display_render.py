"""Render time per frame per panel, and frame packing against a per-pixel reference.

    .venv/bin/python benchmarks/display_render.py [--repeat N]

For each panel: the median time to render every demo state (DisplayState -> panel image,
bgboard.display.renderer), the time to pack a frame into controller RAM bytes
(bgboard.display.waveshare.frame_bytes / uc8179_bytes) and, as the reference, the same
packing done pixel by pixel in Python the way vendor example drivers do it, with the ratio.
Target: <= 30 ms per frame for the 7.5-inch panel.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

from PIL import Image

from bgboard.display.demos import DEMOS
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render
from bgboard.display.uc8179 import uc8179_bytes
from bgboard.display.waveshare import GEOMETRY, frame_bytes


def per_pixel_pack(image: Image.Image, rotate: bool) -> bytes:
    """Reference: pack a 1-bit landscape frame bit by bit with getpixel-style access."""
    w, h = image.size
    px = image.load()
    if rotate:  # portrait RAM: width h (padded to bytes), w lines
        stride = (h + 7) // 8
        buf = bytearray([0xFF] * (stride * w))
        for y in range(h):
            for x in range(w):
                if px[x, y] == 0:
                    line, col = w - 1 - x, y
                    buf[line * stride + col // 8] &= ~(0x80 >> (col % 8)) & 0xFF
        return bytes(buf)
    stride = (w + 7) // 8
    buf = bytearray([0xFF] * (stride * h))
    for y in range(h):
        for x in range(w):
            if px[x, y] == 0:
                buf[y * stride + x // 8] &= ~(0x80 >> (x % 8)) & 0xFF
    return bytes(buf)


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print(f"# {platform.machine()}, Python {platform.python_version()}, "
          f"Pillow {Image.__version__}, median of {args.repeat}")
    print(f"{'panel':18} {'size':>8} {'render ms':>10} {'worst demo':<20} "
          f"{'pack ms':>8} {'per-pixel ms':>13} {'ratio':>7}")
    for name, spec in PANELS.items():
        for state in DEMOS.values():  # warm the font cache
            render(state, spec)
        per_demo = {d: median_ms(lambda s=s: render(s, spec), args.repeat)
                    for d, s in DEMOS.items()}
        mean = statistics.mean(per_demo.values())
        worst = max(per_demo, key=per_demo.__getitem__)
        pack = ref = ratio = ""
        if spec.colours == "bw":
            frame = render(DEMOS["hint"], spec)
            if name in GEOMETRY:
                geo = GEOMETRY[name]
                ours = median_ms(lambda: frame_bytes(frame, geo), args.repeat)
                theirs = median_ms(lambda: per_pixel_pack(frame, geo.rotate), 3)
                assert per_pixel_pack(frame, geo.rotate) == frame_bytes(frame, geo)
            else:
                ours = median_ms(lambda: uc8179_bytes(frame), args.repeat)
                theirs = median_ms(lambda: per_pixel_pack(frame, False), 3)
                inverted = bytes(255 - b for b in per_pixel_pack(frame, False))
                assert inverted == uc8179_bytes(frame)
            pack, ref, ratio = f"{ours:.2f}", f"{theirs:.1f}", f"{theirs / ours:.0f}x"
        print(f"{name:18} {spec.width:>4}x{spec.height:<4} {mean:>10.2f} "
              f"{per_demo[worst]:>6.2f} {worst:<13} {pack:>8} {ref:>13} {ratio:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
