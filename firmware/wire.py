"""The board link on the Pico side: frames and messages of docs/protocol.md.

Pure: no pins, no clock, no serial port.  ``Encoder`` numbers and builds outgoing frames;
``Decoder`` turns incoming bytes into ``(kind, seq, payload)`` tuples or problem strings.
Golden frames in tests/data/frames keep this file and host/bgboard/link/ in step.
"""

import binascii
import struct

PREAMBLE = b"\xb6\x9a"
HEADER_SIZE = 7
CRC_SIZE = 4
MAX_PAYLOAD = 512
PROTOCOL_VERSION = 1

# device -> host
HELLO = 0x01
SNAPSHOT = 0x02
CHANGES = 0x03
ROLL = 0x04
HEARTBEAT = 0x05
ACK = 0x06
PONG = 0x07
ERROR = 0x08
# host -> device
SNAPSHOT_REQUEST = 0x81
CALIBRATE = 0x82
LEDS = 0x83
ROLLING = 0x84
PING = 0x85
REBOOT = 0x86
ROLL_NOW = 2  # ROLLING's payload that rolls at once (the engine opponent's dice)

# error codes
BAD_CHECKSUM = 1
OVERSIZED = 2
UNKNOWN_COMMAND = 3
BAD_PAYLOAD = 4
SEQUENCE_GAP = 5
CALIBRATION_CORRUPT = 6
CALIBRATION_UNSAVED = 7
ROLLING_DISABLED = 8
CALIBRATION_REFUSED = 9

MAX_CHANGES = 170

# Decoder problems
GARBAGE = "garbage"
BAD_CRC = "bad_checksum"
TOO_LONG = "oversized"


def frame(kind: int, seq: int, payload: bytes) -> bytes:
    """The wire bytes of one frame."""
    body = struct.pack("<BHH", kind, seq, len(payload)) + payload
    return PREAMBLE + body + struct.pack("<I", binascii.crc32(body) & 0xFFFFFFFF)


class Encoder:
    """Builds the device's frames, numbering them 0, 1, ... 65535, 0, ..."""

    def __init__(self) -> None:
        self.seq = 0

    def _next(self, kind: int, payload: bytes) -> bytes:
        data = frame(kind, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFFFF
        return data

    def restart(self) -> None:
        """The next frame (a HELLO) gets number 0."""
        self.seq = 0

    def hello(self, slots: int, calibration: int, firmware: str) -> bytes:
        return self._next(
            HELLO, struct.pack("<BHB", PROTOCOL_VERSION, slots, calibration) + firmware.encode()
        )

    def snapshot(self, reason: int, states) -> bytes:
        return self._next(SNAPSHOT, struct.pack("<BH", reason, len(states)) + bytes(states))

    def changes(self, changes: list) -> list:
        """One or more CHANGES frames (at most MAX_CHANGES each) for ``[(slot, state)...]``."""
        out = []
        for start in range(0, len(changes), MAX_CHANGES):
            part = changes[start : start + MAX_CHANGES]
            body = bytearray(1 + 3 * len(part))  # sized once: no 3-byte pieces to join
            body[0] = len(part)
            for i in range(len(part)):
                struct.pack_into("<HB", body, 1 + 3 * i, part[i][0], part[i][1])
            out.append(self._next(CHANGES, bytes(body)))
        return out

    def roll(self, number: int, d1: int, d2: int) -> bytes:
        return self._next(ROLL, struct.pack("<IBB", number, d1, d2))

    def heartbeat(self, uptime_ms: int, scans: int, last_roll: int, rolling: bool) -> bytes:
        return self._next(
            HEARTBEAT,
            struct.pack(
                "<IIIB", uptime_ms & 0xFFFFFFFF, scans & 0xFFFFFFFF, last_roll, 1 if rolling else 0
            ),
        )

    def ack(self, command_seq: int, command: int) -> bytes:
        return self._next(ACK, struct.pack("<HB", command_seq, command))

    def pong(self, command_seq: int, nonce: int) -> bytes:
        return self._next(PONG, struct.pack("<HI", command_seq, nonce))

    def error(self, code: int, command_seq: int, command: int, text: str) -> bytes:
        return self._next(ERROR, struct.pack("<BHB", code, command_seq, command) + text.encode())


class Decoder:
    """Incremental frame decoder: ``feed(bytes)`` returns a list of ``(kind, seq, payload)``
    frames and problem strings (GARBAGE, BAD_CRC, TOO_LONG), resynchronising on the
    preamble after every problem."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.garbage = 0

    def feed(self, data: bytes) -> list:
        buf = self.buffer
        buf.extend(data)
        out = []
        while True:
            start = buf.find(PREAMBLE)
            if start < 0:
                keep = 1 if len(buf) and buf[-1] == PREAMBLE[0] else 0
                self.garbage += len(buf) - keep
                buf = buf[len(buf) - keep :]
                break
            if start:
                self.garbage += start
                buf = buf[start:]
            if len(buf) < HEADER_SIZE:
                break
            kind, seq, length = struct.unpack_from("<BHH", buf, 2)
            if length > MAX_PAYLOAD:
                self._report(out, TOO_LONG)
                buf = buf[1:]
                continue
            end = HEADER_SIZE + length + CRC_SIZE
            if len(buf) < end:
                break
            crc = struct.unpack_from("<I", buf, end - CRC_SIZE)[0]
            if binascii.crc32(buf[2 : end - CRC_SIZE]) & 0xFFFFFFFF != crc:
                self._report(out, BAD_CRC)
                buf = buf[1:]
                continue
            self._report(out, (kind, seq, bytes(buf[HEADER_SIZE : end - CRC_SIZE])))
            buf = buf[end:]
        self.buffer = buf
        return out

    def _report(self, out: list, item) -> None:
        if self.garbage:
            out.append(GARBAGE)
            self.garbage = 0
        out.append(item)
