"""The players' buttons on the Raspberry Pi's GPIO (an adapter over gpiozero).

Each player has three momentary switches to ground (pull-ups on), on the BCM pins listed in
``hardware/pins.toml`` under ``[pi.buttons.white]`` and ``[pi.buttons.black]``:

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
import tomllib
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from bgboard.control.events import BUTTONS
from bgboard.errors import InputError

PLAYERS = ("white", "black")
PINS_TOML = Path(__file__).resolve().parents[3] / "hardware" / "pins.toml"
DEFAULT_PINS: Mapping[tuple[int, str], int] = {
    (0, "roll"): 5,
    (0, "double"): 6,
    (0, "drop"): 12,
    (1, "roll"): 13,
    (1, "double"): 19,
    (1, "drop"): 26,
}


class PinConfigError(InputError):
    """Button pins that cannot be used (missing, duplicated or out of range)."""


class ButtonsUnavailableError(InputError):
    """The GPIO pins cannot be opened (no GPIO library, not a Raspberry Pi, pin busy)."""


@dataclass(frozen=True, slots=True)
class ButtonPins:
    """BCM pin of each ``(player, button)``."""

    pins: Mapping[tuple[int, str], int]

    def __post_init__(self) -> None:
        for key in DEFAULT_PINS:
            if key not in self.pins:
                raise PinConfigError(f"no pin for the {PLAYERS[key[0]]} {key[1]} button")
        seen: dict[int, tuple[int, str]] = {}
        for key, pin in self.pins.items():
            if not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27:
                raise PinConfigError(f"the {PLAYERS[key[0]]} {key[1]} button needs a BCM pin 0..27, not {pin!r}")
            if pin in seen:
                other = seen[pin]
                raise PinConfigError(
                    f"pin {pin} is given to both the {PLAYERS[other[0]]} {other[1]} and the {PLAYERS[key[0]]} {key[1]} button"
                )
            seen[pin] = key

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "ButtonPins":
        """From a ``{"white": {"roll": 5, ...}, "black": {...}}`` table (pins.toml, config)."""
        pins: dict[tuple[int, str], int] = {}
        for player, name in enumerate(PLAYERS):
            side = table.get(name, {})
            if not isinstance(side, Mapping):
                raise PinConfigError(f"buttons.{name} must be a table of pins")
            for button in BUTTONS:
                if button in side:
                    pins[player, button] = side[button]
            unknown = set(side) - set(BUTTONS)
            if unknown:
                raise PinConfigError(f"buttons.{name} has no button called {sorted(unknown)[0]!r}")
        return cls(pins)

    @classmethod
    def from_pins_toml(cls, path: Path = PINS_TOML) -> "ButtonPins":
        """The pins of hardware/pins.toml (``[pi.buttons.*]``)."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise PinConfigError(f"{path} cannot be read ({exc})") from None
        return cls.from_table(data.get("pi", {}).get("buttons", {}))


class Buttons:
    """gpiozero ``Button`` objects for both players, calling ``on_press(player, button)``.

    ``pin_factory`` selects gpiozero's back end (None = gpiozero's default).  A context
    manager; :meth:`close` is idempotent.
    """

    def __init__(
        self,
        pins: ButtonPins,
        on_press: Callable[[int, str], None],
        *,
        pin_factory: Any = None,
        bounce_ms: int = 30,
    ) -> None:
        from gpiozero import Button  # the device class only; the pin back end is the factory's
        from gpiozero.exc import GPIOZeroError, PinFactoryFallback

        self._buttons: list[Any] = []
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PinFactoryFallback)  # the error below says it all
                for (player, name), pin in sorted(pins.pins.items()):
                    button = Button(pin, pull_up=True, bounce_time=bounce_ms / 1000 or None, pin_factory=pin_factory)
                    button.when_pressed = _caller(on_press, player, name)
                    self._buttons.append(button)
        except (GPIOZeroError, ImportError) as exc:  # no back end, or not a Pi
            self.close()
            raise ButtonsUnavailableError(
                f"the buttons cannot use the GPIO pins ({exc}): on a machine without GPIO set "
                "[buttons] pin_factory = \"mock\" or enabled = false"
            ) from None
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release every pin (idempotent)."""
        while self._buttons:
            self._buttons.pop().close()

    def __enter__(self) -> "Buttons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _caller(on_press: Callable[[int, str], None], player: int, name: str) -> Callable[[], None]:
    def pressed() -> None:
        on_press(player, name)

    return pressed


def to_loop(loop: asyncio.AbstractEventLoop, handler: Callable[[int, str], None]) -> Callable[[int, str], None]:
    """A press callback safe to call from gpiozero's threads: it runs ``handler`` on ``loop``."""

    def press(player: int, name: str) -> None:
        loop.call_soon_threadsafe(handler, player, name)

    return press
