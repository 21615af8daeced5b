"""The club's store, SQLite against PostgreSQL (issue 36): a round's board results stored the
way ``club serve --broker`` stores them, and several processes racing to store the same ones.

    .venv/bin/python benchmarks/club_store.py [--results 200] [--procs 3] [--json]

For each store — an SQLite file in a temporary folder, a database of a private PostgreSQL
server (:class:`bgboard.store.private_postgres.PrivatePostgres`, initdb'd in a temporary folder,
Unix socket, ``fsync`` on, default ``synchronous_commit``) — a club with a Swiss event of
``2 x results`` players is paired (one match per board), and each match's result (a
self-played 1-point match with its ``.mat``) is stored through
:meth:`bgboard.club.board_tournament.ClubTournament.store`, the director's own path (result
key, savepoint, ratings, the audit row, the analysis queue's trigger):

* ``one by one``: each result in its own transaction, as results trickle in (p50 / p99 of a
  store, results per second);
* ``batch``: the whole round in one transaction, as the director stores a burst;
* ``race``: ``--procs`` processes (as many ``club serve`` on one database) store every result
  in their own order, each in its own transaction: wall time, and how many results were
  stored, duplicated (reported stored twice) and lost (none may be).

``--json`` prints a last line ``{"sqlite": {...}, "postgresql": {...}}`` with those figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any


def make_club(db: Any, boards: int) -> list[Any]:
    from bgboard.club.director import Director

    with Director.create(db, "Store Club") as d:
        names = [f"Player {i:03d}" for i in range(2 * boards)]
        for i, name in enumerate(names):
            d.add_player(name, 1500 + i)
        d.new_event("Friday", "swiss", 1, rounds=1)
        d.enter("Friday", names)
        return d.pair_round("Friday").matches


def results_for(matches: list[Any]) -> list[Any]:
    from bgboard.match import export_mat, replay
    from bgboard.match.selfplay import selfplay
    from bgboard.net.protocol import Game, Result

    out = []
    for k, m in enumerate(matches):
        actions = selfplay(1, seed=k, players=(m.players[0], m.players[1]))
        s = replay(actions)
        out.append(Result(str(uuid.uuid4()), m.board, "Friday", m.id, s.players, 1, s.score, s.winner or 0,
                          tuple(Game(g.winner, g.points, g.result) for g in s.games), export_mat(actions),
                          len(actions), 1))
    return out


def _racer(db: Any, results: list[Any], seed: int, start: Any, out: Any) -> None:
    from bgboard.club.board_tournament import ClubTournament
    from bgboard.club.director import Director

    with Director.open(db) as service:
        tournament = ClubTournament(service, busy_timeout_ms=10_000)
        mine = list(results)
        random.Random(seed).shuffle(mine)
        start.wait(120)
        out.put([(r.uuid, tournament.store([(r.board, r)])[0].status) for r in mine])


def measure(new_db: Any, boards: int, procs: int) -> dict[str, Any]:
    """The three runs on fresh clubs from ``new_db()`` (a path or an address)."""
    from bgboard.club.board_tournament import ClubTournament
    from bgboard.club.director import Director

    figures: dict[str, Any] = {}
    db = new_db()
    matches = make_club(db, boards)
    results = results_for(matches)
    with Director.open(db) as service:
        tournament = ClubTournament(service, busy_timeout_ms=10_000)
        times = []
        began = time.perf_counter()
        for r in results:
            t = time.perf_counter()
            assert tournament.store([(r.board, r)])[0].status == "stored"
            times.append(time.perf_counter() - t)
        total = time.perf_counter() - began
    q = statistics.quantiles(times, n=100)
    figures["one_by_one"] = {"p50_ms": round(1000 * q[49], 2), "p99_ms": round(1000 * q[98], 2),
                             "per_s": round(len(results) / total, 1)}
    db = new_db()
    matches = make_club(db, boards)
    results = results_for(matches)
    with Director.open(db) as service:
        tournament = ClubTournament(service, busy_timeout_ms=10_000)
        t = time.perf_counter()
        assert {o.status for o in tournament.store([(r.board, r) for r in results])} == {"stored"}
        figures["batch"] = {"s": round(time.perf_counter() - t, 3)}
    db = new_db()
    matches = make_club(db, boards)
    results = results_for(matches)
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(procs + 1), context.Queue()
    racers = [context.Process(target=_racer, args=(db, results, seed, start, out)) for seed in range(procs)]
    for p in racers:
        p.start()
    start.wait(120)
    t = time.perf_counter()
    answers = [out.get(timeout=600) for _ in racers]
    wall = time.perf_counter() - t
    for p in racers:
        p.join(60)
    stored: dict[str, int] = {}
    for answer in answers:
        for uid, status in answer:
            stored[uid] = stored.get(uid, 0) + (status == "stored")
    with Director.open(db) as d:
        finished = sum(1 for m in d.matches("Friday") if m.status == "finished")
    figures["race"] = {"procs": procs, "s": round(wall, 3), "stored": sum(stored.values()),
                       "duplicated": sum(n - 1 for n in stored.values() if n > 1),
                       "lost": len(results) - finished}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=200, help="boards, and so results in the round")
    parser.add_argument("--procs", type=int, default=3, help="processes racing to store the same results")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from bgboard.store.private_postgres import PrivatePostgres

    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bgboard-store-") as tmp:
        files = iter(range(1, 100))
        report["sqlite"] = measure(lambda: Path(tmp) / f"club{next(files)}.sqlite", args.results, args.procs)
        with PrivatePostgres() as server:
            names = iter(range(1, 100))
            report["postgresql"] = measure(lambda: server.create_database(f"club{next(names)}"), args.results,
                                           args.procs)
    for store, f in report.items():
        print(f"{store:10s} one by one: p50 {f['one_by_one']['p50_ms']} ms, p99 {f['one_by_one']['p99_ms']} ms, "
              f"{f['one_by_one']['per_s']}/s; batch of {args.results}: {f['batch']['s']} s; "
              f"race of {args.procs}: {f['race']['s']} s, stored {f['race']['stored']}, "
              f"duplicated {f['race']['duplicated']}, lost {f['race']['lost']}")
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
