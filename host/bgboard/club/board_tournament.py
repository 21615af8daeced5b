"""The club database as the director's MQTT side sees it (adapter).

:class:`Tournament` is what :class:`bgboard.club.boards.DirectorLink` needs of a club;
:class:`ClubTournament` is that over the club's service (:class:`bgboard.club.director.Director`):
results checked in the worker processes (:mod:`bgboard.club.board_checks`), stored once per
result UUID in one transaction per batch, rounds paired as soon as something can be played,
and every board's assignment (:func:`assignment_of`) read from the database.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from typing import Any, Callable, Protocol, cast

from bgboard.club.board_checks import (
    CHECKED,
    DUPLICATE,
    FAILED,
    REFUSED,
    STORED,
    Checker,
    Outcome,
    board_service,
    check_board_result,
    is_lock,
)
from bgboard.errors import InputError
from bgboard.net.protocol import Assignment, Result

WATCH_S = 1.0  # how long the PostgreSQL watcher waits on the server at a time (it stops within that)

log = logging.getLogger(__name__)


class Tournament(Protocol):
    """What the director needs of the club database.  ``checker`` runs in worker processes;
    every other method on the director's one database thread."""

    def checker(self) -> Callable[[int, Result], Outcome]:
        """A picklable function doing every read-only check of a board's result (the .mat
        replay included): ``checked``, ``refused`` or ``ignored``."""
        ...

    def store(self, batch: list[tuple[int, Result]]) -> list[Outcome]:
        """Store checked results in one transaction, once per UUID: one outcome each
        (``sqlite3.OperationalError`` when the database stays locked: nothing stored)."""
        ...

    def pair(self) -> list[Assignment]:
        """Pair every match that can be played now; the new matches with their boards."""
        ...

    def assignments(self) -> list[Assignment]:
        """Every open match that has a board."""
        ...

    def boards(self) -> set[int]:
        """Every board that was ever given a match (one without an open match is cleared)."""
        ...

    def changed(self) -> bool:
        """Whether another connection changed the database since the last call."""
        ...


def assignment_of(a: Any) -> Assignment:
    """The network's assignment of a :class:`bgboard.club.director.Assignment`."""
    from bgboard.net.protocol import ClockSettings

    clock = None
    c = a.clock or {}
    if "reserve_per_point_s" in c:
        per_point = int(c["reserve_per_point_s"]) * 1000
        # US clock rules: the reserve is cut by half a point's worth per point already scored.
        clock = ClockSettings(per_point, per_point // 2, int(c.get("delay_s", 0)) * 1000)
    return Assignment(
        event=a.event, match=a.id, board=a.board, players=(a.players[0], a.players[1]), length=a.length,
        rules=a.rules, round=a.round, clock=clock,
    )


class ClubTournament:
    """:class:`Tournament` over the club's service (:class:`bgboard.club.director.Director`):
    results are checked by :func:`check_board_result` and stored with
    ``record_result(..., result_key=<result UUID>, mat_checked=True)`` — once per UUID, a
    savepoint each inside one transaction per batch — and rounds of *running* events are
    paired as soon as something can be played (an event is started by the director's first
    ``bgboard club round``)."""

    def __init__(self, service: Any, *, actor: str = "board", busy_timeout_ms: int = 1000) -> None:
        self._path = str(service.club.location)
        self.actor = actor
        self.busy_timeout_ms = busy_timeout_ms
        self._version: int | None = None
        self._listener: Any = None  # PostgreSQL: the connection hearing the changes

    @property
    def service(self) -> Any:
        """The club service on the calling thread's own connection."""
        return board_service(self._path, self.busy_timeout_ms)

    def _running(self) -> list[str]:
        return [e.name for e in self.service.events() if e.status == "running"]

    def checker(self) -> Callable[[int, Result], Outcome]:
        return Checker(self._path)

    def store(self, batch: list[tuple[int, Result]]) -> list[Outcome]:
        from bgboard.club.confirmations import board_result  # an event asking both players to confirm

        service = self.service
        out: list[Outcome] = []
        with service.club.transaction() as db:
            for board, result in batch:
                db.execute("SAVEPOINT one_result")
                try:
                    row = db.execute("SELECT status FROM matches WHERE id = ?", (result.match,)).fetchone()
                    held = (board_result(service, result.event, result.match, board, result, row["status"])
                            if row is not None else None)
                    if held is not None:  # disputed, or not confirmed: kept for the director (club/confirmations.py)
                        out.append(Outcome(*held))
                        db.execute("RELEASE one_result")
                        continue
                    service.record_result(
                        result.event, result.match, (result.score[0], result.score[1]), mat=result.mat,
                        result_key=result.uuid, actor=f"{self.actor} {board}", mat_checked=True,
                    )
                    out.append(Outcome(STORED if row is not None and row["status"] == "pending" else DUPLICATE))
                    db.execute("RELEASE one_result")
                except InputError as exc:
                    db.execute("ROLLBACK TO one_result")
                    db.execute("RELEASE one_result")
                    out.append(Outcome(REFUSED, str(exc)))
                except Exception as exc:
                    if is_lock(exc):
                        raise  # the whole batch waits for the lock
                    log.error("board %s's result for match %s could not be stored (%s): rolled back, the board is told",
                              str(board)[:40], str(result.match)[:40], type(exc).__name__, exc_info=exc)
                    db.execute("ROLLBACK TO one_result")
                    db.execute("RELEASE one_result")
                    out.append(Outcome(FAILED, f"{type(exc).__name__}: {str(exc)[:200]}"))
        return out

    def report(self, board: int, result: Result) -> Outcome:
        """Check and store one result (what the director does for each, in one call)."""
        outcome = check_board_result(self._path, board, result)
        return self.store([(board, result)])[0] if outcome.status == CHECKED else outcome

    def pair(self) -> list[Assignment]:
        made = []
        for event in self._running():
            try:
                made += [m for m in self.service.pair_round(event, actor="director").matches if m.board is not None]
            except InputError:
                continue  # nothing to pair now (a round still being played) or the event is over
        if not made:
            return []
        return [a for a in self.assignments() if a.match in {m.id for m in made}]

    def assignments(self) -> list[Assignment]:
        out = []
        for event in self._running():
            out += [assignment_of(a) for a in self.service.assignments(event) if a.board is not None]
        from bgboard.club.confirmations import confirming

        return confirming(self.service, out)

    def boards(self) -> set[int]:
        return {int(r[0]) for r in self.service.db.execute("SELECT DISTINCT board FROM matches WHERE board IS NOT NULL")}

    def watch(self, wake: Callable[[], None]) -> Callable[[], None]:
        """PostgreSQL: call ``wake`` (from a thread of its own) as soon as the server announces
        a change, so the director looks at once instead of at its next watch; SQLite has
        nothing to push (its ``data_version`` is read at each watch).  Returns what stops it."""
        from bgboard.club.db import is_postgres

        if not is_postgres(self._path):
            return lambda: None
        stop = threading.Event()

        def listen() -> None:
            from bgboard.club.postgres_store import connect

            conn: Any = None
            while not stop.is_set():
                try:
                    if conn is None or conn.broken:
                        conn = connect(self._path)
                        conn.listen()
                    if conn.wait_change(WATCH_S) and not stop.is_set():
                        wake()
                except sqlite3.Error:  # the server away: the director's watch goes on meanwhile
                    conn = None
                    stop.wait(WATCH_S)
                except RuntimeError:  # the director's loop is closed: nothing left to wake
                    break
            if conn is not None:
                conn.close()

        threading.Thread(target=listen, name="club-notify", daemon=True).start()
        return stop.set

    def changed(self) -> bool:
        """SQLite: its ``data_version`` moved.  PostgreSQL: the server pushed a change to a
        match or an event (LISTEN/NOTIFY, bgboard.club.postgres_store) from another
        connection than this thread's service, read without waiting and without a query."""
        club = self.service.club
        if club.postgres:
            if self._listener is not None and not self._listener.broken:
                try:
                    return self._listener.changes(ignore_pid=cast(Any, club.conn).backend_pid) > 0
                except sqlite3.OperationalError:
                    if not self._listener.broken:
                        raise
            from bgboard.club.postgres_store import connect

            first = self._listener is None  # else lost: what changed meanwhile was not heard
            self._listener = connect(str(club.location))
            self._listener.listen()
            return not first
        version = int(self.service.db.execute("PRAGMA data_version").fetchone()[0])
        changed = self._version is not None and version != self._version
        self._version = version
        return changed


__all__ = ["Tournament", "ClubTournament", "assignment_of"]
