import pytest

from bgboard.rules import InvalidPositionError, Position

def test_start_position_pips_and_conversions():
    start = Position.from_points([2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2][::-1])
    assert start.pips() == (167, 167)
    assert start.to_bgsage() == [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    assert Position.from_gnubg(start.to_gnubg()) == start
    assert start.swap().swap() == start
    assert hash(start) == hash(Position.from_gnubg(start.to_gnubg()))


@pytest.mark.parametrize(
    "points, bar, message",
    [
        ([16] + [0] * 23, (0, 0), "15 checkers expected for the player on roll, 16 seen"),
        ([15, -1] + [0] * 22, (0, 0), "15 checkers expected for the opponent, 1 seen"),
    ],
)
def test_bad_counts_are_named(points, bar, message):
    with pytest.raises(InvalidPositionError) as info:
        Position.from_points(points, bar=bar, off=(0, 0))
    assert str(info.value) == message


def test_both_colours_on_one_point():
    mine = (0, 15) + (0,) * 24
    theirs = (14,) + (0,) * 23 + (1, 0)  # their 24-point is my 1-point
    with pytest.raises(InvalidPositionError, match="point 1 holds checkers of both colours"):
        Position(mine, theirs).validate()


def test_negative_count():
    mine = (16, -1) + (0,) * 24
    with pytest.raises(InvalidPositionError, match="negative count"):
        Position(mine, (15,) + (0,) * 25).validate()
