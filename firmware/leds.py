"""The WS2812 strip: 28 host LEDs (under points 1..24, the bars, the trays) then two dice
displays of 7 pips each.  The host sets its LEDs; the firmware owns the dice pips.
Every channel is scaled to ``brightness``/255 to keep within the power budget."""

# pips: 0 top-left, 1 top-right, 2 middle-left, 3 centre, 4 middle-right, 5 bottom-left, 6 bottom-right
FACES = (0, 0b0001000, 0b1000001, 0b1001001, 0b1100011, 0b1101011, 0b1110111)
PIP = (255, 255, 255)


class Leds:
    def __init__(self, count: int, host: int, brightness: int, write) -> None:
        self.count = count
        self.host = host
        self.brightness = brightness
        self.write = write
        self.pixels = [(0, 0, 0)] * count

    def set_host(self, entries) -> None:
        """Light exactly ``entries`` ``[(index, r, g, b), ...]`` among the host LEDs."""
        for i in range(self.host):
            self.pixels[i] = (0, 0, 0)
        for index, r, g, b in entries:
            self.pixels[index] = self._scale(r, g, b)
        self.write(self.pixels)

    def show_dice(self, d1: int, d2: int) -> None:
        """Show the pips of ``d1`` and ``d2`` on the two dice displays."""
        for n, face in enumerate((d1, d2)):
            mask = FACES[face]
            base = self.host + 7 * n
            for pip in range(7):
                self.pixels[base + pip] = self._scale(*PIP) if mask >> (6 - pip) & 1 else (0, 0, 0)
        self.write(self.pixels)

    def _scale(self, r: int, g: int, b: int) -> tuple:
        k = self.brightness
        return (r * k // 255, g * k // 255, b * k // 255)
