"""Both players confirm a club match's result at the board (pure: no I/O, no clock).

When the club event asks for it (the assignment's ``confirm``), a networked board does not
report a finished match at once: the display shows the result and asks both players to
confirm it with **done** (the roll button); either player disputes it with **double** or
**drop** (the resign button) — "another button".  The result is reported with
``confirmed`` once both have pressed done, or ``disputed`` as soon as one disputes (the
director then decides, docs/club.md).  A player who confirmed may still dispute until the
other confirms (a second thought before the result goes); a dispute cannot be taken back.

:class:`Confirmation` is the answer so far, rebuilt from the presses journalled by the club
seat (``bgboard.net.seat``), so a reboot in between keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bgboard.language import Phrase
from bgboard.control.events import Button
from bgboard.control.notice import Notice, Severity, Topic

__all__ = ["CONFIRM", "DISPUTE", "Confirmation", "answer_of"]

CONFIRM, DISPUTE = "confirm", "dispute"


def answer_of(button: Button | str) -> str:
    """What a button says about a result: done confirms, any other button disputes."""
    return CONFIRM if Button(button) == Button.ROLL else DISPUTE


@dataclass
class Confirmation:
    """The players' answers to the result ``score`` of ``players`` won by ``winner`` (player 0
    is white)."""

    players: tuple[str, str]
    score: tuple[int, int]
    winner: int
    confirmed: list[bool] = field(default_factory=lambda: [False, False])
    disputed_by: int | None = None

    def press(self, player: int, answer: str) -> bool:
        """Record ``player``'s answer; False when it changes nothing (already decided, or a
        repeated confirmation)."""
        if self.decided is not None or player not in (0, 1):
            return False
        if answer == DISPUTE:
            self.disputed_by = player
            return True
        if self.confirmed[player]:
            return False
        self.confirmed[player] = True
        return True

    @property
    def decided(self) -> str | None:
        """``confirm`` (both pressed done), ``dispute`` (one disputed) or None (waiting)."""
        if self.disputed_by is not None:
            return DISPUTE
        return CONFIRM if all(self.confirmed) else None

    def _result(self) -> str:
        a, b = self.score
        return Phrase("%(a)d-%(b)d, %(who)s wins", a=a, b=b, who=self.players[self.winner])

    def notice(self) -> Notice:
        """What the display says now."""
        if self.disputed_by is not None:
            who = self.players[self.disputed_by]
            return Notice(Phrase("%(who)s disputed the result %(result)s: the director decides, "
                                 "the match record goes with it", who=who, result=self._result()), Severity.WARNING,
                          Phrase("result disputed: the director decides"), Topic.RESULT, tiny=Phrase("disputed"))
        if self.decided == CONFIRM:
            return Notice(Phrase("result %(result)s confirmed by both players", result=self._result()), Severity.INFO,
                          Phrase("result confirmed"), Topic.RESULT, tiny=Phrase("confirmed"))
        waiting = [self.players[p] for p in (0, 1) if not self.confirmed[p]]
        if len(waiting) == 2:
            ask = Phrase("both players press done to confirm")
        else:
            ask = Phrase("%(who)s, press done to confirm", who=waiting[0])
        return Notice(Phrase("Result %(result)s: %(ask)s, or another button to dispute", result=self._result(), ask=ask),
                      Severity.INFO, Phrase("result %(a)d-%(b)d: done to confirm", a=self.score[0], b=self.score[1]),
                      Topic.RESULT, tiny=Phrase("confirm?"))
