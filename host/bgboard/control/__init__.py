"""The match at one board: clocks, events, the match session (journal), the turn judge, the
presenter and the controller that routes events between them (pure; time passed in); the
rooms the app drives (``rooms.Room``: the match, practice drills, a replay).

Other layers import one room at a time (the buttons adapter only ``control.events``), so the
public names are imported on first use (:mod:`bgboard.exports`).  A regular package (not a
namespace package) so that setuptools ships it in the wheel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.exports import exports

if TYPE_CHECKING:
    from bgboard.control.clock import Clock, ClockRules, ClockSettingError
    from bgboard.control.controller import Controller
    from bgboard.control.events import (
        BUTTONS,
        DOUBLE,
        DROP,
        ROLL,
        BoardFault,
        BoardRead,
        Button,
        ButtonPressed,
        DiceRolled,
        Event,
        HintReady,
        LessonReady,
        LinkChanged,
        Tick,
    )
    from bgboard.control.judge import BLUE, GREEN
    from bgboard.control.notice import Topic
    from bgboard.control.practice_room import LEARNER, PracticeRoom
    from bgboard.control.replay_room import (
        BACK,
        FORWARD,
        NEXT_GAME,
        ReplayRoom,
        ReplayStep,
        Replayer,
        replay_steps,
    )
    from bgboard.control.rooms import Room
    from bgboard.control.session import IllegalPolicy, MatchSession, Settings
    from bgboard.control.seed_notes import hints_known, variant_notes

#: Each submodule and the public names it defines (imported when a name is first used).
__getattr__ = exports(__name__, {
    "clock": "Clock ClockRules ClockSettingError",
    "controller": "Controller",
    "events": (
        "BUTTONS DOUBLE DROP ROLL BoardFault BoardRead Button ButtonPressed DiceRolled Event "
        "HintReady LessonReady LinkChanged Tick"
    ),
    "judge": "BLUE GREEN",
    "notice": "Topic",
    "practice_room": "LEARNER PracticeRoom",
    "replay_room": "BACK FORWARD NEXT_GAME ReplayRoom ReplayStep Replayer replay_steps",
    "rooms": "Room",
    "session": "IllegalPolicy MatchSession Settings",
    "seed_notes": "hints_known variant_notes",
})

__all__ = [
    "BACK", "BLUE", "BUTTONS", "DOUBLE", "DROP", "FORWARD", "GREEN", "LEARNER", "NEXT_GAME", "ROLL",
    "BoardFault", "BoardRead", "Button", "ButtonPressed", "Clock", "ClockRules",
    "ClockSettingError", "Controller", "DiceRolled", "Event", "HintReady", "IllegalPolicy",
    "LessonReady", "LinkChanged", "MatchSession", "PracticeRoom", "ReplayRoom", "ReplayStep",
    "Replayer", "Room", "Settings", "Tick", "Topic", "hints_known", "replay_steps",
    "variant_notes",
]
