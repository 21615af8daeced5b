"""Messages of the board link (pure): frozen dataclasses <-> frame payloads.

Device -> host: :class:`Hello`, :class:`Snapshot`, :class:`Changes`, :class:`Roll`,
:class:`Heartbeat`, :class:`Ack`, :class:`Pong`, :class:`DeviceError`.
Host -> device: :class:`RequestSnapshot`, :class:`Calibrate`, :class:`SetLeds`,
:class:`SetRolling`, :class:`Ping`, :class:`Reboot`.

``encode(message, seq) -> bytes`` builds a whole frame; ``decode(frame) -> Message``
reads one (raising :class:`MessageError` for a payload that does not fit its type).
The layouts are in docs/protocol.md; golden frames in tests/data/frames keep this module
and firmware/wire.py in step.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Callable, Final, Union

from bgboard.errors import InputError
from bgboard.link.frames import Frame, encode_frame

PROTOCOL_VERSION: Final = 1

# Slot state byte: level << 2 | colour.
EMPTY: Final = 0
WHITE: Final = 1
BLACK: Final = 2
FAULT: Final = 3
MAX_LEVEL: Final = 7

HOST_LEDS: Final = 28
MAX_CHANGES: Final = 170
#: ROLLING's payload that rolls the dice at once (firmware/wire.py ROLL_NOW).
ROLL_NOW: Final = 2


class Kind(IntEnum):
    """The type byte of a frame (docs/protocol.md; firmware/wire.py has the same numbers)."""

    HELLO = 0x01
    SNAPSHOT = 0x02
    CHANGES = 0x03
    ROLL = 0x04
    HEARTBEAT = 0x05
    ACK = 0x06
    PONG = 0x07
    ERROR = 0x08
    SNAPSHOT_REQUEST = 0x81
    CALIBRATE = 0x82
    LEDS = 0x83
    ROLLING = 0x84
    PING = 0x85
    REBOOT = 0x86


class ErrorCode(IntEnum):
    """The code of a device ERROR frame (docs/protocol.md; firmware/wire.py)."""

    BAD_CHECKSUM = 1
    OVERSIZED = 2
    UNKNOWN_COMMAND = 3
    BAD_PAYLOAD = 4
    SEQUENCE_GAP = 5
    CALIBRATION_CORRUPT = 6
    CALIBRATION_UNSAVED = 7
    ROLLING_DISABLED = 8
    CALIBRATION_REFUSED = 9


class MessageError(InputError):
    """A frame whose payload does not fit its message type (one sentence)."""


def slot_state(colour: int, level: int) -> int:
    """The state byte of a slot: ``colour`` EMPTY/WHITE/BLACK/FAULT, ``level`` 0..7."""
    if colour not in (EMPTY, WHITE, BLACK, FAULT) or not 0 <= level <= MAX_LEVEL:
        raise MessageError(f"no slot state has colour {colour} and level {level}")
    return level << 2 | colour


def state_colour(state: int) -> int:
    """EMPTY, WHITE, BLACK or FAULT of a slot state byte."""
    return state & 3


def state_level(state: int) -> int:
    """The magnet count (field level) of a slot state byte, 0..7."""
    return state >> 2


def _check_state(state: int) -> int:
    colour, level = state & 3, state >> 2
    if (colour in (EMPTY, FAULT)) != (level == 0):
        raise MessageError(f"slot state 0x{state:02x} is not valid")
    return state


# --- device -> host -------------------------------------------------------------------

CALIBRATION_LOADED: Final = 0
CALIBRATION_DEFAULTS: Final = 1
CALIBRATION_CORRUPT: Final = 2

SNAPSHOT_BOOT: Final = 0
SNAPSHOT_REQUESTED: Final = 1
SNAPSHOT_CALIBRATED: Final = 2


@dataclass(frozen=True, slots=True)
class Hello:
    """The board (re)started: protocol version, slot count, calibration status, firmware."""

    KIND = Kind.HELLO
    protocol: int
    slots: int
    calibration: int
    firmware: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every slot's debounced state, in grid order; ``reason`` SNAPSHOT_BOOT/REQUESTED/CALIBRATED."""

    KIND = Kind.SNAPSHOT
    reason: int
    states: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlotChange:
    """Slot ``slot`` now reads ``state``."""

    slot: int
    state: int


@dataclass(frozen=True, slots=True)
class Changes:
    """Slots that settled on a new state in one scan."""

    KIND = Kind.CHANGES
    changes: tuple[SlotChange, ...]


@dataclass(frozen=True, slots=True)
class Roll:
    """The dice button rolled ``dice``; ``number`` counts every roll the board ever made."""

    KIND = Kind.ROLL
    number: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Alive: uptime (ms, wraps at 2**32), scans since boot, last roll number, rolling on?"""

    KIND = Kind.HEARTBEAT
    uptime_ms: int
    scans: int
    last_roll: int
    rolling: bool


@dataclass(frozen=True, slots=True)
class Ack:
    """The command with sequence ``command_seq`` and type ``command`` was carried out."""

    KIND = Kind.ACK
    command_seq: int
    command: int


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to the PING ``command_seq``, echoing its ``nonce``."""

    KIND = Kind.PONG
    command_seq: int
    nonce: int


ERROR_NAMES: Final = {int(code): code.name.lower() for code in ErrorCode}


@dataclass(frozen=True, slots=True)
class DeviceError:
    """The board reports a problem: ``code`` (see ERROR_NAMES), the command it answers
    (``command_seq``/``command``, 0 when none) and one sentence."""

    KIND = Kind.ERROR
    code: int
    command_seq: int
    command: int
    text: str

    @property
    def name(self) -> str:
        """The error's name, e.g. ``"bad_payload"``."""
        return ERROR_NAMES.get(self.code, f"error_{self.code}")


# --- host -> device -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RequestSnapshot:
    """Ask for a SNAPSHOT (after a gap or a bad frame: resynchronise)."""

    KIND = Kind.SNAPSHOT_REQUEST


CALIBRATE_EMPTY: Final = 0
CALIBRATE_CHECKERS: Final = 1
CALIBRATE_DEFAULTS: Final = 2


@dataclass(frozen=True, slots=True)
class Calibrate:
    """Calibrate: ``mode`` CALIBRATE_EMPTY, CALIBRATE_CHECKERS or CALIBRATE_DEFAULTS."""

    KIND = Kind.CALIBRATE
    mode: int


@dataclass(frozen=True, slots=True)
class Led:
    """Host LED ``index`` (0..23 points 1..24, 24/25 bars, 26/27 trays) set to ``rgb``."""

    index: int
    rgb: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class SetLeds:
    """Light exactly these host LEDs (every other host LED goes dark)."""

    KIND = Kind.LEDS
    leds: tuple[Led, ...]


@dataclass(frozen=True, slots=True)
class SetRolling:
    """Whether the dice button rolls; ``now``: roll at once, as a press of the button would
    (the engine opponent's own dice), the button staying off after (payload 2)."""

    KIND = Kind.ROLLING
    enabled: bool
    now: bool = False


@dataclass(frozen=True, slots=True)
class Ping:
    """Are you there? The PONG echoes ``nonce``."""

    KIND = Kind.PING
    nonce: int


REBOOT_RESET: Final = 0
REBOOT_REPL: Final = 1


@dataclass(frozen=True, slots=True)
class Reboot:
    """Reset the Pico (REBOOT_RESET) or stop the firmware and give back the REPL (REBOOT_REPL)."""

    KIND = Kind.REBOOT
    mode: int


DeviceMessage = Union[Hello, Snapshot, Changes, Roll, Heartbeat, Ack, Pong, DeviceError]
HostMessage = Union[RequestSnapshot, Calibrate, SetLeds, SetRolling, Ping, Reboot]
Message = Union[DeviceMessage, HostMessage]


# --- payloads -------------------------------------------------------------------------


def _u8(value: int, what: str) -> int:
    if not 0 <= value <= 0xFF:
        raise MessageError(f"{what} must be 0..255, not {value}")
    return value


def payload(message: Message) -> bytes:
    """The payload bytes of ``message``."""
    if isinstance(message, Hello):
        return struct.pack("<BHB", message.protocol, message.slots, message.calibration) + (
            message.firmware.encode("utf-8")
        )
    if isinstance(message, Snapshot):
        states = bytes(_check_state(s) for s in message.states)
        return struct.pack("<BH", message.reason, len(states)) + states
    if isinstance(message, Changes):
        if not 1 <= len(message.changes) <= MAX_CHANGES:
            raise MessageError(f"a CHANGES frame holds 1..{MAX_CHANGES} changes")
        return bytes([len(message.changes)]) + b"".join(
            struct.pack("<HB", c.slot, _check_state(c.state)) for c in message.changes
        )
    if isinstance(message, Roll):
        d1, d2 = message.dice
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise MessageError(f"dice show 1..6, not {d1} and {d2}")
        return struct.pack("<IBB", message.number, d1, d2)
    if isinstance(message, Heartbeat):
        return struct.pack(
            "<IIIB", message.uptime_ms, message.scans, message.last_roll, int(message.rolling)
        )
    if isinstance(message, Ack):
        return struct.pack("<HB", message.command_seq, message.command)
    if isinstance(message, Pong):
        return struct.pack("<HI", message.command_seq, message.nonce)
    if isinstance(message, DeviceError):
        return struct.pack("<BHB", message.code, message.command_seq, message.command) + (
            message.text.encode("utf-8")
        )
    if isinstance(message, RequestSnapshot):
        return b""
    if isinstance(message, Calibrate):
        if message.mode not in (CALIBRATE_EMPTY, CALIBRATE_CHECKERS, CALIBRATE_DEFAULTS):
            raise MessageError(f"calibration mode {message.mode} does not exist")
        return bytes([message.mode])
    if isinstance(message, SetLeds):
        if len(message.leds) > HOST_LEDS:
            raise MessageError(f"at most {HOST_LEDS} LEDs can be set at once")
        out = bytearray()
        for led in message.leds:
            if not 0 <= led.index < HOST_LEDS:
                raise MessageError(f"host LEDs are 0..{HOST_LEDS - 1}, not {led.index}")
            out += bytes([led.index, *(_u8(c, "an LED colour") for c in led.rgb)])
        return bytes(out)
    if isinstance(message, SetRolling):
        return bytes([ROLL_NOW if message.now else int(message.enabled)])
    if isinstance(message, Ping):
        return struct.pack("<I", message.nonce)
    if isinstance(message, Reboot):  # pyright: ignore[reportUnnecessaryIsInstance] - the last kind, checked like the others
        if message.mode not in (REBOOT_RESET, REBOOT_REPL):
            raise MessageError(f"reboot mode {message.mode} does not exist")
        return bytes([message.mode])
    raise TypeError(f"not a link message: {message!r}")


def to_frame(message: Message, seq: int) -> Frame:
    """``message`` as a :class:`Frame` numbered ``seq``."""
    return Frame(message.KIND, seq, payload(message))


def encode(message: Message, seq: int) -> bytes:
    """The wire bytes of ``message`` sent as frame number ``seq``."""
    return encode_frame(to_frame(message, seq))


def _need(data: bytes, size: int, name: str, exact: bool = True) -> None:
    if len(data) < size or (exact and len(data) != size):
        raise MessageError(f"a {name} frame has a {len(data)}-byte payload, which does not fit")


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise MessageError(f"the text of a {name} frame is not UTF-8") from None


def _read_hello(data: bytes) -> Hello:
    _need(data, 4, "HELLO", exact=False)
    protocol, slots, calibration = struct.unpack_from("<BHB", data)
    return Hello(protocol, slots, calibration, _text(data[4:], "HELLO"))


def _read_snapshot(data: bytes) -> Snapshot:
    _need(data, 3, "SNAPSHOT", exact=False)
    reason, count = struct.unpack_from("<BH", data)
    _need(data, 3 + count, "SNAPSHOT")
    return Snapshot(reason, tuple(_check_state(s) for s in data[3:]))


def _read_changes(data: bytes) -> Changes:
    _need(data, 1, "CHANGES", exact=False)
    count = data[0]
    if count == 0:
        raise MessageError("a CHANGES frame holds at least one change")
    _need(data, 1 + 3 * count, "CHANGES")
    changes: list[SlotChange] = []
    for i in range(count):
        slot, state = struct.unpack_from("<HB", data, 1 + 3 * i)
        changes.append(SlotChange(slot, _check_state(state)))
    return Changes(tuple(changes))


def _read_roll(data: bytes) -> Roll:
    _need(data, 6, "ROLL")
    number, d1, d2 = struct.unpack("<IBB", data)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise MessageError(f"a ROLL frame shows dice {d1} and {d2}")
    return Roll(number, (d1, d2))


def _read_heartbeat(data: bytes) -> Heartbeat:
    _need(data, 13, "HEARTBEAT")
    uptime, scans, last, flags = struct.unpack("<IIIB", data)
    return Heartbeat(uptime, scans, last, bool(flags & 1))


def _read_ack(data: bytes) -> Ack:
    _need(data, 3, "ACK")
    return Ack(*struct.unpack("<HB", data))


def _read_pong(data: bytes) -> Pong:
    _need(data, 6, "PONG")
    return Pong(*struct.unpack("<HI", data))


def _read_error(data: bytes) -> DeviceError:
    _need(data, 4, "ERROR", exact=False)
    code, seq, command = struct.unpack_from("<BHB", data)
    return DeviceError(code, seq, command, _text(data[4:], "ERROR"))


def _read_snapshot_request(data: bytes) -> RequestSnapshot:
    _need(data, 0, "SNAPSHOT-REQUEST")
    return RequestSnapshot()


def _read_calibrate(data: bytes) -> Calibrate:
    _need(data, 1, "CALIBRATE")
    if data[0] not in (CALIBRATE_EMPTY, CALIBRATE_CHECKERS, CALIBRATE_DEFAULTS):
        raise MessageError(f"calibration mode {data[0]} does not exist")
    return Calibrate(data[0])


def _read_leds(data: bytes) -> SetLeds:
    if len(data) % 4 or len(data) > 4 * HOST_LEDS:
        raise MessageError(f"a LEDS frame has a {len(data)}-byte payload, which does not fit")
    leds = tuple(
        Led(data[i], (data[i + 1], data[i + 2], data[i + 3])) for i in range(0, len(data), 4)
    )
    if any(led.index >= HOST_LEDS for led in leds):
        raise MessageError(f"host LEDs are 0..{HOST_LEDS - 1}")
    return SetLeds(leds)


def _read_rolling(data: bytes) -> SetRolling:
    _need(data, 1, "ROLLING")
    if data[0] > ROLL_NOW:
        raise MessageError("a ROLLING frame says 0, 1 or 2")
    return SetRolling(data[0] == 1, now=data[0] == ROLL_NOW)


def _read_ping(data: bytes) -> Ping:
    _need(data, 4, "PING")
    return Ping(struct.unpack("<I", data)[0])


def _read_reboot(data: bytes) -> Reboot:
    _need(data, 1, "REBOOT")
    if data[0] not in (REBOOT_RESET, REBOOT_REPL):
        raise MessageError(f"reboot mode {data[0]} does not exist")
    return Reboot(data[0])


#: The reader of each frame type's payload (each raises :class:`MessageError` for a
#: payload that does not fit).
_READERS: Final[dict[int, Callable[[bytes], Message]]] = {
    Kind.HELLO: _read_hello,
    Kind.SNAPSHOT: _read_snapshot,
    Kind.CHANGES: _read_changes,
    Kind.ROLL: _read_roll,
    Kind.HEARTBEAT: _read_heartbeat,
    Kind.ACK: _read_ack,
    Kind.PONG: _read_pong,
    Kind.ERROR: _read_error,
    Kind.SNAPSHOT_REQUEST: _read_snapshot_request,
    Kind.CALIBRATE: _read_calibrate,
    Kind.LEDS: _read_leds,
    Kind.ROLLING: _read_rolling,
    Kind.PING: _read_ping,
    Kind.REBOOT: _read_reboot,
}


def decode(frame: Frame) -> Message:
    """The message carried by ``frame``; raises :class:`MessageError` if it does not fit."""
    reader = _READERS.get(frame.kind)
    if reader is None:
        raise MessageError(f"frame type 0x{frame.kind:02x} is not a known message")
    return reader(frame.payload)
