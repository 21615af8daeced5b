"""The director's desk as the evening and the results see it (typing only): what
:mod:`bgboard.club.evening` and :mod:`bgboard.club.results` use of the
:class:`~bgboard.club.director.Director` they are handed, so neither imports the director
(which imports both) and the club's modules import one way."""

from __future__ import annotations

import sqlite3
from typing import Protocol

from bgboard.club.db import Club
from bgboard.club.views import BracketNode, EventInfo, MatchInfo, Standing


class Desk(Protocol):
    """The director's club, its connection and the reads the evening and the results need."""

    club: Club
    db: sqlite3.Connection
    last_backup: str | None

    def club_name(self) -> str: ...

    def event(self, name: str) -> EventInfo: ...

    def matches(self, event: str) -> list[MatchInfo]: ...

    def match(self, match_id: int) -> MatchInfo: ...

    def bracket(self, event: str) -> list[BracketNode]: ...

    def standings(self, event: str) -> list[Standing]: ...

    def recompute_ratings(self) -> None: ...


__all__ = ["Desk"]
