"""Event settings after the fact (issue 35, defect 8): ``club event set S --entry-fee 999999``
after check-in closed and the event finished said "check-in is open" (the state "closed" is
truthy) and the fee change was accepted, recomputing finished payouts.  A finished event's
fees and payouts are now frozen, and the command says the real check-in state."""

from __future__ import annotations

import json

import pytest

from bgboard.cli import main


def club(capsys, db, *args: str) -> tuple[int, str, str]:
    code = main(["club", "--db", str(db), *args])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys, db, *args: str) -> str:
    code, out, err = club(capsys, db, *args)
    assert code == 0, (args, err)
    return out


@pytest.fixture
def db(club_location, capsys):
    path = club_location
    ok(capsys, path, "init", "--name", "Money Club")
    for name in ("Anna", "Eva", "Bram", "Cleo"):
        ok(capsys, path, "player", "add", name)
    out = ok(capsys, path, "event", "new", "S", "--format", "single-elimination", "--length", "1", "--check-in",
             "--entry-fee", "10", "--payout", "70,30")
    assert "check-in is open" in out
    ok(capsys, path, "checkin", "S", "Anna", "Eva", "Bram", "Cleo")
    ok(capsys, path, "checkin", "S", "--close")
    return path


def test_after_check_in_closed_the_command_says_it_is_closed(capsys, db):
    out = ok(capsys, db, "event", "set", "S", "--rake", "5")
    assert "check-in is open" not in out and "check-in is closed" in out, out


def test_a_finished_events_fees_and_payouts_are_frozen(capsys, db):
    while True:
        pending = [m for m in json.loads(ok(capsys, db, "matches", "S", "--json")) if m["status"] == "pending"]
        if not pending:
            if "finished" in ok(capsys, db, "event", "list"):
                break
            ok(capsys, db, "round", "S")
            continue
        for m in pending:
            ok(capsys, db, "result", "S", str(m["number"]), "--score", "1-0")
    before = ok(capsys, db, "payouts", "S", "--json")
    for option, value in (("--entry-fee", "999999"), ("--payout", "100"), ("--rake", "50"), ("--round-to", "5")):
        code, out, err = club(capsys, db, "event", "set", "S", option, value)
        assert code == 2 and err.count("\n") == 1, (option, out, err)
        assert "is finished" in err and "frozen" in err and option in err, err
        assert "check-in is open" not in out + err
    assert ok(capsys, db, "payouts", "S", "--json") == before
