"""The link to the board's Pico: the wire codec and messages (pure), the connection that
turns frames into link events, the reconnecting link and the serial transport (adapter;
pyserial is imported when a port is opened).  docs/protocol.md describes the wire."""

from __future__ import annotations

from bgboard.link import frames, messages
from bgboard.link.frames import (
    MAX_PAYLOAD,
    PREAMBLE,
    Frame,
    FrameDecoder,
    FrameError,
    Gap,
    Problem,
    Reason,
    SequenceCounter,
    SequenceWatch,
    decode_frame,
    encode_frame,
)
from bgboard.link.connection import (
    Beat,
    BoardSeen,
    Connected,
    Connection,
    LinkEvent,
    Lost,
    Rolled,
    Timing,
    Trouble,
)
from bgboard.link.messages import (
    Ack,
    Changes,
    ErrorCode,
    Heartbeat,
    Hello,
    Kind,
    Led,
    Reboot,
    RequestSnapshot,
    Roll,
    SetLeds,
    SetRolling,
    SlotChange,
    Snapshot,
    decode,
    encode,
    slot_state,
    to_frame,
)
from bgboard.link.backoff import Backoff
from bgboard.link.reconnect import Link
from bgboard.link.transport import Port, PortLostError, PortUnavailableError, open_serial

__all__ = [
    "MAX_PAYLOAD", "PREAMBLE", "Ack", "Backoff", "Beat", "BoardSeen", "Changes", "Connected",
    "Connection", "ErrorCode", "Frame", "FrameDecoder", "FrameError", "Gap", "Heartbeat", "Hello",
    "Kind", "Led", "Link", "LinkEvent", "Lost", "Port", "PortLostError", "PortUnavailableError",
    "Problem", "Reason", "Reboot", "RequestSnapshot", "Roll", "Rolled", "SequenceCounter",
    "SequenceWatch", "SetLeds", "SetRolling", "SlotChange", "Snapshot", "Timing", "Trouble",
    "decode", "decode_frame", "encode", "encode_frame", "frames", "messages", "open_serial",
    "slot_state", "to_frame",
]
