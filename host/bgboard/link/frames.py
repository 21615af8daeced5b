"""Frame codec of the board link (pure): bytes <-> :class:`Frame`, see docs/protocol.md.

A frame is ``B6 9A | type u8 | seq u16 | length u16 | payload | crc32 u32`` (little-endian);
the CRC covers type, seq, length and payload.  :class:`FrameDecoder` accepts bytes in any
chunking (whole frames, single bytes, many frames per chunk) and reports what it had to
throw away as :class:`Problem` values so the connection can resynchronise.
:class:`SequenceWatch` spots gaps in the sequence numbers.

No I/O and no clock: the serial transport feeds bytes in and writes bytes out.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from bgboard.errors import InputError

PREAMBLE: Final = b"\xb6\x9a"
HEADER_SIZE: Final = 7
CRC_SIZE: Final = 4
MAX_PAYLOAD: Final = 512
SEQ_MODULO: Final = 1 << 16

_HEADER = struct.Struct("<BHH")


class FrameError(InputError):
    """A frame that cannot be built (the message says which field is out of range)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: its ``kind`` (message type byte), sequence number and payload."""

    kind: int
    seq: int
    payload: bytes

    def __post_init__(self) -> None:
        if not 0 <= self.kind <= 0xFF:
            raise FrameError(f"a frame type is a byte, not {self.kind}")
        if not 0 <= self.seq < SEQ_MODULO:
            raise FrameError(f"a sequence number is 0..65535, not {self.seq}")
        if len(self.payload) > MAX_PAYLOAD:
            raise FrameError(f"a payload holds at most {MAX_PAYLOAD} bytes, not {len(self.payload)}")


class Reason(StrEnum):
    """Why the decoder threw bytes away (firmware/wire.py names the same reasons)."""

    GARBAGE = "garbage"  # bytes outside any frame
    OVERSIZED = "oversized"  # a header announcing more than MAX_PAYLOAD bytes
    BAD_CHECKSUM = "bad_checksum"


@dataclass(frozen=True, slots=True)
class Problem:
    """Bytes the decoder threw away.

    ``reason`` is ``"garbage"`` (bytes outside any frame), ``"oversized"`` (a header
    announcing more than :data:`MAX_PAYLOAD` bytes) or ``"bad_checksum"``; ``skipped`` is
    how many bytes were dropped for it.
    """

    reason: Reason
    skipped: int


@dataclass(frozen=True, slots=True)
class Gap:
    """A sequence gap: ``expected`` was due, ``got`` arrived."""

    expected: int
    got: int


def encode_frame(frame: Frame) -> bytes:
    """The wire bytes of ``frame``."""
    body = _HEADER.pack(frame.kind, frame.seq, len(frame.payload)) + frame.payload
    return PREAMBLE + body + struct.pack("<I", binascii.crc32(body) & 0xFFFFFFFF)


def decode_frame(data: bytes) -> Frame:
    """Exactly one frame from ``data`` (a golden frame, a test); raises :class:`FrameError`."""
    decoder = FrameDecoder()
    items = decoder.feed(data)
    if len(items) != 1 or not isinstance(items[0], Frame) or decoder.pending:
        raise FrameError("the bytes are not exactly one valid frame")
    return items[0]


class FrameDecoder:
    """Incremental frame decoder: ``feed(bytes)`` returns the frames and problems found.

    The result is the same however the bytes are split; garbage is reported (as one
    :class:`Problem` per run of dropped bytes) when the next frame or problem is found.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._garbage = 0

    @property
    def pending(self) -> int:
        """Bytes held back: an incomplete frame, or dropped garbage not yet reported."""
        return len(self._buffer) + self._garbage

    def feed(self, data: bytes) -> list[Frame | Problem]:
        """Add ``data``; return every frame and problem now complete, in stream order."""
        self._buffer += data
        out: list[Frame | Problem] = []
        buf = self._buffer
        while True:
            start = buf.find(PREAMBLE)
            if start < 0:
                keep = 1 if bytes(buf[-1:]) == PREAMBLE[:1] else 0
                self._garbage += len(buf) - keep
                del buf[: len(buf) - keep]
                break
            if start:
                self._garbage += start
                del buf[:start]
            if len(buf) < HEADER_SIZE:
                break
            kind, seq, length = _HEADER.unpack_from(buf, 2)
            if length > MAX_PAYLOAD:
                self._report(out, Problem(Reason.OVERSIZED, 1))
                del buf[:1]
                continue
            end = HEADER_SIZE + length + CRC_SIZE
            if len(buf) < end:
                break
            (crc,) = struct.unpack_from("<I", buf, end - CRC_SIZE)
            if binascii.crc32(buf[2 : end - CRC_SIZE]) & 0xFFFFFFFF != crc:
                self._report(out, Problem(Reason.BAD_CHECKSUM, 1))
                del buf[:1]
                continue
            self._report(out, Frame(kind, seq, bytes(buf[HEADER_SIZE : end - CRC_SIZE])))
            del buf[:end]
        return out

    def _report(self, out: list[Frame | Problem], item: Frame | Problem) -> None:
        if self._garbage:
            out.append(Problem(Reason.GARBAGE, self._garbage))
            self._garbage = 0
        out.append(item)


class SequenceWatch:
    """Checks that sequence numbers of one direction follow each other (mod 65536).

    ``observe(seq, restart=...)`` returns a :class:`Gap` when frames were lost; a
    ``restart`` frame (HELLO) starts the count afresh.
    """

    def __init__(self) -> None:
        self._expected: int | None = None

    def observe(self, seq: int, *, restart: bool = False) -> Gap | None:
        """Record ``seq``; a :class:`Gap` if it is not the one expected."""
        expected = self._expected
        self._expected = (seq + 1) % SEQ_MODULO
        if restart or expected is None or seq == expected:
            return None
        return Gap(expected, seq)


class SequenceCounter:
    """Numbers outgoing frames 0, 1, 2, ... 65535, 0, ..."""

    def __init__(self) -> None:
        self._next = 0

    def next(self) -> int:
        """The sequence number for the next frame sent."""
        seq = self._next
        self._next = (seq + 1) % SEQ_MODULO
        return seq
