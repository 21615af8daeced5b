"""The scan averages several conversions a sensor (firmware/scan.py, board.ADC_SAMPLES), under
the real MicroPython unix port: the mean is exact, the counts per scan are what the timing
estimates use, and with the machine shim's noise drawn per conversion (firmware/sim, the
``noise`` line) the readings' spread falls to 1/sqrt(N) of one conversion's.

The spread is measured with fixed seeds over 276 sensors x 60 scans (16,560 readings): the
standard error of a measured standard deviation is then 1/sqrt(2 x 16,560) = 0.55 %, so the
5 % tolerance is nine standard errors wide, and the other hypotheses (no averaging: the full
sigma; noise drawn once per scan or per line: the full sigma as well) lie 100 % away.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.hardware.physics import ADC_SAMPLES, SENSORS, reading_noise_mt
from fwrun import _BOARD, SWING, run_firmware, run_script  # noqa: F401  (run_firmware: a fixture)

SENSORS_ON_BOARD = _BOARD["SENSOR_COUNT"]

SPREAD = r'''
import machine
import board
from hal import Hal
from scan import Scanner

hal = Hal()
n = board.SENSOR_COUNT
raw = [0] * n
sim = machine.SIM
for samples in (1, 4, board.ADC_SAMPLES):
    sim.set_noise(SIGMA, 11)
    scanner = Scanner(hal.select, hal.enable, hal.adcs, board.SENSOR_MUX, board.SENSOR_CHANNEL,
                      board.SETTLE_US, hal.sleep_us, samples)
    s = s2 = k = 0
    for _ in range(60):
        scanner.scan(raw)
        for v in raw:
            d = v - 32768
            s += d
            s2 += d * d
            k += 1
    mean = s / k
    print(samples, k, mean, (s2 / k - mean * mean) ** 0.5)
'''

SIGMA = 400


def test_the_mean_of_four_conversions_has_half_the_noise(tmp_path: Path) -> None:
    done = run_script(SPREAD.replace("SIGMA", str(SIGMA)), tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.strip().splitlines()]
    spread = {int(r[0]): (int(r[1]), float(r[2]), float(r[3])) for r in rows}
    for samples in (1, 4, ADC_SAMPLES):
        k, mean, sd = spread[samples]
        assert k == 60 * SENSORS_ON_BOARD
        assert abs(sd / (SIGMA / samples ** 0.5) - 1) < 0.05, (samples, sd)
        assert abs(mean) < 6 * SIGMA / (samples * k) ** 0.5 + 0.5, (samples, mean)  # unbiased (rounded, not cut)


EXACT = r'''
import board
from scan import Scanner


class Pin:
    def value(self, v=None):
        return 0


class Adc:
    """Reads VALUES in turn, one conversion at a time."""
    def __init__(self, values):
        self.values = values
        self.i = 0

    def read_u16(self):
        v = self.values[self.i % len(self.values)]
        self.i += 1
        return v


for samples, values in ((1, (7,)), (4, (10, 11, 11, 11)), (3, (1, 2, 2)), (2, (65535, 65535)), (4, (0, 0, 0, 1))):
    adcs = [Adc(values) for _ in board.MUX_ADC]
    scanner = Scanner([Pin() for _ in board.MUX_SELECT], [Pin() for _ in board.MUX_ENABLE], adcs,
                      board.SENSOR_MUX, board.SENSOR_CHANNEL, board.SETTLE_US, lambda us: None, samples)
    out = [None] * board.SENSOR_COUNT
    scanner.scan(out)
    print(samples, sorted(set(out)), sum(a.i for a in adcs))
'''


def test_the_reading_is_the_rounded_mean_of_its_conversions(tmp_path: Path) -> None:
    done = run_script(EXACT, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = done.stdout.strip().splitlines()
    n = SENSORS_ON_BOARD
    # 43/4 = 10.75 -> 11; 5/3 = 1.67 -> 2; the top of the range stays 65535; 1/4 -> 0
    assert rows == [f"1 [7] {n}", f"4 [11] {4 * n}", f"3 [2] {3 * n}", f"2 [65535] {2 * n}", f"4 [0] {4 * n}"]


COUNTS = r'''
import machine
from controller import Controller
from hal import Hal

controller = Controller(Hal())
sim = machine.SIM
controller.scan()  # the first scan starts on channel 0: one select write fewer
before = (sim.adc_reads, sim.settle_us, sim.pin_writes)
controller.scan()
print(sim.adc_reads - before[0], sim.settle_us - before[1], sim.pin_writes - before[2])
'''


def test_the_firmware_reads_every_sensor_adc_samples_times_a_scan(tmp_path: Path) -> None:
    """The controller builds its scanner with board.ADC_SAMPLES: four conversions a sensor,
    the settle waits and pin writes as before (100 waits of 10 us, 140 writes)."""
    done = run_script(COUNTS, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    reads, settle_us, writes = (int(w) for w in done.stdout.split())
    assert _BOARD["ADC_SAMPLES"] == ADC_SAMPLES == 4
    assert reads == ADC_SAMPLES * SENSORS_ON_BOARD
    assert settle_us == 100 * _BOARD["SETTLE_US"] and writes == 140


def test_a_noise_line_reaches_the_firmware_and_a_still_board_stays_still(run_firmware) -> None:
    """Per-conversion noise of 0.22 of a checker (1,500 counts on the 28 mm disc, 612 on the
    array; the mean of four: 0.11) on an empty board: the firmware reports nothing.  Four times
    as much (a mean of 0.44 of a checker) does put sensors past half a swing for four scans:
    the line does reach the ADC."""
    from bgboard.link import messages as m

    sigma = round(0.22 * SWING)
    quiet = run_firmware([f"noise {sigma} 3", "@2000", "stop"])
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.problems == [] and "ignored" not in quiet.stderr
    assert quiet.of(m.Changes) == []
    loud = run_firmware([f"noise {4 * sigma} 3", "@2000", "stop"])
    assert loud.returncode == 0, loud.stderr
    assert loud.of(m.Changes) != []


def test_the_reading_noise_is_the_allowance_over_root_n() -> None:
    sensor = SENSORS["DRV5055A1"]
    assert reading_noise_mt(sensor) == pytest.approx(sensor.noise_mt / 2)
    assert reading_noise_mt(sensor, 1) == sensor.noise_mt
    assert reading_noise_mt(sensor, 16) == pytest.approx(sensor.noise_mt / 4)
