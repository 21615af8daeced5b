"""Restore only what the club wrote (issue 35, defect 3): a backup with an added trigger (swapping
the winner and score of every finished match and deleting an audit row) restored with exit 0
and stayed in the live database; a file claiming schema 6 with schema-1 tables restored, then
the next command failed.  A restored file is now checked against the exact schema of the
version it claims (tables, columns, indexes, triggers; nothing that is not ours), SQLite's
integrity and foreign-key checks, then migrated forward; anything else is one sentence."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.club.db import MIGRATIONS, SCHEMA
from bgboard.club.director import Director

EVIL = """
CREATE TRIGGER swap_results AFTER UPDATE OF score_a ON matches WHEN NEW.status = 'finished'
BEGIN
    UPDATE matches SET score_a = NEW.score_b, score_b = NEW.score_a,
        winner = CASE WHEN NEW.winner = NEW.player_a THEN NEW.player_b ELSE NEW.player_a END
        WHERE id = NEW.id AND score_a = NEW.score_a;
    DELETE FROM audit WHERE id = (SELECT MAX(id) FROM audit);
END"""


def _club(tmp_path: Path) -> Path:
    db = tmp_path / "club.sqlite"
    with Director.create(db, "Restored Club") as d:
        for name in ("Anna", "Eva"):
            d.add_player(name)
        d.new_event("Friday", "round-robin", 1)
        d.enter("Friday", ["Anna", "Eva"])
        d.pair_round("Friday")
    return db


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _master(conn: sqlite3.Connection) -> set[tuple]:
    return {(t, n, tbl, " ".join((sql or "").split())) for t, n, tbl, sql in
            conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")}


def _objects(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}


def _crafted(tmp_path: Path, db: Path, sql: str, name: str = "crafted.sqlite") -> Path:
    out = tmp_path / name
    assert main(["club", "--db", str(db), "backup", "--out", str(out)]) == 0
    with sqlite3.connect(out) as conn:
        conn.executescript(sql)
    conn.close()
    return out


def _refused(code: int, err: str, *words: str) -> None:
    assert code == 2 and err.startswith("bgboard: ") and err.count("\n") == 1, (code, err)
    for word in words:
        assert word in err, err


def test_a_backup_with_a_crafted_trigger_is_refused_and_the_club_keeps_its_results(tmp_path, capsys):
    db = _club(tmp_path)
    crafted = _crafted(tmp_path, db, EVIL)
    before = _objects(db)
    code, _, err = _run(capsys, "club", "--db", str(db), "restore", str(crafted))
    _refused(code, err, "trigger 'swap_results'", "not the club's", "nothing was restored")
    assert _objects(db) == before and "swap_results" not in before
    code, out, err = _run(capsys, "club", "--db", str(db), "result", "Friday", "1", "--score", "1-0")
    assert code == 0, err
    assert "Anna 1 - 0 Eva" in out or "Eva 1 - 0 Anna" in out, out
    assert not list(tmp_path.glob(".*.restoring"))


@pytest.mark.parametrize("sql, words", [
    ("CREATE VIEW winners AS SELECT winner FROM matches;", ["view 'winners'"]),
    ("CREATE TABLE notes (x TEXT);", ["table 'notes'"]),
    ("CREATE INDEX players_rating ON players(rating);", ["index 'players_rating'"]),
    ("ALTER TABLE players ADD COLUMN secret TEXT;", ["table 'players' is not that schema's"]),
    ("DROP INDEX matches_event;", ["lacks its index 'matches_event'"]),
    ("PRAGMA foreign_keys=OFF; INSERT INTO entries (event_id, player_id, entered_at) VALUES (1, 999, 'x');",
     ["rows that point at rows it does not have"]),
])
def test_anything_that_is_not_the_clubs_schema_is_refused(tmp_path, capsys, sql, words):
    db = _club(tmp_path)
    crafted = _crafted(tmp_path, db, sql)
    before = _objects(db)
    code, _, err = _run(capsys, "club", "--db", str(db), "restore", str(crafted))
    _refused(code, err, *words)
    assert _objects(db) == before


def _schema_file(path: Path, built: int, claimed: int) -> Path:
    """A file with our migrations 1..built, a club name, and user_version ``claimed``."""
    conn = sqlite3.connect(path, isolation_level=None)
    for step in MIGRATIONS[:built]:
        if callable(step):
            step(conn)
        else:
            conn.executescript(step)
    conn.execute("INSERT INTO meta VALUES ('name', 'Old Club')")
    conn.execute(f"PRAGMA user_version = {claimed}")
    conn.close()
    return path


def test_a_file_claiming_schema_6_with_schema_1_tables_is_refused(tmp_path, capsys):
    db = _club(tmp_path)
    liar = _schema_file(tmp_path / "liar.sqlite", 1, SCHEMA)
    code, _, err = _run(capsys, "club", "--db", str(db), "restore", str(liar))
    _refused(code, err, f"claims club schema {SCHEMA}", "nothing was restored")
    code, _, err = _run(capsys, "club", "--db", str(db), "player", "list")
    assert code == 0, err


def test_an_older_club_file_is_restored_and_migrated_forward(tmp_path, capsys):
    db = _club(tmp_path)
    old = _schema_file(tmp_path / "old.sqlite", 1, 1)
    code, out, err = _run(capsys, "club", "--db", str(db), "restore", str(old))
    assert code == 0 and "Old Club" in out, err
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
        live = _master(conn)
    fresh = sqlite3.connect(":memory:")
    for step in MIGRATIONS:
        step(fresh) if callable(step) else fresh.executescript(step)
    assert live == _master(fresh)
    code, _, err = _run(capsys, "club", "--db", str(db), "player", "add", "Zoe")
    assert code == 0, err
