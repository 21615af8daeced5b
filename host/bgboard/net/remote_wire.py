"""Remote play's wire (pure; docs/remote.md): two boards play one match through an MQTT
broker, each sending the actions its own person made as a **sequence-numbered move log**.

Topics: ``bgboard/match/<match>/<side>/<kind>`` with ``side`` "white" or "black" (the side
of the board that *publishes* there) and ``kind``:

=====  =================================================================================
move   one action of the match log (:class:`MoveMessage`: ``seq`` = its index in the log,
       ``action`` = :func:`bgboard.match.actions.action_to_dict`), QoS 1, re-sent until acked
ack    the receiver has the move ``seq`` in its journal (:class:`MoveAck`), QoS 1
=====  =================================================================================

Each board writes only under its own side and reads only the other side's (the broker's ACL,
:func:`remote_acl_text`, says so per board user: a board can play only the match it joined).
Every payload is one JSON object with ``"v": 1``; :func:`decode_move` / :func:`decode_ack`
check it completely (the club protocol's bounds: size, nesting, digits) and raise
:class:`~bgboard.net.protocol.ProtocolError` with one sentence; the action inside is checked
value by value (dice 1..6, points 0..25, at most four steps ...), so what reaches the match
is a well-formed action (whether it is *legal* the match decides).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from bgboard.net.protocol import MAX_NAME, PREFIX, BrokerUrl, ProtocolError, load_json

__all__ = ["SIDES", "MoveAck", "MoveMessage", "RemoteSettings", "check_match", "decode_ack", "decode_move",
           "encode_ack", "encode_move", "match_topic", "parse_invitation", "remote_acl_text"]

VERSION = 1
SIDES = ("white", "black")
KINDS = ("move", "ack")
MAX_MOVE = 4 * 1024
MAX_ACK = 512
MAX_SEQ = 10**7
_MATCH_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
#: The fields each action may hold (besides "type") and what they are.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "start": ("length", "rules", "players", "jacoby", "beavers", "variant", "illegal_plays"),
    "opening": ("dice",),
    "roll": ("dice",),
    "move": ("steps",),
    "pass": (),
    "double": ("player",),
    "take": ("player",),
    "drop": ("player",),
    "beaver": ("player",),
    "resign": ("level", "player"),
    "accept": ("player",),
    "reject": ("player",),
    "next": (),
    "forfeit": ("loser",),  # not a match action: the sender's player lost on time (the log's last entry)
}


def check_match(match: str) -> str:
    """``match`` if it can be a topic segment (1-32 lower-case letters, digits, ``-``, ``_``)."""
    if not isinstance(match, str) or not _MATCH_RE.match(match):
        raise ProtocolError(f"the match name must be 1-32 lower-case letters, digits, '-' or '_', not {str(match)[:40]!r}")
    return match


def match_topic(match: str, side: str, kind: str) -> str:
    """``bgboard/match/<match>/<side>/<kind>``."""
    if side not in SIDES or kind not in KINDS:
        raise ValueError(f"no remote topic for {side!r}/{kind!r}")
    return f"{PREFIX}/match/{check_match(match)}/{side}/{kind}"


def parse_invitation(code: str) -> tuple[str, str]:
    """An invitation code ``MATCH:SIDE`` (the side the invited board plays) -> (match, side)."""
    match, colon, side = str(code).strip().rpartition(":")
    if not colon or side not in SIDES:
        raise ProtocolError(f"an invitation code is MATCH:white or MATCH:black, not {str(code)[:60]!r}")
    return check_match(match), side


@dataclass(frozen=True, slots=True)
class RemoteSettings:
    """Where and who: the broker, the match both boards joined, this board's side and login."""

    broker: BrokerUrl
    match: str
    side: str  # the side this board's person plays: "white" or "black"
    username: str
    password: str
    ca_file: str = ""
    resend_s: float = 3.0
    keepalive_s: int = 10
    backoff_first_s: float = 0.3
    backoff_most_s: float = 5.0

    @property
    def other(self) -> str:
        return SIDES[1 - SIDES.index(self.side)]


@dataclass(frozen=True, slots=True)
class MoveMessage:
    """Action ``seq`` of the match log of ``match``, made at the sending board."""

    match: str
    seq: int
    action: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MoveAck:
    """The receiving board has journalled move ``seq`` of ``match``."""

    match: str
    seq: int


def _dump(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def encode_move(message: MoveMessage) -> bytes:
    return _dump({"v": VERSION, "type": "move", "match": message.match, "seq": message.seq, "action": message.action})


def encode_ack(message: MoveAck) -> bytes:
    return _dump({"v": VERSION, "type": "ack", "match": message.match, "seq": message.seq})


def _head(kind: str, payload: bytes | bytearray | str, limit: int, keys: set[str]) -> dict[str, Any]:
    data = load_json(kind, payload, limit)
    if data.get("v") != VERSION:
        raise ProtocolError(f"the {kind} message is of version {str(data.get('v'))[:20]!r}: this board speaks {VERSION}")
    if data.get("type") != kind:
        raise ProtocolError(f"a message of type {str(data.get('type'))[:20]!r} arrived on a {kind} topic")
    unknown = sorted(set(data) - keys - {"v", "type"})
    if unknown:
        raise ProtocolError(f"the {kind} message's field {str(unknown[0])[:40]!r} is not a field of this message")
    check_match(data.get("match"))  # type: ignore[arg-type]
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_SEQ:
        raise ProtocolError(f"the {kind} message's field 'seq' must be a whole number 0..{MAX_SEQ}")
    return data


def decode_move(payload: bytes | bytearray | str) -> MoveMessage:
    """A move message, checked (one sentence otherwise)."""
    data = _head("move", payload, MAX_MOVE, {"match", "seq", "action"})
    return MoveMessage(data["match"], data["seq"], check_action(data.get("action")))


def decode_ack(payload: bytes | bytearray | str) -> MoveAck:
    """An ack message, checked (one sentence otherwise)."""
    data = _head("ack", payload, MAX_ACK, {"match", "seq"})
    return MoveAck(data["match"], data["seq"])


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_action(raw: Any) -> dict[str, Any]:
    """A match action as :func:`~bgboard.match.actions.action_to_dict` writes it, checked
    field by field (one sentence otherwise)."""
    if not isinstance(raw, Mapping):
        raise ProtocolError("the move message's action must be a JSON object")
    kind = raw.get("type")
    if kind not in ACTION_FIELDS:
        raise ProtocolError(f"the move message's action type {str(kind)[:20]!r} is not one a remote board sends")
    allowed = ACTION_FIELDS[kind]
    for name, value in raw.items():
        if name == "type":
            continue
        if name not in allowed:
            raise ProtocolError(f"the {kind} action's field {str(name)[:40]!r} is not a field of it")
        if not _field_ok(name, value):
            raise ProtocolError(f"the {kind} action's field {name!r} holds {str(value)[:40]!r}, which it cannot be")
    return dict(raw)


def _field_ok(name: str, value: Any) -> bool:
    if name == "dice":
        return isinstance(value, list) and len(value) == 2 and all(_whole(d, 1, 6) for d in value)
    if name == "steps":
        return (isinstance(value, list) and len(value) <= 4
                and all(isinstance(s, list) and len(s) == 2 and all(_whole(p, 0, 25) for p in s) for s in value))
    if name == "player":
        return value is None or _whole(value, 0, 1)
    if name == "loser":
        return _whole(value, 0, 1)
    if name == "level":
        return _whole(value, 1, 3)
    if name == "length":
        return _whole(value, 0, 255)
    if name == "players":
        return (isinstance(value, list) and len(value) == 2
                and all(isinstance(p, str) and 0 < len(p) <= MAX_NAME and p.isprintable() for p in value))
    if name in ("jacoby", "beavers"):
        return value is None or isinstance(value, bool)
    # rules, variant, illegal_plays: short names (None for the last two)
    return (value is None and name != "rules") or (isinstance(value, str) and 0 < len(value) <= 20 and value.isprintable())


def remote_acl_text(seats: Iterable[tuple[str, str, str]]) -> str:
    """The Mosquitto ``acl_file`` for boards playing remote matches: each ``(user, match,
    side)`` may write only its own side's topics of its match and read only the other side's."""
    out = ["# bgboard remote matches: each board its own side of the match it joined, nothing else.", ""]
    for user, match, side in seats:
        if side not in SIDES:
            raise ValueError(f"no side {side!r}")
        other = SIDES[1 - SIDES.index(side)]
        base = f"{PREFIX}/match/{check_match(match)}"
        out += [f"user {user}", f"topic write {base}/{side}/move", f"topic write {base}/{side}/ack",
                f"topic read {base}/{other}/move", f"topic read {base}/{other}/ack", ""]
    return "\n".join(out)
