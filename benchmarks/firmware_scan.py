"""The work of one full firmware scan, counted under the MicroPython unix port, and the
scan rate it implies on the Pico, side by side with the reference boards.

    .venv/bin/python benchmarks/firmware_scan.py [--per-slot 2]

(``--per-slot 2``: the board with two sensors per slot, hardware/make_grid.py's grid and pins,
its board.py generated into a temporary directory ahead of firmware/ on MICROPYPATH.)

Counts (pin writes, ADC reads, settle waits per scan) come from the machine shim and are
exact; the interpreter time of classify + debounce is measured under the unix port on this
machine.  The Pico figure is an ESTIMATE from stated per-operation costs; run
``mpremote run benchmarks/firmware_scan_device.py`` on a board to measure it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MICROPYTHON = Path(sys.executable).with_name("micropython")

# Costs on an RP2040 at 125 MHz running MicroPython (see docs/performance.md):
PIN_WRITE_US = 4.0  # Pin.value(x) from Python (assumed)
#: one conversion: 96 cycles of the ADC's own 48 MHz clock, 500 kS/s (RP2040 datasheet, 4.9)
ADC_CONVERSION_US = 96 / 48.0
ADC_CALL_US = 6.0  # the interpreter's call of ADC.read_u16() around it (assumed)
ADC_READ_US = ADC_CONVERSION_US + ADC_CALL_US
SETTLE_CALL_US = 5.0  # time.sleep_us() call overhead on top of the wait itself
# unix port on a ~3 GHz x86-64 core vs MicroPython on a Cortex-M0+ at 125 MHz: an assumed
# range (no Pico measured here); the low end is used for the "fast" figures, the high end
# for the "slow" ones.
SLOWDOWN = (40.0, 100.0)
SCAN_PERIOD_MS = 10
DEBOUNCE_SCANS = 4


def board_dir(per_slot: int, where: Path) -> str:
    """A directory holding board.py for ``per_slot`` sensors per slot (make_grid, make_board)."""
    sys.path.insert(0, str(ROOT / "hardware"))
    import make_board
    import make_grid

    pins = tomllib.loads(make_grid.pins_text(per_slot, (ROOT / "hardware" / "pins.toml").read_text()))
    (where / "board.py").write_text(make_board.render(pins, tomllib.loads(make_grid.grid_text(per_slot))))
    return f"{where}:"


def measure(per_slot: int = 1) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        first = board_dir(per_slot, Path(tmp)) if per_slot != 1 else ""
        env = dict(os.environ, MICROPYPATH=f"{first}{ROOT / 'firmware/sim'}:{ROOT / 'firmware'}:.frozen",
                   BGBOARD_SIM_CLOCK="virtual", BGBOARD_SIM_FLASH="/tmp/bgboard-bench-flash")
        out = subprocess.run([str(MICROPYTHON), str(ROOT / "benchmarks/firmware_scan_device.py")],
                             capture_output=True, text=True, env=env, check=True).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines())}


def main() -> int:
    per_slot = int(sys.argv[sys.argv.index("--per-slot") + 1]) if "--per-slot" in sys.argv else 1
    r = measure(per_slot)
    settle_us = r["settle_us_per_scan"] + r["settle_waits_per_scan"] * SETTLE_CALL_US
    io_us = r["pin_writes_per_scan"] * PIN_WRITE_US + r["adc_reads_per_scan"] * ADC_READ_US + settle_us
    print(f"slots per scan                    {r['slots']:.0f} ({r['sensors']:.0f} sensors)")
    samples = r["adc_reads_per_scan"] / r["sensors"]
    print(f"ADC reads per scan                {r['adc_reads_per_scan']:.0f} ({r['sensors']:.0f} sensors x {samples:g} samples, "
          f"the conversions alone {r['adc_reads_per_scan'] * ADC_CONVERSION_US / 1000:.2f} ms)")
    print(f"mux settle waits per scan         {r['settle_waits_per_scan']:.0f} x 10 us")
    print(f"select/enable pin writes per scan {r['pin_writes_per_scan']:.0f}")
    print(f"unix port: classify+runs+crowd+debounce {r['classify_debounce_stable_us']:.1f} us stable, "
          f"{r['classify_debounce_all_changing_us']:.1f} us every slot changing (best of 7)")
    print()
    print(f"Pico estimate (interpreter {SLOWDOWN[0]:.0f}x .. {SLOWDOWN[1]:.0f}x slower than the unix port here)")
    print(f"  I/O (pins, ADC, settling)       {io_us / 1000:.2f} ms")
    for name, key in (("stable", "classify_debounce_stable_us"), ("all changing", "classify_debounce_all_changing_us")):
        lo, hi = (io_us + r[key] * k for k in SLOWDOWN)
        print(f"  one scan, {name:<13}         {lo / 1000:.1f} .. {hi / 1000:.1f} ms "
              f"({1e6 / hi:.0f} .. {1e6 / lo:.0f} scans/s)")
    stable_hi = io_us + r["classify_debounce_stable_us"] * SLOWDOWN[1]
    stable_lo = io_us + r["classify_debounce_stable_us"] * SLOWDOWN[0]
    period_lo, period_hi = (max(SCAN_PERIOD_MS * 1000, t) / 1000 for t in (stable_lo, stable_hi))
    if stable_hi <= SCAN_PERIOD_MS * 1000:
        print(f"  chosen period                   {SCAN_PERIOD_MS} ms ({1000 // SCAN_PERIOD_MS} scans/s), "
              f"busy <= {100 * stable_hi / (SCAN_PERIOD_MS * 1000):.0f} % when steady")
    else:  # the loop restarts its schedule after a scan that overran: the scans run back to back
        print(f"  chosen period                   {SCAN_PERIOD_MS} ms; a steady scan takes longer, so they run back to back: "
              f"{period_lo:.1f} .. {period_hi:.1f} ms ({1000 / period_hi:.0f} .. {1000 / period_lo:.0f} scans/s)")
    print(f"  debounce                        {DEBOUNCE_SCANS} identical scans = "
          f"{DEBOUNCE_SCANS * period_lo:.0f} .. {DEBOUNCE_SCANS * period_hi:.0f} ms")
    print()
    print("reference                         scan period   report after")
    print(f"  bgboard (estimate)              {period_lo:.0f}-{period_hi:.0f} ms     "
          f"{DEBOUNCE_SCANS * period_lo:.0f}-{DEBOUNCE_SCANS * period_hi:.0f} ms")
    print("  Millennium chess board          ~41 ms        2-5 identical scans (82-205 ms)")
    print("  picochess settle timer          -             250 ms after the last change")
    return 0


if __name__ == "__main__":
    sys.exit(main())
