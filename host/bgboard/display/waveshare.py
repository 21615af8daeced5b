"""Waveshare black/white e-Paper panels with an SSD1680-class controller, driven directly.

Covers the 2.13" V4 (SSD1680, 122×250), 2.9" V2 (SSD1680, 128×296) and 4.2" V2 (SSD1683,
400×300: the same command set).  The bus is an ``spidev.SpiDev`` (CS = CE0 driven by the
SPI hardware, 4 MHz, mode 0) and three gpiozero devices: RST and DC outputs, BUSY input
(high = busy).  The pins are pins.toml's ``[pi.display]`` (the Waveshare HAT wiring: RST 17,
DC 25, CS 8 = CE0, BUSY 24), read by :func:`bgboard.hardware.load_pins`.

Command sequence (SSD1680 datasheet, as in Waveshare's epd2in13_V4 / epd4in2_V2 drivers):

* wake + init: hardware reset (RST high, low, high), wait BUSY, ``0x12`` software reset,
  wait BUSY, ``0x01`` driver output control (gate lines − 1, 2 bytes, then ``0x00``),
  ``0x11`` data entry mode ``0x03`` (X then Y increment), ``0x44``/``0x45`` RAM window,
  ``0x3C`` border waveform, ``0x21`` display update control (``00 80`` on the SSD1680,
  ``40 00`` on the SSD1683: red RAM bypassed), ``0x18`` internal
  temperature sensor ``0x80``, ``0x4E``/``0x4F`` RAM address counters, wait BUSY;
* full refresh: the frame to both RAM banks (``0x24`` black/white, ``0x26`` "previous"),
  ``0x22`` ``0xF7`` (full update with the OTP waveform), ``0x20`` activate, wait BUSY;
* partial refresh: after a hardware reset (no software reset, which would clear the
  registers) ``0x3C 0x80`` (SSD1683: ``0x21 00 00``, red RAM in use), driver output,
  data entry, window and counters; the
  **previous frame to RAM 0x26** and the **new frame to RAM 0x24**, ``0x22 0xFF``
  (display mode 2: differential update), ``0x20``, wait BUSY;
* deep sleep: ``0x10 0x01`` (RAM kept); the next update wakes the panel with a reset.

BUSY is polled every 10 ms with a timeout; a panel that stays busy raises
:class:`~bgboard.display.panel.PanelError` naming the BUSY pin.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from PIL import Image

from bgboard.display.panel import PanelError, check_frame
from bgboard.display.panels import PanelSpec, panel_spec
from bgboard.hardware import DisplayPins, load_pins

log = logging.getLogger(__name__)

# SSD1680 commands used here (datasheet names)
DRIVER_OUTPUT = 0x01
DEEP_SLEEP = 0x10
DATA_ENTRY = 0x11
SW_RESET = 0x12
TEMP_SENSOR = 0x18
MASTER_ACTIVATION = 0x20
UPDATE_CONTROL_1 = 0x21
UPDATE_CONTROL_2 = 0x22
WRITE_RAM_BW = 0x24
WRITE_RAM_RED = 0x26  # the "previous image" bank in black/white partial mode
BORDER = 0x3C
RAM_X_WINDOW = 0x44
RAM_Y_WINDOW = 0x45
RAM_X_COUNTER = 0x4E
RAM_Y_COUNTER = 0x4F

FULL_UPDATE = 0xF7
PARTIAL_UPDATE = 0xFF


SPI_HZ = 4_000_000  # the SSD1680's SPI clock (datasheet: up to 20 MHz; Waveshare's drivers use 4 MHz)


@dataclass(frozen=True, slots=True)
class Geometry:
    """How a landscape frame maps onto the controller RAM."""

    sources: int  # RAM x size in pixels (a multiple of 8)
    gates: int  # RAM y size (lines)
    rotate: bool  # True: the panel is portrait natively, rotate the landscape frame
    control_full: bytes = b"\x00\x80"  # 0x21 display update control 1, full refresh
    control_partial: bytes | None = None  # 0x21 for partial refresh (None: chip default)


GEOMETRY = {
    # SSD1680: 0x21 B = 0x80 selects sources S8..S167 for these 122/128-wide glasses
    "waveshare-2in13": Geometry(sources=128, gates=250, rotate=True),  # 122 visible
    "waveshare-2in9": Geometry(sources=128, gates=296, rotate=True),
    # SSD1683: red RAM bypassed as 0 for full refreshes, used (the previous frame) for
    # partial ones, as in Waveshare's epd4in2_V2
    "waveshare-4in2": Geometry(sources=400, gates=300, rotate=False,
                               control_full=b"\x40\x00", control_partial=b"\x00\x00"),
}


class SPI(Protocol):
    """The part of ``spidev.SpiDev`` the driver uses."""

    def writebytes2(self, data: Any) -> None: ...

    def close(self) -> None: ...


class OutputPin(Protocol):
    """The part of ``gpiozero.DigitalOutputDevice`` the driver uses."""

    def on(self) -> None: ...

    def off(self) -> None: ...

    def close(self) -> None: ...


class InputPin(Protocol):
    """The part of ``gpiozero.DigitalInputDevice`` the driver uses."""

    @property
    def is_active(self) -> bool: ...

    def close(self) -> None: ...


def frame_bytes(image: Image.Image, geometry: Geometry) -> bytes:
    """The controller RAM image of a landscape 1-bit frame: rotated if the panel is
    portrait, padded to whole bytes with white; 1 bit per pixel, 1 = white, MSB first."""
    img = image.rotate(90, expand=True) if geometry.rotate else image
    if img.width != geometry.sources:
        padded = Image.new("1", (geometry.sources, img.height), 1)
        padded.paste(img, (0, 0))
        img = padded
    if img.size != (geometry.sources, geometry.gates):
        raise ValueError(f"frame is {img.size}, RAM is {(geometry.sources, geometry.gates)}")
    return img.tobytes()


class WaveshareSSD1680:
    """Driver for one SSD1680-class Waveshare panel (see the module docstring).

    ``spi``, ``rst``, ``dc``, ``busy`` are an open ``spidev.SpiDev`` and gpiozero devices
    (or anything with the same methods); ``sleep``/``monotonic`` default to :mod:`time`.
    """

    BUSY_WHEN_HIGH = True
    GEOMETRIES = GEOMETRY

    def __init__(self, caps: PanelSpec, spi: SPI, rst: OutputPin, dc: OutputPin,
                 busy: InputPin, *, busy_timeout_s: float | None = None,
                 busy_pin: int = 24, sleep: Callable[[float], None] = time.sleep,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        if caps.name not in self.GEOMETRIES:
            raise ValueError(f"{caps.name} is not a panel of {type(self).__name__}")
        self.caps = caps
        self.geometry = self.GEOMETRIES[caps.name]
        self.spi, self.rst, self.dc, self.busy = spi, rst, dc, busy
        self.busy_timeout_s = busy_timeout_s or max(10.0, 3 * caps.full_ms / 1000)
        self.busy_pin = busy_pin
        self._sleep, self._monotonic = sleep, monotonic
        self.previous: bytes | None = None  # what the panel shows (for partial refresh)
        self.awake = False
        self.closed = False

    # ------------------------------------------------------------------ wire
    def command(self, cmd: int, data: bytes | list[int] = b"") -> None:
        """Send one command byte (DC low) then its data bytes (DC high)."""
        self.dc.off()
        self.spi.writebytes2(bytes([cmd]))
        if data:
            self.dc.on()
            self.spi.writebytes2(bytes(data))

    def wait_idle(self) -> None:
        """Wait for BUSY to go low; :class:`PanelError` after the timeout."""
        start = self._monotonic()
        while self.busy.is_active == self.BUSY_WHEN_HIGH:
            if self._monotonic() - start > self.busy_timeout_s:
                log.debug("the %s panel's BUSY line (GPIO %d) stayed high for %.1f s", self.caps.name,
                          self.busy_pin, self._monotonic() - start)
                raise PanelError(
                    f"the {self.caps.name} panel stayed busy for more than "
                    f"{self.busy_timeout_s:.0f} s: check its cable and the BUSY line "
                    f"(GPIO {self.busy_pin})"
                )
            self._sleep(0.01)

    def reset(self) -> None:
        """Hardware reset pulse (wakes the panel from deep sleep)."""
        self.rst.on()
        self._sleep(0.02)
        self.rst.off()
        self._sleep(0.002)
        self.rst.on()
        self._sleep(0.02)

    def _window(self) -> None:
        g = self.geometry
        last = g.gates - 1
        self.command(DATA_ENTRY, [0x03])
        self.command(RAM_X_WINDOW, [0x00, g.sources // 8 - 1])
        self.command(RAM_Y_WINDOW, [0x00, 0x00, last & 0xFF, last >> 8])
        self.command(RAM_X_COUNTER, [0x00])
        self.command(RAM_Y_COUNTER, [0x00, 0x00])

    def _driver_output(self) -> None:
        last = self.geometry.gates - 1
        self.command(DRIVER_OUTPUT, [last & 0xFF, last >> 8, 0x00])

    def init(self) -> None:
        """Wake and initialise for a full refresh."""
        self.reset()
        self.wait_idle()
        self.command(SW_RESET)
        self.wait_idle()
        self._driver_output()
        self.command(BORDER, [0x05])
        self.command(UPDATE_CONTROL_1, self.geometry.control_full)
        self.command(TEMP_SENSOR, [0x80])
        self._window()
        self.wait_idle()
        self.awake = True

    def _init_partial(self) -> None:
        self.reset()
        self.wait_idle()
        self.command(BORDER, [0x80])
        if self.geometry.control_partial is not None:
            self.command(UPDATE_CONTROL_1, self.geometry.control_partial)
        self._driver_output()
        self._window()
        self.awake = True

    # ------------------------------------------------------------------ Panel
    def show(self, image: Image.Image, full: bool) -> None:
        """Full refresh (both RAM banks) or partial refresh (previous frame to 0x26, new
        frame to 0x24).  The first frame after start is always full."""
        if self.closed:
            raise PanelError(f"the {self.caps.name} panel is closed")
        check_frame(self.caps, image)
        data = frame_bytes(image, self.geometry)
        if full or self.previous is None:
            self.init()
            self.command(WRITE_RAM_BW, data)
            self.command(WRITE_RAM_RED, data)
            self.command(UPDATE_CONTROL_2, [FULL_UPDATE])
        else:
            self._init_partial()
            self.command(WRITE_RAM_RED, self.previous)
            self.command(WRITE_RAM_BW, data)
            self.command(UPDATE_CONTROL_2, [PARTIAL_UPDATE])
        self.command(MASTER_ACTIVATION)
        self.wait_idle()
        self.previous = data

    def sleep(self) -> None:
        """Deep sleep mode 1 (RAM kept); the next :meth:`show` resets the panel."""
        if self.awake and not self.closed:
            self.command(DEEP_SLEEP, [0x01])
            self.awake = False

    def close(self) -> None:
        """Sleep the panel and release SPI and pins (idempotent)."""
        if self.closed:
            return
        try:
            self.sleep()
        finally:
            self.closed = True
            for part in (self.spi, self.rst, self.dc, self.busy):
                part.close()
            log.info("the %s panel is closed", self.caps.name)


def open_waveshare(panel: str, pins: DisplayPins | None = None,
                   driver: type[WaveshareSSD1680] | None = None) -> WaveshareSSD1680:  # pragma: no cover - needs a Pi
    """Open the real panel on a Raspberry Pi on ``pins`` (default: pins.toml's
    ``[pi.display]``); imports spidev and gpiozero here only."""
    caps = panel_spec(panel)
    pins = pins or load_pins().display
    try:
        import spidev  # type: ignore[import-not-found]
    except ImportError:
        raise PanelError(
            f"the {panel} panel needs spidev, which is not installed: pip install 'bgboard[pi]' on the "
            "Raspberry Pi, or set [display] frames_dir to write the frames to files"
        ) from None
    from gpiozero import DigitalInputDevice, DigitalOutputDevice
    from gpiozero.exc import GPIOZeroError

    driver = driver or WaveshareSSD1680
    try:
        spi = spidev.SpiDev()
        spi.open(pins.spi_bus, pins.spi_device)
    except OSError as exc:
        raise PanelError(
            f"cannot open SPI {pins.spi_bus}.{pins.spi_device} for the panel "
            f"({exc.strerror}): enable SPI with raspi-config"
        ) from None
    spi.max_speed_hz = SPI_HZ
    spi.mode = 0
    devices: list[Any] = []
    try:
        devices = [DigitalOutputDevice(pins.rst)]
        devices.append(DigitalOutputDevice(pins.dc))
        devices.append(DigitalInputDevice(pins.busy, pull_up=False))
    except GPIOZeroError as exc:
        for device in devices:
            device.close()
        spi.close()
        raise PanelError(f"the {panel} panel's GPIO pins cannot be opened ({exc}): is this a Raspberry Pi with the panel HAT?") from None
    log.info("the %s panel is open on SPI %d.%d (RST GPIO %d, DC %d, BUSY %d)", panel, pins.spi_bus,
             pins.spi_device, pins.rst, pins.dc, pins.busy)
    return driver(caps, spi, *devices, busy_pin=pins.busy)
