"""Cube hints follow the match score, the Crawford rule and cube ownership."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.hints import CubeAction, CubeState, cube_blocker, cube_hint
from bgboard.hints.pubeval_engine import PubevalEngine
from bgboard.rules import Position, start_position

# The player on roll has 13 checkers on a closed board plus two on their 8-point; the
# opponent has three checkers on the bar and twelve at home: doubling is right at money
# (the opponent must pass), and nothing at all with a dead cube.
CRUSHING = Position(
    mine=(0, 2, 2, 2, 2, 2, 3, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    theirs=(0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3),
).validate()

OWNERS = {"centred": "centered", "mine": "player", "theirs": "opponent"}


def test_start_position_is_no_double_at_money_but_double_for_the_post_crawford_trailer(
    bgsage_engine, gnubg_engine
) -> None:
    money = cube_hint(bgsage_engine, start_position(), CubeState())
    assert money.action == CubeAction.NO_DOUBLE and money.reason is None
    trailer = CubeState(my_away=3, their_away=1)  # post-Crawford: the trailer doubles at once
    for engine in (bgsage_engine, gnubg_engine):
        hint = cube_hint(engine, start_position(), trailer)
        assert hint.action == CubeAction.DOUBLE_TAKE, engine.name
        assert hint.double_take > hint.no_double  # the numbers agree with the words
    gnubg = cube_hint(gnubg_engine, start_position(), trailer)
    assert gnubg.unit == "match winning chance"
    assert all(0.0 < v < 1.0 for v in (gnubg.no_double, gnubg.double_take, gnubg.double_pass))


def test_a_crushing_position_is_too_good_unless_the_jacoby_rule_makes_it_a_double(bgsage_engine) -> None:
    # Without Jacoby the gammons count: play on (too good).  With Jacoby a gammon counts
    # only once the cube is turned: double, and the opponent passes.
    plain = cube_hint(bgsage_engine, CRUSHING, CubeState())
    assert plain.action == CubeAction.TOO_GOOD and plain.take is False
    assert plain.no_double > plain.double_pass
    jacoby = cube_hint(bgsage_engine, CRUSHING, CubeState(jacoby=True))
    assert jacoby.action == CubeAction.DOUBLE_PASS and jacoby.take is False


@pytest.mark.parametrize(
    "state,words",
    [
        (CubeState(value=2, owner="mine", my_away=2, their_away=5), "dead"),
        (CubeState(value=1, owner="centred", my_away=1, their_away=3), "dead"),
        (CubeState(value=1, owner="centred", my_away=4, their_away=1, crawford=True), "Crawford"),
        (CubeState(value=2, owner="theirs"), "owns the cube"),
    ],
)
def test_no_double_when_the_cube_cannot_be_turned(bgsage_engine, state, words) -> None:
    hint = cube_hint(bgsage_engine, CRUSHING, state)
    assert hint.action == CubeAction.NO_DOUBLE
    assert words in hint.reason
    assert hint.no_double is None  # the engine was not asked


@settings(max_examples=300, deadline=None)
@given(
    my_away=st.integers(1, 15),
    their_away=st.integers(1, 15),
    log2=st.integers(0, 5),
    owner=st.sampled_from(sorted(OWNERS)),
    crawford=st.booleans(),
)
def test_cube_availability_matches_bgsage(my_away, their_away, log2, owner, crawford) -> None:
    bgsage = pytest.importorskip("bgsage", reason="bgsage cannot be imported here")
    if crawford and 1 not in (my_away, their_away):
        crawford = False
    state = CubeState(2**log2, owner, my_away, their_away, crawford)
    expected = bgsage.can_double_match(my_away, their_away, 2**log2, OWNERS[owner], crawford)
    assert (cube_blocker(state) is None) == expected


def test_pubeval_gives_no_cube_advice_in_one_sentence() -> None:
    from bgboard.errors import InputError

    with pytest.raises(InputError, match="no cube advice except in money races"):
        cube_hint(PubevalEngine(), start_position(), CubeState())
    # ...but a cube that cannot be turned needs no engine
    assert cube_hint(PubevalEngine(), start_position(), CubeState(crawford=True, my_away=1, their_away=2)).action == CubeAction.NO_DOUBLE


def test_gnubg_backend_refuses_money_cube_in_words(gnubg_engine) -> None:
    from bgboard.hints import UnsupportedError

    with pytest.raises(UnsupportedError, match="match play only"):
        cube_hint(gnubg_engine, start_position(), CubeState())


@pytest.mark.parametrize("kwargs", [dict(owner="left"), dict(value=3), dict(my_away=3, their_away=0)])
def test_bad_cube_states_are_input_errors(kwargs) -> None:
    from bgboard.errors import InputError

    with pytest.raises(InputError):
        CubeState(**kwargs)


def test_keith_count_by_hand() -> None:
    from bgboard.hints.race_cube import keith_count

    # 3 on the 1-point (+4), 2 on the 2-point (+1), 4 on the 3-point (+1), 4- and 5-points
    # empty (+2), 6 on the 6-point: pips 3 + 4 + 12 + 36 = 55, Keith count 63.
    side = (0, 3, 2, 4, 0, 0, 6) + (0,) * 19
    assert keith_count(side) == 63


@pytest.mark.slow
def test_keith_count_agrees_with_bgsage_in_money_races(bgsage_engine) -> None:
    from bgboard.hints.pubeval import is_race
    from bgboard.hints.samples import random_positions

    seen = set()
    same = total = 0
    for seed in range(12):
        for position, _ in random_positions(400, seed=seed):
            if position in seen or not is_race(position) or position.mine[0] or position.theirs[0]:
                continue
            seen.add(position)
            keith = cube_hint(PubevalEngine(), position, CubeState())
            assert keith.basis.startswith("Keith count ") and keith.no_double is None
            engine = cube_hint(bgsage_engine, position, CubeState())
            doubles = engine.action != CubeAction.NO_DOUBLE
            total += 1
            same += doubles == (keith.action != CubeAction.NO_DOUBLE) and (not doubles or engine.take == keith.take)
    assert total >= 40
    assert same / total >= 0.8


@pytest.mark.parametrize(
    "double, take, nd, dp, action",
    [
        (True, True, 0.6, 1.0, CubeAction.DOUBLE_TAKE),
        (True, False, 0.9, 1.0, CubeAction.DOUBLE_PASS),
        (False, False, 1.2, 1.0, CubeAction.TOO_GOOD),  # playing on beats the pass
        (False, False, 1.0, 1.0, CubeAction.NO_DOUBLE),  # the tie: gnubg calls it too good only when ND > DP
        (False, True, 1.2, 1.0, CubeAction.NO_DOUBLE),  # the opponent would take: not too good to double
        (False, True, 0.3, 1.0, CubeAction.NO_DOUBLE),
    ],
)
def test_one_cube_classifier_for_both_engines_and_its_tie(double, take, nd, dp, action) -> None:
    from bgboard.hints.hint_engine import classify_cube

    assert classify_cube(double, take, nd, dp) == action
