"""The Pico's ``machine`` module for the MicroPython unix port: a virtual board.

Put ``firmware/sim`` first on MICROPYPATH and this file shadows the unix port's
``machine``.  It provides what ``firmware/hal.py`` uses — ``Pin``, ``ADC``, ``mem32``
(only the ROSC random bit), ``reset`` — and ``SIM``, the simulation itself: the virtual
sensor field fed through the channel named by BGBOARD_SIM_FIELD, the clock (real, fast or
virtual), injected serial bytes, the flash directory, LED capture and operation counters.
The contract is in firmware/sim/README.md.
"""

import math
import os
import random
import select
import sys
import time

import board

ROSC_RANDOMBIT = 0x4006001C
EMPTY = 32768
NOISE_TABLE = 4096  # Gaussian deviates made once per noise setting; each conversion picks one


def _noise_table(sigma, seed):
    """NOISE_TABLE Gaussian deviates (Box-Muller from a generator seeded with ``seed``),
    shifted and scaled so that their mean is 0 and their standard deviation ``sigma``
    exactly, rounded to whole counts."""
    random.seed(seed)
    raw = []
    while len(raw) < NOISE_TABLE:
        r = math.sqrt(-2.0 * math.log(1.0 - random.random()))
        a = 2.0 * math.pi * random.random()
        raw.append(r * math.cos(a))
        raw.append(r * math.sin(a))
    mean = sum(raw) / len(raw)
    sd = math.sqrt(sum((d - mean) * (d - mean) for d in raw) / len(raw))
    return [int(round((d - mean) * sigma / sd)) for d in raw]


def _env(name, default):
    value = os.getenv(name)
    return default if value is None or value == "" else value


def _clock_mode(text):
    """``(virtual, factor)`` of a BGBOARD_SIM_CLOCK value: real, virtual or fast:K."""
    if text == "virtual":
        return True, 1
    if text.startswith("fast:"):
        try:
            factor = int(text[5:])
        except ValueError:
            factor = 0
        if factor >= 1:
            return False, factor
        sys.stderr.write("sim: BGBOARD_SIM_CLOCK=%s: K must be a whole number >= 1; real clock\n" % text)
    return False, 1


class Sim:
    def __init__(self):
        self.virtual, self.factor = _clock_mode(_env("BGBOARD_SIM_CLOCK", "real"))
        self.us = 0
        self.start = time.ticks_ms()
        self._real_us = time.ticks_us()  # fast clock: real microseconds seen so far, x factor
        self.running = True
        self.field = [[EMPTY] * board.MUX_CHANNELS for _ in range(board.MUX_COUNT)]
        self.pressed = _env("BGBOARD_SIM_BUTTON_AT_BOOT", "0") == "1"
        self.supply = 0 if _env("BGBOARD_SIM_SUPPLY", "1") == "0" else 1  # the 5 V supply present
        self.injected = bytearray()
        self.pins = {}
        self.pin_writes = 0
        self.adc_reads = 0
        self.settle_us = 0
        self.led_writes = 0
        self._random = b""
        self._random_at = 0
        self._dice_bits = []  # ROSC bits queued by a "dice D1 D2" line
        self.mux_pins = set(board.MUX_SELECT) | set(board.MUX_ENABLE)
        # the multiplexers' lines as the ADCs see them, kept up to date by every write to a
        # select or enable pin (Pin.value -> mux_set) rather than worked out again at the next
        # read: a scan changes them 100 times, and that made a scan take 3.7 ms here instead
        # of the 10 ms / K the fast clock gives it
        self.mux_channel = (1 << len(board.MUX_SELECT)) - 1  # a select pin not made yet reads 1
        self.mux_enabled = 0  # bit b set: enable line b is low, its multiplexers drive the ADCs
        self._banks = len(board.MUX_ENABLE)
        self._bank_of = {1 << b: b for b in range(self._banks)}
        self._wait_until = None
        self._partial = ""
        # ADC noise: every conversion draws its own deviate (a "noise" line or BGBOARD_SIM_NOISE)
        self.noise = 0.0
        self._deviates = None
        self._draw = 1
        noise = _env("BGBOARD_SIM_NOISE", "").split()
        if noise:
            try:
                self.set_noise(float(noise[0]), int(noise[1]) if len(noise) > 1 else 1)
            except ValueError:
                sys.stderr.write("sim: BGBOARD_SIM_NOISE=%s: SIGMA [SEED] expected; no noise\n" % " ".join(noise))
        flash = _env("BGBOARD_SIM_FLASH", "/tmp/bgboard-sim-flash")
        try:
            os.mkdir(flash)
        except OSError:
            pass
        self.flash_dir = flash.rstrip("/") + "/"
        leds = _env("BGBOARD_SIM_LEDS", "")
        self.leds = open(leds, "a") if leds else None
        path = _env("BGBOARD_SIM_FIELD", "")
        self.channel = open(path) if path else None
        self.poller = None
        if self.channel is not None and not self.virtual:
            self.poller = select.poll()
            self.poller.register(self.channel, select.POLLIN)
        self.apply_due()

    # --- clock ---------------------------------------------------------------------
    def _advance(self):
        """Fast clock: move the simulated clock by the real time since the last look x K."""
        now = time.ticks_us()
        self.us += time.ticks_diff(now, self._real_us) * self.factor
        self._real_us = now

    def now_ms(self):
        if self.virtual:
            return self.us // 1000
        if self.factor > 1:
            self._advance()
            return self.us // 1000
        return time.ticks_diff(time.ticks_ms(), self.start)

    def ticks_ms(self):
        if self.virtual or self.factor > 1:
            return self.now_ms() & 0x3FFFFFFF
        return time.ticks_ms()

    def sleep_ms(self, ms):
        if self.virtual:
            self.us += ms * 1000
        elif self.factor > 1:
            time.sleep_us(ms * 1000 // self.factor)
        else:
            time.sleep_ms(ms)
        self.apply_due()

    def sleep_us(self, us):
        self.settle_us += us
        if self.virtual:
            self.us += us
        elif self.factor > 1:
            pass  # settling is not simulated; a sleep this short costs more than it lasts
        else:
            time.sleep_us(us)

    # --- the field channel ---------------------------------------------------------
    def apply_due(self):
        """Apply every field line whose time has come."""
        channel = self.channel
        if channel is None:
            return
        while self.running:
            if self._wait_until is not None:
                if self.now_ms() < self._wait_until:
                    return
                self._wait_until = None
            if self.poller is not None and not self.poller.poll(0):
                return
            line = channel.readline()
            if not line:
                if self.virtual:
                    self.running = False
                return
            if not line.endswith("\n") and not self.virtual:
                self._partial += line
                return
            line = self._partial + line
            self._partial = ""
            self.apply(line.strip())

    def apply(self, line):
        if not line or line.startswith("#"):
            return
        parts = line.split()
        word = parts[0]
        try:
            if word.startswith("@"):
                self._wait_until = int(word[1:])
            elif word in ("slot", "sensor"):  # the sensor under a slot's centre, or any sensor
                n = int(parts[1])
                s = n * board.PER_SLOT if word == "slot" else n
                if not 0 <= s < board.SENSOR_COUNT:
                    raise ValueError
                self.field[board.SENSOR_MUX[s]][board.SENSOR_CHANNEL[s]] = self._counts(parts[2])
            elif word == "slots":  # every sensor, or every slot's centre sensor (the others empty)
                values = parts[1:]
                per = board.PER_SLOT
                if len(values) == board.SENSOR_COUNT:
                    per = 1
                elif len(values) != board.SLOT_COUNT:
                    raise ValueError
                for s in range(board.SENSOR_COUNT):
                    value = self._counts(values[s // per]) if s % per == 0 else EMPTY
                    self.field[board.SENSOR_MUX[s]][board.SENSOR_CHANNEL[s]] = value
            elif word == "mux":
                self.field[int(parts[1])][int(parts[2])] = self._counts(parts[3])
            elif word == "button":
                if parts[1] not in ("down", "up"):
                    raise ValueError
                self.pressed = parts[1] == "down"
            elif word == "dice":
                self.force_dice(int(parts[1]), int(parts[2]))
            elif word == "host":
                self.injected += bytes.fromhex("".join(parts[1:]))
            elif word == "supply":  # the 5 V supply switched on or off
                if parts[1] not in ("on", "off"):
                    raise ValueError
                self.supply = 1 if parts[1] == "on" else 0
            elif word == "noise":  # every ADC conversion from now on: Gaussian noise of SIGMA counts
                self.set_noise(float(parts[1]), int(parts[2]) if len(parts) > 2 else 1)
            elif word == "stop":
                self.running = False
            else:
                raise ValueError
        except (ValueError, IndexError):
            sys.stderr.write("sim: ignored field line: %s\n" % line)

    @staticmethod
    def _counts(text):
        value = int(text)
        if not 0 <= value <= 65535:
            raise ValueError
        return value

    # --- serial, LEDs, random --------------------------------------------------------
    def take_injected(self):
        if not self.virtual:  # a loop that never sleeps (a slow scan) still reads the field
            self.apply_due()
        if not self.injected:
            return b""
        data = bytes(self.injected)
        self.injected = bytearray()
        return data

    def record_leds(self, pixels):
        self.led_writes += 1
        if self.leds is not None:
            self.leds.write(
                "%d %s\n" % (self.now_ms(), " ".join("%02x%02x%02x" % p for p in pixels))
            )
            self.leds.flush()

    def force_dice(self, d1, d2):
        """The next roll shows ``d1 d2``: queue the ROSC bits that the firmware's own
        whitening and rejection sampler turn into these faces (a pair ``b, not b`` is one
        whitened bit ``b``; three bits, high first, make a die's value - 1).  A new line
        replaces bits still queued."""
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise ValueError
        bits = []
        for face in (d1, d2):
            for shift in (2, 1, 0):
                bit = ((face - 1) >> shift) & 1
                bits.append(bit)
                bits.append(1 - bit)
        self._dice_bits = bits

    def random_bit(self):
        if self._dice_bits:
            return self._dice_bits.pop(0)
        if self._random_at >= len(self._random):
            self._random = os.urandom(256)
            self._random_at = 0
        byte = self._random[self._random_at]
        self._random_at += 1
        return byte & 1

    # --- the multiplexed ADC -------------------------------------------------------
    def set_noise(self, sigma, seed=1):
        """From now on every conversion adds its own Gaussian deviate of ``sigma`` counts
        (0: none), from a table made with ``seed`` and picked by a generator seeded with it
        too, so a run is a function of its seed; the firmware's mean of ADC_SAMPLES
        conversions then has sigma / sqrt(ADC_SAMPLES)."""
        if not 0 <= sigma <= 20000:
            raise ValueError
        self.noise = sigma
        self._deviates = _noise_table(sigma, seed) if sigma else None
        self._draw = (seed * 2654435761 + 1) & 0x7FFFFFFF

    def noisy(self, value):
        """``value`` as one conversion reads it: plus the next deviate, within 0..65535."""
        x = self._draw = (self._draw * 1103515245 + 12345) & 0x7FFFFFFF
        value += self._deviates[x >> 19]  # the generator's high 12 bits: NOISE_TABLE entries
        return 0 if value < 0 else 65535 if value > 65535 else value

    def mux_set(self, pin):
        """``pin`` (a multiplexer select or enable line) was made or written: its level now
        counts for the ADCs, unless a newer Pin object stands for the same line."""
        if self.pins.get(pin.id) is not pin:
            return
        mask = pin.select_mask
        if mask:
            if pin.level:
                self.mux_channel |= mask
            else:
                self.mux_channel &= ~mask
        elif pin.level:
            self.mux_enabled &= ~pin.enable_mask
        else:
            self.mux_enabled |= pin.enable_mask

    def adc_value(self, adc_pin):
        return self.adc_read(board.MUX_ADC.index(adc_pin))

    def adc_read(self, adc):
        """The reading of ADC number ``adc`` (board.MUX_ADC's order): the field under the
        enabled multiplexer's selected channel, the mean when several drive the line."""
        self.adc_reads += 1
        enabled = self.mux_enabled
        if not enabled:
            return 0  # nothing drives the line: the pull-down wins
        banks = self._banks
        channel = self.mux_channel
        if not enabled & (enabled - 1):  # one bank (the scan's case)
            value = self.field[adc * banks + self._bank_of[enabled]][channel]
        else:
            values = [self.field[adc * banks + b][channel] for b in range(banks) if enabled >> b & 1]
            value = sum(values) // len(values)
        return self.noisy(value) if self._deviates is not None else value

    def level(self, pin_id):
        pin = self.pins.get(pin_id)
        return pin.level if pin is not None else 1


SIM = Sim()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=None, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.level = 1 if value else 0
        self.mux = id in SIM.mux_pins
        self.select_mask = 1 << board.MUX_SELECT.index(id) if id in board.MUX_SELECT else 0
        self.enable_mask = 1 << board.MUX_ENABLE.index(id) if id in board.MUX_ENABLE else 0
        SIM.pins[id] = self
        if self.mux:
            SIM.mux_set(self)

    def init(self, mode=-1, pull=None, value=None):
        """MicroPython's Pin.init: a new mode, pull and level for the same pin; as the rp2
        port does, the pull is set on every call (none when not given)."""
        self.pull = pull
        self.mode = mode
        if value is not None:
            self.level = 1 if value else 0
        elif mode != Pin.OUT:
            self.level = 1 if self.pull == Pin.PULL_UP else 0
        if self.mux:
            SIM.mux_set(self)

    def value(self, v=None):
        if v is None:
            if self.id == board.DICE_BUTTON:
                return 0 if SIM.pressed else 1
            if self.id == board.SUPPLY_SENSE:
                return SIM.supply
            return self.level
        sim = SIM
        sim.pin_writes += 1
        level = self.level = 1 if v else 0
        if self.mux and sim.pins.get(self.id) is self:  # Sim.mux_set, inlined: 140 writes a scan
            mask = self.select_mask
            if mask:
                if level:
                    sim.mux_channel |= mask
                else:
                    sim.mux_channel &= ~mask
            elif level:
                sim.mux_enabled &= ~self.enable_mask
            else:
                sim.mux_enabled |= self.enable_mask
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class ADC:
    def __init__(self, pin):
        self.pin = pin.id if isinstance(pin, Pin) else pin
        self._adc = board.MUX_ADC.index(self.pin) if self.pin in board.MUX_ADC else None
        self._first = self._adc * len(board.MUX_ENABLE) if self._adc is not None else 0  # its bank 0 multiplexer

    def read_u16(self):
        adc = self._adc
        if adc is None:
            return SIM.adc_value(self.pin)  # not a multiplexers' ADC: as before, refused there
        sim = SIM
        enabled = sim.mux_enabled
        if enabled and not enabled & (enabled - 1):  # one bank, the scan's case (Sim.adc_read, inlined)
            sim.adc_reads += 1
            value = sim.field[self._first + sim._bank_of[enabled]][sim.mux_channel]
            return value if sim._deviates is None else sim.noisy(value)
        return sim.adc_read(adc)


class _Mem32:
    def __getitem__(self, address):
        if address == ROSC_RANDOMBIT:
            return SIM.random_bit()
        raise ValueError("the simulated Pico has no register at 0x%08x" % address)


mem32 = _Mem32()


def reset():
    if hasattr(sys.stdout.buffer, "flush"):
        sys.stdout.buffer.flush()
    sys.exit(75)


def unique_id():
    return b"bgboard-sim"
