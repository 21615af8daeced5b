"""Scan every sensing slot through the analog multiplexers.

A :class:`Scanner` is given its pins, ADCs and a ``sleep_us`` function; nothing here
imports ``machine``.  Multiplexer ``m`` feeds ADC ``m // banks`` and is switched on by
enable line ``m % banks`` (active low), so one bank puts one multiplexer on every ADC; the
channel is chosen by the 4 shared select lines, stepped in Gray-code order so only one
select line changes per step.  After each change the scanner waits ``settle_us`` and then
reads every ADC that has a slot on that channel ``samples`` times and keeps the rounded
mean (board.ADC_SAMPLES).  The samples of a step go round the ADCs (ADC0, ADC1, ADC2,
ADC0, ...), so a sensor's samples lie two or three conversions apart (16-24 us on the Pico):
the ADC's noise is independent from one conversion to the next and the DRV5055's stays
alike only about 8 us (its 20 kHz bandwidth), so the mean of N has about 1/sqrt(N) of one
conversion's noise (bgboard.hardware.physics.reading_noise_mt; firmware/README.md,
"Averaging the ADC").
"""

GRAY = (0, 1, 3, 2, 6, 7, 5, 4, 12, 13, 15, 14, 10, 11, 9, 8)


class Scanner:
    def __init__(
        self, select: list, enable: list, adcs: list, slot_mux: bytes, slot_channel: bytes, settle_us: int, sleep_us,
        samples: int = 1,
    ) -> None:
        if samples < 1:
            raise ValueError("samples must be 1 or more")
        self.select = select
        self.enable = enable
        self.adcs = adcs
        self.settle_us = settle_us
        self.sleep_us = sleep_us
        self.samples = samples
        # the mean of N: a shift when N is a power of two (rounded: + half first), else //
        self.shift = -1
        if samples & (samples - 1) == 0:
            self.shift = 0
            while 1 << self.shift < samples:
                self.shift += 1
        # one sum per ADC, made here: the scan itself allocates nothing
        self.sums = [0] * len(adcs)
        banks = len(enable)
        # every ADC's read_u16, bound once here: the scan calls them without looking them up
        self.reads = [adc.read_u16 for adc in adcs]
        # plan: per bank, a list of (channel, ((adc, slot), ...)) in Gray order
        where = {}
        for slot in range(len(slot_mux)):
            mux = slot_mux[slot]
            key = (mux % banks, slot_channel[slot])
            where.setdefault(key, []).append((mux // banks, slot))
        self.plan = []
        for bank in range(banks):
            steps = []
            for channel in GRAY:
                targets = where.get((bank, channel))
                if targets:
                    steps.append((channel, tuple(targets)))
            self.plan.append(steps)
        self.channel = -1
        for pin in select:
            pin.value(0)
        self.channel = 0

    def _select(self, channel: int) -> None:
        changed = channel ^ self.channel
        bit = 0
        while changed:
            if changed & 1:
                self.select[bit].value((channel >> bit) & 1)
            changed >>= 1
            bit += 1
        self.channel = channel

    def scan(self, out):
        """Read every slot into ``out`` (indexed by slot number, ADC counts 0..65535: the
        mean of ``samples`` conversions, rounded)."""
        settle = self.settle_us
        sleep_us = self.sleep_us
        reads = self.reads
        more = self.samples - 1
        sums = self.sums
        shift = self.shift
        half = (1 << shift) >> 1 if shift > 0 else self.samples >> 1
        n = self.samples
        for bank in range(len(self.plan)):
            enable = self.enable[bank]
            enable.value(0)
            for channel, targets in self.plan[bank]:
                if channel != self.channel:
                    self._select(channel)
                sleep_us(settle)
                if not more:
                    for adc, slot in targets:
                        out[slot] = reads[adc]()
                    continue
                for adc, slot in targets:
                    sums[adc] = reads[adc]()
                for _ in range(more):
                    for adc, slot in targets:
                        sums[adc] += reads[adc]()
                if shift >= 0:
                    for adc, slot in targets:
                        out[slot] = (sums[adc] + half) >> shift
                else:
                    for adc, slot in targets:
                        out[slot] = (sums[adc] + half) // n
            enable.value(1)
        return out
