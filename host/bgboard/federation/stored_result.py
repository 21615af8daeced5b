"""A result as the federation keeps it (pure: a value, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StoredResult:
    """One club's result in the federation's database.  ``members`` are the players' member
    ids (None: a player the club has not linked); ``winner`` 0 or 1; ``score`` None for a
    forfeit; ``rated`` whether the club rated it; ``seq`` the club's own rating order;
    ``played_at`` when the club stored it (ISO-8601 UTC)."""

    club: str
    id: str
    event: str
    players: tuple[str, str]
    members: tuple[str | None, str | None]
    length: int
    score: tuple[int, int] | None
    winner: int
    rated: bool
    seq: int
    played_at: str

    @property
    def winner_member(self) -> str | None:
        return self.members[self.winner]

    @property
    def loser_member(self) -> str | None:
        return self.members[1 - self.winner]


__all__ = ["StoredResult"]
