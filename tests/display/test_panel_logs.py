"""The display's log: a stuck panel (the fake SSD1680 behind gpiozero's MockFactory) is one
warning however often the frame is retried, its recovery one line; the BUSY detail at DEBUG."""

from __future__ import annotations

import logging

import pytest

from bgboard.display.demos import DEMOS
from bgboard.display.screen import Screen

from test_waveshare import make


def test_a_stuck_panel_is_one_warning_and_its_recovery_is_said(mock_factory, caplog: pytest.LogCaptureFixture) -> None:
    driver, chip, clock = make(mock_factory, "waveshare-2in13", busy_timeout_s=2)
    screen = Screen(driver)
    chip.stuck = True
    mock_factory.pin(24).drive_high()
    with caplog.at_level(logging.DEBUG, logger="bgboard.display"):
        retry = screen.tick(screen.update(DEMOS["hint"], 0))
        retry = screen.tick(retry)  # still stuck: retried, not said again
        assert screen.error is not None and retry is not None
        chip.stuck = False
        chip.busy_until = clock.now  # the cable is fixed
        clock.sleep(0.01)
        assert screen.tick(retry) is None
    said = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    warnings = [m for _, level, m in said if level == logging.WARNING]
    assert len(warnings) == 1, said
    assert warnings[0].startswith("the panel failed: the waveshare-2in13 panel stayed busy for more than 2 s")
    assert warnings[0].endswith("; retried in 5 s")
    assert ("bgboard.display.screen", logging.INFO, "the panel works again") in said
    busy = [m for name, level, m in said if name == "bgboard.display.waveshare" and level == logging.DEBUG]
    assert len(busy) == 2 and all(m.startswith("the waveshare-2in13 panel's BUSY line (GPIO 24) stayed high") for m in busy)
