"""The app's modes beside its wiring (issue 21): what ``bgboard.app.App`` sets up for a
match (its room, its settings, the hint engine, the other side's player: an engine or a
remote person), a practice session, the learner report, a club seat and a replay, each in a
module of its own, so ``app.py`` holds the wiring alone.  Each mode opens one room
(``control.rooms.Room``) that the app then drives through the protocol alone.  Adapters: they open files, engines and
the club link, each only when the app calls for it."""

from __future__ import annotations

from bgboard.modes.afterwards import Afterwards
from bgboard.modes.club import club_mat_info, open_club_seat
from bgboard.modes.engine import HintRequests, open_hints
from bgboard.modes.match import open_match_room
from bgboard.modes.opponent import open_other_side
from bgboard.modes.practice import PracticeProgress, open_practice_room
from bgboard.modes.replay import open_replay
from bgboard.modes.report import report_names, write_learner_report
from bgboard.modes.settings import settings_of

__all__ = [
    "Afterwards", "HintRequests", "PracticeProgress", "club_mat_info", "open_club_seat", "open_hints", "open_match_room", "open_other_side", "open_practice_room", "open_replay",
    "report_names", "settings_of", "write_learner_report",
]
