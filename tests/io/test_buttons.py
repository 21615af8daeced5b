"""The players' buttons through gpiozero's MockFactory: pressing a pin reaches asyncio."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from bgboard.hardware import load_pins
from bgboard.io.buttons import Buttons, PinConfigError, to_loop

PINS = load_pins().buttons


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def test_each_pin_press_names_the_player_and_the_button(factory: MockFactory) -> None:
    pressed: list[tuple[int, str]] = []
    with Buttons(PINS, lambda p, b: pressed.append((p, b)), pin_factory=factory, bounce_ms=0):
        for (player, name), pin in PINS.items():
            factory.pin(pin).drive_low()  # the switch closes to ground
            factory.pin(pin).drive_high()
    assert pressed == list(PINS)


def test_presses_from_gpio_threads_arrive_on_the_asyncio_loop(factory: MockFactory) -> None:
    async def main() -> list[tuple[int, str]]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
        with Buttons(PINS, to_loop(loop, lambda p, b: queue.put_nowait((p, b))), pin_factory=factory):
            pin = factory.pin(19)  # black's double button, pressed on another thread
            await asyncio.to_thread(pin.drive_low)
            got = [await asyncio.wait_for(queue.get(), 30)]
            await asyncio.to_thread(pin.drive_high)
        return got

    assert asyncio.run(main()) == [(1, "double")]


def test_closing_releases_the_pins(factory: MockFactory) -> None:
    buttons = Buttons(PINS, lambda p, b: None, pin_factory=factory)
    buttons.close()
    buttons.close()
    again = Buttons(PINS, lambda p, b: None, pin_factory=factory)  # pins free again
    again.close()


def test_a_button_without_a_pin_or_a_pin_without_a_button_is_one_sentence(factory: MockFactory) -> None:
    missing = {key: pin for key, pin in PINS.items() if key != (1, "drop")}
    with pytest.raises(PinConfigError, match=r"pins.toml has no pin for the black drop button"):
        Buttons(missing, lambda p, b: None, pin_factory=factory)
    with pytest.raises(PinConfigError, match="a pin for a 'fire' button; the buttons are roll, double, drop"):
        Buttons({**PINS, (0, "fire"): 3}, lambda p, b: None, pin_factory=factory)


def test_no_gpio_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device

    from bgboard.io.buttons import ButtonsUnavailableError

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-gpio")  # a back end that does not exist
    with pytest.raises(ButtonsUnavailableError, match=r"the buttons cannot use the GPIO pins .*pin_factory = \"mock\""):
        Buttons(PINS, lambda p, b: None)
