"""Scan every sensing slot through the analog multiplexers.

A :class:`Scanner` is given its pins, ADCs and a ``sleep_us`` function; nothing here
imports ``machine``.  Multiplexer ``m`` feeds ADC ``m // banks`` and is switched on by
enable line ``m % banks`` (active low), so one bank puts one multiplexer on every ADC; the
channel is chosen by the 4 shared select lines, stepped in Gray-code order so only one
select line changes per step.  After each change the scanner waits ``settle_us`` and then
reads every ADC that has a slot on that channel.
"""

GRAY = (0, 1, 3, 2, 6, 7, 5, 4, 12, 13, 15, 14, 10, 11, 9, 8)


class Scanner:
    def __init__(
        self, select: list, enable: list, adcs: list, slot_mux: bytes, slot_channel: bytes, settle_us: int, sleep_us
    ) -> None:
        self.select = select
        self.enable = enable
        self.adcs = adcs
        self.settle_us = settle_us
        self.sleep_us = sleep_us
        banks = len(enable)
        # plan: per bank, a list of (channel, [(adc, slot), ...]) in Gray order
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
        """Read every slot into ``out`` (a list indexed by slot number, ADC counts 0..65535)."""
        adcs = self.adcs
        settle = self.settle_us
        sleep_us = self.sleep_us
        for bank in range(len(self.plan)):
            enable = self.enable[bank]
            enable.value(0)
            for channel, targets in self.plan[bank]:
                if channel != self.channel:
                    self._select(channel)
                sleep_us(settle)
                for adc, slot in targets:
                    out[slot] = adcs[adc].read_u16()
            enable.value(1)
        return out
