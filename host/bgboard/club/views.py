"""What the director's service hands out (pure, frozen): players, events, matches, rounds,
assignments, standings, bracket nodes and audit entries, and a match's states.

:mod:`bgboard.club.db` builds them from the club database; the CLI prints them, the web pages
and the print sheets show them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

PENDING, FINISHED, FORFEIT, BYE = "pending", "finished", "forfeit", "bye"


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    rating: float
    experience: int


@dataclass(frozen=True)
class EventInfo:
    name: str
    format: str
    length: int
    consolation_length: int | None
    rounds: int | None
    rules: str
    clock: dict[str, int]
    status: str
    players: list[str]
    last_chance: bool = False


@dataclass(frozen=True)
class MatchInfo:
    id: int
    uuid: str
    event: str
    round: int
    node: str
    flight: str
    players: list[str | None]
    length: int
    board: int | None
    status: str
    score: list[int] | None
    winner: str | None
    forfeit_reason: str | None
    has_mat: bool
    reported_at: str | None
    reported_by: str | None
    number: int | None = None   # the match's number in its event (byes have none)


@dataclass(frozen=True)
class Assignment:
    id: int
    uuid: str
    event: str
    round: int
    board: int | None
    players: list[str]
    length: int
    flight: str
    rules: str
    clock: dict[str, int]


@dataclass(frozen=True)
class RoundInfo:
    event: str
    round: int
    matches: list[MatchInfo]
    byes: list[str]
    walkovers: list[MatchInfo] = field(default_factory=list[MatchInfo])

    def as_json(self) -> dict[str, Any]:
        """The issue's shape: {"event", "round", "matches": [{"id", "board", "players",
        "length", "flight"}], "byes"}."""
        return {"event": self.event, "round": self.round,
                "matches": [{"id": m.id, "board": m.board, "players": m.players,
                             "length": m.length, "flight": m.flight} for m in self.matches],
                "byes": self.byes}


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    wins: int
    losses: int
    points_for: int
    points_against: int
    tiebreaks: dict[str, float]
    status: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BracketNode:
    node: str
    flight: str
    stage: int
    state: str
    players: list[str | None]
    winner: str | None
    match_id: int | None


@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: str
    actor: str
    action: str
    event: str | None
    match_id: int | None
    args: dict[str, Any]
    before: Any
    after: Any


__all__ = ["PENDING", "FINISHED", "FORFEIT", "BYE", "PlayerInfo", "EventInfo", "MatchInfo", "Assignment",
           "RoundInfo", "Standing", "BracketNode", "AuditEntry"]
