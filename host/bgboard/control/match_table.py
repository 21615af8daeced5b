"""The match room as its parts see it (pure): what the other side's player
(:mod:`bgboard.control.other_player`), the buttons (:mod:`bgboard.control.match_buttons`), the
resignation (:mod:`bgboard.control.resigning`) and the display's words
(:mod:`bgboard.control.match_view`) read of the room they belong to, and what they ask it to
do.  :class:`~bgboard.control.controller.Controller` is the one class that has these members;
its parts are given it when the room opens and hold no other reference to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:
    from bgboard.control.clock import Clock
    from bgboard.control.coach import Coach
    from bgboard.control.events import Button, DiceRolled
    from bgboard.control.judge import TurnJudge
    from bgboard.control.notice import Notice
    from bgboard.control.session import JournalLike, MatchSession, Settings
    from bgboard.link.messages import HostMessage
    from bgboard.match import Action
    from bgboard.match.state import MatchState
    from bgboard.sense.places import Observation

__all__ = ["MatchTable"]


class MatchTable(Protocol):
    """One match at this board, as its parts use it."""

    session: MatchSession  # the match, its journal and clocks
    judge: TurnJudge  # the roll being played, as the board shows it
    coach: Coach  # hints and lessons
    notice: Notice | None  # what the display says now (None: what the match says)
    link_up: bool  # the board is connected
    now_ms: int
    send: Callable[[HostMessage], None]  # to the board (LEDs, the dice module)

    @property
    def state(self) -> MatchState | None: ...

    @property
    def actions(self) -> list[Action]: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def journal(self) -> JournalLike: ...

    @property
    def clock(self) -> Clock | None: ...

    @property
    def forfeit(self) -> int | None: ...

    @property
    def over(self) -> bool: ...

    @property
    def observation(self) -> Observation | None: ...

    @property
    def result_sent(self) -> bool | None: ...

    @property
    def resigning(self) -> tuple[int, int] | None:
        """(the resigner, the level) while a player chooses a resignation at the board."""
        ...

    def act(self, action: Action, at_ms: int) -> bool:
        """Check ``action`` against the match, journal it, let it take effect (False: refused,
        the notice says why)."""
        ...

    def press(self, player: int, button: Button, at: int) -> None:
        """``player``'s ``button`` as the room itself takes it (a person's press at this board)."""
        ...

    def roll(self, event: DiceRolled) -> None:
        """The dice as the room itself takes them."""
        ...

    def after_play(self, mover: int | None, at: int) -> None:
        """A play was recorded: the clock to the other player, or the game's end."""
        ...

    def after_game(self, at: int) -> None:
        """A game ended: the clocks stop, the LEDs go out."""
        ...

    def refresh(self) -> None:
        """Draw what the display shows now."""
        ...
