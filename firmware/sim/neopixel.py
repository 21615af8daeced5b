"""``neopixel`` for the unix port: the strip's writes go to ``machine.SIM.record_leds``."""

import machine


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        pin.init(pin.OUT)  # as MicroPython's neopixel does
        self.n = n
        self.pixels = [(0, 0, 0)] * n

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        self.pixels[index] = value

    def __getitem__(self, index):
        return self.pixels[index]

    def fill(self, value):
        self.pixels = [value] * self.n

    def write(self):
        machine.SIM.record_leds(self.pixels)
