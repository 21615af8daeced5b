"""Hints and teaching: engines behind one interface, cube advice, grades, explanations.

Backends: ``bgsage`` (default when installed), ``gnubg-nn``, and the pure-Python
``pubeval`` fallback.  :func:`open_engine` picks one by name; :func:`play_hints` and
:func:`cube_hint` ask it; :class:`HintWorker` runs them off the event loop.
"""

from bgboard.hints.advice import Cancelled, cube_blocker, cube_hint, play_hints
from bgboard.hints.hint_engine import (
    CubeAction,
    CubeHint,
    CubeState,
    EngineUnavailableError,
    HintEngine,
    PlayHint,
    PlaysHint,
    UnsupportedError,
)
from bgboard.hints.grade import Grade, grade, grade_play
from bgboard.hints.lesson import CubeLesson, PlayLesson, grade_cube, grade_turn
from bgboard.hints.registry import ENGINES, Opened, UnknownEngineError, open_configured, open_engine
from bgboard.hints.worker import HintCancelled, HintJob, HintWorker

__all__ = [
    "Cancelled",
    "CubeLesson",
    "PlayLesson",
    "grade_cube",
    "grade_turn",
    "CubeAction",
    "CubeHint",
    "CubeState",
    "ENGINES",
    "EngineUnavailableError",
    "Grade",
    "HintCancelled",
    "HintEngine",
    "HintJob",
    "HintWorker",
    "Opened",
    "PlayHint",
    "PlaysHint",
    "UnknownEngineError",
    "UnsupportedError",
    "cube_blocker",
    "cube_hint",
    "grade",
    "grade_play",
    "open_configured",
    "open_engine",
    "play_hints",
]
