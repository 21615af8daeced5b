"""One kind of room (pure): what every room at the board does for the app (issue 21).

A *room* is what the board is used for at the moment — a match (:class:`~bgboard.control.
controller.Controller`, the one match room, given who plays the other side: both people at
this board, an engine, or a person at another board — :mod:`bgboard.control.other_player`),
practice drills (:class:`~bgboard.control.practice_room.PracticeRoom`) or the replay of a match
file (:class:`~bgboard.control.replay_room.ReplayRoom`).  Every room keeps the same contract, and
``bgboard.app.App`` (and the simulator) drive a room through it alone:

* **an event in** — :meth:`Room.handle` takes one :data:`~bgboard.control.events.Event` (a board
  reading, the dice, a button, the link, a fault, a hint, a lesson, the other side's answer, a
  tick), with its time; a room ignores the kinds it has no use for.  It never raises for what
  a person does at the board: a wrong move is a notice on the display.
* **the view out** — the room draws what it wants shown through the ``show`` function it was
  built with (a :class:`~bgboard.display.display_state.DisplayState`, after every event and whenever
  else it changes) and drives the board through ``send`` (LEDs, the dice module's rolling);
  :meth:`Room.display` gives, without side effects, what it shows now (None while there is
  nothing to show yet).
* **the actions out** — :attr:`Room.actions` are the match actions taken so far, oldest first
  (journalled before they took effect; the app writes the match records from them): a match's
  actions, none for drills or a replay (no journal rows, no records).  :attr:`Room.state` is
  the match as it stands (None when there is no match: drills).
* **over** — :attr:`Room.over` says the room is done: the match won (or lost on time), every
  drill played, the replay at its last stop.  The app then writes the learner report and (a
  match) has it analysed; the room still takes events afterwards (a new match, going back in
  the replay).

* **the other side** — :meth:`Room.other_side` says who decides for one side of the match
  from elsewhere (:class:`OtherSide`: an engine at its level, a person at another board), so
  the person here carries its plays out; None when both sides are at this board (or there is
  no match).  Callers (the simulator's players) ask this instead of asking which class the
  room is.

* **the match it plays** — :meth:`Room.match_room` answers the match room
  (:class:`~bgboard.control.controller.Controller`) this room is or wraps: the match room
  itself, the match a :class:`~bgboard.control.seated_room.SeatedRoom` seats; None for drills
  and a replay.  What needs the match (its analysis at the end, the club seat, the
  simulator's players) asks the one room the app holds when it opens, instead of the app
  keeping the match beside the room.

Anything else a room offers (the practice progress) is wired by the app for the room it
opened, never by asking a room what it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Sequence, runtime_checkable

from bgboard.control.other_side import OtherSide

if TYPE_CHECKING:
    from bgboard.control.controller import Controller
    from bgboard.control.events import Event
    from bgboard.display.display_state import DisplayState
    from bgboard.match.actions import Action
    from bgboard.match.state import MatchState

__all__ = ["Room"]


@runtime_checkable
class Room(Protocol):
    """A room at the board (see the module docstring): event in, view and actions out, over."""

    @property
    def actions(self) -> Sequence[Action]:
        """The match actions taken so far, oldest first (none outside a match)."""
        ...

    @property
    def state(self) -> MatchState | None:
        """The match as it stands (None when the room plays no match)."""
        ...

    @property
    def over(self) -> bool:
        """The room is done (the match, the drills, the replay's last stop)."""
        ...

    def handle(self, event: Event) -> None:
        """Act on one event, then draw what changed (``show``, ``send``)."""
        ...

    def display(self) -> DisplayState | None:
        """What the display shows now (no side effects; None before there is anything)."""
        ...

    def other_side(self) -> OtherSide | None:
        """Who decides for one side from elsewhere (None: both sides at this board)."""
        ...

    def match_room(self) -> Controller | None:
        """The match room this room is or wraps (None: the room plays no match)."""
        ...

    def follow(self) -> None:
        """After an event and its records: whoever sits beside the room (a club's or a remote
        board's seat) follows what it changed; a room without seats has nothing to do."""
        ...
