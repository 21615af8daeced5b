"""The club's pure data: an event's settings, its entrants, what has been played, pairings.

Players are numbered by the database (``int`` ids); the pure core never sees names.
"""

from __future__ import annotations

from dataclasses import dataclass

DOUBLE = "double-elimination"
SWISS = "swiss"
ROUND_ROBIN = "round-robin"
SINGLE = "single-elimination"
FORMATS = (DOUBLE, SWISS, ROUND_ROBIN, SINGLE)
ELIMINATION = (DOUBLE, SINGLE)

MAIN = "main"
CONSOLATION = "consolation"
LAST_CHANCE = "last-chance"

# player statuses in the standings
PLAYING = "playing"
ELIMINATED = "eliminated"
CHAMPION = "champion"
RUNNER_UP = "runner-up"
CONSOLATION_WINNER = "consolation-winner"
LAST_CHANCE_WINNER = "last-chance-winner"
FINISHED = "finished"
WITHDRAWN = "withdrawn"


@dataclass(frozen=True, slots=True)
class EventSpec:
    """How an event is played: its format, match lengths and (Swiss) number of rounds."""

    format: str
    length: int
    consolation_length: int | None = None
    rounds: int | None = None
    last_chance: bool = False

    def length_of(self, flight: str) -> int:
        """The match length of a flight (the consolation and last chance may be shorter)."""
        if flight in (CONSOLATION, LAST_CHANCE) and self.consolation_length:
            return self.consolation_length
        return self.length


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in an event; ``seed`` 1 is the best (seeding is by rating).  ``start_score``
    is the Swiss score a late entrant starts with (0, or a half-point bye the director gives)."""

    player: int
    seed: int
    withdrawn: bool = False
    start_score: float = 0.0


@dataclass(frozen=True, slots=True)
class Played:
    """A match (or bye) already made in an event.

    ``b`` is ``None`` for a bye; ``winner`` is ``None`` while the match is being played;
    ``score`` is ``(a's points, b's points)`` when a score was reported (not for a forfeit
    or a bye).
    """

    node: str
    flight: str
    round: int
    a: int
    b: int | None
    winner: int | None = None
    score: tuple[int, int] | None = None
    forfeit: bool = False

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.b is None:
            return None
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True, slots=True)
class Pairing:
    """A match to make now: ``b`` ``None`` = a bye for ``a``; ``walkover`` = the winner when
    a withdrawn player is drawn (the match is a forfeit at once)."""

    node: str
    flight: str
    a: int
    b: int | None
    length: int
    walkover: int | None = None
