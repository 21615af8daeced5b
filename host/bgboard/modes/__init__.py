"""The app's modes beside its wiring (issue 21): what ``bgboard.app.App`` sets up for a
practice session, the learner report, a club seat and a replay, each in a module of its own,
so ``app.py`` holds the wiring alone.  Adapters: they open files and the club link, and are
imported by the app when a mode asks for them."""

from __future__ import annotations

from bgboard.modes.club import open_club_seat
from bgboard.modes.practice import PracticeProgress, open_practice_room
from bgboard.modes.replay import open_replay
from bgboard.modes.report import report_names, write_learner_report

__all__ = [
    "PracticeProgress", "open_club_seat", "open_practice_room", "open_replay", "report_names",
    "write_learner_report",
]
