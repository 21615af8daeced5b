"""The players' buttons through gpiozero's MockFactory: pressing a pin reaches asyncio."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from bgboard.io.buttons import DEFAULT_PINS, ButtonPins, Buttons, PinConfigError, to_loop


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def test_the_pins_come_from_hardware_pins_toml() -> None:
    assert ButtonPins.from_pins_toml().pins == DEFAULT_PINS


def test_each_pin_press_names_the_player_and_the_button(factory: MockFactory) -> None:
    pressed: list[tuple[int, str]] = []
    with Buttons(ButtonPins(DEFAULT_PINS), lambda p, b: pressed.append((p, b)), pin_factory=factory, bounce_ms=0):
        for (player, name), pin in DEFAULT_PINS.items():
            factory.pin(pin).drive_low()  # the switch closes to ground
            factory.pin(pin).drive_high()
    assert pressed == list(DEFAULT_PINS)


def test_presses_from_gpio_threads_arrive_on_the_asyncio_loop(factory: MockFactory) -> None:
    async def main() -> list[tuple[int, str]]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
        with Buttons(ButtonPins(DEFAULT_PINS), to_loop(loop, lambda p, b: queue.put_nowait((p, b))), pin_factory=factory):
            pin = factory.pin(19)  # black's double button, pressed on another thread
            await asyncio.to_thread(pin.drive_low)
            got = [await asyncio.wait_for(queue.get(), 2)]
            await asyncio.to_thread(pin.drive_high)
        return got

    assert asyncio.run(main()) == [(1, "double")]


def test_closing_releases_the_pins(factory: MockFactory) -> None:
    buttons = Buttons(ButtonPins(DEFAULT_PINS), lambda p, b: None, pin_factory=factory)
    buttons.close()
    buttons.close()
    again = Buttons(ButtonPins(DEFAULT_PINS), lambda p, b: None, pin_factory=factory)  # pins free again
    again.close()


def test_bad_pin_tables_are_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(PinConfigError, match="pin 5 is given to both the white roll and the black roll button"):
        ButtonPins.from_table({"white": {"roll": 5, "double": 6, "drop": 12}, "black": {"roll": 5, "double": 19, "drop": 26}})
    with pytest.raises(PinConfigError, match="no pin for the black drop button"):
        ButtonPins.from_table({"white": {"roll": 5, "double": 6, "drop": 12}, "black": {"roll": 13, "double": 19}})
    with pytest.raises(PinConfigError, match="buttons.white has no button called 'fire'"):
        ButtonPins.from_table({"white": {"fire": 3}})
    bad = tmp_path / "pins.toml"
    bad.write_text("[pi.buttons.white\n")
    with pytest.raises(PinConfigError, match="cannot be read"):
        ButtonPins.from_pins_toml(bad)


def test_no_gpio_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device

    from bgboard.io.buttons import ButtonsUnavailableError

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-gpio")  # a back end that does not exist
    with pytest.raises(ButtonsUnavailableError, match=r"the buttons cannot use the GPIO pins .*pin_factory = \"mock\""):
        Buttons(ButtonPins(DEFAULT_PINS), lambda p, b: None)
