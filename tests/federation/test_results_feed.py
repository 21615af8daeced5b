"""The results feed's messages (net/results_feed.py): checked completely, one sentence each."""

from __future__ import annotations

import json

import pytest

from bgboard.net.protocol import ProtocolError
from bgboard.net.results_feed import (
    ClubResult, FeedAck, check_member_id, club_of_topic, decode_ack, decode_result, encode_ack, encode_result,
    result_topic,
)

RESULT = ClubResult(id="0b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f", club="north", event="Club night", match=7,
                    players=("Ann", "Bob"), members=("M001", ""), length=5, score=(5, 3), winner=0, rated=True,
                    seq=4, played_at="2026-11-29T20:15:00+00:00")


def test_a_result_and_an_ack_survive_the_wire():
    assert decode_result(encode_result(RESULT)) == RESULT
    forfeit = ClubResult(**{**{f: getattr(RESULT, f) for f in RESULT.__slots__}, "score": None, "rated": False})
    assert decode_result(encode_result(forfeit)) == forfeit
    ack = FeedAck(RESULT.id, "duplicate")
    assert decode_ack(encode_ack(ack)) == ack


@pytest.mark.parametrize("change, says", [
    ({"id": "not-a-uuid"}, "must be a UUID"),
    ({"club": "North Club"}, "club name in topics"),
    ({"members": ["M001", "bad id!"]}, "member id"),
    ({"players": ["Ann", "B\u0000b"]}, "printable"),
    ({"length": 0}, "'length'"),
    ({"winner": 2}, "'winner'"),
    ({"score": [5, -1]}, "'score'"),
    ({"played_at": "yesterday"}, "ISO-8601"),
    ({"extra": 1}, "not a field"),
    ({"v": 2}, "feed version"),
])
def test_a_bad_result_is_one_sentence(change, says):
    body = {**json.loads(encode_result(RESULT)), **change}
    with pytest.raises(ProtocolError, match=says):
        decode_result(json.dumps(body))


def test_oversized_or_deep_payloads_are_refused_before_parsing():
    with pytest.raises(ProtocolError, match="larger than"):
        decode_result(b"{" + b" " * 10_000 + b"}")
    with pytest.raises(ProtocolError, match="nests deeper"):
        decode_result(b"[" * 100 + b"]" * 100)


def test_member_ids_and_topics():
    assert check_member_id("NL-2026.0042") == "NL-2026.0042"
    for bad in ("", "-x", "a" * 33, "a b", "é"):
        with pytest.raises(ProtocolError):
            check_member_id(bad)
    assert club_of_topic(result_topic("north")) == "north"
    with pytest.raises(ProtocolError):
        club_of_topic("bgboard/north/board/1/result")
