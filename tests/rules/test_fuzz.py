"""Fuzz every parser: any text gives a value or one InputError sentence, never a crash; a
value read from an ID is written back to an ID that reads as the same value (round trip)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.errors import InputError
from bgboard.rules import (
    decode_match_id,
    encode_match_id,
    parse_play,
    position_from_id,
    position_id,
    start_position,
    xgid_decode,
    xgid_encode,
)

notation_alphabet = st.text(alphabet="0123456789/*() barofBARx-,", max_size=30)
id_alphabet = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-:!", max_size=60)


def _one_sentence(exc: InputError) -> None:
    text = str(exc)
    assert text and "\n" not in text


@settings(max_examples=400, deadline=None)
@given(notation_alphabet, st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_parse_play_fuzz(text, dice):
    try:
        play = parse_play(text, start_position(), dice)
    except InputError as exc:
        _one_sentence(exc)
    else:
        assert play.position.checkers() == (15, 15)


@settings(max_examples=300, deadline=None)
@given(st.one_of(id_alphabet, st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", min_size=14, max_size=14)))
def test_position_id_fuzz(text):
    try:
        position = position_from_id(text)
    except InputError as exc:
        _one_sentence(exc)
    else:
        position.validate()
        again = position_id(position)
        assert position_from_id(again) == position and position_id(position_from_id(again)) == again


@settings(max_examples=300, deadline=None)
@given(st.one_of(id_alphabet, st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", min_size=12, max_size=12)))
def test_match_id_fuzz(text):
    try:
        match = decode_match_id(text)
    except InputError as exc:
        _one_sentence(exc)
    else:
        assert decode_match_id(encode_match_id(match)) == match


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        id_alphabet,
        st.builds(
            lambda board, rest: "XGID=" + board + ":" + ":".join(rest),
            st.text(alphabet="-ABCDabcdPp", min_size=26, max_size=26),
            st.lists(st.sampled_from(["0", "1", "-1", "00", "D", "52", "x", "7", "99"]), min_size=9, max_size=9),
        ),
    )
)
def test_xgid_fuzz(text):
    try:
        xgid = xgid_decode(text)
    except InputError as exc:
        _one_sentence(exc)
    else:
        assert xgid_decode(xgid_encode(xgid)) == xgid
