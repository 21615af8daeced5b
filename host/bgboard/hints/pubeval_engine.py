"""The built-in fallback backend: pubeval (pure Python, always available)."""

from __future__ import annotations

from typing import Sequence

from bgboard.hints.hint_engine import CubeHint, CubeState, UnsupportedError
from bgboard.hints.pubeval import is_race, score
from bgboard.hints.race_cube import keith_cube
from bgboard.rules.position import Position


class PubevalEngine:
    """Tesauro's linear evaluator: ranks plays, gives no equities; cube advice only in money
    races (the Keith count).

    Needs no compiled code, so it runs wherever Python does (it is the fallback when
    bgsage and gnubg-nn are missing).
    """

    name = "pubeval"
    calibrated = False

    def rank(
        self, position: Position, dice: tuple[int, int], results: Sequence[Position], state: CubeState | None = None
    ) -> list[float]:
        """pubeval's score of each resulting position (race weights if ``position`` is a
        race); the cube and the score are ignored."""
        race = is_race(position)
        checkers = sum(position.mine)
        return [score(after, race, checkers) for after in results]

    def cube(self, position: Position, state: CubeState) -> CubeHint:
        """pubeval knows nothing of winning chances: in a money race the Keith count
        answers instead; anything else needs a real engine."""
        if state.money and is_race(position):
            return keith_cube(position, state, engine=self.name)
        raise UnsupportedError(
            "the pubeval engine gives no cube advice except in money races: install bgsage for cube hints"
        )

    def close(self) -> None:
        """Nothing to release."""
