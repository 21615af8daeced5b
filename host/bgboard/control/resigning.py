"""Resigning at the board: the resigner chooses the level, the opponent answers (pure; a part
the match room owns: :class:`Resignation`).

The player on roll presses **drop** (before or after rolling); the display offers a single
game, **double** raises the level (single, gammon, backgammon, round again), **roll** offers
it, **drop** again cancels.  The opponent answers with **double** (accept: the game ends) or
**drop** (decline: play goes on).  Every step is said on the display.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.language import Phrase
from bgboard.control.events import Button
from bgboard.control.notice import Notice, Severity
from bgboard.match import AcceptResign, RejectResign, Resign
from bgboard.match.state import Phase

if TYPE_CHECKING:
    from bgboard.control.match_table import MatchTable

__all__ = ["LEVELS", "Resignation"]

WARNING = Severity.WARNING

#: Resignation levels: points before the cube, and their names.
LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


class Resignation:
    """The resignation flow of one match room (``table``): ``choosing`` is (the resigner, the
    level being chosen) while a player chooses, else None."""

    def __init__(self, table: MatchTable) -> None:
        self.table = table
        self.choosing: tuple[int, int] | None = None

    def takes(self, player: int, button: Button, at: int) -> bool:
        """Take ``player``'s press if it belongs to a resignation (choosing one, answering
        one, or **drop** on roll starting one); False: the press is not about resigning."""
        state = self.table.state
        assert state is not None
        if self.choosing is not None and player == self.choosing[0]:
            self._choose(button, at)
        elif state.phase == Phase.RESIGNED:
            self._answer(player, button, at)
        elif button == Button.DROP and state.phase in (Phase.TURN, Phase.PLAY) and player == state.turn:
            self.choosing = (player, 1)
            self.table.notice = self.notice()
        else:
            return False
        return True

    def notice(self) -> Notice:
        """What the display says while the level is chosen."""
        state = self.table.state
        assert self.choosing is not None and state is not None
        player, level = self.choosing
        points = level * state.cube
        what = LEVELS[level]
        unit = "point" if points == 1 else "points"
        return Notice(
            f"Resign {what} ({points} {unit})? double: resign more, roll: offer it, drop: cancel",
            WARNING,
            f"Resign {what}? double: more, roll: offer, drop: cancel",
        )

    def _choose(self, button: Button, at: int) -> None:
        """The resigner's buttons while choosing the level."""
        assert self.choosing is not None
        player, level = self.choosing
        table = self.table
        if button == Button.DOUBLE:
            self.choosing = (player, level % 3 + 1)
            table.notice = self.notice()
        elif button == Button.DROP:
            self.choosing = None
            table.notice = Notice(Phrase("resignation cancelled: play on"))
        else:  # roll: offer it
            self.choosing = None
            if table.act(Resign(level, player=player), at):
                table.session.clock_to(1 - player, at)

    def _answer(self, player: int, button: Button, at: int) -> None:
        """The opponent accepts (double) or declines (drop) the resignation."""
        table = self.table
        state = table.state
        assert state is not None and state.turn is not None
        if player != state.decider:
            table.notice = Notice(Phrase("waiting for %(who)s to answer the resignation", who=state.players[1 - state.turn]),
                                  WARNING)
        elif button == Button.DOUBLE:
            if table.act(AcceptResign(player=player), at):
                table.after_game(at)
        elif button == Button.DROP:
            if table.act(RejectResign(player=player), at):
                table.notice = Notice(Phrase("resignation declined: play on"))
                table.session.clock_to(state.turn, at)
        else:
            table.notice = Notice(Phrase("answer the resignation: double accepts, drop declines"), WARNING)
