"""The director service over a real SQLite club database."""

import sqlite3

import pytest

from bgboard.club.db import SCHEMA, Club
from bgboard.club.director import Director
from bgboard.club.operations import replay_audit
from bgboard.club.ratings import Rating, fibs_change
from bgboard.errors import InputError

from tests.club.conftest import selfplay_mat


def _field(club, n=4, fmt="single-elimination", length=3, **kw):
    names = [f"P{i:02d}" for i in range(1, n + 1)]
    for i, name in enumerate(names):
        club.add_player(name, rating=1600 - 10 * i)
    club.new_event("E", fmt, length, **kw)
    club.enter("E", names)
    return names


@pytest.mark.parametrize("store", ["sqlite"])  # PostgreSQL's: tests/club/test_postgres_store.py
def test_database_is_wal_versioned_and_refuses_a_newer_schema(tmp_path, club):
    assert club.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert club.club.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
    path = club.club.path
    club.close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    raw.close()
    with pytest.raises(InputError, match="upgrade bgboard"):
        Club(path)
    with pytest.raises(InputError, match="no club database"):
        Director.open(tmp_path / "missing.sqlite")


def test_an_older_database_is_migrated_keeping_its_rows(tmp_path):
    from bgboard.club import db as clubdb

    path = tmp_path / "old.sqlite"
    raw = sqlite3.connect(path)
    raw.executescript(clubdb.MIGRATIONS[0] + "; PRAGMA user_version = 1;")
    raw.execute("INSERT INTO meta VALUES ('name', 'Old Club')")
    raw.commit()
    raw.close()
    with Director.open(path) as d:
        assert d.club.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA == 7
        assert d.club_name() == "Old Club"
        assert d.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'matches_event_status'").fetchone()
        assert d.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'analyses'").fetchone()


def test_a_refused_change_leaves_nothing_behind(club):
    club.add_player("Ann")
    with pytest.raises(InputError, match="no player 'Zed'"):
        club.new_event("E", "swiss", 5) and club.enter("E", ["Ann", "Zed"])
    assert club.event("E").players == []          # Ann's entry was rolled back with Zed's
    assert [a.action for a in club.audit()] == ["init", "player_add", "event_new"]


def test_seeding_by_rating_and_boards(club):
    _field(club, 4)
    r = club.pair_round("E")
    assert [m.players for m in r.matches] == [["P01", "P04"], ["P02", "P03"]]
    assert sorted(m.board for m in r.matches) == [1, 2] and r.byes == []


def test_result_with_a_key_is_stored_once(club):
    _field(club, 2)
    m = club.pair_round("E").matches[0]
    first = club.record_result("E", m.id, (3, 1), result_key="uuid-1", actor="board 1")
    again = club.record_result("E", m.id, (3, 1), result_key="uuid-1", actor="board 1")
    assert first == again
    with pytest.raises(InputError, match="already recorded"):
        club.record_result("E", m.id, (1, 3), result_key="uuid-1")
    with pytest.raises(InputError, match="already has a result"):
        club.record_result("E", m.id, (3, 0), result_key="uuid-2")
    assert [a.action for a in club.audit("E")].count("result") == 1
    assert club.ratings()[0].name == "P01"


def test_a_board_report_after_a_hand_entry_is_accepted_when_it_agrees(club):
    _field(club, 2)
    m = club.pair_round("E").matches[0]
    mat, (a, b) = selfplay_mat(3, 7, m.players)
    club.record_result("E", m.id, (a, b), actor="director")           # the board was offline
    with pytest.raises(InputError, match="already has a result"):
        club.record_result("E", m.id, (b, a), result_key="board-uuid")
    club.record_result("E", m.id, (a, b), mat=mat, result_key="board-uuid", actor="board 1")
    assert club.match_record(m.id) == mat
    club.record_result("E", m.id, (a, b), result_key="board-uuid")    # resent: no-op
    assert [x.action for x in club.audit("E")][-2:] == ["result", "result_key"]
    assert len(club.rating_history("P01")) == 1                        # rated once


def test_a_mat_is_replayed_and_must_end_at_the_reported_score(club):
    _field(club, 2)
    m = club.pair_round("E").matches[0]
    mat, (a, b) = selfplay_mat(3, 7, m.players)
    with pytest.raises(InputError, match="not stored"):
        club.record_result("E", m.id, (b, a), mat=mat)
    with pytest.raises(InputError, match="cannot be replayed"):
        club.record_result("E", m.id, (a, b), mat=mat.replace("Game 1", "Gme 1").replace(" 3 point match", " x"))
    # a play that cannot be made (no checker on White's 20-point at the start): refused
    assert "  1) 61: 13/7 8/7                51:" in mat
    broken = mat.replace("  1) 61: 13/7 8/7                51:", "  1) 61: 20/14 8/7               51:")
    with pytest.raises(InputError, match="cannot be replayed.*line 6"):
        club.record_result("E", m.id, (a, b), mat=broken)
    assert club.match(m.id).status == "pending"
    club.record_result("E", m.id, (a, b), mat=mat)
    assert club.match_record(m.id) == mat


def test_bad_scores_are_one_sentence(club):
    _field(club, 2, length=5)
    m = club.pair_round("E").matches[0]
    for score in ("5-5", "3-2", "x", "5-"):
        with pytest.raises(InputError):
            club.record_result("E", m.id, score)
    with pytest.raises(InputError, match="no match 99"):
        club.record_result("E", 99, "5-1")


def test_correction_re_derives_ratings_exactly(club, tmp_path):
    _field(club, 2)
    m = club.pair_round("E").matches[0]
    club.record_result("E", m.id, (3, 1))
    won = {p.name: p.rating for p in club.ratings()}
    club.correct_result("E", m.id, (1, 3), reason="scores swapped")
    swapped = {p.name: p.rating for p in club.ratings()}
    # as if P02 had won from the start: the same arithmetic from the starting ratings
    gain, loss = fibs_change(Rating(1590.0, 0), Rating(1600.0, 0), 3)
    assert swapped == {"P01": 1600.0 - loss, "P02": 1590.0 + gain}
    club.correct_result("E", m.id, (3, 1), reason="first was right")
    assert {p.name: p.rating for p in club.ratings()} == won
    entry = club.audit("E")[-1]
    assert entry.action == "correct" and entry.before["score"] == [1, 3] and entry.after["score"] == [3, 1]
    history = club.rating_history("P01")
    assert len(history) == 1 and history[0]["rating_after"] == won["P01"]


def test_forfeit_withdraw_penalty_go_through_the_audit_log(club):
    _field(club, 4, fmt="swiss", rounds=2)
    r = club.pair_round("E", actor="Tom")
    club.forfeit("E", r.matches[0].id, r.matches[0].players[1], "no-show", actor="Tom")
    club.withdraw("E", r.matches[1].players[0], "went home", actor="Tom")
    club.penalty("E", "P01", 2, "late", actor="Tom")
    log = club.audit("E")
    assert [a.action for a in log] == ["enter", "pair_round", "forfeit", "withdraw", "penalty"]
    assert all(a.actor == "Tom" for a in log[1:])
    st = {s.name: s for s in club.standings("E")}
    assert st["P01"].points_against == 2 and st["P01"].tiebreaks["penalty_points"] == 2
    assert st[r.matches[1].players[0]].status == "withdrawn"
    nxt = club.pair_round("E")
    assert r.matches[1].players[0] not in [p for m in nxt.matches for p in m.players] + nxt.byes


def test_replaying_the_audit_log_gives_the_same_standings_and_ratings(club, tmp_path):
    _field(club, 5, fmt="double-elimination", consolation_length=1)
    while club.event("E").status != "finished":
        for m in club.pair_round("E").matches:
            club.record_result("E", m.id, (m.length, 0) if m.id % 3 else (0, m.length))
    first = next(m for m in club.matches("E") if m.score)
    club.correct_result("E", first.id, tuple(first.score), reason="confirm")
    copy = replay_audit(club.audit(), tmp_path / "copy.sqlite")
    assert copy.standings("E") == club.standings("E")
    assert copy.ratings() == club.ratings()
