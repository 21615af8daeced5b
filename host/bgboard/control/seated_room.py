"""A match room with the seats beside it (pure): what follows a match at this board from
outside the match — a club evening's seat (``net.seat.ClubSeat``: the players' answers to a
result, the match published, its result reported, the next assignment taken) and a remote
match's seat (``net.remotelink.RemoteSeat``: this board's moves sent to the other board) —
wrapped around the one match room, so the app hands every event to one room.

:class:`SeatedRoom` is a :class:`~bgboard.control.rooms.Room`: a button that a seat takes (the
players' answer to a club result waiting for it) goes to that seat and the match never sees
it; every other event goes to the match room.  :meth:`SeatedRoom.follow` then lets each seat,
in order, follow what the event changed (the app calls it once the match's records are
written, so a result reported and the next assignment taken never hide the last action from
the records).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Sequence

from bgboard.control.events import ButtonPressed

if TYPE_CHECKING:
    from bgboard.control.controller import Controller
    from bgboard.control.events import Button, Event
    from bgboard.control.other_side import OtherSide
    from bgboard.display.display_state import DisplayState
    from bgboard.match.actions import Action
    from bgboard.match.state import MatchState

__all__ = ["Seat", "SeatedRoom"]


class Seat(Protocol):
    """What follows a match room from beside it."""

    def press(self, player: int, button: Button, at_ms: int) -> bool:
        """Take ``player``'s press before the match does (True: taken, the match never sees it)."""
        ...

    def after(self) -> None:
        """Follow what the last event changed (publish, report, send)."""
        ...


class SeatedRoom:
    """The match room ``match`` with ``seats`` beside it (see the module docstring)."""

    def __init__(self, match: Controller, seats: Sequence[Seat]) -> None:
        self.match = match
        self.seats = tuple(seats)

    @property
    def actions(self) -> Sequence[Action]:
        return self.match.actions

    @property
    def state(self) -> MatchState | None:
        return self.match.state

    @property
    def over(self) -> bool:
        return self.match.over

    def handle(self, event: Event) -> None:
        """A press a seat takes goes to that seat; anything else to the match room."""
        if isinstance(event, ButtonPressed) and any(seat.press(event.player, event.button, event.at_ms)
                                                    for seat in self.seats):
            return
        self.match.handle(event)

    def follow(self) -> None:
        """Each seat, in order, follows what the last event changed."""
        for seat in self.seats:
            seat.after()

    def display(self) -> DisplayState | None:
        return self.match.display()

    def other_side(self) -> OtherSide | None:
        return self.match.other_side()

    def match_room(self) -> Controller:
        """The match the seats follow."""
        return self.match
