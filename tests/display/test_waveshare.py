"""The SSD1680-class driver against a fake controller that records the command stream.

Real gpiozero devices on MockFactory pins drive RST/DC and read BUSY; only the SPI wires
and the chip behind them are faked (tests/display/fake_ssd1680.py).
"""

from __future__ import annotations


import pytest
from gpiozero import DigitalInputDevice, DigitalOutputDevice
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bgboard.display.demos import DEMOS
from bgboard.display.panel import Panel, PanelError
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render
from bgboard.display.waveshare import GEOMETRY, WaveshareSSD1680, frame_bytes

from fake_ssd1680 import FakeClock, FakeSSD1680

INIT = [0x12, 0x01, 0x3C, 0x21, 0x18, 0x11, 0x44, 0x45, 0x4E, 0x4F]
FULL = INIT + [0x24, 0x26, 0x22, 0x20]
PARTIAL = [0x3C, 0x01, 0x11, 0x44, 0x45, 0x4E, 0x4F, 0x26, 0x24, 0x22, 0x20]

# (panel, driver output control data, RAM X window, RAM Y window, RAM bytes)
EXPECTED = {
    "waveshare-2in13": (b"\xf9\x00\x00", b"\x00\x0f", b"\x00\x00\xf9\x00", 16 * 250),
    "waveshare-2in9": (b"\x27\x01\x00", b"\x00\x0f", b"\x00\x00\x27\x01", 16 * 296),
    "waveshare-4in2": (b"\x2b\x01\x00", b"\x00\x31", b"\x00\x00\x2b\x01", 50 * 300),
}


def make(mock_factory, name: str, **kw):
    clock = FakeClock()
    spec = PANELS[name]
    chip = FakeSSD1680(mock_factory, clock, full_s=spec.full_ms / 1000,
                       partial_s=spec.partial_ms / 1000)
    driver = WaveshareSSD1680(
        spec, chip, DigitalOutputDevice(17), DigitalOutputDevice(25),
        DigitalInputDevice(24, pull_up=False), sleep=clock.sleep, monotonic=clock.monotonic,
        **kw,
    )
    return driver, chip, clock


def frames(name: str) -> tuple[Image.Image, Image.Image]:
    spec = PANELS[name]
    return render(DEMOS["hint"], spec), render(DEMOS["illegal-move"], spec)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_first_frame_is_a_full_refresh_following_the_datasheet(mock_factory, name):
    driver, chip, clock = make(mock_factory, name)
    assert isinstance(driver, Panel)
    first, _ = frames(name)
    driver.show(first, full=False)  # the first frame is full whatever is asked
    assert chip.codes() == FULL
    assert chip.resets == 1
    out, xwin, ywin, size = EXPECTED[name]
    assert chip.data_of(0x01) == [out]
    assert chip.data_of(0x11) == [b"\x03"]
    assert chip.data_of(0x44) == [xwin]
    assert chip.data_of(0x45) == [ywin]
    assert chip.data_of(0x22) == [b"\xf7"]
    assert chip.data_of(0x21) == [b"\x40\x00" if name == "waveshare-4in2" else b"\x00\x80"]
    data = frame_bytes(first, GEOMETRY[name])
    assert len(data) == size
    assert chip.ram[0x24] == data and chip.ram[0x26] == data
    assert chip.violations == []
    # the driver waited for the refresh: the refresh time has passed on the clock
    assert clock.now >= PANELS[name].full_ms / 1000


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_partial_refresh_writes_previous_frame_to_0x26_and_new_to_0x24(mock_factory, name):
    driver, chip, clock = make(mock_factory, name)
    first, second = frames(name)
    driver.show(first, full=True)
    chip.clear()
    driver.show(second, full=False)
    if name == "waveshare-4in2":  # SSD1683: red RAM back in use for the partial refresh
        assert chip.codes() == PARTIAL[:1] + [0x21] + PARTIAL[1:]
        assert chip.data_of(0x21) == [b"\x00\x00"]
    else:
        assert chip.codes() == PARTIAL
    assert chip.data_of(0x22) == [b"\xff"]
    assert chip.data_of(0x3C) == [b"\x80"]
    option, ram24, ram26 = chip.refreshes[-1]
    assert option == 0xFF
    assert ram26 == frame_bytes(first, GEOMETRY[name])
    assert ram24 == frame_bytes(second, GEOMETRY[name])
    assert chip.resets == 2  # woken by a hardware reset, no software reset (0x12)
    assert chip.violations == []


def test_deep_sleep_then_wake_by_reset(mock_factory):
    driver, chip, _ = make(mock_factory, "waveshare-2in13")
    first, second = frames("waveshare-2in13")
    driver.show(first, full=True)
    driver.sleep()
    assert chip.commands[-1].code == 0x10 and bytes(chip.commands[-1].data) == b"\x01"
    assert chip.asleep
    driver.sleep()  # already asleep: nothing sent
    assert chip.codes().count(0x10) == 1
    driver.show(second, full=False)
    assert chip.violations == []  # the driver reset the chip before talking to it
    assert chip.refreshes[-1][0] == 0xFF


def test_a_command_to_a_sleeping_chip_is_caught_by_the_fake(mock_factory):
    # the fake must be able to fail: talk to it without the reset pulse
    driver, chip, _ = make(mock_factory, "waveshare-2in13")
    driver.command(0x12)
    assert chip.violations and "deep sleep" in chip.violations[0]


def test_stuck_busy_line_reports_one_clear_sentence(mock_factory):
    driver, chip, clock = make(mock_factory, "waveshare-2in9", busy_timeout_s=5)
    chip.stuck = True
    mock_factory.pin(24).drive_high()
    with pytest.raises(PanelError) as err:
        driver.show(frames("waveshare-2in9")[0], full=True)
    message = str(err.value)
    assert "stayed busy for more than 5 s" in message and "GPIO 24" in message
    assert "\n" not in message
    assert 5 <= clock.now < 5.2  # polled every 10 ms until the timeout, then gave up


def test_close_sleeps_and_releases_pins_once(mock_factory):
    driver, chip, _ = make(mock_factory, "waveshare-4in2")
    driver.show(frames("waveshare-4in2")[0], full=True)
    driver.close()
    driver.close()
    assert chip.codes()[-1] == 0x10 and chip.codes().count(0x10) == 1
    assert driver.dc.closed and driver.rst.closed and driver.busy.closed
    with pytest.raises(PanelError):
        driver.show(frames("waveshare-4in2")[0], full=True)


def test_wrong_frame_size_is_refused(mock_factory):
    driver, _, _ = make(mock_factory, "waveshare-2in13")
    with pytest.raises(ValueError):
        driver.show(Image.new("1", (296, 128), 1), full=True)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(EXPECTED)), data=st.data())
def test_a_pixel_lands_on_its_ram_bit(name, data):
    spec, geo = PANELS[name], GEOMETRY[name]
    x = data.draw(st.integers(0, spec.width - 1))
    y = data.draw(st.integers(0, spec.height - 1))
    image = Image.new("1", (spec.width, spec.height), 1)
    image.putpixel((x, y), 0)
    ram = frame_bytes(image, geo)
    # landscape (x, y) is RAM column y, line width-1-x on portrait panels (rotated 90°)
    col, line = (y, spec.width - 1 - x) if geo.rotate else (x, y)
    index, bit = line * geo.sources // 8 + col // 8, 0x80 >> (col % 8)
    assert ram[index] & bit == 0
    assert sum(8 - bin(b).count("1") for b in ram) == 1  # exactly one black pixel


def test_a_command_while_busy_is_caught_by_the_fake(mock_factory):
    # the fake must be able to fail: send during a refresh without waiting for BUSY
    driver, chip, _ = make(mock_factory, "waveshare-2in13")
    driver.reset()
    driver.command(0x22, [0xF7])
    driver.command(0x20)  # the chip is now busy refreshing
    driver.command(0x24, b"\xff")
    assert any("while BUSY" in v for v in chip.violations)


def test_a_stuck_panel_does_not_stop_the_screen_and_is_retried(mock_factory):
    from bgboard.display.screen import Screen

    driver, chip, clock = make(mock_factory, "waveshare-2in13", busy_timeout_s=2)
    screen = Screen(driver)
    chip.stuck = True
    mock_factory.pin(24).drive_high()
    due = screen.update(DEMOS["hint"], 0)
    retry = screen.tick(due)  # raises nothing
    assert screen.error is not None and "stayed busy" in screen.error
    assert retry == due + screen.retry_ms and screen.history == []
    chip.stuck = False
    chip.busy_until = clock.now  # the cable is fixed: BUSY clears
    clock.sleep(0.01)
    assert screen.tick(retry) is None
    assert screen.error is None
    assert [r.full for r in screen.history] == [True]
    assert chip.ram[0x24] == frame_bytes(render(DEMOS["hint"], PANELS["waveshare-2in13"]),
                                         GEOMETRY["waveshare-2in13"])
