"""The director's evening through ``bgboard club`` (issue 26): check-in, late entries,
players edited and removed, per-event match numbers, payouts, backups; and the first
evening's defects (quoted event names, double-elimination ranking, the runner-up)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from hypothesis import given, strategies as st

from bgboard.cli import main
from bgboard.club import payouts as money
from bgboard.club.director import Director

NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def club(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["club", *args])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys, *args: str) -> str:
    code, out, err = club(capsys, *args)
    assert code == 0, (args, err)
    return out


def refused(capsys, *args: str) -> str:
    code, out, err = club(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, out, err)
    return err


@pytest.fixture
def db(club_location, monkeypatch, capsys):
    path = club_location
    monkeypatch.setenv("BGBOARD_CLUB_DB", str(path))
    ok(capsys, "init", "--name", "Evening Club")
    for i, name in enumerate(NAMES):
        ok(capsys, "player", "add", name, "--rating", str(1700 - 10 * i))
    return path


def finish_round(capsys, event: str, out: str) -> None:
    """Enter 1-0 for every match a 'round --json' answer paired."""
    for m in json.loads(out)["matches"]:
        ok(capsys, "result", event, f"id{m['id']}", "--score", "1-0")


def play_out(capsys, event: str) -> None:
    """Enter 1-0 for every pending match, pair, again, until the event is finished."""
    while True:
        for m in json.loads(ok(capsys, "matches", event, "--json")):
            if m["status"] == "pending":
                ok(capsys, "result", event, str(m["number"]), "--score", "1-0")
        code, out, err = club(capsys, "round", event, "--json")
        if code == 2:
            assert "finished" in err
            return


def test_only_the_checked_in_are_paired_and_the_draw_waits_for_the_close(db, capsys):
    ok(capsys, "event", "new", "Friday Swiss", "--format", "swiss", "--length", "1", "--check-in")
    ok(capsys, "event", "enter", "Friday Swiss", "Hal", "Ivy")      # registered, never arrive
    out = ok(capsys, "checkin", "Friday Swiss", "Ann", "Bob", "Cleo", "Dev", "Eli")
    assert "5 checked in" in out
    assert "4 checked in" in ok(capsys, "checkin", "Friday Swiss", "Eli", "--undo")
    err = refused(capsys, "round", "Friday Swiss")
    assert "check-in" in err and '\'bgboard club checkin "Friday Swiss" --close\'' in err
    listed = ok(capsys, "checkin", "Friday Swiss", "--list")
    assert "✓ Ann" in listed and "  Eli" in listed and "  Hal" in listed
    out = ok(capsys, "checkin", "Friday Swiss", "--close")
    assert "removed: Eli, Hal, Ivy" in out and "round 1 of Friday Swiss: 2 matches" in out
    paired = json.loads(ok(capsys, "matches", "Friday Swiss", "--json"))
    assert {p for m in paired for p in m["players"]} == {"Ann", "Bob", "Cleo", "Dev"}
    assert "no open check-in" in refused(capsys, "checkin", "Friday Swiss", "Eli")
    standings = json.loads(ok(capsys, "standings", "Friday Swiss", "--json"))
    assert sorted(s["name"] for s in standings) == ["Ann", "Bob", "Cleo", "Dev"]


def test_closing_check_in_with_too_few_players_changes_nothing(db, capsys):
    ok(capsys, "event", "new", "Small", "--format", "single-elimination", "--length", "1", "--check-in")
    ok(capsys, "checkin", "Small", "Ann")
    assert "at least 2 players" in refused(capsys, "checkin", "Small", "--close")
    ok(capsys, "checkin", "Small", "Bob")
    assert "1 match" in ok(capsys, "checkin", "Small", "--close")


def test_a_late_swiss_entrant_joins_the_next_round_with_the_score_the_director_gives(db, capsys):
    ok(capsys, "event", "new", "Swiss", "--format", "swiss", "--length", "1", "--rounds", "2")
    ok(capsys, "event", "enter", "Swiss", "Ann", "Bob", "Cleo", "Dev")
    assert "has not started" in refused(capsys, "event", "late", "Swiss", "Gus")
    finish_round(capsys, "Swiss", ok(capsys, "round", "Swiss", "--json"))
    out = ok(capsys, "event", "late", "Swiss", "Gus", "--score", "0.5")
    assert out.strip() == "Gus joins Swiss at round 2 with 0.5 points"
    assert "already entered" in refused(capsys, "event", "late", "Swiss", "Gus")
    rows = {s["name"]: s for s in json.loads(ok(capsys, "standings", "Swiss", "--json"))}
    assert rows["Gus"]["wins"] == 0 and rows["Gus"]["rank"] == 3   # 0.5: above the two losers
    second = json.loads(ok(capsys, "round", "Swiss", "--json"))
    in_round = {p for m in second["matches"] for p in m["players"]} | set(second["byes"])
    assert "Gus" in in_round and len(in_round) == 5
    ok(capsys, "event", "new", "League", "--format", "round-robin", "--length", "1")
    ok(capsys, "event", "enter", "League", "Ann", "Bob", "Cleo")
    ok(capsys, "round", "League")
    assert "schedule is fixed" in refused(capsys, "event", "late", "League", "Gus")


def test_a_late_double_elimination_entrant_takes_a_first_round_bye_while_one_exists(db, capsys):
    ok(capsys, "event", "new", "Cup", "--format", "double-elimination", "--length", "1")
    ok(capsys, "event", "enter", "Cup", *NAMES[:6])        # 8 places: Ann and Bob have byes
    first = json.loads(ok(capsys, "round", "Cup", "--json"))
    assert sorted(first["byes"]) == ["Ann", "Bob"]
    out = ok(capsys, "event", "late", "Cup", "Gus")
    assert out.startswith("Gus takes Bob's first-round bye: match 3 on board 3")
    assert "takes Ann's first-round bye" in ok(capsys, "event", "late", "Cup", "Hal")
    err = refused(capsys, "event", "late", "Cup", "Ivy")
    assert "no first-round bye left for Ivy" in err
    matches = json.loads(ok(capsys, "matches", "Cup", "--json"))
    pending = [m["players"] for m in matches if m["status"] == "pending"]
    assert ["Bob", "Gus"] in pending and ["Ann", "Hal"] in pending and len(pending) == 4
    play_out(capsys, "Cup")
    standings = json.loads(ok(capsys, "standings", "Cup", "--json"))
    assert len(standings) == 8 and standings[0]["status"] == "champion"


def test_a_bye_already_gone_on_is_not_taken(db, capsys):
    ok(capsys, "event", "new", "Cup", "--format", "single-elimination", "--length", "1")
    ok(capsys, "event", "enter", "Cup", *NAMES[:5])        # Ann, Bob, Cleo have byes; Bob v Cleo paired
    ok(capsys, "round", "Cup")
    assert "no first-round bye left for Gus" in refused(capsys, "event", "late", "Cup", "Gus")


def test_match_numbers_per_event_and_club_wide_ids_are_both_accepted(db, capsys):
    ok(capsys, "event", "new", "Friday", "--format", "single-elimination", "--length", "1")
    ok(capsys, "event", "enter", "Friday", "Ann", "Bob")
    ok(capsys, "round", "Friday")
    ok(capsys, "event", "new", "Friday DE2", "--format", "single-elimination", "--length", "1")
    ok(capsys, "event", "enter", "Friday DE2", "Cleo", "Dev", "Eli", "Fay")
    out = ok(capsys, "round", "Friday DE2")
    assert "match 1 " in out and "[id 2]" in out
    assert ok(capsys, "result", "Friday DE2", "1", "--score", "1-0").startswith("match 1: ")
    assert ok(capsys, "result", "Friday DE2", "id3", "--score", "0-1").startswith("match 2: ")
    err = refused(capsys, "result", "Friday DE2", "1", "--score", "1-0")
    assert "'bgboard club result \"Friday DE2\" 2 --score A-B --correct'" in err
    err = refused(capsys, "result", "Friday DE2", "9", "--score", "1-0")
    assert "'bgboard club matches \"Friday DE2\"' lists them" in err


def test_players_are_edited_and_removed_and_events_listed(db, capsys):
    assert "rating 1800.00" in ok(capsys, "player", "edit", "Ivy", "--name", "Ivy B", "--rating", "1800")
    assert "already a player called 'ann'" in refused(capsys, "player", "edit", "Bob", "--name", "ann")
    ok(capsys, "event", "new", "E", "--format", "single-elimination", "--length", "1")
    ok(capsys, "event", "enter", "E", "Ann", "Bob")
    ok(capsys, "player", "remove", "Ivy B")
    assert "entered in E" in refused(capsys, "player", "remove", "Ann")
    names = [p["name"] for p in json.loads(ok(capsys, "player", "list", "--json"))]
    assert "Ivy B" not in names and "Ann" in names
    assert ok(capsys, "event", "list") == "E: single-elimination, 1-point matches, 2 players, open\n"
    assert [e["name"] for e in json.loads(ok(capsys, "event", "list", "--json"))] == ["E"]
    out = ok(capsys, "round", "E")
    assert "1 point (main)" in out and "1 points" not in out


def test_payouts_add_up_to_the_pot_follow_the_split_and_split_ties(db, capsys):
    ok(capsys, "event", "new", "Cup", "--format", "single-elimination", "--length", "1",
       "--entry-fee", "7", "--payout", "50,30,20", "--round-to", "1")
    ok(capsys, "event", "enter", "Cup", *NAMES[:5])
    before = json.loads(ok(capsys, "payouts", "Cup", "--json"))
    assert before == {"gross": 35, "rake": 0, "pot": 35, "paid": [], "final": False}
    assert "add up to 100%" in refused(capsys, "event", "set", "Cup", "--entry-fee", "5", "--payout", "60,30")
    play_out(capsys, "Cup")
    paid = json.loads(ok(capsys, "payouts", "Cup", "--json"))
    assert sum(p["amount"] for p in paid) == 35
    assert [p["place"] for p in paid] == [1, 2, 3, 3]
    # 50% of 35 = 17.5 -> 17, 30% = 10.5 -> 10, the semi-finalists share 20%: 3.5 -> 3 each;
    # the 2 left over go to the first place
    assert [p["amount"] for p in paid] == [19, 10, 3, 3]
    standings = json.loads(ok(capsys, "standings", "Cup", "--json"))
    assert paid[0]["name"] == standings[0]["name"] and paid[1]["name"] == standings[1]["name"]
    assert "frozen" in refused(capsys, "event", "set", "Cup", "--entry-fee", "5", "--payout", "60,40")


def test_double_elimination_pays_both_flights_less_the_rake(db, capsys):
    ok(capsys, "event", "new", "DE", "--format", "double-elimination", "--length", "1",
       "--entry-fee", "10", "--payout", "50,20", "--consolation-payout", "20,10", "--rake", "10",
       "--round-to", "0.01")
    ok(capsys, "event", "enter", "DE", *NAMES[:8])
    play_out(capsys, "DE")
    paid = json.loads(ok(capsys, "payouts", "DE", "--json"))
    assert round(sum(p["amount"] for p in paid), 2) == 72
    assert [(p["flight"], p["place"], p["amount"]) for p in paid] == [
        ("main", 1, 36), ("main", 2, 14.4), ("consolation", 1, 14.4), ("consolation", 2, 7.2)]
    standings = {s["status"]: s["name"] for s in json.loads(ok(capsys, "standings", "DE", "--json"))}
    assert paid[0]["name"] == standings["champion"] and paid[2]["name"] == standings["consolation-winner"]
    text = ok(capsys, "payouts", "DE")
    assert text.startswith("pot 72 (80 in entry fees, rake 8)")


@given(st.integers(0, 10**7), st.lists(st.integers(1, 4), min_size=1, max_size=8),
       st.sampled_from([1, 5, 100, 500]))
def test_payouts_always_add_up_and_ties_share_evenly(net, groups, unit):
    percents = [100 / sum(groups)] * sum(groups)
    players = iter(range(100))
    placings = {"main": [[next(players) for _ in range(k)] for k in groups]}
    paid = money.split(net, {"main": percents}, placings, unit)
    assert sum(p.cents for p in paid) == net
    for group in placings["main"][1:]:
        amounts = {p.cents for p in paid if p.player in group}
        assert len(amounts) == 1 and next(iter(amounts)) % unit == 0


def test_backup_and_restore_on_the_command_line(db, capsys, tmp_path):
    with Director.open(db) as d:
        label = d.club.label  # what names the automatic backups: the file's stem, PostgreSQL's database
    ok(capsys, "event", "new", "Cup", "--format", "single-elimination", "--length", "1")
    ok(capsys, "event", "enter", "Cup", *NAMES[:4])
    assert "automatic backup after each round" in ok(capsys, "backup", "--auto", str(tmp_path / "auto"))
    out = ok(capsys, "round", "Cup")
    assert "backup after round 1:" in out
    assert (tmp_path / "auto" / f"{label}-Cup-round1.sqlite").is_file()
    play_out(capsys, "Cup")
    assert sorted(p.name for p in (tmp_path / "auto").iterdir()) == [
        f"{label}-Cup-final.sqlite", f"{label}-Cup-round1.sqlite", f"{label}-Cup-round2.sqlite"]
    with Director.open(tmp_path / "auto" / f"{label}-Cup-final.sqlite") as final:
        assert final.event("Cup").status == "finished"
    before = ok(capsys, "standings", "Cup", "--json")
    assert "backed up to" in ok(capsys, "backup", "--out", str(tmp_path / "b.sqlite"))
    ok(capsys, "player", "add", "Zed")
    out = ok(capsys, "restore", str(tmp_path / "b.sqlite"))
    assert "restored" in out and "before-restore" in out
    assert ok(capsys, "standings", "Cup", "--json") == before
    assert "Zed" not in ok(capsys, "player", "list")
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    assert "not a bgboard club database" in refused(capsys, "restore", str(tmp_path / "junk.sqlite"))
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE t (x)")
    other.close()
    assert "not a bgboard club database" in refused(capsys, "restore", str(tmp_path / "other.sqlite"))
    assert "no file" in refused(capsys, "restore", str(tmp_path / "missing.sqlite"))
    assert ok(capsys, "standings", "Cup", "--json") == before   # a refused restore changed nothing


def test_the_main_finals_loser_still_in_the_consolation_final_is_playing_not_runner_up(tmp_path):
    with Director.create(tmp_path / "c.sqlite", "C") as d:
        for i, name in enumerate(NAMES[:8]):
            d.add_player(name, 1700 - 10 * i)
        d.new_event("DE", "double-elimination", 1)
        d.enter("DE", NAMES[:8])
        seen_playing_finalist = False
        while d.event("DE").status != "finished":
            for m in d.pair_round("DE").matches:
                d.record_result("DE", m.id, (1, 0))
                final = next(n for n in d.bracket("DE") if n.node == "W3-1")
                if final.winner is not None and d.event("DE").status != "finished":
                    loser = next(p for p in final.players if p != final.winner)
                    status = {s.name: s.status for s in d.standings("DE")}[loser]
                    assert status == "playing"
                    seen_playing_finalist = True
        assert seen_playing_finalist
        rows = d.standings("DE")
        reach = {}
        stage = {n.node: n.stage for n in d.bracket("DE") if n.flight != "last-chance"}
        for m in d.matches("DE"):
            for p in m.players:
                if p:
                    reach[p] = max(reach.get(p, 0), stage[m.node])
        eliminated = [reach[r.name] for r in rows if r.status == "eliminated"]
        assert eliminated == sorted(eliminated, reverse=True) and len(set(eliminated)) > 1


def test_the_audit_log_replays_the_evening(tmp_path):
    from bgboard.club import evening
    from bgboard.club.operations import replay_audit

    with Director.create(tmp_path / "a.sqlite", "C") as d:
        for i, name in enumerate(NAMES):
            d.add_player(name, 1700 - 10 * i)
        evening.edit_player(d, "Ivy", "Ivy B", 1750)
        d.new_event("S", "swiss", 1, rounds=2)
        evening.configure(d, "S", check_in=True, entry_fee="5", payout="60,40", rake=10)
        evening.check_in(d, "S", ["Ann", "Bob", "Cleo", "Dev", "Ivy B"])
        evening.check_in(d, "S", ["Dev"], undo=True)
        evening.close_check_in(d, "S")
        for m in d.pair_round("S").matches:
            d.record_result("S", m.id, (1, 0))
        evening.late_entry(d, "S", "Gus", 0.5)
        evening.set_backup_dir(d, str(tmp_path / "auto"))
        for m in d.pair_round("S").matches:
            d.record_result("S", m.id, (0, 1))
        assert d.event("S").status == "finished"
        copy = replay_audit(d.audit(), tmp_path / "b.sqlite")
        with copy:
            assert copy.standings("S") == d.standings("S")
            assert copy.ratings() == d.ratings()
            assert evening.payouts(copy, "S") == evening.payouts(d, "S")
            assert evening.payouts(d, "S")["pot"] == 22.5


@pytest.mark.slow
@given(st.integers(3, 14), st.integers(1, 6), st.booleans(), st.randoms(use_true_random=False))
def test_late_bracket_entrants_leave_a_bracket_that_plays_out(tmp_path_factory, n, late, double, rnd):
    """Whatever the field and however many come late (each taking a bye or refused), the
    event plays to its champion: a double elimination in 2m - 3 matches, a single one in
    m - 1, m the final field; the audit log replays to the same standings."""
    from bgboard.club import evening
    from bgboard.club.operations import replay_audit
    from bgboard.errors import InputError

    fmt = "double-elimination" if double else "single-elimination"
    path = tmp_path_factory.mktemp("late") / "c.sqlite"
    names = [f"P{i}" for i in range(n + late)]
    with Director.create(path, "C") as d:
        for i, name in enumerate(names):
            d.add_player(name, 1800 - i)
        d.new_event("E", fmt, 1)
        d.enter("E", names[:n])
        d.pair_round("E")
        taken = 0
        for name in names[n:]:
            try:
                evening.late_entry(d, "E", name)
                taken += 1
            except InputError as exc:
                assert "no first-round bye left" in str(exc)
        assert taken == len(d.event("E").players) - n
        while d.event("E").status != "finished":
            for m in d.matches("E"):
                if m.status == "pending":
                    d.record_result("E", m.id, (1, 0) if rnd.random() < 0.5 else (0, 1))
            if d.event("E").status != "finished":
                d.pair_round("E")
        m = len(d.event("E").players)
        played = [x for x in d.matches("E") if x.status in ("finished", "forfeit")]
        assert len(played) == (2 * m - 3 if double and m > 2 else m - 1)
        assert sorted(x.number for x in d.matches("E") if x.status != "bye") == list(range(1, len(played) + 1))
        with replay_audit(d.audit(), path.with_name("copy.sqlite")) as copy:
            assert copy.standings("E") == d.standings("E")


def test_exports_write_whole_numbers_and_the_draw_as_a_bracket(db, capsys, tmp_path):
    ok(capsys, "event", "new", "Cup", "--format", "double-elimination", "--length", "1")
    ok(capsys, "event", "enter", "Cup", *NAMES[:8])
    play_out(capsys, "Cup")
    ok(capsys, "export", "Cup", "--out", str(tmp_path / "out"))
    standings = (tmp_path / "out" / "standings.csv").read_text()
    assert ".0," not in standings and ".0\n" not in standings
    draw = (tmp_path / "out" / "draw.html").read_text()
    assert draw.count('class="sheet-bracket"') == 2 and "Consolation flight" in draw
    assert "<style>" in draw and "@page { size: landscape" in draw      # a file: its style inline
    assert (tmp_path / "out" / "slips.html").is_file()


def test_suggested_commands_quote_the_event_name_so_they_run(tmp_path):
    import shlex

    from bgboard.errors import InputError

    with Director.create(tmp_path / "c.sqlite", "C") as d:
        for name in ("Ann", "Bob"):
            d.add_player(name)
        d.new_event("Friday DE2", "single-elimination", 1)
        d.enter("Friday DE2", ["Ann", "Bob"])
        d.pair_round("Friday DE2")
        with pytest.raises(InputError) as refused:
            d.record_result("Friday DE2", 999, (1, 0))
        command = re.search(r"'(bgboard club round [^']*)'", str(refused.value)).group(1)
        assert shlex.split(command) == ["bgboard", "club", "round", "Friday DE2", "--json"]
