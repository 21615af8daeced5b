"""Resigning at the board: the resigner chooses the level, the opponent answers (part of the
controller; :class:`~bgboard.control.controller.Controller` is the one class that mixes it in).

The player on roll presses **drop** (before or after rolling); the display offers a single
game, **double** raises the level (single, gammon, backgammon, round again), **roll** offers
it, **drop** again cancels.  The opponent answers with **double** (accept: the game ends) or
**drop** (decline: play goes on).  Every step is said on the display.
"""

from __future__ import annotations

from typing import Any

from bgboard.language import Phrase
from bgboard.control.events import Button
from bgboard.control.notice import Notice, Severity
from bgboard.control.session import MatchSession
from bgboard.match import AcceptResign, RejectResign, Resign
from bgboard.match.state import MatchState

__all__ = ["LEVELS", "Resigning"]

WARNING = Severity.WARNING

#: Resignation levels: points before the cube, and their names.
LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


class Resigning:
    """The resignation flow of the controller: what it reads and calls of the controller is
    declared here, the controller defines it."""

    resigning: tuple[int, int] | None  # (the resigner, the level being chosen) while choosing
    notice: Notice | None
    session: MatchSession

    @property
    def state(self) -> MatchState | None:
        raise NotImplementedError

    def _act(self, action: Any, at_ms: int) -> bool:
        raise NotImplementedError

    def _after_game(self, at: int) -> None:
        raise NotImplementedError

    def _resign_notice(self) -> Notice:
        assert self.resigning is not None and self.state is not None
        player, level = self.resigning
        points = level * self.state.cube
        what = LEVELS[level]
        unit = "point" if points == 1 else "points"
        return Notice(
            f"Resign {what} ({points} {unit})? double: resign more, roll: offer it, drop: cancel",
            WARNING,
            f"Resign {what}? double: more, roll: offer, drop: cancel",
        )

    def _choose_resignation(self, button: Button, at: int) -> None:
        """The resigner's buttons while choosing the level."""
        assert self.resigning is not None
        player, level = self.resigning
        if button == Button.DOUBLE:
            self.resigning = (player, level % 3 + 1)
            self.notice = self._resign_notice()
        elif button == Button.DROP:
            self.resigning = None
            self.notice = Notice(Phrase("resignation cancelled: play on"))
        else:  # roll: offer it
            self.resigning = None
            if self._act(Resign(level, player=player), at):
                self.session.clock_to(1 - player, at)

    def _answer_resignation(self, player: int, button: Button, at: int) -> None:
        """The opponent accepts (double) or declines (drop) the resignation."""
        state = self.state
        assert state is not None and state.turn is not None
        if player != state.decider:
            self.notice = Notice(Phrase("waiting for %(who)s to answer the resignation", who=state.players[1 - state.turn]), WARNING)
        elif button == Button.DOUBLE:
            if self._act(AcceptResign(player=player), at):
                self._after_game(at)
        elif button == Button.DROP:
            if self._act(RejectResign(player=player), at):
                self.notice = Notice(Phrase("resignation declined: play on"))
                self.session.clock_to(state.turn, at)
        else:
            self.notice = Notice(Phrase("answer the resignation: double accepts, drop declines"), WARNING)
