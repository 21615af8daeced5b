"""A board's match seated at a club evening: the glue between the controller and the
:class:`~bgboard.net.boardlink.ClubLink` (no I/O of its own but the journal rows).

* An assignment from the director is **taken** when the board is free — its match is over,
  or it has not begun (no roll yet): a ``club`` row ``{"what": "take", "uuid", "assignment"}``
  is journalled with a fresh UUID for the match, and the controller starts the assigned match
  (names, length, rules, clock) — it shows on the display and goes into the match record; the
  players start it with the opening roll when they are ready.  An assignment arriving
  mid-match waits for the end of that match.
* After every event, the match as it stands is handed to the link (coalesced there).
* When a taken match is over, its result goes into the journal's outbox (the link sends it
  until acked) and a ``club`` row ``{"what": "reported", "uuid"}`` is journalled — once, also
  after a reboot between the two (the outbox ignores a UUID it already holds).
* When the assignment asks both players to confirm (``confirm``), the result waits for them:
  the display asks (:mod:`bgboard.control.confirm`), each press is a ``club`` row
  ``{"what": "answer", "uuid", "player", "answer"}`` (:meth:`ClubSeat.press` takes the buttons
  from the controller meanwhile), and the result goes with ``confirmed`` or ``disputed``.

After a restart the rows say which club match the journal's current match is.
"""

from __future__ import annotations

import uuid as uuids
from dataclasses import asdict, replace
from typing import Any, Callable

from bgboard.control.clock import ClockRules
from bgboard.control.confirm import CONFIRM, DISPUTE, Confirmation, answer_of
from bgboard.control.controller import Controller, Settings
from bgboard.net.protocol import Assignment, ClockSettings
from bgboard.net.board_report import board_state, result_of

CLUB_KIND = "club"


def assignment_from(body: dict[str, Any]) -> Assignment:
    """An assignment journalled with :func:`dataclasses.asdict`."""
    clock = body.get("clock")
    return Assignment(
        event=body["event"], match=body["match"], board=body["board"], players=tuple(body["players"]),  # type: ignore[arg-type]
        length=body["length"], rules=body.get("rules", "standard"), round=body.get("round", 0),
        clock=ClockSettings(**clock) if clock else None, confirm=bool(body.get("confirm", False)),
    )


def settings_for(base: Settings, a: Assignment) -> Settings:
    """The board's settings for an assigned match."""
    clock = base.clock
    if a.clock is not None:
        clock = ClockRules(a.clock.per_point_ms, a.clock.scored_ms, a.clock.delay_ms, a.clock.overtime_ms)
    return replace(base, players=a.players, length=a.length, rules=a.rules, clock=clock)


def club_match_of(entries: list[Any]) -> tuple[Assignment, str, bool] | None:
    """Which club match the journal's current match is — (assignment, UUID, reported?) — from
    its rows (``None``: a match of the players' own)."""
    takes: dict[str, dict[str, Any]] = {}
    reported: set[str] = set()
    started: str | None = None
    for entry in entries:
        if entry.kind == "new":
            started = None  # a match of its own, unless a "started" row follows
        elif entry.kind != CLUB_KIND:
            continue
        elif entry.body.get("what") == "take":
            takes[entry.body["uuid"]] = entry.body["assignment"]
        elif entry.body.get("what") == "started":
            started = entry.body["uuid"]
        elif entry.body.get("what") == "reported":
            reported.add(entry.body["uuid"])
    if started is None or started not in takes:
        return None
    return assignment_from(takes[started]), started, started in reported


class ClubSeat:
    """See the module docstring.  ``link`` needs ``publish_state`` and ``submit_result``."""

    def __init__(self, journal: Any, board: int, base: Settings, clock_ms: Callable[[], int]) -> None:
        self.journal = journal
        self.board = board
        self.base = base
        self.clock_ms = clock_ms
        self.link: Any = None
        self.controller: Controller | None = None
        self.offered: Assignment | None = None
        self._current: tuple[Assignment, str, bool] | None = None
        self._first: Any = None  # the StartMatch the cached answer belongs to
        self._published: Any = None
        self._taken_cache: set[tuple[str, int]] | None = None
        self._ask: tuple[str, Confirmation] | None = None  # (match UUID, the players' answers so far)

    # ------------------------------------------------------------------ the journal's rows
    def _rows(self) -> list[tuple[int, str, dict[str, Any]]]:
        return [(e.seq, e.kind, e.body) for e in self.journal.entries() if e.kind in (CLUB_KIND, "new")]

    def current(self) -> tuple[Assignment, str, bool] | None:
        """The club match the board's current match is: (assignment, UUID, reported?);
        read from the journal once per match (the rows change only through this seat, and a
        new match of the players' own changes the match's StartMatch)."""
        c = self.controller
        first = c.actions[0] if c is not None and c.actions else None
        if first is None or first is not self._first:
            self._current = self._read_current()
            self._first = first
        return self._current

    def _read_current(self) -> tuple[Assignment, str, bool] | None:
        return club_match_of(self.journal.entries())

    def _taken(self) -> set[tuple[str, int]]:
        """(event, match) of every assignment whose match was started here (read once)."""
        if self._taken_cache is None:
            self._taken_cache = self._read_taken()
        return self._taken_cache

    def _read_taken(self) -> set[tuple[str, int]]:
        takes: dict[str, tuple[str, int]] = {}
        started: set[str] = set()
        for _, kind, body in self._rows():
            if body.get("what") == "take":
                takes[body["uuid"]] = (body["assignment"]["event"], body["assignment"]["match"])
            elif body.get("what") == "started":
                started.add(body["uuid"])
        return {takes[u] for u in started if u in takes}

    # ------------------------------------------------------------------ events
    def attach(self, controller: Controller) -> None:
        """The controller (after its resume): finish what a restart interrupted."""
        self.controller = controller
        self.after()

    def offer(self, assignment: Assignment) -> None:
        """The link's ``on_assignment``."""
        self.offered = assignment
        self._maybe_take()

    def after(self) -> None:
        """After each event the controller handled: publish, report, take."""
        c = self.controller
        if c is None or c.state is None:
            return
        now = self.clock_ms()
        current = self.current()
        if self.link is not None:
            clocks = None
            if c.clock is not None:  # whole seconds: a running clock changes the state once a second
                clocks = (c.clock.remaining(0, now) // 1000 * 1000, c.clock.remaining(1, now) // 1000 * 1000)
            state = board_state(
                c.state, now, clocks=clocks, clock_running=c.clock.running if c.clock else None,
                assignment=current[0] if current else None, match_uuid=current[1] if current else "",
            )
            if replace(state, updated_ms=0) != self._published:
                self._published = replace(state, updated_ms=0)
                self.link.publish_state(state)
        if current is not None and c.over and not current[2]:
            assignment, uid, _ = current
            ask = self.confirmation() if assignment.confirm else None
            if ask is not None:
                if ask.notice() != c.notice:
                    c.tell(ask.notice())
                if ask.decided is None:  # the players have not answered yet
                    self._maybe_take()
                    return
            entries = self.journal.entries()
            result = result_of(
                c.actions, c.state, uuid=uid, board=self.board, assignment=assignment,
                last_seq=entries[-1].seq if entries else 0, finished_ms=now, forfeit=c.forfeit,
            )
            if ask is not None:
                result = replace(result, confirmed=ask.decided == CONFIRM, disputed=ask.decided == DISPUTE)
            if self.link is not None:
                self.link.submit_result(result)
            self.journal.append(CLUB_KIND, {"what": "reported", "uuid": uid}, now)
            self._current = current = (assignment, uid, True)
        if current is not None and current[2] and c.over:
            # the match-end screen says whether the director has the result yet
            sent = all(owed.uuid != current[1] for owed in self.journal.outbox_pending())
            if c.result_sent is not sent:
                c.mark_result(sent)
        self._maybe_take()

    def confirmation(self) -> Confirmation | None:
        """The players' answers so far to the result of the current club match (None: no club
        match over that asks for them)."""
        c = self.controller
        current = self.current()
        if c is None or c.state is None or not c.over or current is None or not current[0].confirm:
            return None
        if self._ask is None or self._ask[0] != current[1]:  # read from the journal once per match
            winner = 1 - c.forfeit if c.forfeit is not None else c.state.winner
            ask = Confirmation(c.state.players, c.state.score, winner if winner is not None else 0)
            for _, _, body in self._rows():
                if body.get("what") == "answer" and body.get("uuid") == current[1]:
                    ask.press(int(body["player"]), str(body["answer"]))
            self._ask = (current[1], ask)
        return self._ask[1]

    def press(self, player: int, button: str, at_ms: int) -> bool:
        """A player's button while the result waits for the players' answers: journalled as
        their answer (True: the seat took it, the controller must not see it)."""
        current = self.current()
        ask = self.confirmation()
        if current is None or current[2] or ask is None:
            return False
        answer = answer_of(button)
        if replace(ask, confirmed=list(ask.confirmed)).press(player, answer):  # journalled before it counts
            self.journal.append(CLUB_KIND, {"what": "answer", "uuid": current[1], "player": player, "answer": answer}, at_ms)
            ask.press(player, answer)
        self.after()
        return True

    def _free(self) -> bool:
        c = self.controller
        if c is None or c.state is None:
            return False
        if c.over:
            current = self.current()
            return current is None or current[2]
        not_begun = c.state.phase == "opening" and len(c.actions) <= 1
        return not_begun and self.current() is None

    def _maybe_take(self) -> None:
        a = self.offered
        c = self.controller
        if c is None or a is None or not a.match or a.board != self.board or not self._free():
            return
        if (a.event, a.match) in self._taken():
            return
        now = self.clock_ms()
        uid = str(uuids.uuid4())
        self.journal.append(CLUB_KIND, {"what": "take", "uuid": uid, "assignment": asdict(a)}, now)
        c.new_match(settings_for(self.base, a), now)
        self.journal.append(CLUB_KIND, {"what": "started", "uuid": uid}, now)
        self._taken().add((a.event, a.match))
        self._first = None  # read the rows again
        self.after()
