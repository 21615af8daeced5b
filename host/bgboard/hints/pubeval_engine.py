"""The built-in fallback backend: pubeval (pure Python, always available)."""

from __future__ import annotations

from typing import Sequence

from bgboard.hints.engine import CubeHint, CubeState, UnsupportedError
from bgboard.hints.pubeval import is_race, score
from bgboard.rules.position import Position


class PubevalEngine:
    """Tesauro's linear evaluator: ranks plays, gives no equities and no cube advice.

    Needs no compiled code, so it runs wherever Python does (it is the fallback when
    bgsage and gnubg-nn are missing).
    """

    name = "pubeval"
    calibrated = False

    def rank(self, position: Position, dice: tuple[int, int], results: Sequence[Position]) -> list[float]:
        """pubeval's score of each resulting position (race weights if ``position`` is a race)."""
        race = is_race(position)
        checkers = sum(position.mine)
        return [score(after, race, checkers) for after in results]

    def cube(self, position: Position, state: CubeState) -> CubeHint:
        """pubeval has no idea of winning chances, so it cannot advise on the cube."""
        raise UnsupportedError("the pubeval engine gives no cube advice: install bgsage for cube hints")

    def close(self) -> None:
        """Nothing to release."""
