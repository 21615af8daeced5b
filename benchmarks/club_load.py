"""200 boards report to one director through one Mosquitto on this machine (issues 12, 25).

One real ``mosquitto`` (the club's configuration: passwords, ACL, persistence) and one real
director process (``bgboard club serve --broker``) on a club database whose Swiss event has
``2 x boards`` players, so each round puts one match on every board.  The boards are
lightweight (benchmarks/board_fleet.py): ``boards`` instances of the real board-side client
(:class:`ClubLink` with the real SQLite journal and outbox each), spread over ``--board-procs`` processes (a real club's
boards are as many computers; 1 puts them all on one event loop, as before 2026-11-26) at
``--board-nice`` (10: their CPU here stands for other computers' and must not be taken from
the director; the latency is still timed in the boards' processes, where a late wake-up only
adds to it), taking
their assignments from the director over MQTT and replaying a precomputed self-play match of
those players — its states (coalesced by the link), then the board's end-of-match work (the
replay and the ``.mat`` export) — and then **every board of the round submits its result at
the same moment** (a barrier across the board processes).

Measured: for each result the wall-clock time from ``submit_result`` (the board's outbox
write, with its fsync) to the director's ack arriving at that board (before the board's own
write that settles it: with 25 boards on one event loop, their settling writes one after
another would be counted in each other's latency), the ack being published only after the
result, the ratings and so the standings are committed in the club database (p50, p99);
results per second (from the first submit to the last ack); mosquitto's and the director's
CPU seconds and peak memory (VmHWM), the board processes' CPU seconds; lost and duplicated
results (the database against what the boards submitted).  Reference, in the same run: the
same results stored by calling the club service directly in this process (no network), as a
ratio.

With ``--flood N`` a second run (a new club, broker and director) adds one more board, with
its own credentials and in a process of its own, publishing N messages as fast as it can
(junk states and deeply nested results, QoS 1) from the moment the results are submitted:
the other boards' latencies against the first run's, without it, are what one hostile board
costs them.  ``--json`` prints a last line ``{"results", "lost", "duplicated", "p50_s",
"p99_s", ...}`` (p50/p99 of the run without the flood; ``flood_delay_p99_s`` with ``--flood``).

With ``--spectators N`` the director also serves the web pages (``--http``) and publishes the
room's live boards for the club's gallery (``--gallery``: a second Mosquitto, bridged to the
club's, with a WebSocket listener for anonymous spectators, bgboard.net.gallery), and N
spectators — MQTT-over-WebSocket clients (gallery_fleet.py: lean, as a browser on the wire) in ``--spectator-procs``
processes at ``--spectator-nice`` (19: they stand for thousands of other computers) — watch the room there through the whole run: how many
connected, the latency of the states they received (from the board's state to each spectator
having it), the bytes each got, how long ``/`` took to answer, beside the results' latencies
(issues 35, 36); with ``--galleries N`` N galleries, each bridged from the club's broker as a
user of its own, the spectators spread over them in turn (as the gallery's front spreads them,
``balance leastconn``).  ``--sse-spectators N`` holds N of the director's own ``/live`` streams
instead (16 from each loopback address 127.0.x.y, every byte read), as before the gallery.

Usage: .venv/bin/python benchmarks/club_load.py [--boards 200] [--rounds 2] [--length 1] [--board-procs 4] [--board-nice 10]
       [--flood 5000] [--spectators 2000] [--galleries 2] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.board_fleet import fleet_process, proc_figures  # noqa: E402
from bgboard.club.director import Director as Service  # noqa: E402
from bgboard.match import replay  # noqa: E402
from bgboard.match.selfplay import selfplay  # noqa: E402
from bgboard.net.broker import DIRECTOR, board_user  # noqa: E402
from bgboard.net.mosquitto import PrivateBroker  # noqa: E402
from bgboard.net.protocol import parse_broker_url  # noqa: E402
from bgboard.net.board_report import result_of  # noqa: E402

TOPIC = "load"
EVENT = "Load"


def new_club(db: Path, boards: int, rounds: int, length: int) -> list[str]:
    names = [f"P{i:04d}" for i in range(2 * boards)]
    with Service.create(db, "Load club") as s:
        for i, name in enumerate(names):
            s.add_player(name, rating=1500.0 + (i % 97))
        s.new_event(EVENT, "swiss", length, rounds=rounds)
        s.enter(EVENT, names)
        s.pair_round(EVENT)
    return names


def flood_process(url: str, board: int, password: str, count: int, go: Any, took: Any, nice: int) -> None:
    """A hostile board in a process of its own (at ``nice``, as the boards): ``count`` junk
    messages on its own topics as fast as the broker takes them, from the moment ``go`` is set;
    ``took`` gets the seconds."""
    os.nice(nice)
    from bgboard.net.mqtt_client import open_client

    async def main() -> None:
        base = f"bgboard/{TOPIC}/board/{board}"
        junk_state = b'{"v":1,"type":"state","players":["x","y"],"length":"junk"}'
        nested = ('{"v":1,"type":"result","games":' + "[" * 3000 + "]" * 3000 + "}").encode()
        async with open_client(parse_broker_url(url), username=board_user(board), password=password,
                               identifier=f"flood{board}") as client:
            await asyncio.to_thread(go.wait)
            t = time.perf_counter()
            for k in range(0, count, 100):
                await asyncio.gather(*(client.publish(f"{base}/state" if i % 2 else f"{base}/result",
                                                      junk_state if i % 2 else nested, qos=1)
                                       for i in range(k, min(count, k + 100))))
            took.value = time.perf_counter() - t

    asyncio.run(main())


def run_boards(broker: PrivateBroker, tmp: Path, boards: int, rounds: int, length: int, procs: int,
               flooding: int = 0, nice: int = 0) -> tuple[list[float], float, int, float, float]:
    """The boards in ``procs`` processes (and the flooder in one more): the latencies, the
    seconds from the first submit to the last ack, the re-sends, the flood's seconds and the
    boards' CPU seconds from the moment on."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    across, go, took = context.Barrier(procs), context.Event(), context.Value("d", -1.0)
    groups = [list(range(1 + k, boards + 1, procs)) for k in range(procs)]
    workers = []
    for k, group in enumerate(groups):
        logins = {n: broker.password(board_user(n)) for n in group}
        workers.append(context.Process(target=fleet_process, args=([(broker.url, TOPIC, logins)], rounds, length, str(tmp),
                                                                   across, go, str(tmp / f"boards{k}.json"), nice)))
    flooder = None
    if flooding:
        flooder = context.Process(target=flood_process, args=(broker.url, boards + 1, broker.password(board_user(boards + 1)),
                                                             flooding, go, took, nice))
        flooder.start()
    for w in workers:
        w.start()
    for w in workers:
        w.join(900)
        if w.exitcode != 0:
            raise SystemExit(f"a boards process ended with exit code {w.exitcode}")
    timings: list[tuple[float, float]] = []
    resent, cpu = 0, 0.0
    for k in range(procs):
        got = json.loads((tmp / f"boards{k}.json").read_text())
        timings += [(a, b) for a, b in got["timings"]]
        resent += got["resent"]
        cpu += got["cpu"]
    flood_s = 0.0
    if flooder is not None:
        flooder.join(600)
        flood_s = took.value
    wall = max(b for _, b in timings) - min(a for a, _ in timings)  # one clock: CLOCK_MONOTONIC
    return [b - a for a, b in timings], wall, resent, flood_s, cpu


def reference(tmp: Path, boards: int, length: int) -> float:
    """Results per second stored straight through the service (one round, no network)."""
    db = tmp / "reference.sqlite"
    new_club(db, boards, 1, length)
    with Service.open(db) as s:
        todo = [(a.id, a.players) for a in s.assignments(EVENT)]
        mats = {}
        for mid, players in todo:
            actions = selfplay(length, seed=mid, players=(players[0], players[1]))
            state = replay(actions)
            mats[mid] = (state.score, result_of(actions, state, uuid="0" * 8 + "-0000-4000-8000-" + f"{mid:012d}", board=1,
                                                 assignment=None, last_seq=0, finished_ms=0).mat)
        t = time.perf_counter()
        for mid, _ in todo:
            score, mat = mats[mid]
            s.record_result(EVENT, mid, score, mat=mat, result_key=f"ref-{mid}")
            s.standings(EVENT)
        return len(todo) / (time.perf_counter() - t)


def waited(pid: int) -> float:
    """Seconds a live process has spent runnable but waiting for a CPU (the kernel's
    /proc/PID/schedstat, second field): on a shared machine, what other work cost it."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def room_s(url: str) -> float:
    """Seconds for the room's page to answer."""
    import urllib.request

    t = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as response:
        response.read()
    return time.perf_counter() - t


class Spectators:
    """``count`` held ``/live`` streams on the director's pages at ``url``, read by one thread."""

    def __init__(self, url: str, count: int) -> None:
        import resource
        import selectors
        import socket
        import threading

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 1024)), hard))
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        self.selector = selectors.DefaultSelector()
        self.seated = self.refused = self.silent = 0
        self.socks = []
        for i in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.settimeout(10)
            sock.bind((f"127.0.{1 + i // 16 // 250}.{2 + (i // 16) % 250}", 0))
            sock.connect((host, int(port)))
            sock.sendall(f"GET /live HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
            try:
                head = sock.recv(4096)
            except TimeoutError:
                head = b""
            if head.startswith(b"HTTP/1.1 200"):
                self.seated += 1
                sock.setblocking(False)
                self.selector.register(sock, selectors.EVENT_READ)
                self.socks.append(sock)
            else:
                self.refused += head.startswith(b"HTTP/1.1 503")
                self.silent += not head
                sock.close()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stopping.is_set():
            for key, _ in self.selector.select(0.2):
                try:
                    key.fileobj.recv(65536)  # type: ignore[union-attr]
                except OSError:
                    pass

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        for sock in self.socks:
            sock.close()


def burst(tmp: Path, args: argparse.Namespace, flood: int) -> dict[str, Any]:
    """One run on a new club, broker and director: every figure of it."""
    tmp.mkdir()
    db = tmp / "club.sqlite"
    new_club(db, args.boards, args.rounds, args.length)
    galleries_n = max(1, getattr(args, "galleries", 1))
    broker = PrivateBroker(tmp / "broker", TOPIC, range(1, args.boards + 2), galleries=galleries_n)  # the last: the flooder
    broker.start()
    assert broker.process is not None
    http = ["--http", "127.0.0.1:0"] if args.spectators or args.sse_spectators else []
    galleries: list[Any] = []
    if args.spectators:   # each its own Mosquitto bridged from the club's (the spectators spread over them)
        for n in range(1, galleries_n + 1):
            galleries.append(broker.gallery(tmp / f"gallery{n}", max_spectators=args.spectators // galleries_n + 100,
                                            nice=getattr(args, "gallery_nice", 0), n=n))
            galleries[-1].start()
        http += ["--gallery", galleries[0].url]
    gallery = galleries[0] if galleries else None
    director = subprocess.Popen(
        [sys.executable, "-m", "bgboard", "club", "--db", str(db), "serve", "--broker", broker.url, "--topic", TOPIC,
         "--password-file", str(broker.password_file(DIRECTOR)), *http],
        stdout=subprocess.PIPE if http else subprocess.DEVNULL, stderr=open(tmp / "director.log", "w"), text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "host")),
    )
    priority = getattr(args, "service_priority", 0)
    if priority:   # the club's own services before the rest of a shared machine's work (root only below 0)
        for process in (broker.process, director, *(g.process for g in galleries)):
            if process is not None:
                os.setpriority(os.PRIO_PROCESS, process.pid, priority)
    spectators, fleet, url, room, watched = None, None, "", {}, {}
    try:
        if http:
            assert director.stdout is not None
            while "web pages on" not in (line := director.stdout.readline()):
                if not line:
                    raise SystemExit("the director ended before serving its pages")
            url = "http://127.0.0.1:" + line.rsplit(":", 1)[1].strip().rstrip("/")
            if args.sse_spectators:
                spectators = Spectators(url, args.sse_spectators)
                room = {"seated": spectators.seated, "refused": spectators.refused, "silent": spectators.silent}
            if gallery is not None:
                from gallery_fleet import Fleet
                from bgboard.net.gallery import board_topic, room_topic

                watch = room_topic(TOPIC) if getattr(args, "watch", "room") == "room" else board_topic(TOPIC, 1)
                fleet = Fleet("127.0.0.1", [g.port for g in galleries], watch, args.spectators, args.spectator_procs,
                              getattr(args, "spectator_nice", 19), tmp)
                room = {"connected": fleet.start()}
            room["room_s_before"] = room_s(url + "/")
        time.sleep(3.0)  # the director connects and starts its checking workers
        b0, d0 = proc_figures(broker.process.pid), proc_figures(director.pid)
        pids = [g.process.pid for g in galleries if g.process is not None]
        g0 = [proc_figures(pid) for pid in pids]
        gw0, dw0 = [waited(pid) for pid in pids], waited(director.pid)
        latencies, wall, resent, flood_s, boards_cpu = run_boards(broker, tmp, args.boards, args.rounds, args.length,
                                                                  args.board_procs, flood, args.board_nice)
        b1, d1 = proc_figures(broker.process.pid), proc_figures(director.pid)
        if pids:
            time.sleep(1.5)  # the last tick's states reach the spectators
            g1 = [proc_figures(pid) for pid in pids]
            room.update(gallery_cpu=sum(b[0] - a[0] for a, b in zip(g0, g1)), gallery_kib=sum(b[1] for b in g1),
                        gallery_waited=sum(waited(pid) - w for pid, w in zip(pids, gw0)),
                        director_waited=waited(director.pid) - dw0)
        if http:
            room["room_s_after"] = room_s(url + "/")
    finally:
        try:
            if spectators is not None:
                spectators.close()
            if fleet is not None:
                watched = fleet.stop()
        finally:
            director.terminate()
            director.wait(30)
            for g in galleries:
                g.stop()
            broker.stop()
    print((tmp / "director.log").read_text()[-1500:], file=sys.stderr)
    with sqlite3.connect(db) as c:
        stored, keys = c.execute(
            "SELECT COUNT(*), COUNT(DISTINCT result_key) FROM matches WHERE result_key IS NOT NULL").fetchone()
    q = statistics.quantiles(latencies, n=100, method="inclusive")  # (exclusive puts p99 past the max)
    if watched:
        seen = watched["latencies"]
        w = statistics.quantiles(seen, n=100, method="inclusive") if len(seen) > 1 else [float("nan")] * 99
        d = watched["delivery"]
        dq = statistics.quantiles(d, n=100, method="inclusive") if len(d) > 1 else [float("nan")] * 99
        room.update(delivery_p50_s=dq[49], delivery_p99_s=dq[98], spectators_cpu=watched["cpu"])
        for key, values in (("reached", watched["reached"]), ("reached_delivery", watched["reached_delivery"]),
                            ("before", watched["before"]), ("state_all", seen + watched["repeated"])):
            rq = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else [float("nan")] * 99
            room.update({f"{key}_p50_s": rq[49], f"{key}_p99_s": rq[98]})
        room.update(connected_at_end=watched["connected_at_end"], states_received=len(seen),
                    states_repeated=len(watched["repeated"]),
                    state_p50_s=w[49], state_p99_s=w[98], state_max_s=max(seen, default=float("nan")),
                    messages_min=min(watched["received"], default=0), messages_max=max(watched["received"], default=0),
                    bytes_per_spectator=statistics.mean(watched["bytes"]) if watched["bytes"] else 0)
    return {"latencies": latencies, "p50": q[49], "p99": q[98], "max": max(latencies), "wall": wall, "resent": resent,
            "flood_s": flood_s, "stored": stored, "keys": keys, "broker_cpu": b1[0] - b0[0], "broker_kib": b1[1],
            "director_cpu": d1[0] - d0[0], "director_kib": d1[1], "boards_cpu": boards_cpu, "room": room}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--length", type=int, default=1)
    parser.add_argument("--flood", type=int, default=0, metavar="N",
                        help="a second run in which one more board floods N junk messages (the first has no flood)")
    parser.add_argument("--board-procs", type=int, default=8, metavar="N",
                        help="the simulated boards run in N processes (1: all in one, as before 2026-11-26)")
    parser.add_argument("--board-nice", type=int, default=10, metavar="N",
                        help="the simulated boards and the flooder run at this niceness (they stand for other computers)")
    parser.add_argument("--spectators", type=int, default=0, metavar="N",
                        help="N spectators watch the room on the club's gallery (MQTT over WebSocket) throughout")
    parser.add_argument("--spectator-procs", type=int, default=4, metavar="N",
                        help="the spectators run in N processes")
    parser.add_argument("--spectator-nice", type=int, default=19, metavar="N",
                        help="the spectators' niceness (they stand for thousands of other computers)")
    parser.add_argument("--galleries", type=int, default=1, metavar="N",
                        help="N galleries bridged from the club's broker, the spectators spread over them")
    parser.add_argument("--gallery-nice", type=int, default=0, metavar="N",
                        help="the gallery's niceness (beside the director on one machine: the results first)")
    parser.add_argument("--sse-spectators", type=int, default=0, metavar="N",
                        help="N spectators hold the director's own /live stream throughout (the path before the gallery)")
    parser.add_argument("--json", action="store_true", help="a last line of JSON figures")
    args = parser.parse_args()
    load0 = Path("/proc/loadavg").read_text().split()[:3]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        runs = [burst(tmp / "quiet", args, 0)]
        if args.flood:
            runs.append(burst(tmp / "flood", args, args.flood))
        ref = reference(tmp, args.boards, args.length)
    submitted = args.boards * args.rounds
    print(f"boards {args.boards} (in {args.board_procs} process(es), nice {args.board_nice}), rounds {args.rounds}, {args.length}-point matches: "
          f"{submitted} results a run")
    for run, title in zip(runs, ["no flood", f"one board flooding {args.flood} junk messages meanwhile"]):
        rate = submitted / run["wall"]
        print(f"-- {title}: {run['wall']:.1f} s from the first submit to the last ack")
        print(f"results/s through MQTT: {rate:.1f}; straight into the club service: {ref:.1f}; ratio {rate / ref:.2f}")
        print(f"submit -> stored and acked: p50 {run['p50'] * 1000:.0f} ms, p99 {run['p99'] * 1000:.0f} ms, "
              f"max {run['max'] * 1000:.0f} ms")
        print(f"mosquitto: {run['broker_cpu']:.1f} s CPU, peak {run['broker_kib'] / 1024:.1f} MiB; director (main process): "
              f"{run['director_cpu']:.1f} s CPU, peak {run['director_kib'] / 1024:.1f} MiB; boards: {run['boards_cpu']:.1f} s CPU "
              "from the moment to the last ack")
        print(f"stored {run['stored']} of {submitted} (lost {submitted - run['stored']}), distinct result keys {run['keys']} "
              f"(duplicated {run['stored'] - run['keys']}); re-sends before an ack {run['resent']}")
        if run["room"]:
            r = run["room"]
            if "seated" in r:
                print(f"spectators on /live: {r['seated']} seated, {r['refused']} told the room is full, {r['silent']} unanswered")
            if "connected" in r:
                print(f"spectators on the gallery: {r['connected']} connected ({r['connected_at_end']} at the end); "
                      f"states received {r['states_received']}: p50 {r['state_p50_s'] * 1000:.0f} ms, p99 "
                      f"{r['state_p99_s'] * 1000:.0f} ms, max {r['state_max_s'] * 1000:.0f} ms from the board's state "
                      f"(from the director's publishing: p50 {r['delivery_p50_s'] * 1000:.0f} ms, p99 {r['delivery_p99_s'] * 1000:.0f} ms); "
                      f"reaching their sockets: p50 {r['reached_p50_s'] * 1000:.0f} ms, p99 {r['reached_p99_s'] * 1000:.0f} ms "
                      f"(from the director's publishing: p99 {r['reached_delivery_p99_s'] * 1000:.0f} ms); "
                      f"{r['messages_min']}-{r['messages_max']} messages, {r['bytes_per_spectator'] / 1024:.0f} KiB each; "
                      f"gallery {r['gallery_cpu']:.1f} s CPU, peak {r['gallery_kib'] / 1024:.0f} MiB")
            print(f"'/' answered in {r['room_s_before'] * 1000:.0f} ms before the results, {r['room_s_after'] * 1000:.0f} ms after")
        if run["flood_s"]:
            print(f"the flooding board published its {args.flood} messages in {run['flood_s']:.1f} s")
    figures: dict[str, Any] = {}
    if args.flood:
        quiet, flooded = runs
        figures = {"flood_p50_s": round(flooded["p50"], 3), "flood_p99_s": round(flooded["p99"], 3),
                   "flood_delay_p50_s": round(flooded["p50"] - quiet["p50"], 3),
                   "flood_delay_p99_s": round(flooded["p99"] - quiet["p99"], 3), "flood_publish_s": round(flooded["flood_s"], 2)}
        print(f"the flood's cost to the other boards' results: p50 {figures['flood_delay_p50_s'] * 1000:+.0f} ms, "
              f"p99 {figures['flood_delay_p99_s'] * 1000:+.0f} ms")
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"load average {' '.join(load0)} before, {' '.join(load)} after (a shared machine)")
    if args.json:
        first = runs[0]
        print(json.dumps({"results": submitted * len(runs), "lost": sum(submitted - r["stored"] for r in runs),
                          "duplicated": sum(r["stored"] - r["keys"] for r in runs),
                          "p50_s": round(first["p50"], 3), "p99_s": round(first["p99"], 3), "max_s": round(first["max"], 3),
                          "resent": sum(r["resent"] for r in runs), **figures,
                          **({"spectators": {k: round(v, 3) if isinstance(v, float) else v for k, v in runs[0]["room"].items()}}
                             if runs[0]["room"] else {}), "board_procs": args.board_procs, "board_nice": args.board_nice,
                          "reference_per_s": round(ref, 1), "loadavg": [float(x) for x in load0 + load]}))


if __name__ == "__main__":
    main()
