"""The buttons' log through gpiozero's MockFactory: the pins opened, each press at DEBUG."""

from __future__ import annotations

import logging

import pytest
from gpiozero.pins.mock import MockFactory

from bgboard.hardware import load_pins
from bgboard.io.buttons import Buttons

PINS = load_pins().buttons


def test_the_buttons_say_their_pins_and_each_press(caplog: pytest.LogCaptureFixture) -> None:
    factory = MockFactory()
    try:
        with caplog.at_level(logging.DEBUG, logger="bgboard.io.buttons"):
            with Buttons(PINS, lambda p, b: None, pin_factory=factory, bounce_ms=0):
                factory.pin(PINS[(1, "double")]).drive_low()
                factory.pin(PINS[(1, "double")]).drive_high()
    finally:
        factory.reset()
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    pins = ", ".join(str(pin) for _, pin in sorted(PINS.items()))
    assert said == [(logging.INFO, f"{len(PINS)} buttons on GPIO pins {pins} (MockFactory)"),
                    (logging.DEBUG, "black's double button pressed"),
                    (logging.DEBUG, f"the buttons' {len(PINS)} pins are released")]
