"""Teaching: legal destinations of a lifted checker and the reason for an illegal play."""

from __future__ import annotations

import pytest

from bgboard.hints import destinations, illegal_reason
from bgboard.rules import Position, apply_step, explain, legal_plays, legal_steps, start_position


@pytest.mark.parametrize("frm,to", [(24, (23, 21)), (13, (10,)), (8, (7, 5)), (6, (5, 3))])
def test_destinations_at_the_start_with_31(frm, to) -> None:
    # 13/12 is blocked: their five checkers on their 13-point are on my 12-point
    found = destinations(start_position(), (3, 1), (), frm)
    assert found.to == to
    assert found.text.startswith(f"The checker from point {frm} can go to ")


def test_destinations_follow_the_steps_already_made() -> None:
    start = start_position()
    first = next(s for s in legal_steps(start, (3, 1), ()) if s.frm == 8 and s.to == 5)
    assert destinations(start, (3, 1), (first,), 6).to == (5,)
    assert destinations(start, (3, 1), (first,), 8).to == (7,)


def test_a_checker_on_the_bar_must_enter_first() -> None:
    # One of mine on the bar: only the bar checker may move, nothing else has destinations.
    mine = list(start_position().mine)
    mine[24] -= 1
    mine[25] = 1
    position = Position(tuple(mine), start_position().theirs).validate()
    assert destinations(position, (6, 5), (), 25).to == (20,)  # 6 is blocked (their bar point)
    assert destinations(position, (6, 5), (), 13).to == ()
    assert "cannot move now" in destinations(position, (6, 5), (), 13).text


def test_illegal_reason_is_none_for_every_legal_play_and_a_sentence_otherwise() -> None:
    start = start_position()
    for play in legal_plays(start, (6, 5)):
        assert illegal_reason(start, (6, 5), play.position) is None
    # playing only the 6 (24/18) leaves the 5 unplayed although it could be played
    half = apply_step(start, next(s for s in legal_steps(start, (6, 5), ()) if s.frm == 24 and s.to == 18))
    reason = illegal_reason(start, (6, 5), half)
    assert reason == explain(start, (6, 5), half)
    assert "only one" in reason and "\n" not in reason
    assert "cannot pass" in illegal_reason(start, (6, 5), start)
