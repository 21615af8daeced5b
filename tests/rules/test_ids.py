"""Match ID and XGID codecs: the gnubg manual's example, gnubg's own ``matchid``, XG strings,
round trips and one clear error per bad ID."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.rules import (
    InvalidIdError,
    MatchId,
    Xgid,
    decode_match_id,
    encode_match_id,
    position_id,
    start_position,
    xgid_decode,
    xgid_encode,
)

from .oracle import require_gnubg
from .selfplay import selfplay_positions


def test_manual_example():
    # gnubg manual: cube 2 owned by player 0, player 1 on roll with 5-2, 9-point match, 2-4
    match = decode_match_id("QYkqASAAIAAA")
    assert match == MatchId(
        cube=2, cube_owner=0, on_roll=1, crawford=False, game_state=1, turn=1, double_offered=False,
        resignation=0, dice=(5, 2), match_length=9, score=(2, 4), jacoby=True,
    )
    assert encode_match_id(match) == "QYkqASAAIAAA"
    # current gnubg sets bit 67 ("not Jacoby") in match play
    assert encode_match_id(MatchId(**{**_fields(match), "jacoby": False})) == "QYkqASAAIAAE"


def _fields(match: MatchId) -> dict:
    return {name: getattr(match, name) for name in MatchId.__dataclass_fields__}


def test_money_game_start():
    assert encode_match_id(MatchId(game_state=0, jacoby=True)) == "MAAAAAAAAAAA"


matches = st.builds(
    lambda cube_log, owner, move, crawford, state, turn, doubled, resigned, dice, length, s0, s1: (
        cube_log, owner, move, crawford, state, turn, doubled, resigned, dice, length, s0, s1
    ),
    st.integers(0, 6), st.sampled_from([-1, 0, 1]), st.integers(0, 1), st.booleans(),
    st.integers(0, 4), st.integers(0, 1), st.booleans(), st.integers(0, 3),
    # gnubg keeps the larger die first
    st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda d: tuple(sorted(d, reverse=True)))),
    st.integers(1, 25), st.integers(0, 24), st.integers(0, 24),
)


@settings(max_examples=200, deadline=None)
@given(matches)
def test_against_gnubg_matchid(fields):
    gnubg = require_gnubg()
    cube_log, owner, move, crawford, state, turn, doubled, resigned, dice, length, s0, s1 = fields
    s0, s1 = min(s0, length - 1), min(s1, length - 1)
    text = gnubg.matchid(
        gnubg.cubeinfo(1 << cube_log, owner, move, length, (s0, s1), int(crawford), 0),
        gnubg.posinfo(turn, resigned, int(doubled), state, dice),
    )
    match = decode_match_id(text)
    assert (match.cube, match.cube_owner, match.on_roll, match.crawford) == (1 << cube_log, None if owner == -1 else owner, move, crawford)
    assert (match.game_state, match.turn, match.double_offered, match.resignation) == (state, turn, doubled, resigned)
    assert (match.dice, match.match_length, match.score) == (dice, length, (s0, s1))
    assert encode_match_id(match) == text


@pytest.mark.parametrize(
    "text, message",
    [
        ("QYkqASAAIAA", "a Match ID has 12 characters, 'QYkqASAAIAA' has 11"),
        ("QYkqASAAIA?A", "a Match ID uses only letters, digits, '+' and '/', not '?'"),
        ("IAEAAAAAAAAA", "Match ID 'IAEAAAAAAAAA' has an impossible cube owner (bits 10)"),
    ],
)
def test_bad_match_ids(text, message):
    with pytest.raises(InvalidIdError) as info:
        decode_match_id(text)
    assert str(info.value) == message


def test_match_id_fields_out_of_range():
    with pytest.raises(InvalidIdError, match="the cube must be a power of two"):
        encode_match_id(MatchId(cube=3))
    with pytest.raises(InvalidIdError, match=r"Match ID dice are \(0, 0\) or two numbers from 1 to 6, not \(7, 1\)"):
        encode_match_id(MatchId(dice=(7, 1)))
    with pytest.raises(InvalidIdError, match="a Match ID field holds 15 bits, 40000 does not fit"):
        encode_match_id(MatchId(match_length=40000))


XG_START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"


def test_xgid_start_position():
    xgid = xgid_decode(XG_START)
    assert xgid.position == start_position()
    assert (xgid.on_roll, xgid.dice, xgid.cube, xgid.cube_owner, xgid.rules, xgid.max_cube_log2) == (0, (5, 2), 1, None, 3, 10)
    assert xgid_encode(xgid) == XG_START


def test_xgid_top_player_on_roll_with_bars_and_cube():
    # bottom (white): 2 on the bar, 13 on its 6-point; top (black): 1 on the bar,
    # 2 on bottom's 1-point (top's 24), 12 on bottom's 19-point (top's 6); top on roll,
    # cube 4 owned by top, a double offered, 7-point match at 2-3, Crawford game
    text = "XGID=ab----M------------l-----B:2:-1:-1:D:2:3:1:7:10"
    xgid = xgid_decode(text)
    assert (xgid.on_roll, xgid.doubled, xgid.cube, xgid.cube_owner) == (1, True, 4, 1)
    assert (xgid.score, xgid.rules, xgid.match_length) == ((2, 3), 1, 7)
    top, bottom = xgid.position.mine, xgid.position.theirs  # the top player is on roll
    assert (top[25], top[24], top[6], top[0]) == (1, 2, 12, 0)
    assert (bottom[25], bottom[6], bottom[0]) == (2, 13, 0)
    assert xgid_encode(xgid) == text


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 1), st.integers(0, 6))
def test_xgid_round_trip(seed, on_roll, cube_log):
    *_, (_, position) = selfplay_positions(seed=seed, count=1 + seed % 50)
    xgid = Xgid(position, on_roll=on_roll, cube=1 << cube_log, cube_owner=None if cube_log == 0 else on_roll, dice=(3, 1))
    assert xgid_decode(xgid_encode(xgid)) == xgid
    assert position_id(xgid_decode(xgid_encode(xgid)).position) == position_id(position)


@pytest.mark.parametrize(
    "text, message",
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0", "an XGID has 10 fields separated by ':', 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0' has 9"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:2:52:0:0:3:0:10", "the XGID turn must be 1 (bottom) or -1 (top), not '2'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:3:0:10", "the XGID dice must be '00', 'D' or two digits 1-6, not '72'"),
        ("XGID=-b----E-C---eE---c-e----B?:0:0:1:52:0:0:3:0:10", "an XGID position uses '-', 'A'-'P' and 'a'-'p', not '?'"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "the first XGID character is the top player's bar: it must be lower case or '-'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:7:2:0:7:10", "the XGID score 7-2 is not possible in a 7-point match"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:-1:2:0:7:10", "the XGID scores and match length cannot be negative: -1, 2, 7"),
        ("XGID=-b----P-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "XGID 'XGID=-b----P-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10' gives the bottom player 26 checkers, more than 15"),
    ],
)
def test_bad_xgids(text, message):
    with pytest.raises(InvalidIdError) as info:
        xgid_decode(text)
    assert str(info.value) == message
