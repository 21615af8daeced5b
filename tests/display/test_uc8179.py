"""The 7.5" V2 (UC8179) driver against a fake UC8179 recording the command stream."""

from __future__ import annotations

import pytest
from gpiozero import DigitalInputDevice, DigitalOutputDevice

from bgboard.display.demos import DEMOS
from bgboard.display.panel import PanelError
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render
from bgboard.display.uc8179 import WaveshareUC8179, uc8179_bytes

from fake_ssd1680 import FakeClock, FakeUC8179

SPEC = PANELS["waveshare-7in5"]
INIT = [0x01, 0x06, 0x04, 0x00, 0x61, 0x15, 0x50, 0x60]


def make(mock_factory, **kw):
    clock = FakeClock()
    pins = DigitalOutputDevice(17), DigitalOutputDevice(25), DigitalInputDevice(24, pull_up=False)
    # the chip comes after the pins: it then holds BUSY high (idle) against the pull-down
    chip = FakeUC8179(mock_factory, clock, full_s=SPEC.full_ms / 1000,
                      partial_s=SPEC.partial_ms / 1000)
    driver = WaveshareUC8179(SPEC, chip, *pins, sleep=clock.sleep, monotonic=clock.monotonic,
                             **kw)
    return driver, chip, clock


def test_full_then_partial_then_sleep(mock_factory):
    driver, chip, clock = make(mock_factory)
    first, second = render(DEMOS["hint"], SPEC), render(DEMOS["crawford"], SPEC)
    driver.show(first, full=True)
    assert chip.codes() == INIT + [0x10, 0x13, 0x12]
    assert chip.data_of(0x61) == [b"\x03\x20\x01\xe0"]
    assert chip.data_of(0x00) == [b"\x1f"]
    assert len(chip.ram[0x13]) == 800 * 480 // 8
    assert chip.ram[0x13] == uc8179_bytes(first)
    assert clock.now >= SPEC.full_ms / 1000
    chip.clear()
    driver.show(second, full=False)
    assert chip.codes() == INIT + [0x50, 0xE0, 0xE5, 0x91, 0x90, 0x10, 0x13, 0x12, 0x92]
    assert chip.data_of(0x90) == [bytes([0, 0, 3, 0x1F, 0, 0, 1, 0xDF, 1])]
    kind, new, old = chip.refreshes[-1]
    assert kind == 0xFF and old == uc8179_bytes(first) and new == uc8179_bytes(second)
    driver.sleep()
    assert chip.codes()[-2:] == [0x02, 0x07] and chip.data_of(0x07) == [b"\xa5"]
    assert chip.asleep and chip.violations == []
    driver.show(first, full=False)  # wakes with a reset
    assert chip.violations == [] and chip.resets == 3


def test_black_pixels_are_ones_for_the_chip():
    from PIL import Image

    image = Image.new("1", (800, 480), 1)
    image.putpixel((0, 0), 0)
    data = uc8179_bytes(image)
    assert data[0] == 0x80 and sum(data[1:]) == 0


def test_stuck_busy_low_is_reported(mock_factory):
    driver, chip, clock = make(mock_factory, busy_timeout_s=3)
    chip.stuck = True
    with pytest.raises(PanelError, match="stayed busy for more than 3 s"):
        driver.show(render(DEMOS["hint"], SPEC), full=True)
