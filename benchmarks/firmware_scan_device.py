"""Time one full scan of the firmware: runs on a real Pico (``mpremote run
benchmarks/firmware_scan_device.py`` after ``bgboard firmware deploy``) and under the unix
port with the machine shim (benchmarks/firmware_scan.py drives that).  Prints ``key value``
lines."""

import time

import board
import calibration
from classify import Classifier
from crowd import Crowd
from debounce import Debouncer
from hal import Hal
from runs import Runs
from scan import Scanner

N = 200
hal = Hal()
n = board.SENSOR_COUNT
scanner = Scanner(hal.select, hal.enable, hal.adcs, board.SENSOR_MUX, board.SENSOR_CHANNEL,
                  board.SETTLE_US, hal.sleep_us, board.ADC_SAMPLES)
raw = [0] * n
classifier = Classifier(calibration.defaults(n), n)
runs = Runs(board.PER_SLOT, board.SLOT_PLACE, board.SLOT_INDEX)
debouncer = Debouncer(board.SLOT_COUNT, 4)
crowd = Crowd(classifier, board.SLOT_COUNT)

try:
    import machine

    sim = machine.SIM  # only under the unix port
except AttributeError:
    sim = None


def counters():
    if sim is None:
        return (0, 0, 0)
    return (sim.pin_writes, sim.adc_reads, sim.settle_us)


before = counters()
t0 = time.ticks_us()
for _ in range(N):
    scanner.scan(raw)
t1 = time.ticks_us()
after = counters()
print("slots", board.SLOT_COUNT)
print("sensors", n)
print("scan_us", time.ticks_diff(t1, t0) / N)
print("pin_writes_per_scan", (after[0] - before[0]) / N)
print("adc_reads_per_scan", (after[1] - before[1]) / N)
print("settle_us_per_scan", (after[2] - before[2]) / N)
print("settle_waits_per_scan", (after[2] - before[2]) / N / board.SETTLE_US)

stable = list(raw)
debouncer.prime(runs.combine(classifier.classify_all(stable)))
classifier.clear_changed()
runs.clear_changed()
white = [41768] * n
empty = [32768] * n


def best(changing):
    """The fastest of 7 runs of N scans (the machine may be busy with other work)."""
    times = []
    for _ in range(7):
        t0 = time.ticks_us()
        for i in range(N):
            # as the controller's scan: classify, runs, the crowd's field, debounce
            frame = (white if i % 8 < 4 else empty) if changing else stable
            sensors = classifier.classify_all(frame)
            slots = runs.combine(sensors, classifier.changed, classifier.flicker, classifier.n_changed)
            classifier.clear_changed()
            crowd.update(slots, runs.changed, runs.n_changed)
            debouncer.update(slots, runs.changed, runs.n_changed)
            runs.clear_changed()
        times.append(time.ticks_diff(time.ticks_us(), t0) / N)
    return min(times)


print("classify_debounce_stable_us", best(False))
print("classify_debounce_all_changing_us", best(True))
