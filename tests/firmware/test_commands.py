"""Host commands and their replies, malformed ones included, under the real unix port."""

from __future__ import annotations

import struct

import pytest

from bgboard.link import messages as m
from bgboard.link.frames import PREAMBLE, Frame, encode_frame

from fwrun import counts, host


def test_ping_snapshot_rolling_leds_each_get_their_reply(run_firmware) -> None:
    run = run_firmware([
        f"slot 5 {counts('white')}",
        "@100", host(m.Ping(7), 0),
        f"slot 6 {counts('black')}",
        "@200", host(m.RequestSnapshot(), 1),
        "@300", host(m.SetRolling(True), 2),
        "@400", host(m.SetLeds((m.Led(0, (255, 0, 0)), m.Led(27, (0, 0, 255)))), 3),
        "@500", "stop",
    ])
    replies = [x for x in run.messages if isinstance(x, (m.Pong, m.Ack, m.Snapshot))]
    states = [0] * 138
    states[5], states[6] = 5, 6
    assert replies == [
        m.Snapshot(m.SNAPSHOT_BOOT, tuple(states[:6]) + (0,) * 132),
        m.Pong(0, 7),
        m.Ack(1, m.RequestSnapshot.KIND),
        m.Snapshot(m.SNAPSHOT_REQUESTED, tuple(states)),
        m.Ack(2, m.SetRolling.KIND),
        m.Ack(3, m.SetLeds.KIND),
    ]
    assert run.of(m.DeviceError) == []
    last = run.leds[-1].split()[1:]
    assert len(last) == 42
    # brightness cap 64/255: 255 -> 64
    assert last[0] == "400000" and last[27] == "000040"
    assert set(last[1:27]) == {"000000"}


@pytest.mark.parametrize("frame, code, text", [
    (Frame(0x81, 0, b"\x00"), 4, "has no payload"),
    (Frame(0x82, 0, b"\x03"), 4, "one mode byte"),
    (Frame(0x83, 0, b"\x00\x01\x02"), 4, "groups of 4 bytes"),
    (Frame(0x83, 0, b"\x1c\x01\x02\x03"), 4, "not a host LED"),
    (Frame(0x84, 0, b"\x03"), 4, "0, 1 or 2"),
    (Frame(0x85, 0, b"\x01\x02"), 4, "4-byte nonce"),
    (Frame(0x86, 0, b""), 4, "one mode byte"),
    (Frame(0x99, 0, b""), 3, "0x99 is unknown"),
    (Frame(0x02, 0, b""), 3, "0x02 is unknown"),
])
def test_malformed_commands_get_an_error_reply(run_firmware, frame: Frame, code: int, text: str) -> None:
    run = run_firmware(["@100", "host " + encode_frame(frame).hex(), "@200", "stop"])
    assert run.returncode == 0
    errors = run.of(m.DeviceError)
    assert len(errors) == 1
    error = errors[0]
    assert (error.code, error.command_seq, error.command) == (code, frame.seq, frame.kind)
    assert text in error.text
    assert run.of(m.Ack) == []


def test_bad_checksum_and_oversized_frames_are_answered_and_skipped(run_firmware) -> None:
    bad = bytearray(m.encode(m.Ping(1), 0))
    bad[-1] ^= 0xFF
    oversized = PREAMBLE + struct.pack("<BHH", 0x85, 1, 600)
    run = run_firmware(["@100", "host " + bad.hex() + oversized.hex() + "00ff" + m.encode(m.Ping(2), 2).hex(),
                        "@200", "stop"])
    errors = [(e.code, e.name) for e in run.of(m.DeviceError)]
    assert errors[:2] == [(1, "bad_checksum"), (2, "oversized")]
    assert run.of(m.Pong) == [m.Pong(2, 2)]


def test_a_lost_command_is_reported_as_a_sequence_gap(run_firmware) -> None:
    run = run_firmware(["@100", host(m.Ping(1), 10), host(m.Ping(2), 11), host(m.Ping(3), 14),
                        "@200", "stop"])
    assert run.of(m.Pong) == [m.Pong(10, 1), m.Pong(11, 2), m.Pong(14, 3)]
    gap = run.of(m.DeviceError)
    assert [(e.name, e.command_seq) for e in gap] == [("sequence_gap", 14)]
    assert "12 to 13" in gap[0].text


def test_reboot_to_repl_stops_the_firmware_and_reset_resets(run_firmware) -> None:
    run = run_firmware(["@100", host(m.Reboot(m.REBOOT_REPL), 0), "@5000", "stop"])
    assert run.returncode == 0
    assert run.messages[-1] == m.Ack(0, m.Reboot.KIND)
    assert run.of(m.Heartbeat) == []  # stopped at 100 ms, long before the first heartbeat
    run = run_firmware(["@100", host(m.Reboot(m.REBOOT_RESET), 0), "@5000", "stop"])
    assert run.returncode == 75  # the shim's machine.reset()
    assert run.messages[-1] == m.Ack(0, m.Reboot.KIND)


def test_safe_mode_with_the_button_held_at_boot(run_firmware) -> None:
    run = run_firmware(["@100", "stop"], BGBOARD_SIM_BUTTON_AT_BOOT="1")
    assert run.returncode == 0
    assert run.frames == []


FUZZ = r'''
import os, struct
import wire
from hal import Hal
from controller import Controller

hal = Hal()
c = Controller(hal)
decoder = wire.Decoder()
tally = [0, 0]  # replies, frames


def send(data):
    for item in decoder.feed(data):
        if not isinstance(item, tuple):
            raise SystemExit("the firmware wrote a broken frame")
        kind, seq, payload = item
        tally[1] += 1
        if kind in (wire.ACK, wire.PONG) or (kind == wire.ERROR and payload[0] != wire.SEQUENCE_GAP):
            tally[0] += 1


c.send = send
kinds = [0x81, 0x82, 0x83, 0x84, 0x85, 0x01, 0x08, 0x7f, 0x87, 0xff]
commands = 0
for seq in range(%d):
    r = os.urandom(3)
    kind = kinds[r[0] %% len(kinds)]
    payload = os.urandom(r[1] %% 12)
    c.receive(wire.frame(kind, seq, payload))
    commands += 1
print(commands, tally[0], tally[1])
'''


def test_random_commands_each_get_exactly_one_reply_and_never_crash(tmp_path) -> None:
    """Fuzz: valid frames with random types and payloads (not REBOOT, which really resets)."""
    from fwrun import run_script

    proc = run_script(FUZZ % 3000, tmp_path)
    assert proc.returncode == 0, proc.stderr
    commands, replies, frames = map(int, proc.stdout.split())
    assert commands == replies == 3000
    assert frames >= replies
