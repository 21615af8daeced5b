"""The board as built: the one reader of ``pins.toml`` and ``grid.toml``, and where the firmware is.

The files are the repository's ``hardware/pins.toml`` and ``hardware/grid.toml`` (the place
a person reads and edits them; ``hardware/README.md``), shipped inside the package as data
(``bgboard/hardware/*.toml`` are links to them in a checkout, copies in a wheel), so an
installed bgboard has them too.  ``$BGBOARD_HARDWARE`` names a directory holding another
copy (a board wired differently).  The MicroPython firmware ships the same way
(:func:`firmware_dir`), so ``bgboard firmware deploy`` and ``bgboard sim`` work from a wheel.

``parse_pins(text)`` and ``parse_grid(text)`` are pure and check everything, raising
:class:`HardwareError` (an :class:`~bgboard.errors.InputError`: one sentence naming the
key); :func:`load_pins` and :func:`load_grid` read the files.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Mapping, cast

from bgboard.errors import InputError

ENV = "BGBOARD_HARDWARE"
HERE = Path(__file__).resolve().parent
PLAYERS = ("white", "black")  # player 0, player 1 ([pi.buttons.white], [pi.buttons.black])
POINT_PLACES = tuple(str(p) for p in range(1, 25))
BAR_PLACES = ("bar-white", "bar-black")
OFF_PLACES = ("off-white", "off-black")
#: The places of grid.toml: physical points from white's view, the bar halves, the trays.
PLACES = POINT_PLACES + BAR_PLACES + OFF_PLACES
GPIO_LINES = range(0, 28)  # BCM 0..27 on a Raspberry Pi header


class HardwareError(InputError):
    """A pins.toml or grid.toml that does not describe a board (one sentence naming the key)."""


@dataclass(frozen=True, slots=True)
class DisplayPins:
    """The e-paper panel on SPI (``[pi.display]``, BCM numbers)."""

    rst: int
    dc: int
    cs: int
    busy: int
    mosi: int
    sclk: int
    spi_bus: int
    spi_device: int


@dataclass(frozen=True, slots=True)
class PiPins:
    """Every Raspberry Pi pin: the panel's, and each ``(player, button)``'s (player 0 = white)."""

    display: DisplayPins
    buttons: Mapping[tuple[int, str], int]


@dataclass(frozen=True, slots=True)
class Slot:
    """The ``index``-th slot of ``place`` (0 = its base): its first hall sensor is read on ``mux``
    ``channel``, and ``more`` lists the ``(mux, channel)`` of the slot's further sensors, from
    the base outwards (two sensors per slot, half a slot pitch apart: hardware/README.md, "A
    lone checker anywhere")."""

    place: str
    index: int
    mux: int
    channel: int
    more: tuple[tuple[int, int], ...] = ()

    @property
    def sensors(self) -> tuple[tuple[int, int], ...]:
        """Every sensor of the slot as ``(mux, channel)``, base side first."""
        return ((self.mux, self.channel),) + self.more


@dataclass(frozen=True)
class Grid:
    """Every sensing slot in wire order (the slot numbers of docs/protocol.md)."""

    slots: tuple[Slot, ...]

    def __post_init__(self) -> None:
        by_place: dict[str, list[Slot]] = {}
        for s in self.slots:
            by_place.setdefault(s.place, []).append(s)
        object.__setattr__(self, "_by_place", {p: tuple(sorted(v, key=lambda s: s.index)) for p, v in by_place.items()})
        object.__setattr__(self, "_index", {s: i for i, s in enumerate(self.slots)})
        object.__setattr__(self, "_sensors", tuple((s, k) for s in self.slots for k in range(len(s.sensors))))

    def of(self, place: str) -> tuple[Slot, ...]:
        """The slots of one place, base first (fill order)."""
        return self._by_place.get(place, ())  # type: ignore[attr-defined, no-any-return]

    def position(self, slot: Slot) -> int:
        """The slot's number in wire (scan) order."""
        return self._index[slot]  # type: ignore[attr-defined, no-any-return]

    def count(self, kind: str) -> int:
        """Slots of the first place of a kind: ``"point"``, ``"bar"`` or ``"off"``."""
        first = {"point": "1", "bar": "bar-white", "off": "off-white"}[kind]
        return len(self.of(first))

    def places(self) -> tuple[str, ...]:
        """Every place that has slots, in first-seen (wire) order."""
        return tuple(self._by_place)  # type: ignore[attr-defined]

    @property
    def per_slot(self) -> int:
        """How many sensors each slot has (the same for every slot: :func:`parse_grid` checks)."""
        return len(self.slots[0].sensors) if self.slots else 1

    def firmware_layout(self) -> tuple[int, bytes, bytes]:
        """``(PER_SLOT, SLOT_PLACE, SLOT_INDEX)`` as hardware/make_board.py writes them into
        firmware/board.py: sensors per slot, each slot's place (numbered in :meth:`places`
        order) and its index — the arguments of the firmware's run rule, ``runs.Runs``."""
        places = self.places()
        return self.per_slot, bytes(places.index(s.place) for s in self.slots), bytes(s.index for s in self.slots)

    def sensors(self) -> tuple[tuple[Slot, int], ...]:
        """Every sensor as ``(slot, part)`` in the firmware's sensor order: slot by slot in wire
        order, each slot's sensors from its base side (``part`` 0, 1 ...); made once, with the grid."""
        return self._sensors  # type: ignore[attr-defined, no-any-return]


# ---------------------------------------------------------------------- pure parsers
def _toml(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HardwareError(f"{name} is not valid TOML ({exc}): fix it or set {ENV} to a good copy") from None


def _pin(table: Any, where: str, key: str) -> int:
    value = table.get(key) if isinstance(table, dict) else None
    if not isinstance(value, int) or isinstance(value, bool):
        raise HardwareError(f"pins.toml needs a pin number for {where}.{key}")
    return value


def parse_pins(text: str) -> PiPins:
    """The Raspberry Pi pins of pins.toml text (``[pi.display]``, ``[pi.buttons.white]``,
    ``[pi.buttons.black]``), every GPIO line in range and used once."""
    pi = _toml(text, "pins.toml").get("pi", {})
    pi = pi if isinstance(pi, dict) else {}
    display = DisplayPins(**{f.name: _pin(pi.get("display"), "pi.display", f.name) for f in fields(DisplayPins)})
    buttons: dict[tuple[int, str], int] = {}
    tables = pi.get("buttons", {}) if isinstance(pi.get("buttons"), dict) else {}
    for player, who in enumerate(PLAYERS):
        table = tables.get(who)
        if not isinstance(table, dict) or not table:
            raise HardwareError(f"pins.toml needs a table [pi.buttons.{who}] of button pins")
        for name in table:
            buttons[player, name] = _pin(table, f"pi.buttons.{who}", name)
    lines = {f"pi.display.{f.name}": getattr(display, f.name) for f in fields(DisplayPins) if not f.name.startswith("spi_")}
    lines.update({f"pi.buttons.{PLAYERS[p]}.{name}": pin for (p, name), pin in buttons.items()})
    used: dict[int, str] = {}
    for key, pin in lines.items():
        if pin not in GPIO_LINES:
            raise HardwareError(f"{key} = {pin} is not a Raspberry Pi GPIO (0 to 27)")
        if pin in used:
            raise HardwareError(f"{key} and {used[pin]} both use GPIO {pin}")
        used[pin] = key
    return PiPins(display, buttons)


def parse_grid(text: str) -> Grid:
    """The slots of grid.toml text in wire order: ``slot = [{ place, index, mux, channel }, ...]``
    (one sensor per slot) or ``slot = [{ place, index, sensors = [[mux, channel], ...] }, ...]``
    (the slot's sensors from its base side); every place has slots numbered 0, 1, 2 ... from
    its base, every slot the same number of sensors, every channel is used once."""
    entries = _toml(text, "grid.toml").get("slot")
    if not isinstance(entries, list) or not entries:
        raise HardwareError("grid.toml needs a list slot = [{ place = ..., index = ..., mux = ..., channel = ... }, ...]")

    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    slots = []
    for number, entry in enumerate(entries):
        values = entry if isinstance(entry, dict) else {}
        place, index = values.get("place"), values.get("index")
        pairs = values.get("sensors", [[values.get("mux"), values.get("channel")]])
        if not isinstance(pairs, list) or not pairs or not all(isinstance(p, list) and len(p) == 2 and all(whole(v) for v in p) for p in pairs):
            pairs = None
        if not isinstance(place, str) or not whole(index) or pairs is None:
            raise HardwareError(f"slot {number} of grid.toml needs a place and whole numbers index, mux and channel "
                                "(or sensors = [[mux, channel], ...])")
        found = [(int(a), int(b)) for a, b in cast(list[list[int]], pairs)]
        slots.append(Slot(place, int(cast(int, index)), found[0][0], found[0][1], tuple(found[1:])))
    seen: dict[tuple[int, int], int] = {}
    for number, slot in enumerate(slots):
        if slot.place not in PLACES:
            raise HardwareError(f"slot {number} of grid.toml sits under an unknown place {slot.place!r}")
        if len(slot.sensors) != len(slots[0].sensors):
            raise HardwareError(f"slot {number} of grid.toml has {len(slot.sensors)} sensors, slot 0 has {len(slots[0].sensors)}: "
                                "every slot needs the same number")
        for mux, channel in slot.sensors:
            if channel >= 16:
                raise HardwareError(f"slot {number} of grid.toml is on channel {channel}: a CD74HC4067 has 0 to 15")
            if (mux, channel) in seen:
                raise HardwareError(f"slots {seen[mux, channel]} and {number} of grid.toml share mux {mux} channel {channel}")
            seen[mux, channel] = number
    grid = Grid(tuple(slots))
    for place in PLACES:
        if [s.index for s in grid.of(place)] != list(range(len(grid.of(place)))) or not grid.of(place):
            raise HardwareError(f"the slots of place {place} in grid.toml must be numbered 0, 1, 2 ... from its base")
    return grid


# ---------------------------------------------------------------------- the files
def hardware_dir() -> Path:
    """``$BGBOARD_HARDWARE``, or the copy shipped with the package."""
    env = os.environ.get(ENV)
    return Path(env) if env else HERE


def firmware_dir() -> Path:
    """The MicroPython firmware (``main.py`` and its modules; ``sim/`` the unix-port shim)."""
    return (HERE / "firmware").resolve()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise HardwareError(f"{path} is not UTF-8 text: save it as UTF-8") from None
    except OSError as exc:
        raise HardwareError(f"cannot read {path} ({exc.strerror or exc}): check {ENV} or reinstall bgboard") from None


def load_pins() -> PiPins:
    """The Pi pins of ``pins.toml`` in :func:`hardware_dir`."""
    return parse_pins(_read(hardware_dir() / "pins.toml"))


def load_grid(path: str | Path | None = None) -> Grid:
    """The sensor grid of ``path`` (default: ``grid.toml`` in :func:`hardware_dir`)."""
    return parse_grid(_read(Path(path) if path else hardware_dir() / "grid.toml"))


__all__ = [
    "BAR_PLACES", "ENV", "GPIO_LINES", "OFF_PLACES", "PLACES", "PLAYERS", "POINT_PLACES",
    "DisplayPins", "Grid", "HardwareError", "PiPins", "Slot", "firmware_dir", "hardware_dir",
    "load_grid", "load_pins", "parse_grid", "parse_pins",
]
