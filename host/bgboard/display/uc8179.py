"""Waveshare 7.5" V2 (800×480, UC8179 controller), driven directly like the SSD1680 panels.

Same wiring and the same wire helpers as :mod:`bgboard.display.waveshare` (DC low =
command, reset pulse, BUSY polled with a timeout), but the UC8179 command set, and BUSY
is **low** while the chip works.  Sequence (UC8179 datasheet; Waveshare epd7in5_V2 with
the waveforms from the panel's OTP):

* wake + init: reset pulse, ``0x01`` power setting ``07 07 3F 3F``, ``0x06`` booster
  soft start ``17 17 28 17``, ``0x04`` power on, wait BUSY, ``0x00`` panel setting
  ``0x1F`` (black/white, OTP LUT), ``0x61`` resolution ``03 20 01 E0`` (800×480),
  ``0x15`` dual SPI off, ``0x50`` VCOM and data interval ``10 07``, ``0x60`` TCON ``22``;
* full refresh: previous frame to ``0x10`` (old data), new frame to ``0x13`` (new data),
  ``0x12`` display refresh, wait BUSY;
* partial refresh: init, ``0x50 A9 07``, ``0xE0 02`` + ``0xE5 6E`` (fast partial
  waveform), ``0x91`` partial in, ``0x90`` window (the whole panel), old frame to
  ``0x10``, new frame to ``0x13``, ``0x12``, wait BUSY, ``0x92`` partial out;
* sleep: ``0x02`` power off, wait BUSY, ``0x07 A5`` deep sleep.

Frame bytes are the inverse of Pillow's 1-bit data (the chip takes 1 = black).
"""

from __future__ import annotations

from PIL import Image

from bgboard.display.panel import PanelError, check_frame
from bgboard.hardware import DisplayPins

from bgboard.display.waveshare import Geometry, WaveshareSSD1680, open_waveshare

PANEL_SETTING = 0x00
POWER_SETTING = 0x01
POWER_OFF = 0x02
POWER_ON = 0x04
BOOSTER = 0x06
DEEP_SLEEP = 0x07
OLD_DATA = 0x10
REFRESH = 0x12
NEW_DATA = 0x13
DUAL_SPI = 0x15
VCOM_INTERVAL = 0x50
TCON = 0x60
RESOLUTION = 0x61
PARTIAL_WINDOW = 0x90
PARTIAL_IN = 0x91
PARTIAL_OUT = 0x92
CASCADE = 0xE0
FORCE_TEMP = 0xE5

GEOMETRY_7IN5 = {"waveshare-7in5": Geometry(sources=800, gates=480, rotate=False)}


def uc8179_bytes(image: Image.Image) -> bytes:
    """The chip's frame: Pillow 1-bit bytes inverted (1 = black), MSB first."""
    return image.tobytes().translate(_INVERT)


_INVERT = bytes(255 - i for i in range(256))


class WaveshareUC8179(WaveshareSSD1680):
    """Driver for the Waveshare 7.5" V2 (see the module docstring)."""

    BUSY_WHEN_HIGH = False
    GEOMETRIES = GEOMETRY_7IN5

    def init(self) -> None:
        """Wake, power on and set the panel up for the OTP waveforms."""
        self.reset()
        self.command(POWER_SETTING, [0x07, 0x07, 0x3F, 0x3F])
        self.command(BOOSTER, [0x17, 0x17, 0x28, 0x17])
        self.command(POWER_ON)
        self._sleep(0.1)
        self.wait_idle()
        self.command(PANEL_SETTING, [0x1F])
        self.command(RESOLUTION, [0x03, 0x20, 0x01, 0xE0])
        self.command(DUAL_SPI, [0x00])
        self.command(VCOM_INTERVAL, [0x10, 0x07])
        self.command(TCON, [0x22])
        self.awake = True

    def show(self, image: Image.Image, full: bool) -> None:
        """Full refresh, or partial refresh with the old frame in 0x10 and the new in 0x13."""
        if self.closed:
            raise PanelError(f"the {self.caps.name} panel is closed")
        check_frame(self.caps, image)
        data = uc8179_bytes(image)
        self.init()
        if full or self.previous is None:
            self.command(OLD_DATA, data)
            self.command(NEW_DATA, data)
            self.command(REFRESH)
            self._sleep(0.1)
            self.wait_idle()
        else:
            self.command(VCOM_INTERVAL, [0xA9, 0x07])
            self.command(CASCADE, [0x02])
            self.command(FORCE_TEMP, [0x6E])
            self.command(PARTIAL_IN)
            self.command(PARTIAL_WINDOW, [0x00, 0x00, 0x03, 0x1F, 0x00, 0x00, 0x01, 0xDF, 0x01])
            self.command(OLD_DATA, self.previous)
            self.command(NEW_DATA, data)
            self.command(REFRESH)
            self._sleep(0.1)
            self.wait_idle()
            self.command(PARTIAL_OUT)
        self.previous = data

    def sleep(self) -> None:
        """Power off, then deep sleep (``0x07 0xA5``); the next show resets the chip."""
        if self.awake and not self.closed:
            self.command(POWER_OFF)
            self.wait_idle()
            self.command(DEEP_SLEEP, [0xA5])
            self.awake = False


def open_uc8179(panel: str, pins: DisplayPins | None = None) -> WaveshareSSD1680:  # pragma: no cover - needs a Pi
    """Open the real 7.5" panel on a Raspberry Pi (spidev and gpiozero imported lazily)."""
    return open_waveshare(panel, pins, driver=WaveshareUC8179)
