"""The results feed from a club to its federation (pure: topics and versioned JSON payloads).

A club sends every result it stores to the federation through its own Mosquitto, which
bridges two topics to the federation's broker (docs/club-network.md, "A federation"):

=================================  ==========  ===================================================
topic                              direction   what
=================================  ==========  ===================================================
``bgboard/<club>/federation/result``  out      one stored result (:class:`ClubResult`), QoS 1, not retained
``bgboard/<club>/federation/ack``     in       the federation's answer (:class:`FeedAck`), QoS 1
``bgboard/<club>/federation/bridge``  local    the bridge's own ``1``/``0`` (Mosquitto's notification)
=================================  ==========  ===================================================

A result's ``id`` is the club's match UUID: stable, made when the match was paired, so the
federation stores each result once however often it arrives.  The club sends a result
again until the federation's ack for that id is in the club's database (club/federation_feed.py):
that end-to-end ack, not the brokers' queues, is what no broker restart can lose.

:func:`decode_result` checks a payload completely (the club protocol's JSON bounds, every field)
and raises :class:`~bgboard.net.protocol.ProtocolError` with one sentence; ``decode_result(
encode_result(r)) == r``.  Member ids (:func:`check_member_id`) are checked here, the one place
the club's ``player link`` and the federation read them.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass

from bgboard.net.protocol import MAX_NAME, PREFIX, ProtocolError, check_club, load_json

FEED_VERSION = 1
#: Largest result payload: names, an event, a few numbers (no .mat: the club keeps the record).
MAX_RESULT_PAYLOAD = 4 * 1024
MAX_ACK_PAYLOAD = 1024
ACK_STATUSES = ("stored", "duplicate", "refused")
_MEMBER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")
_UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?\+00:00$")
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def check_member_id(text: str) -> str:
    """``text`` if it can be a federation member id: 1-32 letters, digits, ``.``, ``_``, ``-``,
    starting with a letter or digit (one sentence otherwise)."""
    if not isinstance(text, str) or not _MEMBER_RE.match(text):
        raise ProtocolError(f"a member id is 1-32 letters, digits, '.', '_' or '-', starting with a letter or "
                            f"digit, not {str(text)[:40]!r}")
    return text


def result_topic(club: str) -> str:
    return f"{PREFIX}/{check_club(club)}/federation/result"


def ack_topic(club: str) -> str:
    return f"{PREFIX}/{check_club(club)}/federation/ack"


def bridge_topic(club: str) -> str:
    """Where the club's Mosquitto says whether its bridge to the federation is up (``1``/``0``)."""
    return f"{PREFIX}/{check_club(club)}/federation/bridge"


#: What the federation service subscribes to: every club's results.
RESULTS_FILTER = f"{PREFIX}/+/federation/result"


def club_of_topic(text: str) -> str:
    """The club a result topic belongs to (:class:`ProtocolError` for any other topic)."""
    parts = text.split("/")
    if len(parts) != 4 or parts[0] != PREFIX or parts[2:] != ["federation", "result"]:
        raise ProtocolError(f"the topic {text[:120]!r} is not a club's federation result topic")
    return check_club(parts[1])


@dataclass(frozen=True, slots=True)
class ClubResult:
    """One result a club stored.  ``players`` are the club's names, ``members`` their
    federation member ids ("" for a player not linked); ``winner`` 0 or 1; ``score`` None for a
    forfeit; ``rated`` whether the club rated it; ``seq`` the club's rating order (0 when
    unrated); ``played_at`` when the club stored it (ISO-8601 UTC); ``revision`` grows with each change
    the club makes to the match (a correction is sent again and replaces the earlier one)."""

    id: str
    club: str
    event: str
    match: int
    players: tuple[str, str]
    members: tuple[str, str]
    length: int
    score: tuple[int, int] | None
    winner: int
    rated: bool
    seq: int
    played_at: str
    revision: int = 0


@dataclass(frozen=True, slots=True)
class FeedAck:
    """The federation's answer to one result id: ``stored``, ``duplicate`` or ``refused``, for
    the result's ``revision`` (the federation holds that one or a later one)."""

    id: str
    status: str
    reason: str = ""
    revision: int = 0


def encode_result(result: ClubResult) -> bytes:
    body = {"v": FEED_VERSION, "type": "club_result", **asdict(result)}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def encode_ack(ack: FeedAck) -> bytes:
    body = {"v": FEED_VERSION, "type": "feed_ack", **asdict(ack)}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _head(kind: str, payload: bytes | bytearray | str, limit: int) -> dict[str, object]:
    data = load_json(kind, payload, limit)
    if data.get("v") != FEED_VERSION or data.get("type") != kind:
        raise ProtocolError(f"the message is not a {kind} of feed version {FEED_VERSION}")
    return data


def _text(data: dict[str, object], name: str, limit: int, blank: bool = False) -> str:
    v = data.get(name)
    if not isinstance(v, str) or len(v) > limit or (not blank and not v.strip()) or _CONTROL.search(v):
        raise ProtocolError(f"the result's field {name!r} must be a text of at most {limit} printable characters")
    return v


def _int(data: dict[str, object], name: str, low: int, high: int) -> int:
    v = data.get(name)
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise ProtocolError(f"the result's field {name!r} must be a whole number {low}..{high}")
    return v


def _pair(value: object, name: str, check: type) -> tuple[object, object]:
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(x, check) and not isinstance(x, bool)
                                                                  for x in value):
        raise ProtocolError(f"the result's field {name!r} must be a list of two {check.__name__} values")
    return value[0], value[1]


def decode_result(payload: bytes | bytearray | str) -> ClubResult:
    """The :class:`ClubResult` of a payload, checked (one sentence otherwise)."""
    data = _head("club_result", payload, MAX_RESULT_PAYLOAD)
    known = {"v", "type", *ClubResult.__dataclass_fields__}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ProtocolError(f"the result's field {unknown[0][:40]!r} is not a field of this message")
    rid = _text(data, "id", 36)
    if not _UUID_RE.match(rid):
        raise ProtocolError("the result's id must be a UUID such as 0b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f")
    players = _pair(data.get("players"), "players", str)
    for name in players:
        _text({"name": name}, "name", MAX_NAME)
    members = _pair(data.get("members"), "members", str)
    for member in members:
        if member != "":
            check_member_id(str(member))
    raw_score = data.get("score")
    score = None if raw_score is None else _pair(raw_score, "score", int)
    if score is not None and not all(0 <= int(str(x)) <= 10**6 for x in score):
        raise ProtocolError("the result's field 'score' must be two whole numbers 0..1000000")
    rated = data.get("rated")
    if not isinstance(rated, bool):
        raise ProtocolError("the result's field 'rated' must be true or false")
    played_at = _text(data, "played_at", 40)
    if not _TIME_RE.match(played_at):
        raise ProtocolError("the result's field 'played_at' must be an ISO-8601 UTC time such as "
                            "2026-11-29T20:15:00+00:00")
    return ClubResult(
        id=rid, club=check_club(_text(data, "club", 32)), event=_text(data, "event", MAX_NAME), match=_int(data, "match", 1, 2**53),
        players=(str(players[0]), str(players[1])), members=(str(members[0]), str(members[1])),
        length=_int(data, "length", 1, 255),
        score=None if score is None else (int(str(score[0])), int(str(score[1]))),
        winner=_int(data, "winner", 0, 1), rated=rated, seq=_int(data, "seq", 0, 2**53), played_at=played_at,
        revision=_int(data, "revision", 0, 2**31) if "revision" in data else 0,
    )


def decode_ack(payload: bytes | bytearray | str) -> FeedAck:
    data = _head("feed_ack", payload, MAX_ACK_PAYLOAD)
    rid = _text(data, "id", 36)
    status = _text(data, "status", 20)
    if not _UUID_RE.match(rid) or status not in ACK_STATUSES:
        raise ProtocolError("a feed ack names a result UUID and one of stored, duplicate, refused")
    return FeedAck(rid, status, _text(data, "reason", 200, blank=True) if "reason" in data else "",
                   _int(data, "revision", 0, 2**31) if "revision" in data else 0)


__all__ = ["FEED_VERSION", "MAX_RESULT_PAYLOAD", "ACK_STATUSES", "check_member_id", "result_topic", "ack_topic",
           "bridge_topic", "RESULTS_FILTER", "club_of_topic", "ClubResult", "FeedAck", "encode_result", "encode_ack",
           "decode_result", "decode_ack"]
