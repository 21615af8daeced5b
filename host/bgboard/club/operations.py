"""The club's audited operations in one table (service): for each action the audit log
names, the operation that wrote it and how the row's arguments call it again.

:func:`replay_audit` re-runs a log, in order, into a new club through :data:`OPERATIONS`:
the director's own operations (:class:`~bgboard.club.director.Director`,
:mod:`bgboard.club.results`), the evening's (:mod:`bgboard.club.evening`) and the held
results' (:mod:`bgboard.club.confirmations`).  An operation that writes a new audit action adds
its row here; tests/club/test_audit_replay.py replays every kind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bgboard.club import confirmations, db as queries, evening, member_links
from bgboard.club.director import Director
from bgboard.club.views import AuditEntry
from bgboard.errors import InputError

#: How an audit row's arguments (``args``) call its operation again; ``kw`` is the row's
#: ``actor`` and ``at``.
Replay = Callable[[Director, dict[str, Any], dict[str, Any]], object]


def _match(d: Director, a: dict[str, Any]) -> int:
    """The match an audit row names (by event and node: ids may differ in the new club)."""
    return queries.node_match(d.db, a["event"], a["node"])


def _result_key(d: Director, a: dict[str, Any], kw: dict[str, Any]) -> object:
    """A board's key added to a result entered by hand: the same score again, with the key."""
    mid = _match(d, a)
    score = d.match(mid).score or [0, 0]
    return d.record_result(a["event"], mid, (score[0], score[1]), a["mat"], a["result_key"], **kw)


def _ignored(d: Director, a: dict[str, Any], kw: dict[str, Any]) -> None:
    """An action the new club does not repeat (module table)."""


OPERATIONS: dict[str, Replay] = {
    # the director (club/director.py, club/results.py)
    "player_add": lambda d, a, kw: d.add_player(a["name"], a["rating"], a["experience"], **kw),
    "event_new": lambda d, a, kw: d.new_event(
        a["name"], a["format"], a["length"], a["rounds"], a["consolation_length"], a["rules"],
        a["clock"], a.get("last_chance", False), **kw),
    "enter": lambda d, a, kw: d.enter(a["event"], a["names"], **kw),
    "pair_round": lambda d, a, kw: d.pair_round(a["event"], **kw),
    "result": lambda d, a, kw: d.record_result(
        a["event"], _match(d, a), tuple(a["score"]), a["mat"], a["result_key"], **kw),
    "result_key": _result_key,
    "correct": lambda d, a, kw: d.correct_result(
        a["event"], _match(d, a), tuple(a["score"]), a["mat"], a["reason"], **kw),
    "forfeit": lambda d, a, kw: d.forfeit(a["event"], _match(d, a), a["winner"], a["reason"], **kw),
    "withdraw": lambda d, a, kw: d.withdraw(a["event"], a["name"], a["reason"], **kw),
    "penalty": lambda d, a, kw: d.penalty(a["event"], a["name"], a["points"], a["reason"], **kw),
    "director-password": _ignored,  # the log never holds the hash: the new club sets its own
    # the evening (club/evening.py)
    "event_settings": lambda d, a, kw: evening.configure(d, a["event"], **a["settings"], **kw),
    "money_correct": lambda d, a, kw: evening.correct_money(d, a["event"], reason=a["reason"], **a["settings"], **kw),
    "checkin": lambda d, a, kw: evening.check_in(d, a["event"], a["names"], a["undo"], **kw),
    "checkin_close": lambda d, a, kw: evening.close_check_in(d, a["event"], **kw),
    "late_entry": lambda d, a, kw: evening.late_entry(d, a["event"], a["name"], a["score"], **kw),
    "player_edit": lambda d, a, kw: evening.edit_player(d, a["name"], a["new_name"], a["rating"], **kw),
    "player_remove": lambda d, a, kw: evening.remove_player(d, a["name"], **kw),
    "backup_dir": _ignored,  # a folder of the machine the log came from
    # the federation (club/member_links.py)
    "player_link": lambda d, a, kw: member_links.link_member(d.club, a["name"], a["member_id"], **kw),
    # results held for the director (club/confirmations.py)
    "result_held": lambda d, a, kw: confirmations.hold(
        d, a["event"], _match(d, a), (a["score"][0], a["score"][1]), a["mat"], a["result_key"], a["why"],
        board=a["board"], **kw),
    "held_settled": lambda d, a, kw: confirmations.settle(d, a["result_key"], a["status"], **kw),
}


def replay_audit(entries: Sequence[AuditEntry], path: str | Path) -> Director:
    """A new club at ``path`` made by re-running every change of an audit log, in order:
    its standings and ratings equal the original's (they are derived from the changes)."""
    director: Director | None = None
    for e in entries:
        if e.action == "init":
            director = Director.create(path, e.args["name"], actor=e.actor, at=e.at)
            continue
        if director is None:
            raise InputError("an audit log starts with the club's 'init'")
        operation = OPERATIONS.get(e.action)
        if operation is None:
            raise InputError(f"unknown audit action {e.action!r}")
        operation(director, e.args, {"actor": e.actor, "at": e.at})
    if director is None:
        raise InputError("the audit log is empty")
    return director


__all__ = ["OPERATIONS", "Replay", "replay_audit"]
