"""The director's evening around the pairings (service, over :class:`~bgboard.club.director.Director`):
check-in, late entries, players edited or removed, entry fees and payouts, per-event match
numbers, the automatic backup after each round.

Every change runs in one transaction and writes an audit row (replayed by
:func:`bgboard.club.operations.replay_audit`), as the director's own operations do.

    configure(d, event, check_in=, entry_fee=, payout=, consolation_payout=, rake=, round_to=)
    check_in(d, event, names, undo=False)   close_check_in(d, event)   check_in_list(d, event)
    late_entry(d, event, name, score=0.0)   -> sentence
    edit_player(d, name, new_name=None, rating=None)   remove_player(d, name)
    match_id(d, event, text)                -> the club-wide id of an event's match
    payouts(d, event)                       -> [{"place", "name", "amount", "flight"}]
    correct_money(d, event, reason=, entry_fee=, payout=, ...)   (a finished event's, audited)
    set_backup_dir(d, folder)               (None: no automatic backup)

Rules (docs/club.md "The evening"):

* **Check-in.** An event made with check-in pairs nobody while check-in is open.  Players
  check in (a player of the club not yet entered is entered by checking in); closing
  check-in removes the entries that did not check in and the draw can be made.
* **Late entries.** Swiss: the entrant joins at the next round with the score the director
  gives (0, or 0.5: a half-point bye).  Single and double elimination: the entrant takes the
  first-round bye of the lowest-seeded player who has one, while nothing has been paired
  from that bye; otherwise refused.  Round robin: refused (its schedule is fixed).
* **Withdrawals** (``Director.withdraw``, every format): pending matches are forfeited, the
  player is not paired again; in a bracket his later opponents get a walkover.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from bgboard.club import audit, bracket, db as queries, formats, payouts as money
from bgboard.club.audit import now
from bgboard.club.desk import Desk
from bgboard.club.checks import clean_name, clean_text, resembles, shell_word
from bgboard.club.model import CONSOLATION, DOUBLE, ELIMINATION, MAIN, ROUND_ROBIN, SWISS
from bgboard.digits import is_whole
from bgboard.errors import EnvironmentFailure, InputError
from bgboard.language import ENGLISH, Words


OPEN, CLOSED = "open", "closed"


# ---------------------------------------------------------------------- hooks of the director
def settings(row: sqlite3.Row) -> dict[str, Any]:
    try:
        value = json.loads(row["settings"] or "{}")
    except (IndexError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def number_matches(db: sqlite3.Connection, event_id: int) -> None:
    """Number the event's new matches (byes excepted) after the last number given."""
    last = db.execute("SELECT MAX(number) FROM matches WHERE event_id = ?", (event_id,)).fetchone()[0] or 0
    for (mid,) in db.execute("SELECT id FROM matches WHERE event_id = ? AND number IS NULL"
                             " AND status != 'bye' ORDER BY id", (event_id,)).fetchall():
        last += 1
        db.execute("UPDATE matches SET number = ? WHERE id = ?", (last, mid))


def check_pairable(row: sqlite3.Row) -> None:
    if settings(row).get("check_in") == OPEN:
        raise InputError(f"check-in for {row['name']!r} is still open: close it first with "
                         f"'bgboard club checkin {_q(row['name'])} --close' (the draw follows)")


def after_round(d: Desk, event: str, number: int | None) -> str | None:
    """The automatic backup after a round is paired (``number``) or the event finished
    (None): a sentence saying where it went (or why it failed: the round or result itself
    stands), None when no backup folder is set."""
    row = d.db.execute("SELECT value FROM meta WHERE key = 'backup_dir'").fetchone()
    if row is None:
        return None
    from bgboard.club.backup import backup

    folder = Path(row[0])
    slug = re.sub(r"[^A-Za-z0-9]+", "-", event).strip("-")[:40] or "event"
    when = f"round{number}" if number is not None else "final"
    out = folder / f"{d.club.label}-{slug}-{when}.sqlite"
    try:
        backup(d.club.location, out)
    except (InputError, EnvironmentFailure) as exc:
        return f"the automatic backup failed ({exc}); the {'round is paired' if number else 'result stands'}"
    return f"backup {'after round ' + str(number) if number is not None else 'of the finished event'}: {out}"


def after_finish(d: Desk, event: str) -> None:
    """The automatic backup once an event is finished (its last round's results)."""
    d.last_backup = after_round(d, event, None)


_q = shell_word


def _audit(d: Desk, action: str, args: dict[str, Any], after: Any, actor: str, at: str | None,
           event_id: int | None = None) -> None:
    audit.write(d.db, action, args, None, after, actor, at, event_id)


# ---------------------------------------------------------------------- settings
def configure(d: Desk, event: str, *, check_in: bool | None = None,
              entry_fee: str | None = None, payout: str | list[float] | None = None,
              consolation_payout: str | list[float] | None = None, rake: float | None = None,
              round_to: str | None = None, confirm_results: bool | None = None,
              actor: str = "director", at: str | None = None) -> dict[str, Any]:
    """Set an event's check-in, entry fee and payouts (before its first round for check-in),
    and whether its board results need both players' confirmation (club/confirmations.py)."""
    with d.club.transaction() as db:
        row = queries.event_row(d.db, event)
        s = settings(row)
        money_asked = [name for name, value in (("--entry-fee", entry_fee), ("--payout", payout),
                                                ("--consolation-payout", consolation_payout), ("--rake", rake),
                                                ("--round-to", round_to)) if value is not None]
        if money_asked and row["status"] == "finished":
            raise InputError(f"event {row['name']!r} is finished: its entry fee and payouts are frozen "
                             f"(what was paid out stands), so {money_asked[0]} cannot change here: a correction "
                             f"is 'bgboard club payouts {_q(row['name'])} --correct {money_asked[0]} ... --reason WHY'")
        if check_in is not None:
            if row["status"] != "open":
                raise InputError(f"event {row['name']!r} has started: check-in is for before the draw")
            s["check_in"] = OPEN if check_in else None
        if confirm_results is not None:
            s["confirm_results"] = True if confirm_results else None
        _set_money(row, s, entry_fee, payout, consolation_payout, rake, round_to)
        s = {k: v for k, v in s.items() if v is not None}
        db.execute("UPDATE events SET settings = ? WHERE id = ?", (json.dumps(s, sort_keys=True), row["id"]))
        args = {"check_in": check_in, "entry_fee": entry_fee,
                "payout": payout, "consolation_payout": consolation_payout, "rake": rake, "round_to": round_to,
                "confirm_results": confirm_results}
        _audit(d, "event_settings", {"event": row["name"], "settings": {k: v for k, v in args.items()
                                                                         if v is not None}},
               s, actor, at, row["id"])
    return s


def _set_money(row: sqlite3.Row, s: dict[str, Any], entry_fee: str | None,
               payout: str | list[float] | None, consolation_payout: str | list[float] | None,
               rake: float | None, round_to: str | None) -> None:
    """Put the money options given (not None) into the settings ``s``, checked: one sentence
    for a bad amount, a split that is not 100 % or a payout without a fee."""
    if entry_fee is not None:
        s["fee_cents"] = money.cents(entry_fee, "--entry-fee")
    if round_to is not None:
        unit = money.cents(round_to, "--round-to")
        if unit < 1:
            raise InputError("--round-to is at least 0.01")
        s["round_cents"] = unit
    if rake is not None:
        if not 0 <= float(rake) < 100:
            raise InputError(f"--rake is a percentage from 0 to below 100, not {rake}")
        s["rake"] = float(rake)
    if payout is not None:
        s["payout"] = money.percentages(payout, "--payout") if isinstance(payout, str) else list(payout)
    if consolation_payout is not None:
        if row["format"] != DOUBLE:
            raise InputError("--consolation-payout is for a double-elimination event only")
        s["consolation_payout"] = (money.percentages(consolation_payout, "--consolation-payout")
                                   if isinstance(consolation_payout, str) else list(consolation_payout))
    if "payout" in s or "consolation_payout" in s:
        if "fee_cents" not in s:
            raise InputError("a payout needs an entry fee: add --entry-fee AMOUNT")
        money.check_split(s.get("payout", []), s.get("consolation_payout", []))


def event_settings(d: Desk, event: str) -> dict[str, Any]:
    return settings(queries.event_row(d.db, event))


# ---------------------------------------------------------------------- check-in
def check_in(d: Desk, event: str, names: list[str], undo: bool = False, *,
             actor: str = "director", at: str | None = None) -> list[str]:
    """Check players in (or out, with ``undo``); a club player not entered yet is entered."""
    if not names:
        raise InputError("name at least one player to check in")
    with d.club.transaction() as db:
        row = queries.event_row(d.db, event)
        if settings(row).get("check_in") != OPEN:
            raise InputError(f"event {row['name']!r} has no open check-in"
                             + (" (its draw is made)" if row["status"] != "open" else
                                f": create it with --check-in, or pair it with 'bgboard club round {_q(row['name'])}'"))
        done = []
        for name in names:
            pid = queries.player_id(d.db, name)
            entry = db.execute("SELECT checked_in FROM entries WHERE event_id = ? AND player_id = ?",
                               (row["id"], pid)).fetchone()
            if entry is None:
                if undo:
                    raise InputError(f"{clean_name(name)} is not entered in {row['name']!r}")
                db.execute("INSERT INTO entries (event_id, player_id, entered_at) VALUES (?, ?, ?)",
                           (row["id"], pid, at or now()))
            db.execute("UPDATE entries SET checked_in = ? WHERE event_id = ? AND player_id = ?",
                       (0 if undo else 1, row["id"], pid))
            done.append(clean_name(name))
        _audit(d, "checkin", {"event": row["name"], "names": done, "undo": undo}, None, actor, at, row["id"])
    return done


def check_in_list(d: Desk, event: str) -> list[tuple[str, bool]]:
    """Each entrant and whether checked in, by name."""
    row = queries.event_row(d.db, event)
    return [(r["name"], bool(r["checked_in"])) for r in d.db.execute(
        "SELECT p.name, e.checked_in FROM entries e JOIN players p ON p.id = e.player_id"
        " WHERE e.event_id = ? ORDER BY p.name COLLATE NOCASE", (row["id"],))]


def close_check_in(d: Desk, event: str, *, actor: str = "director",
                   at: str | None = None) -> list[str]:
    """Close check-in: the entries not checked in are removed (returned); the draw can be made."""
    with d.club.transaction() as db:
        row = queries.event_row(d.db, event)
        s = settings(row)
        if s.get("check_in") != OPEN:
            raise InputError(f"event {row['name']!r} has no open check-in")
        present = [n for n, checked in check_in_list(d, row["name"]) if checked]
        formats.check_field(queries.event_spec(row), len(present))
        absent = [n for n, checked in check_in_list(d, row["name"]) if not checked]
        db.execute("DELETE FROM entries WHERE event_id = ? AND checked_in = 0", (row["id"],))
        s["check_in"] = CLOSED
        db.execute("UPDATE events SET settings = ? WHERE id = ?", (json.dumps(s, sort_keys=True), row["id"]))
        _audit(d, "checkin_close", {"event": row["name"]}, {"present": present, "absent": absent},
               actor, at, row["id"])
    return absent


# ---------------------------------------------------------------------- late entries
def late_entry(d: Desk, event: str, name: str, score: float | str = 0.0, *,
               actor: str = "director", at: str | None = None) -> str:
    """Enter a player in a running event by the format's rule (module doc); a sentence saying
    what happened."""
    at = at or now()
    try:
        score = float(score)
    except (TypeError, ValueError):
        raise InputError("a late entrant's score is 0 or 0.5 (a half-point bye), "
                         f"not {str(score)[:20]!r}") from None
    with d.club.transaction() as db:
        row = queries.event_row(d.db, event)
        pid = queries.player_id(d.db, name)
        name = clean_name(name)
        if row["status"] == "open":
            raise InputError(f"event {row['name']!r} has not started: enter {name} with "
                             f"'bgboard club event enter {_q(row['name'])} {_q(name)}'")
        if row["status"] == "finished":
            raise InputError(f"event {row['name']!r} is finished: nobody can enter it now")
        if db.execute("SELECT 1 FROM entries WHERE event_id = ? AND player_id = ?",
                      (row["id"], pid)).fetchone():
            raise InputError(f"{name} is already entered in {row['name']!r}")
        fmt = row["format"]
        if fmt != SWISS and score:
            raise InputError("a starting score is for a late entrant in a Swiss only")
        if score not in (0.0, 0.5):
            raise InputError(f"a late entrant in a Swiss starts with 0 or 0.5 (a half-point bye), not {score:g}")
        if fmt == ROUND_ROBIN:
            raise InputError(f"a round robin's schedule is fixed once it starts: {name} cannot join "
                             f"{row['name']!r}")
        seed = 1 + (db.execute("SELECT MAX(seed) FROM entries WHERE event_id = ?",
                               (row["id"],)).fetchone()[0] or 0)
        db.execute("INSERT INTO entries (event_id, player_id, seed, entered_at, checked_in, start_score)"
                   " VALUES (?, ?, ?, ?, 1, ?)", (row["id"], pid, seed, at, score))
        if fmt == SWISS:
            number = 1 + (db.execute("SELECT MAX(number) FROM rounds WHERE event_id = ?",
                                     (row["id"],)).fetchone()[0] or 0)
            said = f"{name} joins {row['name']} at round {number} with {score:g} point{'s' if score != 1 else ''}"
            result: dict[str, Any] = {"round": number}
        else:
            said, result = _into_bye(d, db, row, pid, name, at, actor)
        _audit(d, "late_entry", {"event": row["name"], "name": name, "score": score}, result,
               actor, at, row["id"])
    return said


def _into_bye(d: Desk, db: sqlite3.Connection, row: sqlite3.Row, pid: int, name: str,
              at: str, actor: str) -> tuple[str, dict[str, Any]]:
    """An elimination late entrant takes a first-round bye (module doc) or is refused."""
    spec = queries.event_spec(row)
    entrants = queries.entrants(d.db, row["id"])     # already holds the new entry, seeded last
    n = len(entrants)
    refused = (f"there is no first-round bye left for {name} in {row['name']!r}: "
               "a late entrant in a bracket takes a bye nobody has gone on from")
    if bracket.bracket_size(n) != bracket.bracket_size(n - 1):
        raise InputError(refused)
    tree = formats.nodes(spec, n)
    seeds = [e.player for e in sorted(entrants, key=lambda e: e.seed)]
    rows = {r["node"]: r for r in db.execute("SELECT * FROM matches WHERE event_id = ?", (row["id"],))}
    slots_new = bracket.resolve(tree, seeds, {})
    taken = next((k for k, s in slots_new.items() if pid in (s.a, s.b)), None)
    if taken is None or taken not in rows or rows[taken]["status"] != "bye":
        raise InputError(refused)
    outcomes = {k: r["winner"] for k, r in rows.items() if k != taken}
    slots = bracket.resolve(tree, seeds, outcomes)
    for key, r in rows.items():
        if key == taken:
            continue
        s = slots[key]
        if s.state not in (bracket.READY, bracket.DECIDED, bracket.BYE) or (s.a, s.b) != (r["player_a"], r["player_b"]):
            raise InputError(refused)
    s = slots[taken]
    board = next(queries.free_boards(d.db))
    db.execute("UPDATE matches SET player_a = ?, player_b = ?, status = 'pending', winner = NULL,"
               " board = ?, reported_at = NULL, reported_by = NULL WHERE id = ?",
               (s.a, s.b, board, rows[taken]["id"]))
    number_matches(db, row["id"])
    names = queries.player_names(d.db)
    other = s.a if s.b == pid else s.b
    assert isinstance(other, int)
    mid = int(rows[taken]["id"])
    info = queries.match_info(d.db, db.execute("SELECT * FROM matches WHERE id = ?", (mid,)).fetchone())
    return (f"{name} takes {names[other]}'s first-round bye: match {info.number} on board {board}",
            {"node": taken, "match": mid})


# ---------------------------------------------------------------------- players
def edit_player(d: Desk, name: str, new_name: str | None = None, rating: float | None = None, *,
                actor: str = "director", at: str | None = None) -> str:
    """Rename a player and/or set his starting rating (every rating is re-derived)."""
    with d.club.transaction() as db:
        pid = queries.player_id(d.db, name)
        name = clean_name(name)
        if new_name is None and rating is None:
            raise InputError("say what to change: --name NEW and/or --rating R")
        if new_name is not None:
            new_name = clean_name(new_name)
            other = db.execute("SELECT id FROM players WHERE name = ?", (new_name,)).fetchone()
            if other is not None and other[0] != pid:
                raise InputError(f"there is already a player called {new_name!r}: names are unique")
            like = resembles(new_name, (r[0] for r in db.execute("SELECT name FROM players WHERE id != ?", (pid,))))
            if like is not None:
                raise InputError(f"{new_name!r} looks like the player {like!r}: choose a name people can tell apart")
            db.execute("UPDATE players SET name = ? WHERE id = ?", (new_name, pid))
        if rating is not None:
            try:
                rating = float(rating)
            except (TypeError, ValueError):
                raise InputError("a rating is a number") from None
            if not 0 < rating < 10000:
                raise InputError(f"a rating is between 0 and 10000, not {rating}")
            db.execute("UPDATE players SET start_rating = ? WHERE id = ?", (rating, pid))
            d.recompute_ratings()
        _audit(d, "player_edit", {"name": name, "new_name": new_name, "rating": rating},
               {"name": new_name or name}, actor, at)
    return new_name or name


def remove_player(d: Desk, name: str, *, actor: str = "director", at: str | None = None) -> None:
    """Remove a player who was never entered in an event (a mistyped name)."""
    with d.club.transaction() as db:
        pid = queries.player_id(d.db, name)
        events = [r[0] for r in db.execute("SELECT ev.name FROM entries e JOIN events ev ON ev.id = e.event_id"
                                           " WHERE e.player_id = ?", (pid,))]
        if events or db.execute("SELECT 1 FROM matches WHERE player_a = ? OR player_b = ?", (pid, pid)).fetchone():
            raise InputError(f"{clean_name(name)} is entered in {', '.join(events) or 'an event'}: a player "
                             "with a record stays (withdraw him from a running event instead)")
        db.execute("DELETE FROM players WHERE id = ?", (pid,))
        _audit(d, "player_remove", {"name": clean_name(name)}, None, actor, at)


# ---------------------------------------------------------------------- matches
def match_id(d: Desk, event: str, text: str | int) -> int:
    """An event's match by its number in the event (``3``) or its club-wide id (``id12``);
    a plain number that is no match number of the event is taken as a club-wide id."""
    row = queries.event_row(d.db, event)
    t = str(text).strip().lower()
    by_id = t.startswith("id")
    digits = t[2:].lstrip(":") if by_id else t.lstrip("#")
    if not is_whole(digits):
        raise InputError(f"a match is a whole number: its number in the event (as 'bgboard club round' "
                         f"prints it), or id<N> for its club-wide id, not {str(text)[:20]!r}")
    if len(digits) > 9:  # a whole number, but larger than any match the club can hold
        raise InputError(f"event {row['name']!r} has no match {digits[:30]}: "
                         f"'bgboard club matches {_q(row['name'])}' lists them")
    n = int(digits)
    if not by_id:
        found = d.db.execute("SELECT id FROM matches WHERE event_id = ? AND number = ?", (row["id"], n)).fetchone()
        if found is not None:
            return int(found[0])
    found = d.db.execute("SELECT id FROM matches WHERE event_id = ? AND id = ?", (row["id"], n)).fetchone()
    if found is None:
        raise InputError(f"event {row['name']!r} has no match {n}: "
                         f"'bgboard club matches {_q(row['name'])}' lists them")
    return int(found[0])


# ---------------------------------------------------------------------- payouts
def _placings(d: Desk, row: sqlite3.Row) -> dict[str, list[list[int]]]:
    """Each paid flight's players in order, as groups tied with each other (docs/club.md)."""
    spec = queries.event_spec(row)
    entrants = queries.entrants(d.db, row["id"])
    played = queries.played(d.db, row["id"])
    names = {v: k for k, v in queries.player_names(d.db).items()}
    standing = d.standings(row["name"])
    if spec.format not in ELIMINATION:
        start = {e.player: e.start_score for e in entrants}
        groups: list[list[int]] = []
        last: Any = None
        for s in standing:
            pid = names[s.name]
            key = (s.wins + start[pid], tuple(sorted(s.tiebreaks.items())))
            if key == last:
                groups[-1].append(pid)
            else:
                groups.append([pid])
            last = key
        return {MAIN: groups}
    tree = formats.nodes(spec, len(entrants))
    stage = {n.key: (n.flight, n.stage) for n in tree}
    finals = {MAIN: bracket.main_final(tree), CONSOLATION: bracket.consolation_final(tree)}
    out: dict[str, list[list[int]]] = {}
    for flight in (MAIN, CONSOLATION):
        reach: dict[int, int] = {}
        for p in played:
            f, st = stage.get(p.node, ("", 0))
            if f != flight:
                continue
            for who in (p.a, p.b):
                if who is not None:
                    reach[who] = max(reach.get(who, 0), st)
        final = next((p for p in played if p.node == finals[flight]), None)
        winner = final.winner if final is not None else None
        ordered: list[list[int]] = [[winner]] if winner is not None else []
        by_reach: dict[int, list[int]] = {}
        for pid, st in reach.items():
            if pid != winner:
                by_reach.setdefault(st, []).append(pid)
        seed = {e.player: e.seed for e in entrants}
        ordered += [sorted(by_reach[st], key=lambda p: seed[p]) for st in sorted(by_reach, reverse=True)]
        out[flight] = ordered
    return out


def payouts(d: Desk, event: str) -> dict[str, Any]:
    """The event's pot and payouts: {"gross", "rake", "pot", "paid": [{"place", "name",
    "amount", "flight"}]} (amounts in the club's currency; they add up to "pot")."""
    row = queries.event_row(d.db, event)
    s = settings(row)
    if "fee_cents" not in s:
        raise InputError(f"event {row['name']!r} has no entry fee: set one with "
                         f"'bgboard club event set {_q(row['name'])} --entry-fee AMOUNT --payout 50,30,20'")
    entries = d.db.execute("SELECT COUNT(*) FROM entries WHERE event_id = ?", (row["id"],)).fetchone()[0]
    gross, rake, net = money.pot(int(entries), s["fee_cents"], s.get("rake", 0.0))
    out: dict[str, Any] = {"gross": _amount(gross), "rake": _amount(rake), "pot": _amount(net), "paid": []}
    if row["status"] != "finished":
        out["final"] = False
        return out
    shares = {MAIN: s.get("payout", [100.0])}
    if s.get("consolation_payout"):
        shares[CONSOLATION] = s["consolation_payout"]
    paid = money.split(net, shares, _placings(d, row), s.get("round_cents", 100))
    names = queries.player_names(d.db)
    out["final"] = True
    out["paid"] = [{"place": p.place, "name": names[p.player], "amount": _amount(p.cents), "flight": p.flight}
                   for p in paid if p.cents]
    return out


def correct_money(d: Desk, event: str, *, reason: str, entry_fee: str | None = None,
                  payout: str | list[float] | None = None, consolation_payout: str | list[float] | None = None,
                  rake: float | None = None, round_to: str | None = None,
                  actor: str = "director", at: str | None = None) -> dict[str, Any]:
    """Correct a finished event's entry fee, payouts, rake or unit on purpose (they are frozen
    for :func:`configure`): one transaction, one audit row with the reason and the money
    before and after (settings, pot and every paid place).  Returns the new :func:`payouts`."""
    reason = clean_text(reason, "a reason")
    if not reason:
        raise InputError("say why the money is corrected (--reason), for the audit log")
    asked = {"entry_fee": entry_fee, "payout": payout, "consolation_payout": consolation_payout,
             "rake": rake, "round_to": round_to}
    asked = {k: v for k, v in asked.items() if v is not None}
    if not asked:
        raise InputError("say what to correct: --entry-fee, --payout, --consolation-payout, --rake or --round-to")
    with d.club.transaction() as db:
        row = queries.event_row(d.db, event)
        if row["status"] != "finished":
            raise InputError(f"event {row['name']!r} is not finished: change its money with "
                             f"'bgboard club event set {_q(row['name'])} ...' (a correction is for a finished event)")
        before = _money_state(d, row["name"])
        s = settings(row)
        _set_money(row, s, entry_fee, payout, consolation_payout, rake, round_to)
        db.execute("UPDATE events SET settings = ? WHERE id = ?", (json.dumps(s, sort_keys=True), row["id"]))
        after = _money_state(d, row["name"])
        if after == before:
            raise InputError(f"event {row['name']!r} already has that money: nothing to correct")
        audit.write(d.db, "money_correct", {"event": row["name"], "settings": asked, "reason": reason},
                    before, after, actor, at, row["id"])
    return payouts(d, event)


def _money_state(d: Desk, event: str) -> dict[str, Any]:
    """A finished event's money as the audit log shows it before and after a correction."""
    s = event_settings(d, event)
    out = payouts(d, event)
    return {"entry_fee": _amount(s.get("fee_cents", 0)), "payout": s.get("payout", [100.0]),
            "consolation_payout": s.get("consolation_payout"), "rake": s.get("rake", 0.0),
            "round_to": _amount(s.get("round_cents", 100)), "pot": out["pot"], "paid": out["paid"]}


def _amount(c: int) -> int | float:
    return c // 100 if c % 100 == 0 else c / 100


# ---------------------------------------------------------------------- sheets to print
def payouts_or_none(d: Desk, event: str) -> dict[str, Any] | None:
    """:func:`payouts`, or None for an event without an entry fee."""
    try:
        return payouts(d, event)
    except InputError:
        return None


def draw_sheet(d: Desk, event: str, *, with_standings: bool = True, with_draw: bool = True,
               css_href: str | None = None, css_text: bool = False, words: Words = ENGLISH) -> str:
    """The event's printable draw (:func:`bgboard.club.printing.draw_page`) in ``words``'
    language; ``with_draw=False``: its standings (and payouts) alone."""
    from bgboard.club import printing

    info = d.event(event)
    matches = d.matches(info.name)
    standings = d.standings(info.name)
    count = max([m.round for m in matches] + [info.rounds or 0])
    return printing.draw_page(d.club_name(), info, d.bracket(info.name), matches, standings, count,
                              with_standings=with_standings, with_draw=with_draw,
                              payouts=payouts_or_none(d, info.name), css_href=css_href,
                              css_text=printing.PRINT_CSS if css_text else None, words=words)


def slips_sheet(d: Desk, event: str, *, css_href: str | None = None, css_text: bool = False,
                words: Words = ENGLISH) -> str:
    """A slip per match to play (:func:`bgboard.club.printing.slips_page`)."""
    from bgboard.club import printing

    info = d.event(event)
    return printing.slips_page(d.club_name(), info, d.matches(info.name), css_href=css_href,
                               css_text=printing.PRINT_CSS if css_text else None, words=words)


# ---------------------------------------------------------------------- backups
def set_backup_dir(d: Desk, folder: str | None, *, actor: str = "director", at: str | None = None) -> None:
    """Back the database up into ``folder`` after each round is paired (None: stop)."""
    with d.club.transaction() as db:
        if folder is None:
            db.execute("DELETE FROM meta WHERE key = 'backup_dir'")
        else:
            path = Path(folder).expanduser().resolve()
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"cannot make the backup folder {path} ({exc.strerror or exc})") from None
            db.execute("INSERT INTO meta VALUES ('backup_dir', ?) ON CONFLICT(key) DO UPDATE"
                       " SET value = excluded.value", (str(path),))
            folder = str(path)
        _audit(d, "backup_dir", {"folder": folder}, None, actor, at)


def backup_dir(d: Desk) -> str | None:
    row = d.db.execute("SELECT value FROM meta WHERE key = 'backup_dir'").fetchone()
    return None if row is None else str(row[0])


__all__ = ["configure", "event_settings", "check_in", "check_in_list", "close_check_in", "late_entry",
           "edit_player", "remove_player", "match_id", "payouts", "correct_money", "set_backup_dir", "backup_dir",
           "draw_sheet", "slips_sheet", "number_matches", "check_pairable", "after_round", "settings"]
