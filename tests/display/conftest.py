"""Fixtures for the display tests: gpiozero's MockFactory, reset after each test."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory():
    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous
