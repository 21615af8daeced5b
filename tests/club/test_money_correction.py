"""A finished event's money corrected on purpose (issue 35, "event settings after the fact"):
``event set`` refuses to touch a finished event's fees and payouts, so a mistake in them is
put right only with ``club payouts EVENT --correct ... --reason``: one transaction, one audit
row with the money before and after and the reason, replayed like every other change."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bgboard.club.db import Club
from bgboard.club.director import Director
from bgboard.club.operations import replay_audit


from tests.club.test_event_frozen import club, ok  # the same two helpers


def refused(capsys, db, *args: str) -> str:
    code, out, err = club(capsys, db, *args)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, code, out, err)
    return err


def finish(capsys, db, event: str) -> None:
    for _ in range(20):
        pending = [m for m in json.loads(ok(capsys, db, "matches", event, "--json")) if m["status"] == "pending"]
        if not pending:
            line = next(x for x in ok(capsys, db, "event", "list").splitlines() if x.startswith(event + ":"))
            if line.endswith("finished"):
                return
            ok(capsys, db, "round", event)
            continue
        for m in pending:
            ok(capsys, db, "result", event, str(m["number"]), "--score", "1-0")
    raise AssertionError("the event never finished")


@pytest.fixture
def db(club_location, capsys):
    path = club_location
    ok(capsys, path, "--by", "Tom", "init", "--name", "Money Club")
    for name in ("Anna", "Eva", "Bram", "Cleo"):
        ok(capsys, path, "player", "add", name)
    ok(capsys, path, "event", "new", "S", "--format", "single-elimination", "--length", "1",
       "--entry-fee", "10", "--payout", "70,30")
    ok(capsys, path, "event", "enter", "S", "Anna", "Eva", "Bram", "Cleo")
    ok(capsys, path, "round", "S")
    finish(capsys, path, "S")
    return path


def audit_rows(db) -> list[sqlite3.Row]:
    with Club(db) as club:
        return club.conn.execute("SELECT * FROM audit WHERE action = 'money_correct' ORDER BY id").fetchall()


def test_a_correction_changes_the_payouts_and_the_audit_log_keeps_old_new_and_why(capsys, db):
    before = json.loads(ok(capsys, db, "payouts", "S", "--json"))
    assert sorted(p["amount"] for p in before) == [12, 28]            # 40 pot, 70/30
    out = ok(capsys, db, "--by", "Tom", "payouts", "S", "--correct", "--entry-fee", "20", "--payout", "50,30,20",
             "--reason", "the fee on the poster was 20")
    assert "corrected" in out and "pot 80" in out, out
    after = json.loads(ok(capsys, db, "payouts", "S", "--json"))
    assert sum(p["amount"] for p in after) == 80 and len(after) >= 2, after
    (row,) = audit_rows(db)
    assert row["actor"] == "Tom"
    args, old, new = json.loads(row["args"]), json.loads(row["before"]), json.loads(row["after"])
    assert args["reason"] == "the fee on the poster was 20"
    assert args["settings"] == {"entry_fee": "20", "payout": "50,30,20"}
    assert (old["entry_fee"], old["payout"], old["pot"]) == (10, [70.0, 30.0], 40)
    assert (new["entry_fee"], new["payout"], new["pot"]) == (20, [50.0, 30.0, 20.0], 80)
    assert old["paid"] == before and new["paid"] == after


def test_a_correction_needs_a_reason_a_finished_event_and_something_to_change(capsys, db):
    payouts = ok(capsys, db, "payouts", "S", "--json")
    assert "--reason" in refused(capsys, db, "payouts", "S", "--correct", "--entry-fee", "20")
    assert "--reason" in refused(capsys, db, "payouts", "S", "--correct", "--entry-fee", "20", "--reason", "   ")
    assert "what to correct" in refused(capsys, db, "payouts", "S", "--correct", "--reason", "why not")
    assert "--correct" in refused(capsys, db, "payouts", "S", "--entry-fee", "20")
    assert "nothing to correct" in refused(capsys, db, "payouts", "S", "--correct", "--entry-fee", "10",
                                           "--reason", "same")
    # a bad split is one sentence and changes nothing (the transaction is rolled back)
    assert "100" in refused(capsys, db, "payouts", "S", "--correct", "--payout", "50,30", "--reason", "x")
    assert "²" in refused(capsys, db, "payouts", "S", "--correct", "--entry-fee", "²", "--reason", "x")
    assert ok(capsys, db, "payouts", "S", "--json") == payouts and audit_rows(db) == []
    # event set still refuses, and now names the correction command
    err = refused(capsys, db, "event", "set", "S", "--entry-fee", "20")
    assert "frozen" in err and "payouts S --correct" in err, err
    # a running event is changed with event set, not corrected
    ok(capsys, db, "event", "new", "T", "--format", "swiss", "--length", "1", "--entry-fee", "5")
    ok(capsys, db, "event", "enter", "T", "Anna", "Eva")
    assert "not finished" in refused(capsys, db, "payouts", "T", "--correct", "--entry-fee", "6", "--reason", "x")


def test_a_correction_is_replayed_from_the_audit_log(capsys, db, tmp_path):
    ok(capsys, db, "payouts", "S", "--correct", "--rake", "10", "--round-to", "5", "--reason", "club's share")
    want = json.loads(ok(capsys, db, "payouts", "S", "--json"))
    d = Director.open(db)
    try:
        entries = d.audit()
    finally:
        d.close()
    copy = replay_audit(entries, tmp_path / "copy.sqlite")
    try:
        from bgboard.club import evening

        assert evening.payouts(copy, "S")["paid"] == want
        assert [e.action for e in copy.audit()].count("money_correct") == 1
    finally:
        copy.close()
