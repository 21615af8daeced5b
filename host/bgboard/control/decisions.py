"""The other side's decisions as the match room asks for them (pure): a :class:`Question`
the match waits on, the :class:`Answer` that decides it, and where answers come from
(:class:`OpponentPlay`: an engine; the app's adapter is ``bgboard.opponents``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bgboard.match.state import MatchState

__all__ = ["Answer", "OpponentPlay", "Question"]


@dataclass(frozen=True, slots=True)
class Question:
    """What the match asks the other side: ``kind`` is "cube" (double or roll?), "take" (take,
    pass or beaver?), "play" (the roll ``state.dice``) or "resign" (accept ``level``?);
    ``player`` is the other side, ``state`` the match as it stands; ``key`` comes back with
    the answer."""

    kind: str
    player: int
    state: MatchState
    key: tuple[object, ...]
    level: int = 1


@dataclass(frozen=True, slots=True)
class Answer:
    """The other side's decision: ``choice`` ("double"/"roll", "take"/"pass"/"beaver",
    "accept"/"decline", "play"); a play's ``steps`` ((from, to) in that side's own
    numbering, empty: no legal play) and ``notation``."""

    choice: str
    steps: tuple[tuple[int, int], ...] = ()
    notation: str = ""


class OpponentPlay(Protocol):
    """Where the other side's decisions come from (an engine)."""

    @property
    def name(self) -> str:
        """How the display names it ("gnubg-nn (expert)"; with its level, which may change)."""
        ...

    def ask(self, question: Question) -> Answer | None:
        """Answer now, or return None and answer later with an OpponentMoved event."""
        ...

    def levels(self) -> tuple[str, ...]:
        """The levels it can play at, weakest first (empty: it has none to choose)."""
        ...

    def set_level(self, level: str) -> None:
        """Play at ``level`` from the next question on."""
        ...

    def engine_level(self) -> tuple[str, str] | None:
        """The engine and the level it plays at now (None: no engine)."""
        ...
