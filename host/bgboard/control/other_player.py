"""Who plays the other side of a match at this board (pure): the strategy the match room is
given when it opens (:class:`OtherPlayer`).

The match room (:class:`~bgboard.control.controller.Controller`) is one class for every
match; who decides the other side's actions is the player it is given:

* :class:`PersonAtBoard` — both players are at this board and press their own buttons (the
  room's own handling of every event, nothing added);
* :class:`~bgboard.control.engine_player.EnginePlayer` — an engine decides one side (asked a
  question whenever the match waits for that side); the person here carries its plays out;
* :class:`~bgboard.control.remote.RemotePlayer` — a person at another board decides one side
  (their actions come as messages); the person here carries their plays out.

When the room opens it hands the player itself (:meth:`OtherPlayer.open`, as a
:class:`~bgboard.control.match_table.MatchTable`); then, for each event that a player may take
differently from two people at the board (a reading of the board, a button, the dice, the
link, the clock's tick) the room calls the player's method of that event with the room's own
handling (``own``): the player runs it, or does something else, or both.  After every event
the player may act (:meth:`OtherPlayer.after`: ask the engine, take the other board's
actions); what the display says and shows passes through it last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:
    from bgboard.control.events import BoardRead, ButtonPressed, DiceRolled, Event, LinkChanged, OpponentMoved, Tick
    from bgboard.control.notice import Notice
    from bgboard.control.presenter import View
    from bgboard.control.other_side import OtherSide
    from bgboard.control.match_table import MatchTable

__all__ = ["OtherPlayer", "PersonAtBoard"]


class OtherPlayer(Protocol):
    """Who decides the other side of a match at this board (see the module docstring);
    ``side`` is the side decided elsewhere (None: both sides at this board)."""

    @property
    def side(self) -> int | None: ...

    def open(self, table: MatchTable) -> None:
        """The room it plays in has opened (the journal is there to read)."""
        ...

    def who(self) -> OtherSide | None:
        """Who decides ``side`` from elsewhere (None: nobody)."""
        ...

    @property
    def person_rolls(self) -> bool:
        """The display asks the person here to roll the dice for the other side now."""
        ...

    def on_board(self, event: BoardRead, own: Callable[[BoardRead], None]) -> None: ...

    def on_button(self, event: ButtonPressed, own: Callable[[ButtonPressed], None]) -> None: ...

    def on_dice(self, event: DiceRolled, own: Callable[[DiceRolled], None]) -> None: ...

    def on_link(self, event: LinkChanged, own: Callable[[LinkChanged], None]) -> None: ...

    def on_tick(self, event: Tick, own: Callable[[Tick], None]) -> None: ...

    def on_answer(self, event: OpponentMoved) -> None:
        """The other side's decision has come (the engine's, the other board's message)."""
        ...

    def after(self, event: Event) -> None:
        """The room took ``event`` (and drew it): act if the match waits for the other side."""
        ...

    def message(self, own: Callable[[], Notice | None]) -> Notice | None:
        """What the display says now (``own``: what the room itself would say)."""
        ...

    def view(self, view: View) -> View:
        """What the display shows now (``view``: as the room itself would show it)."""
        ...


class PersonAtBoard:
    """Both sides at this board: the room's own handling of everything."""

    side: int | None = None
    person_rolls = False

    def open(self, table: MatchTable) -> None:
        return None

    def who(self) -> OtherSide | None:
        return None

    def on_board(self, event: BoardRead, own: Callable[[BoardRead], None]) -> None:
        own(event)

    def on_button(self, event: ButtonPressed, own: Callable[[ButtonPressed], None]) -> None:
        own(event)

    def on_dice(self, event: DiceRolled, own: Callable[[DiceRolled], None]) -> None:
        own(event)

    def on_link(self, event: LinkChanged, own: Callable[[LinkChanged], None]) -> None:
        own(event)

    def on_tick(self, event: Tick, own: Callable[[Tick], None]) -> None:
        own(event)

    def on_answer(self, event: OpponentMoved) -> None:
        return None  # nobody elsewhere asked: nothing to take

    def after(self, event: Event) -> None:
        return None

    def message(self, own: Callable[[], Notice | None]) -> Notice | None:
        return own()

    def view(self, view: View) -> View:
        return view
