"""Fault tests with real processes on a real Mosquitto: the director (``bgboard club serve
--broker``) killed with SIGKILL mid-round and started again, a board (``bgboard sim --club``)
killed with SIGKILL mid-match and started again — every result is stored exactly once and every
match record equals the record of the same match played without interruption."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgboard.club.director import Director as Service
from bgboard.net.broker import DIRECTOR, board_user
from bgboard.net.mosquitto import PrivateBroker
from bgboard.sim.clubboard import match_seed
from bgboard.sim.modelled_board import Options, Simulation
from bgboard.sim.records import write_mat
from tests.net.club_harness import new_club, standings_from_mats, mat_results
from tests.net.conftest import CLUB
from tests.support import wait_until as wait

BGBOARD = [sys.executable, "-m", "bgboard"]


def director_proc(broker: PrivateBroker, db: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*BGBOARD, "club", "--db", str(db), "serve", "--broker", broker.url, "--topic", CLUB,
         "--password-file", str(broker.password_file(DIRECTOR))],
        stdout=open(log, "ab"), stderr=subprocess.STDOUT,
    )


def board_proc(broker: PrivateBroker, n: int, tmp: Path) -> subprocess.Popen[bytes]:
    conf = tmp / f"board{n}.toml"
    conf.write_text(
        f'[club]\nbroker = "{broker.url}"\nclub = "{CLUB}"\nboard = {n}\n'
        f'password_file = "{broker.password_file(board_user(n))}"\n'
    )
    return subprocess.Popen(
        [*BGBOARD, "sim", "--club", str(conf), "--out", str(tmp / f"board{n}"), "--matches", "1",
         "--illegal-rate", "0", "--noise", "none"],
        stdout=open(tmp / f"board{n}.log", "ab"), stderr=subprocess.STDOUT,
    )


def finished(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'").fetchone()[0])


def actions_in(board_dir: Path) -> int:
    """Match actions journalled by the board's club match so far (the board's one journal, as
    the app keeps it: the seat's rows, then the assigned match's actions after its "new" row)."""
    for j in board_dir.glob("journal.sqlite"):
        try:
            with sqlite3.connect(j) as c:
                return int(c.execute("SELECT COUNT(*) FROM journal WHERE kind = 'action' AND seq > "
                                     "(SELECT COALESCE(MAX(seq), 0) FROM journal WHERE kind = 'new')").fetchone()[0])
        except sqlite3.Error:
            return 0
    return 0


@pytest.mark.slow
def test_director_and_board_killed_mid_round_lose_and_double_nothing(tmp_path: Path, broker: PrivateBroker) -> None:
    db = tmp_path / "club.sqlite"
    matches = new_club(db, length=3)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        director = director_proc(broker, db, tmp_path / "director.log")
        boards = {n: board_proc(broker, n, tmp_path) for n in range(1, 9)}
        procs += [director, *boards.values()]
        wait(lambda: actions_in(tmp_path / "board3") >= 10, 60, "board 3 to be mid-match")
        boards[3].send_signal(signal.SIGKILL)  # a board dies mid-match (power cut) ...
        boards[3].wait()
        wait(lambda: finished(db) >= 1, 120, "a first result")
        director.send_signal(signal.SIGKILL)
        at_kill = finished(db)  # ... and the director's laptop too, mid-round
        director.wait()
        time.sleep(1.0)
        boards[3] = board_proc(broker, 3, tmp_path)  # both come back
        director = director_proc(broker, db, tmp_path / "director.log")
        procs += [boards[3], director]
        for n, p in boards.items():
            assert p.wait(240) == 0, (tmp_path / f"board{n}.log").read_text()[-2000:]
        wait(lambda: finished(db) == 8, 120, "every result")
        director.send_signal(signal.SIGTERM)
        assert director.wait(60) == 0, (tmp_path / "director.log").read_text()[-2000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()

    assert 1 <= at_kill < 8  # the director died with results still to come
    results = mat_results(tmp_path)
    with Service.open(db) as s:
        played = {m.id: m for m in s.matches("Friday")}
        keys = s.db.execute("SELECT COUNT(*), COUNT(DISTINCT result_key) FROM matches WHERE result_key IS NOT NULL").fetchone()
        standings = {st.name: (st.wins, st.losses) for st in s.standings("Friday")}
    assert tuple(keys) == (8, 8)
    assert len(list(tmp_path.glob("board*/matches/*/match.mat"))) == 8  # board 3 resumed its match, not a new one
    assert {n: v for n, v in standings.items() if v != (0, 0)} == standings_from_mats(results)
    # every record equals the record of the same match played without interruption
    for m in matches:
        info = played[m.id]
        assert info.status == "finished" and results[(info.players[0], info.players[1])] == tuple(info.score)
        clean = tmp_path / "clean" / str(m.id)
        sim = Simulation(Options(3, match_seed("Friday", m.id), players=(m.players[0], m.players[1])), clean)
        sim.run()
        write_mat(sim.actions, clean / "match.mat")
        sim.close()
        [board_mat] = list((tmp_path / f"board{m.board}").glob("matches/*/match.mat"))
        assert board_mat.read_text() == (clean / "match.mat").read_text()
