"""A board's result checked off the writer, in the director's worker processes (adapter).

:func:`check_board_result` does every read-only check of a result a board published — the
match is this board's, of this event, between these players, and a result UUID not seen
before has a finished score and a ``.mat`` that replays to it — on the calling thread's (or
worker process's) own connection to the club (:func:`board_service`).  :class:`Checker` is
the picklable form the director's pool runs, with :func:`warm_checker` to open the club and
load the match rules before the first result.  :class:`Outcome` and the statuses are what
becomes of a result (docs/club-protocol.md).
"""

from __future__ import annotations

import errno
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

from bgboard.errors import InputError
from bgboard.net.protocol import Result

STORED, DUPLICATE, REFUSED, IGNORED = "stored", "duplicate", "refused", "ignored"
#: A result whose checks passed: the writer stores it (the store says stored or duplicate).
CHECKED = "checked"
#: A result the director could not handle (a fault, not the board's): not acked, the board
#: sends it again.
FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the club database made of a board's result."""

    status: str  # stored, duplicate, refused, ignored (not this board's match: no ack), checked, failed
    reason: str = ""


def is_lock(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite saying another connection holds the lock (wait and retry)."""
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


def is_full(exc: BaseException) -> bool:
    """Whether ``exc`` is the club's disk full (SQLite's SQLITE_FULL, or the system's ENOSPC or
    EDQUOT): waiting does not help, so the results waiting are refused with the reason."""
    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


#: The sentence a board shows when the club's disk is full (docs/club-protocol.md).
DISK_FULL = ("the club computer's disk is full, so the result is not stored: "
             "show the score to the director, who enters it by hand")


_own = threading.local()  # per thread (and per worker process): its own connection to each club


def board_service(path: str, busy_timeout_ms: int = 10_000) -> Any:
    """The club service of the calling thread on ``path`` (SQLite connections stay on the
    thread that opened them), opened once — again after its PostgreSQL connection was lost
    (the server restarted: the results waiting are stored once it is back)."""
    services = getattr(_own, "services", None)
    if services is None:
        services = _own.services = {}
    service = services.get(path)
    if service is not None and service.club.broken():
        services.pop(path).close()
        service = None
    if service is None:
        from bgboard.club.director import Director as Service

        service = services[path] = Service.open(path)
        service.club.set_busy_timeout(busy_timeout_ms)
    return service


def nothing() -> None:
    """A worker's warm-up when the checker has none."""
    return None


def warm_checker(path: str) -> None:
    """Open the club and load the match rules in a checking worker before the first result."""
    import bgboard.match  # noqa: F401  (the .mat replay's modules)

    board_service(path)


class Checker:
    """A picklable :func:`check_board_result` on one club, with its warm-up."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self, board: int, result: Result) -> Outcome:
        return check_board_result(self.path, board, result)

    def warm(self) -> None:
        warm_checker(self.path)


def check_board_result(path: str, board: int, result: Result) -> Outcome:
    """Every read-only check of board ``board``'s result on the club at ``path`` (run in a
    worker process): the match is this board's, of this event, between these players; a
    result UUID not seen before has a finished score and a ``.mat`` that replays to it."""
    service = board_service(path)
    # one query (not service.match(), which reads every player's name to describe a match)
    match = service.db.execute(
        "SELECT m.id, m.board, e.name AS event, a.name AS a, b.name AS b FROM matches m"
        " JOIN events e ON e.id = m.event_id JOIN players a ON a.id = m.player_a"
        " LEFT JOIN players b ON b.id = m.player_b WHERE m.id = ?", (result.match,)).fetchone()
    if match is None:
        return Outcome(REFUSED, f"there is no match {result.match}")
    if match["board"] != board:
        return Outcome(IGNORED, f"match {result.match} is assigned to board {match['board']}, not board {board}")
    if match["event"] != result.event:
        return Outcome(REFUSED, f"match {result.match} belongs to event {match['event']!r}, not {result.event!r}")
    if list(result.players) != [match["a"], match["b"]]:
        return Outcome(REFUSED, f"match {result.match} is {match['a']} against {match['b']}, "
                                f"not {result.players[0]} against {result.players[1]}")
    known = service.db.execute("SELECT 1 FROM matches WHERE result_key = ?", (result.uuid,)).fetchone()
    if known is None:  # a re-send of a stored result needs no replay: the store compares it
        try:
            service.check_result(match["event"], match["id"], (result.score[0], result.score[1]), result.mat)
        except InputError as exc:
            return Outcome(REFUSED, str(exc))
    return Outcome(CHECKED)


__all__ = ["is_full", "DISK_FULL", "STORED", "DUPLICATE", "REFUSED", "IGNORED", "CHECKED", "FAILED", "Outcome", "is_lock", "board_service",
           "nothing", "warm_checker", "Checker", "check_board_result"]
