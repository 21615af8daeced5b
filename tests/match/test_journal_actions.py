"""A journal's current match as its action log (pure), the one reading shared by the board's
session and by ``bgboard analyse`` of a journal (which no longer resumes a control session:
issue 33, analysis imported control sideways)."""

from __future__ import annotations

from typing import Any

from bgboard.match import Move, OpeningRoll, Roll, StartMatch
from bgboard.match.actions import action_to_dict, journal_actions
from bgboard.store.journal import Entry


def _rows(*events: tuple[str, Any]) -> list[Entry]:
    """Journal rows of ``(kind, action or body)`` events."""
    return [Entry(seq, kind, body if isinstance(body, dict) else action_to_dict(body), seq)
            for seq, (kind, body) in enumerate(events, start=1)]


def test_a_takeback_removes_the_last_play_and_what_came_after_it() -> None:
    start, opening, play, roll = StartMatch(3), OpeningRoll((3, 1)), Move(((8, 5), (6, 5))), Roll((6, 6))
    rows = _rows(("action", start), ("action", opening), ("action", play), ("action", roll),
                 ("clock", {"running": None}), ("undo", {"action": action_to_dict(roll)}))
    assert journal_actions(rows) == [start, opening]


def test_a_new_match_starts_the_log_again() -> None:
    first, second = StartMatch(3), StartMatch(5, players=("Ann", "Bob"))
    rows = _rows(("action", first), ("action", OpeningRoll((3, 1))), ("new", {}), ("action", second))
    assert journal_actions(rows) == [second]
    assert journal_actions(_rows(("action", first), ("new", {}))) == []
