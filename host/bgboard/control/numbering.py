"""Which numbers the display uses for the points (pure).

Two sources of point numbers meet in the display's sentences: the rules engine, its
notation and the hints speak in the **mover's own numbering** (as gnubg does: each player's
home board is 1–6), and the sensing layer speaks in **physical numbering** (white's own:
``bgboard.sense.places``).  For white both are the same; for black point ``p`` of one is
point ``25 − p`` of the other.

The config's ``[match] numbering`` chooses what the players read: ``"own"`` (the default:
every message to a player in that player's numbering, as notation and gnubg name points)
or ``"physical"`` (the board's numbering, white's, for both).  :class:`Words` turns a text
from either source into the chosen numbering; the LEDs always light the physical places,
so a point named in the words and the light on the board are the same place.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bgboard.rules.notation import flip_points

__all__ = ["NUMBERINGS", "Numbering", "Words", "flip_points"]


class Numbering(StrEnum):
    """The numbering the players read (config ``[match] numbering``)."""

    OWN = "own"
    PHYSICAL = "physical"


NUMBERINGS = tuple(Numbering)

@dataclass(frozen=True, slots=True)
class Words:
    """Texts for ``player`` (the mover, or the player addressed) in ``numbering``."""

    player: int | None
    numbering: Numbering = Numbering.OWN

    def _flips(self, source: Numbering) -> bool:
        return self.player == 1 and source != self.numbering

    def own(self, text: str) -> str:
        """A text in the player's own numbering (rules engine, notation, hints)."""
        return flip_points(text) if self._flips(Numbering.OWN) else text

    def physical(self, text: str) -> str:
        """A text in physical numbering (sensing: fixes, places, set-up)."""
        return flip_points(text) if self._flips(Numbering.PHYSICAL) else text

    @property
    def put_back_player(self) -> int | None:
        """The numbering :func:`bgboard.sense.places.put_back` should use."""
        return self.player if self.numbering == Numbering.OWN else None
