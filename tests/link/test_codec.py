"""The host side of the board link codec, against the golden frames the firmware also reads."""

from __future__ import annotations

import binascii
import json
import struct
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from bgboard.errors import InputError
from bgboard.link import messages as m
from bgboard.link.frames import (
    MAX_PAYLOAD,
    PREAMBLE,
    Frame,
    FrameDecoder,
    FrameError,
    Gap,
    Problem,
    SequenceCounter,
    SequenceWatch,
    decode_frame,
    encode_frame,
)

FRAMES = Path(__file__).resolve().parents[1] / "data" / "frames"
INDEX = json.loads((FRAMES / "index.json").read_text())


def golden(name: str) -> bytes:
    """The bytes of one golden frame (hex, '#' comment lines ignored)."""
    lines = (FRAMES / f"{name}.hex").read_text().splitlines()
    return bytes.fromhex(" ".join(line for line in lines if not line.startswith("#")))


def expected_message(entry: dict) -> m.Message:
    """The message a golden frame must decode to, built from index.json's fields."""
    f = entry["fields"]
    kind = entry["message"]
    if kind == "Snapshot":
        return m.Snapshot(f["reason"], tuple(f["states"]))
    if kind == "Changes":
        return m.Changes(tuple(m.SlotChange(s, v) for s, v in f["changes"]))
    if kind == "Roll":
        return m.Roll(f["number"], tuple(f["dice"]))
    if kind == "SetLeds":
        return m.SetLeds(tuple(m.Led(i, tuple(rgb)) for i, rgb in f["leds"]))
    if kind == "DeviceError":
        return m.DeviceError(**f)
    return getattr(m, kind)(**f)


ALL = [golden(e["name"]) for e in INDEX]
STREAM = b"".join(ALL)


@pytest.mark.parametrize("entry", INDEX, ids=[e["name"] for e in INDEX])
def test_golden_frame_decodes_to_its_fields_and_encodes_back(entry: dict) -> None:
    data = golden(entry["name"])
    frame = decode_frame(data)
    assert (frame.kind, frame.seq) == (entry["kind"], entry["seq"])
    message = m.decode(frame)
    assert message == expected_message(entry)
    assert m.encode(message, entry["seq"]) == data


def test_golden_set_covers_every_message_type() -> None:
    kinds = {e["kind"] for e in INDEX}
    every = {cls.KIND for cls in (m.Hello, m.Snapshot, m.Changes, m.Roll, m.Heartbeat, m.Ack,
                                  m.Pong, m.DeviceError, m.RequestSnapshot, m.Calibrate,
                                  m.SetLeds, m.SetRolling, m.Ping, m.Reboot)}
    assert kinds == every


def test_ping_layout_built_by_hand() -> None:
    """The spec in docs/protocol.md, written out with struct and binascii directly."""
    body = struct.pack("<BHH", 0x85, 5, 4) + struct.pack("<I", 0xDEADBEEF)
    by_hand = b"\xb6\x9a" + body + struct.pack("<I", binascii.crc32(body))
    assert by_hand == golden("ping") == m.encode(m.Ping(0xDEADBEEF), 5)


def test_stream_whole_byte_by_byte_and_in_chunks_gives_the_same_frames() -> None:
    whole = FrameDecoder().feed(STREAM)
    assert [f for f in whole if isinstance(f, Frame)] == [decode_frame(b) for b in ALL]
    assert all(isinstance(f, Frame) for f in whole)
    one = FrameDecoder()
    bytewise = [item for b in STREAM for item in one.feed(bytes([b]))]
    assert bytewise == whole
    assert one.pending == 0


@given(st.lists(st.integers(0, len(STREAM)), max_size=40), st.binary(max_size=60))
def test_any_chunking_with_garbage_gives_the_same_result(cuts: list[int], junk: bytes) -> None:
    data = junk + STREAM
    reference = FrameDecoder().feed(data)
    decoder = FrameDecoder()
    points = sorted(set([0, len(data), *cuts]))
    got = [item for a, b in zip(points, points[1:]) for item in decoder.feed(data[a:b])]
    assert got == reference
    frames = [f for f in got if isinstance(f, Frame)]
    assert frames[-len(ALL):] == [decode_frame(b) for b in ALL]


def test_garbage_before_a_frame_is_reported_and_skipped() -> None:
    items = FrameDecoder().feed(b"MPY: soft reboot\r\n" + golden("hello"))
    assert items == [Problem("garbage", 18), decode_frame(golden("hello"))]


def test_bad_preamble_is_not_a_frame() -> None:
    data = bytearray(golden("ping"))
    data[1] ^= 0xFF
    decoder = FrameDecoder()
    assert decoder.feed(bytes(data)) == []
    assert decoder.feed(golden("ack")) == [Problem("garbage", len(data)), decode_frame(golden("ack"))]


def test_oversized_length_is_rejected_without_waiting_for_its_bytes() -> None:
    header = PREAMBLE + struct.pack("<BHH", 0x02, 9, MAX_PAYLOAD + 1)
    items = FrameDecoder().feed(header + golden("pong"))
    assert items[0] == Problem("oversized", 1)
    assert items[-1] == decode_frame(golden("pong"))
    assert Problem("garbage", len(header) - 1) in items


def test_bad_checksum_resyncs_on_the_next_frame() -> None:
    bad = bytearray(golden("roll"))
    bad[9] ^= 0x01
    items = FrameDecoder().feed(bytes(bad) + golden("heartbeat"))
    assert items == [Problem("bad_checksum", 1), Problem("garbage", len(bad) - 1),
                     decode_frame(golden("heartbeat"))]


def test_frame_hidden_inside_a_truncated_one_is_found() -> None:
    cut = golden("snapshot_boot")[:40]
    items = FrameDecoder().feed(cut + golden("ack") + bytes(200))
    assert decode_frame(golden("ack")) in items
    assert items[0] == Problem("bad_checksum", 1)


@given(st.binary(max_size=300))
def test_random_bytes_never_crash_the_decoder(data: bytes) -> None:
    decoder = FrameDecoder()
    items = decoder.feed(data)
    dropped = sum(p.skipped for p in items if isinstance(p, Problem))
    used = sum(7 + len(f.payload) + 4 for f in items if isinstance(f, Frame))
    assert dropped + used + decoder.pending == len(data)


def test_sequence_gap_detected_and_hello_restarts_the_count() -> None:
    watch = SequenceWatch()
    assert watch.observe(0, restart=True) is None
    assert watch.observe(1) is None
    assert watch.observe(3) == Gap(2, 3)
    assert watch.observe(4) is None
    assert watch.observe(0, restart=True) is None
    assert watch.observe(1) is None


def test_sequence_numbers_wrap() -> None:
    watch, counter = SequenceWatch(), SequenceCounter()
    for _ in range(65536 + 3):
        assert watch.observe(counter.next()) is None
    assert counter.next() == 3


@pytest.mark.parametrize("bad", [
    Frame(0x03, 0, b"\x00"),
    Frame(0x03, 0, b"\x02\x01\x00\x05"),
    Frame(0x04, 0, struct.pack("<IBB", 1, 7, 1)),
    Frame(0x02, 0, struct.pack("<BH", 0, 5) + b"\x00"),
    Frame(0x02, 0, struct.pack("<BH", 0, 1) + b"\x04"),
    Frame(0x83, 0, b"\x00\x01\x02"),
    Frame(0x83, 0, b"\x1c\x01\x02\x03"),
    Frame(0x84, 0, b"\x03"),
    Frame(0x85, 0, b""),
    Frame(0x08, 0, b"\x01\x00\x00\x00\xff"),
    Frame(0x7e, 0, b""),
    Frame(0x82, 0, b"\x03"),
    Frame(0x86, 0, b"\x02"),
    Frame(0x06, 0, b"\x01\x00"),
    Frame(0x01, 0, b"\x01\x8a\x00\x00\xff"),
])
def test_malformed_payloads_raise_one_sentence(bad: Frame) -> None:
    with pytest.raises(m.MessageError) as info:
        m.decode(bad)
    assert isinstance(info.value, InputError)
    assert "\n" not in str(info.value)


def test_frames_out_of_range_cannot_be_built() -> None:
    with pytest.raises(FrameError):
        Frame(1, 70000, b"")
    with pytest.raises(FrameError):
        Frame(1, 0, bytes(MAX_PAYLOAD + 1))
    with pytest.raises(m.MessageError):
        m.encode(m.SetLeds((m.Led(28, (0, 0, 0)),)), 0)
    with pytest.raises(m.MessageError):
        m.encode(m.Roll(1, (0, 3)), 0)


states = st.one_of(st.just(0), st.just(3),
                   st.builds(m.slot_state, st.sampled_from([1, 2]), st.integers(1, 7)))
messages = st.one_of(
    st.builds(m.Hello, st.integers(0, 255), st.integers(0, 65535), st.integers(0, 2), st.text(max_size=40)),
    st.builds(m.Snapshot, st.integers(0, 2), st.lists(states, max_size=300).map(tuple)),
    st.builds(m.Changes, st.lists(st.builds(m.SlotChange, st.integers(0, 65535), states),
                                  min_size=1, max_size=170).map(tuple)),
    st.builds(m.Roll, st.integers(0, 2**32 - 1), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.builds(m.Heartbeat, st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1),
              st.integers(0, 2**32 - 1), st.booleans()),
    st.builds(m.Ping, st.integers(0, 2**32 - 1)),
    st.builds(m.SetLeds, st.lists(st.builds(m.Led, st.integers(0, 27), st.tuples(
        st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))), max_size=28).map(tuple)),
    st.builds(m.DeviceError, st.integers(1, 9), st.integers(0, 65535), st.integers(0, 255),
              st.text(max_size=80)),
)


@pytest.mark.slow
@given(messages, st.integers(0, 65535))
def test_every_message_survives_the_wire(message: m.Message, seq: int) -> None:
    frame = decode_frame(m.encode(message, seq))
    assert frame.seq == seq
    assert m.decode(frame) == message
