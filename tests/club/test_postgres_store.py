"""The club's store on PostgreSQL (issue 36): what is PostgreSQL's own beside the suite's
tests that run on both stores (tests/club/conftest.py's ``store``): several real processes
storing the same results once each, a change pushed by LISTEN/NOTIFY, the schema's version
and its refusals, ``--db`` addresses that are wrong or whose server is not there, and a club
moved SQLite -> PostgreSQL -> SQLite unchanged."""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
import subprocess
import sys
import uuid as uuids

import pytest

from bgboard.club import postgres_store
from bgboard.club.backup import backup, check_club_file, restore
from bgboard.club.board_tournament import ClubTournament
from bgboard.club.db import SCHEMA, Club, schema_objects, schema_of
from bgboard.club.director import Director
from bgboard.errors import EXIT_ENVIRONMENT, EXIT_INPUT, InputError
from bgboard.net.protocol import Game, Result
from tests.club.conftest import selfplay_mat
from tests.support import wait_until

PROCESSES = 3


def bgboard(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgboard", *args], text=True, capture_output=True, timeout=60)


def a_result(match, seed: int) -> Result:
    mat, score = selfplay_mat(1, seed, (match.players[0], match.players[1]))
    return Result(str(uuids.uuid4()), match.board, match.event, match.id, (match.players[0], match.players[1]), 1,
                  score, 0 if score[0] > score[1] else 1, (Game(0, 1, "single"),), mat, 10, 1)


def _serve_results(url: str, results: list[Result], seed: int, start, out) -> None:
    """One ``club serve`` process's director side: the same results as every other process,
    in its own order, each in its own transaction (as boards re-send them)."""
    with Director.open(url) as service:
        tournament = ClubTournament(service)
        mine = list(results)
        random.Random(seed).shuffle(mine)
        start.wait(60)
        outcomes = [(r.uuid, tournament.store([(r.board, r)])[0].status) for r in mine]
    out.put(outcomes)


@pytest.mark.parametrize("isolation", ["read committed", "repeatable read"])
def test_several_processes_store_each_result_exactly_once(postgres_url, isolation):
    """Also where the server's default isolation is repeatable read: a change's snapshot taken
    before its lock was granted would miss the previous writer's result."""
    conn = postgres_store.connect(postgres_url)
    conn.execute_plain(f"ALTER DATABASE {conn.execute_plain('SELECT current_database()').fetchone()[0]} "
                       f"SET default_transaction_isolation = '{isolation}'")
    conn.close()
    with Director.create(postgres_url, "Race Club") as d:
        names = [f"P{i:02d}" for i in range(16)]
        for name in names:
            d.add_player(name)
        d.new_event("Friday", "swiss", 1, rounds=1)
        d.enter("Friday", names)
        matches = d.pair_round("Friday").matches
    results = [a_result(m, 10 + i) for i, m in enumerate(matches)]
    # a second result for one match under another id: the first stored wins, the other is refused
    results.append(a_result(matches[0], 99))
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(PROCESSES), context.Queue()
    workers = [context.Process(target=_serve_results, args=(postgres_url, results, seed, start, out))
               for seed in range(PROCESSES)]
    for w in workers:
        w.start()
    answers = [out.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    by_uuid: dict[str, list[str]] = {}
    for answer in answers:
        for uuid, status in answer:
            by_uuid.setdefault(uuid, []).append(status)
    late = results[-1].uuid
    first = {r.uuid for r in results[:-1]}
    for uuid, statuses in by_uuid.items():
        assert len(statuses) == PROCESSES
        if uuid in first and uuid != results[0].uuid:
            assert sorted(statuses) == ["duplicate"] * (PROCESSES - 1) + ["stored"], (uuid, statuses)
    # the match with two results: one of them stored once (then duplicates), the other refused by all
    pair = by_uuid[results[0].uuid] + by_uuid[late]
    assert sorted(pair) == ["duplicate"] * (PROCESSES - 1) + ["refused"] * PROCESSES + ["stored"], pair
    with Director.open(postgres_url) as d:
        assert [m.status for m in d.matches("Friday")] == ["finished"] * len(matches)
        rows = d.db.execute("SELECT COUNT(*), COUNT(DISTINCT rated_seq), COUNT(DISTINCT result_key) FROM matches"
                            " WHERE status = 'finished'").fetchone()
        assert tuple(rows) == (len(matches),) * 3
        results_logged = d.db.execute("SELECT COUNT(*) FROM audit WHERE action = 'result'").fetchone()[0]
        assert results_logged == len(matches)
        assert d.db.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0] == 2 * len(matches)


def test_a_change_by_another_program_is_pushed_by_notify(postgres_url):
    with Director.create(postgres_url, "Notify Club") as d:
        for name in ("Ann", "Bob", "Cleo", "Dev"):
            d.add_player(name)
        d.new_event("Friday", "single-elimination", 1)
        d.enter("Friday", ["Ann", "Bob", "Cleo", "Dev"])
    with Director.open(postgres_url) as service:
        tournament = ClubTournament(service)
        assert tournament.changed() is False            # listening from now on
        tournament.pair()                               # nothing running yet: no change made
        assert tournament.changed() is False
        with Director.open(postgres_url) as other:      # the director's 'club round' elsewhere
            other.pair_round("Friday")
        wait_until(tournament.changed, timeout=10, what="the NOTIFY of the new round")
        assert tournament.changed() is False            # each change is heard once
        [a, _] = tournament.assignments()
        match = next(m for m in service.matches("Friday") if m.id == a.match)
        assert tournament.report(a.board, a_result(match, 5)).status == "stored"
        assert tournament.changed() is False            # its own change is not another program's


def test_a_change_wakes_the_director_at_once_without_its_watch(postgres_url):
    """What makes the push a push: ``ClubTournament.watch`` calls the director back from the
    server's NOTIFY, with nothing asking the database in between."""
    import threading

    with Director.create(postgres_url, "Wake Club") as d:
        for name in ("Ann", "Bob"):
            d.add_player(name)
        d.new_event("Friday", "single-elimination", 1)
        d.enter("Friday", ["Ann", "Bob"])
    with Director.open(postgres_url) as service:
        woken = threading.Event()
        unwatch = ClubTournament(service).watch(woken.set)
        try:
            assert not woken.wait(0.5)                  # nothing changed: nothing heard (no poll)
            with Director.open(postgres_url) as other:
                other.pair_round("Friday")
            assert woken.wait(30), "the NOTIFY never woke the director"
        finally:
            unwatch()


def test_the_schema_version_is_kept_and_a_newer_or_foreign_database_refused(postgres_url, private_postgres):
    with Club(postgres_url, create=True) as club:
        assert club.postgres and club.conn.execute("SELECT version FROM club_schema").fetchone()[0] == SCHEMA
        club.conn.execute("UPDATE club_schema SET version = ?", (SCHEMA + 1,))
    with pytest.raises(InputError, match="upgrade bgboard"):
        Club(postgres_url)
    with pytest.raises(InputError, match="a club already exists"):
        Club(postgres_url, create=True)
    empty = private_postgres.create_database("empty_one")
    with pytest.raises(InputError, match="no club in the database"):
        Club(empty)
    foreign = private_postgres.create_database("foreign_one")
    conn = postgres_store.connect(foreign)
    conn.execute("CREATE TABLE orders (id INTEGER)")
    conn.close()
    with pytest.raises(InputError, match="not a bgboard club database"):
        Club(foreign)
    with pytest.raises(InputError, match="holds other tables"):
        Club(foreign, create=True)


def test_names_are_unique_without_regard_to_case_as_in_sqlite(postgres_url):
    with Director.create(postgres_url, "Case Club") as d:
        d.add_player("Ann")
        with pytest.raises(InputError, match="already"):
            d.add_player("ANN")
        assert [p.name for p in d.players()] == ["Ann"]
        d.new_event("Friday", "swiss", 1)
        d.enter("friday", ["ann"])                     # found as SQLite's NOCASE finds it
        assert d.event("FRIDAY").players == ["Ann"]


def test_a_bad_address_is_exit_2_and_a_server_not_there_exit_69(tmp_path, private_postgres):
    for bad, why in (("postgresql://u@/db?nonsense=1", "is not a PostgreSQL address"),
                     ("postgresql://u@host/", "names no database")):
        done = bgboard("club", "--db", bad, "ratings")
        assert done.returncode == EXIT_INPUT and done.stderr.count("\n") == 1, done.stderr
        assert "Traceback" not in done.stderr and why in done.stderr
    missing = private_postgres.url("no_such_database")        # a server there, a database not
    done = bgboard("club", "--db", missing, "ratings")
    assert done.returncode == EXIT_INPUT and done.stderr.count("\n") == 1, done.stderr
    assert "does not exist" in done.stderr and "createdb" in done.stderr
    for gone in (f"postgresql://club:secret@/club?host={tmp_path}",     # no server's socket there
                 f"postgresql://club@/club?host={tmp_path}&password=secret"):
        done = bgboard("club", "--db", gone, "ratings")
        assert done.returncode == EXIT_ENVIRONMENT and done.stderr.count("\n") == 1, done.stderr
        assert "cannot be reached" in done.stderr and "secret" not in done.stderr, done.stderr


def test_a_club_moves_from_sqlite_to_postgresql_and_back_unchanged(finished_club, postgres_url, tmp_path):
    restore(finished_club, postgres_url)
    with Director.open(postgres_url) as d:
        d.add_player("Zoe")                             # new ids follow the restored ones
        assert d.db.execute("SELECT id FROM players WHERE name = 'Zoe'").fetchone()[0] == 1 + d.db.execute(
            "SELECT MAX(id) FROM players WHERE name <> 'Zoe'").fetchone()[0]
        d.db.execute("DELETE FROM players WHERE name = 'Zoe'")
    back = backup(postgres_url, tmp_path / "back.sqlite")
    assert check_club_file(back) == check_club_file(finished_club)     # the restore guard's checks
    one, two = sqlite3.connect(finished_club), sqlite3.connect(back)
    assert schema_objects(two) == schema_of(SCHEMA) == schema_objects(one)
    for (table,) in one.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if table != "audit":
            assert one.execute(f'SELECT * FROM "{table}" ORDER BY 1, 2').fetchall() == \
                two.execute(f'SELECT * FROM "{table}" ORDER BY 1, 2').fetchall(), table
    assert two.execute("SELECT COUNT(*) FROM audit").fetchone()[0] == one.execute(
        "SELECT COUNT(*) FROM audit").fetchone()[0] + 1     # Zoe's addition (her removal was raw SQL)
    one.close()
    two.close()


def test_a_restarted_server_costs_one_failed_try_and_nothing_stored_twice():
    """The PostgreSQL server killed (kill -9) and started again under ``club serve``'s director
    side: the next store fails (the boards' results wait and are retried, as for a locked
    SQLite file), the one after opens the club again and stores; the lost NOTIFY connection
    is made again and counts as a change (what changed meanwhile was not heard)."""
    from bgboard.store.private_postgres import PrivatePostgres

    with PrivatePostgres(durable=False) as server:  # its own server, killed: not the one the other tests share
        url = server.create_database("restarted")
        with Director.create(url, "Restart Club") as d:
            for name in ("Ann", "Bob", "Cleo", "Dev"):
                d.add_player(name)
            d.new_event("Friday", "swiss", 1, rounds=1)
            d.enter("Friday", ["Ann", "Bob", "Cleo", "Dev"])
            a, b = d.pair_round("Friday").matches
        with Director.open(url) as service:
            tournament = ClubTournament(service)
            assert tournament.changed() is False
            assert tournament.report(a.board, a_result(a, 1)).status == "stored"
            server.kill()
            server.start()
            second = a_result(b, 2)
            with pytest.raises(sqlite3.OperationalError):
                tournament.store([(b.board, second)])
            assert tournament.store([(b.board, second)])[0].status == "stored"
            assert tournament.store([(b.board, second)])[0].status == "duplicate"
            answers = [tournament.changed() for _ in range(3)]  # the lost listener found and made again
            assert answers[0] is True and answers[-1] is False, answers
        with Director.open(url) as d:
            assert [m.status for m in d.matches("Friday")] == ["finished", "finished"]


def test_without_psycopg_a_postgresql_address_is_one_sentence_naming_the_extra():
    done = subprocess.run([sys.executable, "-c", "import sys; sys.modules['psycopg'] = None\n"
                           "from bgboard.cli import main\nsys.exit(main(['club', '--db', 'postgresql://x@/y', 'ratings']))"],
                          text=True, capture_output=True, timeout=60)
    assert done.returncode == EXIT_ENVIRONMENT and done.stderr.count("\n") == 1, done.stderr
    assert "pip install 'bgboard[postgres]'" in done.stderr and "Traceback" not in done.stderr
