"""Results both players confirm (issue 26), the director's side without the network: what the
club database makes of a board's result in an event made with --confirm-results (held or
counted), the director's decisions, hand entries staying immediate, the audit log's replay,
the CLI's setting, and the protocol's optional fields (older peers still read the messages)."""

from __future__ import annotations

import json
import uuid as uuids
from dataclasses import replace

import pytest

from bgboard.cli import main
from bgboard.club import confirmations, evening
from bgboard.club.board_tournament import ClubTournament
from bgboard.club.director import Director
from bgboard.club.operations import replay_audit
from bgboard.control.confirm import CONFIRM, DISPUTE, Confirmation, answer_of
from bgboard.control.events import Button
from bgboard.errors import InputError
from bgboard.net.protocol import Assignment, Game, ProtocolError, Result, decode, encode
from tests.club.conftest import selfplay_mat


def board_result(d: Director, match, mat_seed: int = 3, **flags) -> Result:
    mat, score = selfplay_mat(1, mat_seed, (match.players[0], match.players[1]))
    return Result(str(uuids.uuid4()), match.board, match.event, match.id, (match.players[0], match.players[1]), 1,
                  score, 0 if score[0] > score[1] else 1, (Game(0, 1, "single"),), mat, 10, 1, **flags)


@pytest.fixture
def paired(club):
    for name in ("Ann", "Bob", "Cleo", "Dev"):
        club.add_player(name)
    club.new_event("Friday", "swiss", 1, rounds=2)
    club.enter("Friday", ["Ann", "Bob", "Cleo", "Dev"])
    evening.configure(club, "Friday", confirm_results=True)
    return club.pair_round("Friday").matches


def test_the_assignments_say_the_event_wants_confirmation(club, paired):
    assert all(a.confirm for a in ClubTournament(club).assignments())
    evening.configure(club, "Friday", confirm_results=False)
    assert not any(a.confirm for a in ClubTournament(club).assignments())
    assert "confirm_results" not in evening.event_settings(club, "Friday")


def test_confirmed_counts_disputed_and_unconfirmed_wait(club, paired):
    t = ClubTournament(club)
    a, b = paired
    ok = board_result(club, a, confirmed=True)
    assert t.report(a.board, ok).status == "stored" and club.match(a.id).status == "finished"
    disputed = board_result(club, b, disputed=True)
    outcome = t.report(b.board, disputed)
    assert (outcome.status, outcome.reason) == ("stored", "held for the director: disputed at the board")
    assert club.match(b.id).status == "pending"  # counts for nothing yet
    assert sum(s.wins for s in club.standings("Friday")) == 1
    assert t.report(b.board, disputed).status == "duplicate"  # a re-send: the board may forget it
    [h] = confirmations.held(club)
    assert (h.match_id, h.score, h.why, h.has_mat) == (b.id, list(disputed.score), confirmations.DISPUTED_WHY, True)
    with pytest.raises(InputError, match="still being played"):
        club.pair_round("Friday")  # the round waits for the director
    info = confirmations.decide(club, h.id, "0-1" if disputed.score[0] else "1-0")  # the other player won
    assert info.status == "finished" and info.score != list(disputed.score) and not info.has_mat
    assert confirmations.held(club) == []
    assert t.report(b.board, disputed).status == "duplicate"  # still: the director decided
    with pytest.raises(InputError, match="already settled"):
        confirmations.accept(club, h.id)
    r2 = club.pair_round("Friday")
    unconfirmed = board_result(club, r2.matches[0])  # a board of an older release: no answer
    assert t.report(r2.matches[0].board, unconfirmed).reason.endswith(confirmations.UNCONFIRMED_WHY)
    [h2] = confirmations.held(club)
    club.record_result("Friday", r2.matches[0].id, "1-0")  # by hand: immediate, settles the held one
    assert confirmations.held(club) == [] and club.match(r2.matches[0].id).status == "finished"
    other = r2.matches[1]
    late = board_result(club, other, disputed=True)
    club.record_result("Friday", other.id, "0-1" if late.score[0] else "1-0")  # the director was first
    outcome = t.report(other.board, late)
    assert outcome.status == "refused" and "already has a result" in outcome.reason and confirmations.held(club) == []


def test_a_held_result_must_replay_and_the_audit_log_replays_it(club, paired, tmp_path):
    t = ClubTournament(club)
    a, b = paired
    bad = replace(board_result(club, a, disputed=True), score=(0, 1) if board_result(club, a).score[0] else (1, 0))
    assert t.report(a.board, bad).status == "refused"  # a .mat that does not end at the score
    assert confirmations.held(club) == []
    held = board_result(club, a, disputed=True)
    t.report(a.board, held)
    confirmations.accept(club, confirmations.held(club)[0].id, actor="director (web)")
    t.report(b.board, board_result(club, b, disputed=True))
    copy = replay_audit(club.audit(), tmp_path / "copy.sqlite")
    assert [(m.status, m.score) for m in copy.matches("Friday")] == [(m.status, m.score) for m in club.matches("Friday")]
    assert [(h.match_id, h.score, h.why) for h in confirmations.held(copy)] == [(h.match_id, h.score, h.why) for h in confirmations.held(club)]
    for text in ("x", "99", ""):
        with pytest.raises(InputError, match="no held result"):
            confirmations.accept(club, text)


def test_the_players_answers():
    assert [answer_of(b) for b in Button] == [CONFIRM, DISPUTE, DISPUTE]
    ask = Confirmation(("Ann", "Bob"), (1, 0), 0)
    assert "both players press done" in ask.notice().text and ask.decided is None
    assert ask.press(1, CONFIRM) and not ask.press(1, CONFIRM)
    assert ask.notice().text.startswith("Result 1-0, Ann wins: Ann, press done")
    assert ask.press(0, CONFIRM) and ask.decided == CONFIRM and not ask.press(0, DISPUTE)
    ask = Confirmation(("Ann", "Bob"), (1, 0), 0)
    assert ask.press(0, CONFIRM) and ask.press(1, DISPUTE) and ask.decided == DISPUTE
    assert "Bob disputed the result 1-0" in ask.notice().text and not ask.press(0, CONFIRM)


def test_the_optional_fields_are_left_out_when_off():
    a = Assignment("Friday", 3, 1, ("Ann", "Bob"), 1)
    assert b'"confirm"' not in encode(a) and decode("assign", encode(a)) == a  # as before: older boards read it
    on = replace(a, confirm=True)
    assert decode("assign", encode(on)) == on and b'"confirm":true' in encode(on)
    r = Result(str(uuids.uuid4()), 1, "Friday", 3, ("Ann", "Bob"), 1, (1, 0), 0, (), "", 1, 1)
    assert b"confirmed" not in encode(r) and b"disputed" not in encode(r)
    for flags in ({"confirmed": True}, {"disputed": True}):
        assert decode("result", encode(replace(r, **flags))) == replace(r, **flags)
    body = json.loads(encode(r))
    body["disputed"] = "yes"
    with pytest.raises(ProtocolError, match="'disputed' must be true or false"):
        decode("result", json.dumps(body))


def test_the_cli_sets_it_per_event(club_location, monkeypatch, capsys):
    monkeypatch.setenv("BGBOARD_CLUB_DB", str(club_location))
    assert main(["club", "init", "--name", "C"]) == 0
    assert main(["club", "event", "new", "Friday", "--format", "swiss", "--length", "1", "--confirm-results"]) == 0
    assert "both players confirm them at the board" in capsys.readouterr().out
    with Director.open(club_location) as d:
        assert confirmations.wants_confirmation(d, "Friday")
    assert main(["club", "event", "set", "Friday", "--no-confirm-results"]) == 0
    assert "they count when the board reports them" in capsys.readouterr().out
    with Director.open(club_location) as d:
        assert not confirmations.wants_confirmation(d, "Friday")


def test_the_cli_lists_and_settles_held_results(club_location, monkeypatch, capsys):
    path = club_location
    monkeypatch.setenv("BGBOARD_CLUB_DB", str(path))
    with Director.create(path, "C") as d:
        for name in ("Ann", "Bob", "Cleo", "Dev"):
            d.add_player(name)
        d.new_event("Friday", "swiss", 1, rounds=1)
        d.enter("Friday", ["Ann", "Bob", "Cleo", "Dev"])
        evening.configure(d, "Friday", confirm_results=True)
        a, b = d.pair_round("Friday").matches
        t = ClubTournament(d)
        ra, rb = board_result(d, a, disputed=True), board_result(d, b)
        t.report(a.board, ra)
        t.report(b.board, rb)
    assert main(["club", "held"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "(disputed at the board)" in out[0] and "(not confirmed by both players at the board)" in out[1]
    assert main(["club", "held", "--json"]) == 0
    held = json.loads(capsys.readouterr().out)
    assert [h["match_id"] for h in held] == [a.id, b.id]
    for bad in (["--decide", str(held[0]["id"])], ["--score", "1-0"], ["--accept", "77"]):
        assert main(["club", "held", *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
    assert main(["club", "held", "--accept", str(held[0]["id"])]) == 0
    assert f"{ra.score[0]}-{ra.score[1]} recorded" in capsys.readouterr().out
    right = "0-1" if rb.score[0] else "1-0"
    assert main(["club", "held", "--decide", str(held[1]["id"]), "--score", right]) == 0
    assert f"{right} recorded" in capsys.readouterr().out
    assert main(["club", "held"]) == 0 and "no result waits for you" in capsys.readouterr().out
    with Director.open(path) as d:
        assert d.match(b.id).score == [int(x) for x in right.split("-")] and d.event("Friday").status == "finished"


def test_a_program_error_storing_one_result_is_logged_with_its_traceback_and_the_rest_stored(
        club, paired, monkeypatch, caplog):
    """errors.py's promise on the director's path: a fault of ours storing one result (not a
    refusal the board's data earned) rolls that result back, tells the board it failed, keeps
    the batch going and leaves its traceback in the log, not just its name."""
    t = ClubTournament(club)
    a, b = paired
    service_type = type(t.service)
    real = service_type.record_result

    def broken_for_a(self, event, match, *args, **kwargs):
        if match == a.id:
            raise TypeError("a fault of ours")
        return real(self, event, match, *args, **kwargs)

    monkeypatch.setattr(service_type, "record_result", broken_for_a)
    with caplog.at_level("ERROR", logger="bgboard.club.board_tournament"):
        outcomes = t.store([(a.board, board_result(club, a, confirmed=True)), (b.board, board_result(club, b, confirmed=True))])
    assert [o.status for o in outcomes] == ["failed", "stored"]
    assert outcomes[0].reason.startswith("TypeError")
    assert club.match(a.id).status == "pending" and club.match(b.id).status == "finished"
    [record] = [r for r in caplog.records if r.name == "bgboard.club.board_tournament"]
    assert record.exc_info is not None and record.exc_info[0] is TypeError
