"""The firmware's main loop: scan, classify, debounce, report; dice; LEDs; host commands.

``Controller`` gets a :class:`hal.Hal` (or anything with the same methods) and never
imports ``machine``.  ``run()`` loops until the hal stops running, the serial port closes
or the host asks for the REPL (REBOOT mode 1).
"""

import struct
from array import array

import board
import calibration
import wire
from classify import BLACK, WHITE, Classifier
from crowd import Crowd, settle
from debounce import Debouncer
from dice import Dice
from leds import Leds
from runs import Runs
from scan import Scanner

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython has no typing module: the annotations are only for pyright
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from hal import Hal

FIRMWARE = "bgboard-fw 0.1.0"
SCAN_MS = 10
DEBOUNCE_SCANS = 4
HEARTBEAT_MS = 1000
BUTTON_SCANS = 3
CALIBRATION_SCANS = 8
CALIBRATION_FILE = "calibration.json"

SNAPSHOT_BOOT = 0
SNAPSHOT_REQUESTED = 1
SNAPSHOT_CALIBRATED = 2


class Controller:
    def __init__(self, hal: "Hal") -> None:
        self.hal = hal
        n = board.SENSOR_COUNT  # sensors are scanned, classified and calibrated; slots reported
        self.count = board.SLOT_COUNT
        self.sensors = n
        self.raw = array("H", bytes(2 * n))
        self.scanner = Scanner(
            hal.select, hal.enable, hal.adcs, board.SENSOR_MUX, board.SENSOR_CHANNEL,
            board.SETTLE_US, hal.sleep_us, board.ADC_SAMPLES,
        )
        self.cal_path = hal.flash + CALIBRATION_FILE
        cal, self.cal_status, self.cal_problem = calibration.load(self.cal_path, n)
        self.classifier = Classifier(cal, n)
        self.runs = Runs(board.PER_SLOT, board.SLOT_PLACE, board.SLOT_INDEX)
        self.crowd = Crowd(self.classifier, self.count)
        self.debouncer = Debouncer(self.count, DEBOUNCE_SCANS)
        self.dice = Dice(hal.random_bits, hal.flash)
        self.leds = Leds(board.LED_COUNT, board.HOST_LEDS, board.LED_BRIGHTNESS, hal.write_leds)
        self.encoder = wire.Encoder()
        self.decoder = wire.Decoder()
        self.host_seq = None
        self.rolling = False
        self.button_runs = 0
        self.button_armed = True
        self.scans = 0
        self.last_tick = hal.ticks_ms()
        self.elapsed_ms = 0  # uptime, accumulated so it does not wrap with ticks_ms
        self.stopped = False

    # --- output --------------------------------------------------------------------
    def send(self, data: bytes) -> None:
        self.hal.serial_write(data)

    def uptime(self) -> int:
        """Milliseconds since the controller started (wraps only at 2**32 on the wire)."""
        now = self.hal.ticks_ms()
        self.elapsed_ms += self.hal.ticks_diff(now, self.last_tick)
        self.last_tick = now
        return self.elapsed_ms

    # --- scanning ------------------------------------------------------------------
    def scan(self) -> int:
        """One scan: how many slots settled (``debouncer.settled[:n]``).  Allocates nothing
        (tests/firmware/test_scan_allocation.py): a garbage collection would stall the scan.
        Without the 5 V supply nothing is scanned (the strips are off, their lines high-Z)."""
        if not self.hal.supply():
            return 0
        self.scanner.scan(self.raw)
        self.scans += 1
        classifier = self.classifier
        runs = self.runs
        sensors = classifier.classify_all(self.raw)
        slots = runs.combine(sensors, classifier.changed, classifier.flicker, classifier.n_changed)
        classifier.clear_changed()
        self.crowd.update(slots, runs.changed, runs.n_changed)  # the neighbours' field, from the next scan on
        n = self.debouncer.update(slots, runs.changed, runs.n_changed)
        runs.clear_changed()
        return n

    def boot(self) -> None:
        """HELLO, any calibration error, then a SNAPSHOT once every slot is debounced."""
        self.send(self.encoder.hello(self.count, self.cal_status, FIRMWARE))
        if self.cal_problem:
            self.send(self.encoder.error(wire.CALIBRATION_CORRUPT, 0, 0, self.cal_problem))
        while not self.hal.supply():  # a Pico on USB alone: wait for the 5 V
            if not self.hal.running():
                return
            self.hal.sleep_ms(SCAN_MS)
        self.scanner.scan(self.raw)
        self.debouncer.prime(settle(self.classifier, self.runs, self.crowd, self.raw))
        for _ in range(DEBOUNCE_SCANS):
            self.hal.sleep_ms(SCAN_MS)
            self.scan()
        self.send(self.encoder.snapshot(SNAPSHOT_BOOT, self.debouncer.reported))
        self.leds.set_host(())

    def run(self) -> None:
        """Boot, then scan / report / answer until told to stop."""
        hal = self.hal
        hal.keyboard_interrupt(False)
        try:
            self._loop()
        finally:  # a stop, a closed port or a bug: Ctrl-C works again at the REPL
            hal.keyboard_interrupt(True)

    def _loop(self) -> None:
        hal = self.hal
        self.boot()
        beats = 0
        next_scan = hal.ticks_ms()
        next_beat = hal.ticks_add(next_scan, HEARTBEAT_MS)
        while hal.running() and not self.stopped:
            now = hal.ticks_ms()
            if hal.ticks_diff(now, next_scan) >= 0:
                settled = self.scan()
                if settled:
                    for data in self.encoder.changes(self.debouncer.changes(settled)):
                        self.send(data)
                self.poll_button()
                next_scan = hal.ticks_add(next_scan, SCAN_MS)
                if hal.ticks_diff(now, next_scan) >= 0:  # fell behind: do not race to catch up
                    next_scan = hal.ticks_add(now, SCAN_MS)
            if hal.ticks_diff(now, next_beat) >= 0:
                self.send(self.encoder.heartbeat(self.uptime(), self.scans, self.dice.number, self.rolling))
                beats += 1
                hal.set_status(beats & 1)
                next_beat = hal.ticks_add(next_beat, HEARTBEAT_MS)
            self.uptime()  # keep the uptime counting between heartbeats
            data = hal.serial_read()
            if data is None:
                break
            if data:
                self.receive(data)
            wait = hal.ticks_diff(next_scan, hal.ticks_ms())
            if wait > 0:
                hal.sleep_ms(wait)

    # --- dice ----------------------------------------------------------------------
    def poll_button(self) -> None:
        """Roll once per press held for BUTTON_SCANS scans."""
        if self.hal.button_pressed():
            self.button_runs += 1
            if self.button_runs == BUTTON_SCANS and self.button_armed:
                self.button_armed = False
                self.press()
        else:
            self.button_runs = 0
            self.button_armed = True

    def press(self) -> None:
        if not self.rolling:
            self.send(self.encoder.error(wire.ROLLING_DISABLED, 0, 0, "rolling is off: it is not time to roll"))
            return
        number, d1, d2 = self.dice.roll(self.uptime())
        self.leds.show_dice(d1, d2)
        self.send(self.encoder.roll(number, d1, d2))

    # --- commands ------------------------------------------------------------------
    def receive(self, data: bytes) -> None:
        """Feed bytes from the host; answer bad frames, carry out commands."""
        for item in self.decoder.feed(data):
            if item == wire.BAD_CRC:
                self.send(self.encoder.error(wire.BAD_CHECKSUM, 0, 0, "a command arrived with a bad checksum"))
            elif item == wire.TOO_LONG:
                self.send(self.encoder.error(wire.OVERSIZED, 0, 0, "a command announced more than 512 bytes"))
            elif isinstance(item, tuple):
                self.command(*item)
            if self.stopped:
                return

    def command(self, kind: int, seq: int, payload: bytes) -> None:
        """Carry out one host command and reply (docs/protocol.md)."""
        enc = self.encoder
        expected = self.host_seq
        self.host_seq = (seq + 1) & 0xFFFF
        if expected is not None and seq != expected:
            self.send(enc.error(wire.SEQUENCE_GAP, seq, kind, "commands %d to %d were lost" % (expected, (seq - 1) & 0xFFFF)))
        n = len(payload)
        if kind == wire.SNAPSHOT_REQUEST:
            if n:
                return self.bad(seq, kind, "a SNAPSHOT request has no payload")
            self.send(enc.ack(seq, kind))
            self.send(enc.snapshot(SNAPSHOT_REQUESTED, self.debouncer.reported))
        elif kind == wire.CALIBRATE:
            if n != 1 or payload[0] > 2:
                return self.bad(seq, kind, "CALIBRATE takes one mode byte: 0, 1 or 2")
            self.calibrate(seq, kind, payload[0])
        elif kind == wire.LEDS:
            if n % 4 or n > 4 * board.HOST_LEDS:
                return self.bad(seq, kind, "a LEDS command holds whole groups of 4 bytes, at most 28")
            entries = []
            for i in range(0, n, 4):
                if payload[i] >= board.HOST_LEDS:
                    return self.bad(seq, kind, "LED %d is not a host LED (0 to 27)" % payload[i])
                entries.append((payload[i], payload[i + 1], payload[i + 2], payload[i + 3]))
            self.leds.set_host(entries)
            self.send(enc.ack(seq, kind))
        elif kind == wire.ROLLING:
            if n != 1 or payload[0] > wire.ROLL_NOW:
                return self.bad(seq, kind, "ROLLING takes one byte: 0, 1 or 2")
            if payload[0] == wire.ROLL_NOW:  # roll at once, as a press would; the button stays off
                self.send(enc.ack(seq, kind))
                self.rolling = True
                self.press()
                self.rolling = False
                return
            self.rolling = payload[0] == 1
            self.send(enc.ack(seq, kind))
        elif kind == wire.PING:
            if n != 4:
                return self.bad(seq, kind, "PING takes a 4-byte nonce")
            self.send(enc.pong(seq, struct.unpack("<I", payload)[0]))
        elif kind == wire.REBOOT:
            if n != 1 or payload[0] > 1:
                return self.bad(seq, kind, "REBOOT takes one mode byte: 0 or 1")
            self.send(enc.ack(seq, kind))
            if payload[0] == 0:
                self.hal.reset()
            self.stopped = True
        else:
            self.send(enc.error(wire.UNKNOWN_COMMAND, seq, kind, "command type 0x%02x is unknown" % kind))

    def bad(self, seq: int, kind: int, text: str) -> None:
        self.send(self.encoder.error(wire.BAD_PAYLOAD, seq, kind, text))

    # --- calibration ---------------------------------------------------------------
    def average(self) -> array:
        """Every sensor's reading averaged over CALIBRATION_SCANS scans."""
        total = array("I", bytes(4 * self.sensors))
        for _ in range(CALIBRATION_SCANS):
            self.hal.sleep_ms(SCAN_MS)
            self.scanner.scan(self.raw)
            for s in range(self.sensors):
                total[s] += self.raw[s]
        for s in range(self.sensors):
            total[s] = (total[s] + CALIBRATION_SCANS // 2) // CALIBRATION_SCANS
        return total

    def calibrate(self, seq: int, kind: int, mode: int) -> None:
        """CALIBRATE ``mode`` 0 empty, 1 checkers, 2 defaults; saved to flash."""
        enc = self.encoder
        old = self.classifier.cal
        per = board.PER_SLOT
        if mode == 2:
            cal = calibration.defaults(self.sensors)
        else:
            mean = self.average()
            if mode == 0:
                far = [s for s in range(self.sensors) if abs(mean[s] - calibration.EMPTY_COUNTS) > calibration.SWING // 2]
                if far:
                    where = "slot %d" % far[0] if per == 1 else "slot %d (its sensor %d)" % (far[0] // per, far[0] % per)
                    text = where + " does not read empty: clear the board before calibrating"
                    return self.send(enc.error(wire.CALIBRATION_REFUSED, seq, kind, text))
                cal = calibration.Calibration(array("H", mean), array("H", old.swing), old.white_sign, old.stack_gain_milli)
            else:
                # a sensor reading one checker records its swing; with two sensors per slot
                # only one lit alone along its place (the checker lies over it: put checkers on
                # slot centres for the slots' sensors, between slots for the others)
                swing = array("H", old.swing)
                states = self.classifier.states
                place_of = self.runs.place_of
                for s in range(self.sensors):
                    if not (states[s] >> 2 == 1 and states[s] & 3 in (WHITE, BLACK)):
                        continue
                    if per > 1 and any(0 <= t < self.sensors and place_of[t] == place_of[s] and states[t] & 3
                                       for t in (s - 1, s + 1)):
                        continue
                    # less the field of the checkers around it (crowd.py)
                    around = old.white_sign * self.classifier.crowd[s] * old.swing[s] // board.CROWD_SCALE
                    swing[s] = min(calibration.SWING_MAX, max(calibration.SWING_MIN, abs(mean[s] - old.empty[s] - around)))
                cal = calibration.Calibration(array("H", old.empty), swing, old.white_sign, old.stack_gain_milli)
        self.classifier.set_calibration(cal)
        self.send(enc.ack(seq, kind))
        if not calibration.save(self.cal_path, cal):
            self.send(enc.error(wire.CALIBRATION_UNSAVED, seq, kind, "the calibration could not be saved to flash"))
        for _ in range(DEBOUNCE_SCANS):
            self.hal.sleep_ms(SCAN_MS)
            self.scan()
        self.send(enc.snapshot(SNAPSHOT_CALIBRATED, self.debouncer.reported))
