"""Every club's evening reaches the federation exactly once (issue 36): N clubs, one federation.

A private PostgreSQL (``initdb``/``pg_ctl`` in a temporary folder), the federation's Mosquitto
and the federation service (``bgboard federation serve``, a child process), and for each of
``--clubs`` clubs its own Mosquitto bridged to the federation's (the bridge ``bgboard federation
join`` writes), its SQLite database (``2 x boards`` players linked to federation members, a
pool shared between clubs so members play at several; a Swiss event of ``--rounds``) and its
own director process, as a club runs it: ``bgboard club serve --broker`` with
``--feed-password-file`` (the boards' assignments and results, every stored result sent to the
federation: club/federation_feed.py).  Every club plays its evening at once on its ``--boards``
boards: lightweight boards (benchmarks/board_fleet.py, as club_load.py's: the real board-side
``ClubLink`` with its SQLite journal and outbox, replaying a precomputed self-play match under
the players assigned), spread over ``--board-procs`` processes at ``--board-nice``, take their
assignments from their club's director over MQTT, play each match for 0.5 to 1.5 x
``--match-s`` seconds and submit its result; the director stores it, acks it and pairs the
next round.  Boards on the modelled firmware (``bgboard sim --club``) are not affordable here:
a 1-point match on the modelled board costs 1.8-2.2 s CPU (``bgboard sim --model-firmware
--match-length 1``, seeds 1 and 2), so 20 clubs x 10 boards x 3 rounds would be ~20 CPU
minutes on a shared 2-core machine, against ~3 s for these boards (docs/performance.md).

Measured: for each result the wall-clock time from the club's commit (first seen in the club's
database by a watcher polling every 50 ms: the club keeps its times to the second) to the
federation's (PostgreSQL's ``clock_timestamp()`` of the insert; the same machine's clock) —
p50, p99, max; beside it from the board's submit to the federation's commit and to the
director's ack at the board; results stored, lost (a club's result the federation does not
have), duplicated (rows beyond one per club and result id, or rows no club stored); whether
the federation's rating list equals what one club computes from the union of the results
(federation/local_rig.py's ``union_ratings``: the club's own ``rating_store.recompute``); CPU
seconds of the directors (with their analysis workers), brokers, service and boards.

``--service-path`` plays the evening without boards or directors, as before 2026-11-29: each
match's result stored by the club's own service in this process (a result key; ``--pace``
seconds between a club's results), the clubs' feeds on this process's loop.

``--chaos`` kills, mid-evening, with SIGKILL and restarts: one club's Mosquitto (its queued
bridge messages are lost: the feed sends again), the federation's Mosquitto (every bridge
down), the federation service (``kill -9``: unacked messages come again from its persistent
session) and the PostgreSQL server (``PrivatePostgres.kill()``: the service retries).

``--burst N`` then measures the federation's own intake alone: N results published at once
straight to the federation's broker as one club's bridge would deliver them (QoS 1), timed
from the first publish to the last row committed (the main figures are taken before it).

``--ratings N`` measures only the rating list, on N synthetic results of 300 members (no
evening): kept up to date one result at a time (federation/rating_list.py's ``RatingBook``, as
the portal does) against rated again from scratch for each (as it did before), and the cost of
a result arriving late.

Usage: .venv/bin/python benchmarks/federation.py --ratings 20000
       .venv/bin/python benchmarks/federation.py [--clubs 20] [--boards 10] [--rounds 3] [--length 1]
       [--match-s 3] [--board-procs 4] [--board-nice 10] [--service-path [--pace 0.3]] [--chaos] [--burst 5000] [--json]
The last line with --json: {"clubs", "boards", "results", "stored", "lost", "duplicated", "p99_s", "ratings_equal"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.board_fleet import fleet_process, proc_figures  # noqa: E402
from bgboard.errors import InputError  # noqa: E402
from bgboard.club.director import Director  # noqa: E402
from bgboard.federation.ledger import Ledger  # noqa: E402
from bgboard.federation.local_rig import EVENT, LocalFederation, union_ratings  # noqa: E402
from bgboard.federation.rating_list import rating_list  # noqa: E402
from bgboard.store.private_postgres import PrivatePostgres  # noqa: E402


def tree_cpu(pid: int) -> float:
    """CPU seconds of a live process and its live children (a director's analysis workers)."""
    total = proc_figures(pid)[0]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += proc_figures(int(stat.parent.name))[0]
        except (OSError, ValueError, StopIteration):
            continue
    return total


def say(text: str) -> None:
    print(text, flush=True)



async def settle(fed, most_s: float) -> None:
    """Wait (at most ``most_s``) until every club has the federation's answer to every result."""
    deadline = time.monotonic() + most_s
    while time.monotonic() < deadline:
        waiting = sum(await asyncio.gather(*(asyncio.to_thread(s.unanswered) for s in fed.sites)))
        if waiting == 0:
            return
        await asyncio.sleep(0.5)

async def wind_down(fed: LocalFederation, args: argparse.Namespace, done: asyncio.Event,
                    chaos_task: "asyncio.Task[None] | None", t0: float) -> float:
    """After the evening is played: stop the chaos (waiting for its last restart), wait until
    every club's results have settled at the federation; the seconds since ``t0``."""
    done.set()
    if chaos_task is not None:
        await chaos_task
    await settle(fed, args.settle)
    return time.monotonic() - t0


async def chaos(fed: LocalFederation, pg: PrivatePostgres, done: asyncio.Event, log: list[str]) -> None:
    """Kill and restart, one after another, while the evening is being played (on a thread of
    its own: the clubs' evenings hold theirs)."""
    t0 = time.monotonic()
    own = ThreadPoolExecutor(1, thread_name_prefix="chaos")
    loop = asyncio.get_running_loop()

    async def step(after: float, what: str, kill: Any, start: Any, down_s: float) -> None:
        await asyncio.sleep(max(0.0, t0 + after - time.monotonic()))
        if done.is_set():
            log.append(f"{what}: the evening was over first")
            return
        await loop.run_in_executor(own, kill)
        log.append(f"{time.monotonic() - t0:5.1f} s: killed {what}")
        await asyncio.sleep(down_s)
        await loop.run_in_executor(own, start)
        log.append(f"{time.monotonic() - t0:5.1f} s: {what} started again")

    club = fed.sites[0]
    await step(2.0, f"club {club.name}'s Mosquitto", club.broker.kill, club.broker.start, 2.0)
    await step(6.0, "the federation's Mosquitto", fed.home.broker.kill, fed.home.broker.start, 2.0)
    await step(10.0, "the federation service (kill -9)", fed.kill_service, fed.start_service, 1.0)
    await step(14.0, "the PostgreSQL server", pg.kill, pg.start, 2.0)


async def evening(fed: LocalFederation, pg: PrivatePostgres, args: argparse.Namespace,
                  committed: dict[str, float]) -> dict[str, Any]:
    feeds = [site.start_feed(resend_s=args.resend) for site in fed.sites]
    tasks = [asyncio.ensure_future(f.run()) for f in feeds]
    done = asyncio.Event()
    chaos_log: list[str] = []
    chaos_task = asyncio.ensure_future(chaos(fed, pg, done, chaos_log)) if args.chaos else None
    t0 = time.monotonic()

    def club_evening(i: int) -> int:
        rng = random.Random(1000 + i)
        return sum(fed.sites[i].play_round(rng, committed, args.pace) for _ in range(args.rounds))

    # one thread per club (asyncio's default pool has only cores + 4: the clubs would take turns)
    clubs = ThreadPoolExecutor(len(fed.sites), thread_name_prefix="club")
    loop = asyncio.get_running_loop()
    try:
        played = await asyncio.gather(*(loop.run_in_executor(clubs, club_evening, i) for i in range(len(fed.sites))))
        played_s = time.monotonic() - t0
        settled_s = await wind_down(fed, args, done, chaos_task, t0)
    finally:
        done.set()
        for f in feeds:
            f.stop()
        await asyncio.gather(*tasks)
        if chaos_task is not None:
            chaos_task.cancel()
            await asyncio.gather(chaos_task, return_exceptions=True)
    counts: dict[str, int] = {}
    for f in feeds:
        for k, v in f.counts.items():
            counts[k] = counts.get(k, 0) + v
    return {"played": sum(played), "played_s": played_s, "settled_s": settled_s, "feeds": counts, "chaos": chaos_log}


def watch_clubs(fed: LocalFederation, seen: dict[str, float], done: asyncio.Event, every_s: float = 0.05) -> None:
    """When each club's result was first seen committed in its database (match UUID -> wall
    clock): the club commits it at most one poll (``every_s`` and the reads) earlier.  The
    club database keeps its times to the second, too coarse for this."""
    import sqlite3

    conns = [sqlite3.connect(f"file:{site.db}?mode=ro", uri=True, timeout=5) for site in fed.sites]
    try:
        while not done.is_set():
            for conn in conns:
                try:
                    rows = conn.execute("SELECT uuid FROM matches WHERE status IN ('finished', 'forfeit')").fetchall()
                except sqlite3.OperationalError:
                    continue  # busy: the next poll
                at = time.time()
                for (uuid,) in rows:
                    seen.setdefault(uuid, at)
            time.sleep(every_s)
    finally:
        for conn in conns:
            conn.close()


def run_fleet(fed: LocalFederation, tmp: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Every club's boards, spread over ``--board-procs`` processes (at ``--board-nice``: they
    stand for other computers), each board playing ``--rounds`` matches of its club's evening;
    their wall-clock (submit, ack) times by result UUID, re-sends and CPU seconds."""
    import multiprocessing

    from bgboard.net.broker import board_user

    context = multiprocessing.get_context("spawn")
    seats = [(site, n) for n in range(1, args.boards + 1) for site in fed.sites]
    workers = []
    for k in range(args.board_procs):
        clubs = []
        for site in fed.sites:
            logins = {n: site.broker.password(board_user(n)) for s, n in seats[k::args.board_procs] if s is site}
            if logins:
                clubs.append((site.broker.url, site.name, logins))
        workers.append(context.Process(target=fleet_process, args=(clubs, args.rounds, args.length, str(tmp), None, None,
                                                                   str(tmp / f"boards{k}.json"), args.board_nice, args.match_s)))
    for w in workers:
        w.start()
    for w in workers:
        w.join(1800)
        if w.exitcode != 0:
            raise SystemExit(f"a boards process ended with exit code {w.exitcode}")
    acks: dict[str, tuple[float, float]] = {}
    resent, cpu = 0, 0.0
    for k in range(args.board_procs):
        got = json.loads((tmp / f"boards{k}.json").read_text())
        acks.update({u: (a, b) for u, (a, b) in got["acks"].items()})
        resent += got["resent"]
        cpu += got["cpu"]
    return {"acks": acks, "resent": resent, "boards_cpu": cpu}


async def evening_boards(fed: LocalFederation, pg: PrivatePostgres, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Every club's evening played by its boards through its director (see the docstring)."""
    for site in fed.sites:
        site.start_director()
    done = asyncio.Event()
    chaos_log: list[str] = []
    chaos_task = asyncio.ensure_future(chaos(fed, pg, done, chaos_log)) if args.chaos else None
    seen: dict[str, float] = {}
    watching = threading.Thread(target=watch_clubs, args=(fed, seen, done), name="watch", daemon=True)
    watching.start()
    t0 = time.monotonic()
    try:
        fleet = await asyncio.to_thread(run_fleet, fed, tmp, args)
        played_s = time.monotonic() - t0
        settled_s = await wind_down(fed, args, done, chaos_task, t0)
        cpu = {"directors": 0.0, "club_brokers": 0.0, "federation_service": 0.0, "federation_broker": 0.0}
        for site in fed.sites:
            if site.director is not None:
                cpu["directors"] += tree_cpu(site.director.pid)
            if site.broker.process is not None:
                cpu["club_brokers"] += proc_figures(site.broker.process.pid)[0]
        if fed.service is not None:
            cpu["federation_service"] = proc_figures(fed.service.pid)[0]
        if fed.home.broker.process is not None:
            cpu["federation_broker"] = proc_figures(fed.home.broker.process.pid)[0]
    finally:
        done.set()
        for site in fed.sites:
            site.stop_director()
        if chaos_task is not None:
            chaos_task.cancel()
            await asyncio.gather(chaos_task, return_exceptions=True)
    watching.join(5)
    return {"played_s": played_s, "settled_s": settled_s, "chaos": chaos_log, "cpu": cpu, "seen": seen, **fleet}


async def burst(fed: LocalFederation, url: str, n: int) -> tuple[float, int]:
    """Publish ``n`` new results as club ``fed.sites[0]``'s bridge would; (seconds until the
    federation has committed them all, rows added)."""
    import uuid

    from bgboard.federation.bridge_conf import club_user
    from bgboard.net.mqtt_client import open_client
    from bgboard.net.protocol import parse_broker_url
    from bgboard.net.results_feed import ClubResult, encode_result, result_topic

    club = fed.sites[0].name
    ledger = Ledger(url)
    before = ledger.count()
    payloads = [encode_result(ClubResult(str(uuid.uuid4()), club, "Burst", i + 1, ("A", "B"), (f"B{i % 500:04d}", f"B{(i + 7) % 500:04d}"),
                                         5, (5, 2), 0, True, i + 1, "2026-12-31T23:00:00+00:00")) for i in range(n)]
    client = open_client(parse_broker_url(fed.home.broker.url), username=club_user(club),
                         password=fed.home.broker.password(club_user(club)), identifier=f"burst-{club}")
    async with client:
        t = time.monotonic()
        for p in payloads:
            await client.publish(result_topic(club), p, qos=1)
        while ledger.count() < before + n and time.monotonic() < t + 300:
            await asyncio.sleep(0.05)
        took = time.monotonic() - t
    added = ledger.count() - before
    ledger.close()
    return took, added


def rating_figures(count: int, as_json: bool, load0: list[str]) -> None:
    """The rating list kept one result at a time against rated from scratch (``--ratings``)."""
    import random as rnd

    from bgboard.federation.rating_list import RatingBook
    from bgboard.federation.stored_result import StoredResult

    rng = rnd.Random(36)
    members = [f"M{i:04d}" for i in range(300)]
    results = []
    for n in range(count):
        a, b = rng.sample(members, 2)
        at = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(1_795_000_000 + n * 7))
        results.append(StoredResult(f"c{n % 20:02d}", f"{n:08d}-0000-4000-8000-000000000000", "Club night",
                                    (a, b), (a, b), rng.choice([1, 3, 5, 7]), None, rng.randrange(2), True, n, at))
    book = RatingBook()
    t = time.perf_counter()
    for r in results:
        book.add(r)
    in_order_s = time.perf_counter() - t
    t = time.perf_counter()
    full = rating_list(results)
    scratch_s = time.perf_counter() - t
    assert (book.lines(), book.steps()) == full
    late = RatingBook(results[:-101] + results[-100:])   # one result arrives 100 results late
    t = time.perf_counter()
    late.add(results[-101])
    late_s = time.perf_counter() - t
    assert (late.lines(), late.steps()) == full
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"{count} results, 300 members: kept one at a time {in_order_s / count * 1e6:.1f} µs a result in the order "
          f"played ({count / in_order_s:,.0f}/s); rated again from scratch {scratch_s * 1000:.0f} ms for all of them "
          f"(what each new result cost before); one result 100 late: {late_s * 1000:.2f} ms (100 rated again); "
          f"equal to the list from scratch: True")
    print(f"load average {' '.join(load0)} before, {' '.join(load)} after (a shared machine)")
    if as_json:
        print(json.dumps({"results": count, "in_order_us_per_result": round(in_order_s / count * 1e6, 2),
                          "from_scratch_s": round(scratch_s, 4), "late_by_100_ms": round(late_s * 1000, 3),
                          "equal": True, "loadavg": [float(x) for x in load0 + load]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=20)
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--length", type=int, default=1)
    parser.add_argument("--service-path", action="store_true",
                        help="no boards and no directors: each club's service stores its results in this process (the old run)")
    parser.add_argument("--match-s", type=float, default=3.0, help="a board's match lasts 0.5 to 1.5 x this many seconds")
    parser.add_argument("--board-procs", type=int, default=4, metavar="N", help="the boards run in N processes")
    parser.add_argument("--board-nice", type=int, default=10, metavar="N",
                        help="the boards run at this niceness (they stand for other computers)")
    parser.add_argument("--pace", type=float, default=0.3, help="with --service-path: seconds between two results of one club")
    parser.add_argument("--resend", type=float, default=5.0, help="a feed sends an unanswered result again after this")
    parser.add_argument("--settle", type=float, default=180.0, help="how long to wait for the last answers")
    parser.add_argument("--chaos", action="store_true", help="kill and restart brokers, the service and PostgreSQL")
    parser.add_argument("--burst", type=int, default=0, metavar="N", help="then N results straight into the federation's broker")
    parser.add_argument("--ratings", type=int, default=0, metavar="N",
                        help="only the rating list: N results kept one at a time against rated from scratch")
    parser.add_argument("--json", action="store_true", help="a last line of JSON figures")
    args = parser.parse_args()
    load0 = Path("/proc/loadavg").read_text().split()[:3]
    if args.ratings:
        rating_figures(args.ratings, args.json, load0)
        return
    clubs = [f"c{i:02d}" for i in range(args.clubs)]
    players = 2 * args.boards
    pool = max(players, (args.clubs * players * 3) // 4)  # a quarter of the players play at two clubs
    committed: dict[str, float] = {}  # club match UUID -> when the club had stored it (the ack at the board, or the commit)
    submitted: dict[str, float] = {}  # club match UUID -> when its board submitted it
    acked: dict[str, float] = {}  # club match UUID -> when the director's ack reached its board
    with tempfile.TemporaryDirectory(prefix="bgboard-federation-") as tmp_name, \
            PrivatePostgres() as pg:
        tmp = Path(tmp_name)
        (tmp / "boards").mkdir()
        url = pg.create_database("federation")
        t = time.monotonic()
        fed = LocalFederation(tmp / "run", url, clubs, args.boards)
        fed.start()  # first: the ports chosen are taken at once
        try:  # a club the options cannot make (too many rounds): no broker left running
            for site in fed.sites:
                site.make_club(players, pool, args.length, args.rounds)
                if not args.service_path:  # round 1 starts the evening; the director pairs the next ones
                    with Director.open(site.db) as d:
                        d.pair_round(EVENT)
        except BaseException:
            fed.stop()
            raise
        say(f"{args.clubs} clubs x {args.boards} boards, {args.rounds} rounds of {args.length}-point matches, "
            f"{players} players a club from {pool} members; set up in {time.monotonic() - t:.1f} s"
            + (" -- with chaos" if args.chaos else ""))
        try:
            if args.service_path:
                run = asyncio.run(evening(fed, pg, args, committed))
            else:
                run = asyncio.run(evening_boards(fed, pg, args, tmp / "boards"))
                for site in fed.sites:  # the board's result UUID is the club's result key
                    for key, match in site.result_keys().items():
                        if key in run["acks"]:
                            submitted[match], acked[match] = run["acks"][key]
                committed.update(run["seen"])
            for line in run["chaos"]:
                say(f"chaos {line}")
            ledger = Ledger(url)
            try:
                results = ledger.results()
                times = ledger.stored_times()
            finally:
                ledger.close()
            expected = {(s.name, u) for s in fed.sites for u in s.stored_uuids()}
            union = union_ratings(tmp / "union.sqlite", results)
            burst_figures = asyncio.run(burst(fed, url, args.burst)) if args.burst else None
        finally:
            fed.stop()
    keys = {(r.club, r.id) for r in results}
    lost = len(expected - keys)
    duplicated = (len(results) - len(keys)) + len(keys - expected)
    uuid_club = {u: c for c, u in expected}
    latencies = sorted(max(0.0, times[(uuid_club[u], u)] - at) for u, at in committed.items()
                       if (uuid_club.get(u), u) in times)
    p = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) >= 2 else [0.0] * 99
    lines, _ = rating_list(results)
    ours = {line.member: line.rating for line in lines}
    equal = set(ours) == set(union) and all(abs(ours[m] - union[m]) < 1e-9 for m in ours)
    say(f"results: {len(expected)} stored by the clubs in {run['played_s']:.1f} s "
        f"({len(expected) / run['played_s']:.1f}/s), every answer back after {run['settled_s']:.1f} s")
    if args.service_path:
        say(f"club commit -> federation commit: p50 {p[49] * 1000:.0f} ms, p99 {p[98] * 1000:.0f} ms, "
            f"max {latencies[-1] * 1000 if latencies else 0:.0f} ms")
        f = run["feeds"]
        say(f"federation: {len(results)} rows, lost {lost}, duplicated {duplicated}; feeds sent {f['sent']}, "
            f"sent again {f['resent']}; answers stored {f['stored']}, duplicate {f['duplicate']}, refused {f['refused']}")
    else:
        whole = sorted(max(0.0, times[(uuid_club[u], u)] - at) for u, at in submitted.items() if (uuid_club.get(u), u) in times)
        w = statistics.quantiles(whole, n=100, method="inclusive") if len(whole) >= 2 else [0.0] * 99
        say(f"boards: {len(run['acks'])} of {args.clubs * args.boards * args.rounds} results acked by their directors, "
            f"re-sent before an ack {run['resent']}")
        say(f"club commit (first seen in its database) -> federation commit: p50 {p[49] * 1000:.0f} ms, "
            f"p99 {p[98] * 1000:.0f} ms, max {latencies[-1] * 1000 if latencies else 0:.0f} ms")
        say(f"board submit -> federation commit: p50 {w[49] * 1000:.0f} ms, p99 {w[98] * 1000:.0f} ms, "
            f"max {whole[-1] * 1000 if whole else 0:.0f} ms")
        ack = sorted(acked[u] - submitted[u] for u in acked)
        a = statistics.quantiles(ack, n=100, method="inclusive") if len(ack) >= 2 else [0.0] * 99
        say(f"board submit -> director's ack at the board: p50 {a[49] * 1000:.0f} ms, p99 {a[98] * 1000:.0f} ms")
        c = run["cpu"]
        say(f"CPU seconds: {args.clubs} directors {c['directors']:.1f} (with their analysis workers), {args.clubs} club brokers "
            f"{c['club_brokers']:.1f}, federation service {c['federation_service']:.1f}, federation broker "
            f"{c['federation_broker']:.1f}, boards {run['boards_cpu']:.1f} (in {args.board_procs} processes)")
        say(f"federation: {len(results)} rows, lost {lost}, duplicated {duplicated}")
    say(f"rating list: {len(lines)} members, equal to one club rating the union: {equal}")
    t = time.perf_counter()
    rating_list(results * max(1, 100_000 // max(1, len(results))))
    per_s = len(results) * max(1, 100_000 // max(1, len(results))) / (time.perf_counter() - t)
    say(f"the rating list derived again from scratch: {per_s:,.0f} results/s (pure Python, one core)")
    if burst_figures is not None:
        took, added = burst_figures
        say(f"burst: {added} of {args.burst} results committed by the federation in {took:.1f} s "
            f"({added / took:.0f} results/s through its broker, service and PostgreSQL)")
    load = Path("/proc/loadavg").read_text().split()[:3]
    say(f"load average {' '.join(load0)} before, {' '.join(load)} after (a shared machine)")
    if args.json:
        say(json.dumps({"clubs": args.clubs, "boards": args.boards, "results": len(expected), "stored": len(keys & expected),
                        "lost": lost, "duplicated": duplicated, "p99_s": round(p[98], 3), "ratings_equal": equal}))


if __name__ == "__main__":
    try:
        main()
    except InputError as exc:  # e.g. more Swiss rounds than the clubs' players allow: one sentence
        print(f"federation.py: {exc}", file=sys.stderr)
        sys.exit(2)
