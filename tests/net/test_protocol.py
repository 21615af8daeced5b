"""The club protocol codec: every message round-trips; every bad payload is one sentence."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.match import OpeningRoll, StartMatch, apply
from bgboard.net.protocol import (
    Ack,
    Assignment,
    BoardState,
    ClockSettings,
    Game,
    Online,
    ProtocolError,
    Result,
    board_filter,
    clear_assignment,
    decode,
    encode,
    parse_broker_url,
    parse_topic,
    topic,
)
from bgboard.net.board_report import board_state

UUID = "0b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f"
names = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF), min_size=1, max_size=64).filter(str.strip)
pairs = st.tuples(st.integers(0, 25), st.integers(0, 25))


def _result(**kw: object) -> Result:
    base = dict(
        uuid=UUID, board=3, event="Friday", match=12, players=("Ann", "Bob"), length=3, score=(3, 1), winner=0,
        games=(Game(0, 2, "gammon"), Game(1, 1, "single"), Game(0, 1, "drop")), mat=" 3 point match\n\n Game 1\n",
        last_seq=88, finished_ms=1_795_000_000_000,
    )
    base.update(kw)
    return Result(**base)  # type: ignore[arg-type]


@given(players=st.tuples(names, names), score=pairs, board=st.integers(1, 9999), match=st.integers(0, 10**9))
@settings(max_examples=60, deadline=None)
def test_results_and_assignments_round_trip(players: tuple[str, str], score: tuple[int, int], board: int, match: int) -> None:
    r = _result(players=players, score=score, board=board, match=match)
    assert decode("result", encode(r)) == r
    a = Assignment("Friday", match or 1, board, players, 5, "standard", 2, ClockSettings(120_000, 60_000, 12_000))
    assert decode("assign", encode(a)) == a


def test_state_online_ack_and_clear_round_trip() -> None:
    s = apply(apply(None, StartMatch(length=5, players=("Ann", "Bob"))), OpeningRoll((5, 3)))
    state = board_state(s, 1234, clocks=(600_000, 590_000), clock_running=0)
    assert decode("state", encode(state)) == state
    assert state.position_id == "4HPwATDgc/ABMA" and state.dice == (5, 3) and state.phase == "play"
    for kind, message in (("online", Online(False)), ("ack", Ack(UUID, "refused", "the score does not match")),
                          ("assign", clear_assignment(4))):
        assert decode(kind, encode(message)) == message
    assert json.loads(encode(Online(True))) == {"v": 1, "type": "online", "online": True}


@pytest.mark.parametrize(
    "kind, payload, words",
    [
        ("result", b"\xff\xfe", "is not JSON"),
        ("result", b"[1, 2]", "must be a JSON object"),
        ("result", b'{"v": 2, "type": "result"}', "of protocol version .2."),
        ("ack", b'{"v": 1, "type": "result"}', "arrived on a ack topic"),
        ("ack", b'{"v": 1, "type": "ack", "uuid": "x", "status": "stored"}', "must be a UUID"),
        ("ack", b'{"v": 1, "type": "ack", "uuid": "' + UUID.encode() + b'", "status": "maybe"}', "must be one of"),
        ("online", b'{"v": 1, "type": "online", "online": "yes"}', "must be true or false"),
        ("online", b'{"v": 1, "type": "online", "online": true, "extra": 1}', "'extra' is not a field"),
        ("assign", b'{"v": 1, "type": "assign"}', "'match' is missing"),
        ("state", b"{" + b" " * (600 * 1024) + b"}", "larger than"),
    ],
)
def test_a_bad_payload_is_one_sentence(kind: str, payload: bytes, words: str) -> None:
    with pytest.raises(ProtocolError, match=words) as info:
        decode(kind, payload)
    assert "\n" not in str(info.value)


def test_names_are_bounded_and_printable() -> None:
    body = json.loads(encode(_result()))
    for bad in (["Ann", ""], ["Ann", "x" * 65], ["Ann", "Bo\x07b"], ["Ann"], "Ann"):
        body["players"] = bad
        with pytest.raises(ProtocolError, match="players"):
            decode("result", json.dumps(body))
    body["players"] = ["<script>alert(1)</script>", "Bob"]  # printable text passes; pages escape it
    assert decode("result", json.dumps(body)).players[0] == "<script>alert(1)</script>"


@given(st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_random_bytes_never_crash_the_decoder(payload: bytes) -> None:
    for kind in ("state", "online", "result", "assign", "ack"):
        try:
            decode(kind, payload)
        except ProtocolError:
            pass


def test_topics() -> None:
    assert topic("club", 7, "state") == "bgboard/club/board/7/state"
    assert parse_topic("bgboard/club/board/7/result", "club") == (7, "result")
    assert board_filter("club", "online") == "bgboard/club/board/+/online"
    for bad in ("bgboard/other/board/7/state", "bgboard/club/board/07/state", "bgboard/club/board/x/state",
                "bgboard/club/board/7/state/more", "bgboard/club/board/7/secret"):
        with pytest.raises(ProtocolError):
            parse_topic(bad, "club")
    with pytest.raises(ProtocolError, match="lower-case"):
        topic("My Club", 1, "state")


def test_broker_urls() -> None:
    assert str(parse_broker_url("mqtt://director.local")) == "mqtt://director.local:1883"
    assert str(parse_broker_url("mqtts://10.0.0.2:8884")) == "mqtts://10.0.0.2:8884"
    for bad in ("http://x", "mqtt://", "director:1883"):
        with pytest.raises(ProtocolError, match="mqtt://host"):
            parse_broker_url(bad)
    with pytest.raises(ProtocolError, match="port must be 1..65535"):
        parse_broker_url("mqtt://x:99999")
