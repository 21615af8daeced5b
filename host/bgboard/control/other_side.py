"""Who plays the other side of a match from elsewhere (pure): the value a room answers to
:meth:`bgboard.control.rooms.Room.other_side` (kept apart from the protocol so the rooms that
answer it need not import the protocol, which names the match room)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OtherSide"]


@dataclass(frozen=True, slots=True)
class OtherSide:
    """Who decides for ``side`` (0 white, 1 black) from elsewhere: ``name`` as the display
    names it; ``engine`` and ``level`` the engine and its level playing it (None: a person
    at another board)."""

    side: int
    name: str
    engine: str | None = None
    level: str | None = None
