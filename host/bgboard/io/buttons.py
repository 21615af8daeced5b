"""The players' buttons on the Raspberry Pi's GPIO (an adapter over gpiozero).

Each player has three momentary switches to ground (pull-ups on), on the BCM pins listed in
pins.toml (:func:`bgboard.hardware.load_pins`) under ``[pi.buttons.white]`` and ``[pi.buttons.black]``:

* ``roll`` — roll the dice / done (press the clock) / next game,
* ``double`` — offer the cube, take an offered cube, next candidate reading,
* ``drop`` — drop an offered cube.

gpiozero calls ``when_pressed`` on its own threads: :func:`to_loop` hands each press to an
asyncio loop with ``loop.call_soon_threadsafe``.  The pin back end is gpiozero's choice (or
the ``pin_factory`` passed in: ``gpiozero.pins.mock.MockFactory`` in tests and without
hardware), so this module imports no hardware library itself.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from typing import Any, Callable, Mapping

from bgboard.control.events import BUTTONS
from bgboard.errors import EnvironmentFailure, InputError, shown
from bgboard.hardware import PLAYERS


log = logging.getLogger(__name__)


class PinConfigError(InputError):
    """Button pins that cannot be used (a button without a pin, or a pin for no button)."""


class ButtonsUnavailableError(EnvironmentFailure):
    """The GPIO pins cannot be opened (no GPIO library, not a Raspberry Pi, pin busy)."""


def check_pins(pins: Mapping[tuple[int, str], int]) -> None:
    """Every player has a pin for each of :data:`~bgboard.control.events.BUTTONS` and no
    other (the pins themselves are checked where pins.toml is read, :mod:`bgboard.hardware`)."""
    for player, who in enumerate(PLAYERS):
        for button in BUTTONS:
            if (player, button) not in pins:
                raise PinConfigError(f"pins.toml has no pin for the {who} {button} button ([pi.buttons.{who}] {button} = ...)")
    for player, button in pins:
        if button not in BUTTONS:
            raise PinConfigError(f"pins.toml has a pin for a {button!r} button; the buttons are {', '.join(BUTTONS)}")


class Buttons:
    """gpiozero ``Button`` objects for both players, calling ``on_press(player, button)``;
    ``pins`` maps each ``(player, button)`` to its BCM pin (``load_pins().buttons``).

    ``pin_factory`` selects gpiozero's back end (None = gpiozero's default).  A context
    manager; :meth:`close` is idempotent.
    """

    def __init__(
        self,
        pins: Mapping[tuple[int, str], int],
        on_press: Callable[[int, str], None],
        *,
        pin_factory: Any = None,
        bounce_ms: int = 30,
    ) -> None:
        from gpiozero import Button  # the device class only; the pin back end is the factory's
        from gpiozero.exc import GPIOZeroError, PinFactoryFallback

        check_pins(pins)
        self._buttons: list[Any] = []
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PinFactoryFallback)  # the error below says it all
                for (player, name), pin in sorted(pins.items()):
                    button = Button(pin, pull_up=True, bounce_time=bounce_ms / 1000 or None, pin_factory=pin_factory)
                    button.when_pressed = _caller(on_press, player, name)
                    self._buttons.append(button)
        except (GPIOZeroError, ImportError) as exc:  # no back end, or not a Pi
            self.close()
            log.debug("the GPIO pins cannot be opened: %s", shown(exc))
            raise ButtonsUnavailableError(
                f"the buttons cannot use the GPIO pins ({exc}): on a machine without GPIO set "
                "[buttons] pin_factory = \"mock\" or enabled = false"
            ) from None
        except BaseException:
            self.close()
            raise
        factory = type(self._buttons[0].pin_factory).__name__ if self._buttons else "no"
        log.info("%d buttons on GPIO pins %s (%s)", len(self._buttons),
                 ", ".join(str(pin) for _, pin in sorted(pins.items())), factory)

    def close(self) -> None:
        """Release every pin (idempotent)."""
        if self._buttons:
            log.debug("the buttons' %d pins are released", len(self._buttons))
        while self._buttons:
            self._buttons.pop().close()

    def __enter__(self) -> "Buttons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _caller(on_press: Callable[[int, str], None], player: int, name: str) -> Callable[[], None]:
    def pressed() -> None:
        log.debug("%s's %s button pressed", PLAYERS[player] if 0 <= player < len(PLAYERS) else player, name)
        on_press(player, name)

    return pressed


def to_loop(loop: asyncio.AbstractEventLoop, handler: Callable[[int, str], None]) -> Callable[[int, str], None]:
    """A press callback safe to call from gpiozero's threads: it runs ``handler`` on ``loop``."""

    def press(player: int, name: str) -> None:
        loop.call_soon_threadsafe(handler, player, name)

    return press
