"""The hardware description the host reads at run time: hardware/pins.toml (Pi pins) and
hardware/grid.toml (sensor slots).

``parse_pins(text)`` and :func:`bgboard.link.places.parse_grid` are pure; ``read_pins()`` /
``read_grid()`` read the files (from ``$BGBOARD_HARDWARE`` or the repository's hardware/).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from bgboard.errors import InputError
from bgboard.link.places import Grid, parse_grid


class PinsError(InputError):
    """A pins.toml that cannot drive the board (one sentence naming the key)."""


@dataclass(frozen=True, slots=True)
class DisplayPins:
    """The e-paper panel on SPI (BCM numbers)."""

    rst: int
    dc: int
    cs: int
    busy: int
    mosi: int
    sclk: int
    spi_bus: int
    spi_device: int


@dataclass(frozen=True, slots=True)
class PlayerButtons:
    """One player's buttons: roll/done, double/take, drop (BCM numbers, to GND)."""

    roll: int
    double: int
    drop: int


@dataclass(frozen=True, slots=True)
class PiPins:
    """Every Raspberry Pi pin; ``buttons[0]`` is white's (player 0), ``buttons[1]`` black's."""

    display: DisplayPins
    buttons: tuple[PlayerButtons, PlayerButtons]


def parse_pins(text: str) -> PiPins:
    """The Pi pins of ``hardware/pins.toml`` text; raises :class:`PinsError`."""
    try:
        pi = tomllib.loads(text).get("pi", {})
    except tomllib.TOMLDecodeError as exc:
        raise PinsError(f"pins.toml is not valid TOML: {exc}") from None
    display = DisplayPins(**{f.name: _pin(pi, "display", f.name) for f in fields(DisplayPins)})
    keys = [f.name for f in fields(PlayerButtons)]
    buttons = tuple(
        PlayerButtons(**{k: _pin(pi.get("buttons", {}), who, k, "buttons.") for k in keys})
        for who in ("white", "black")
    )
    # every GPIO line (the SPI bus and device numbers are not pins)
    gpio = {
        "display." + f.name: getattr(display, f.name)
        for f in fields(DisplayPins)
        if not f.name.startswith("spi_")
    }
    for who, b in zip(("white", "black"), buttons):
        gpio.update({f"buttons.{who}.{k}": getattr(b, k) for k in keys})
    used: dict[int, str] = {}
    for key, pin in gpio.items():
        if not 0 <= pin <= 27:
            raise PinsError(f"pi.{key} = {pin} is not a Raspberry Pi GPIO (0 to 27)")
        if pin in used:
            raise PinsError(f"pi.{key} and pi.{used[pin]} both use GPIO {pin}")
        used[pin] = key
    return PiPins(display, (buttons[0], buttons[1]))


def _pin(tables: dict, table: str, key: str, prefix: str = "") -> int:
    value = tables.get(table, {}).get(key) if isinstance(tables.get(table), dict) else None
    if not isinstance(value, int) or isinstance(value, bool):
        raise PinsError(f"pins.toml needs a pin number for pi.{prefix}{table}.{key}")
    return value


def hardware_dir() -> Path:
    """``$BGBOARD_HARDWARE`` or the repository's hardware/ directory."""
    env = os.environ.get("BGBOARD_HARDWARE")
    return Path(env) if env else Path(__file__).resolve().parents[3] / "hardware"


def _read(name: str) -> str:
    path = hardware_dir() / name
    try:
        return path.read_text()
    except OSError as exc:
        raise PinsError(f"cannot read {path}: {exc.strerror}") from None


def read_pins() -> PiPins:
    """The Pi pins from hardware/pins.toml."""
    return parse_pins(_read("pins.toml"))


def read_grid() -> Grid:
    """The sensor grid from hardware/grid.toml."""
    return parse_grid(_read("grid.toml"))
