"""The room's live feed under load: boards' states through the web server to many browsers.

    .venv/bin/python benchmarks/club_live.py [--boards 200] [--clients 50] [--rate 200] [--seconds 15]

A server process runs the real club web app (``bgboard.club.web``: the LiveHub, the card
fragments, sse-starlette's event streams, uvicorn) on a free localhost port and, once every
client is connected, publishes ``--rate`` board states a second for ``--seconds`` seconds,
round robin over ``--boards`` boards, each the next state of a seeded self-play match
(``bgboard.net.board_report.board_state`` of a real ``MatchState``: the message a board sends,
as the director's MQTT side hands it to the hub).  It records when each
state was published (CLOCK_MONOTONIC, shared by the processes of one machine), its CPU time
and memory over the run.

This process holds ``--clients`` lightweight Server-Sent Events clients (raw asyncio sockets,
one HTTP/1.1 GET of ``/live`` each, reading only the ``id:`` lines) and records when each
event arrives.  Latency = arrival − publish of the same hub version.  A slow client is sent
only the newest state of each board (the hub coalesces), so "delivered" can be below
"published × clients"; the newest state of every board must reach every client.

The same feed to one client runs first, in the same run, as the reference: the table gives
the ratios.  Bounded: two runs of ``--seconds`` plus set-up, all on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


# --------------------------------------------------------------------------- the server
def _payloads(boards: int, per_board: int) -> list[list[dict]]:
    from dataclasses import asdict, replace

    from bgboard.match import apply
    from bgboard.match.selfplay import selfplay
    from bgboard.net.board_report import board_state

    out = []
    for b in range(1, boards + 1):
        actions = selfplay(7, seed=b, players=(f"Player {2 * b - 1}", f"Player {2 * b}"))
        state, states = None, []
        for k, action in enumerate(actions):
            state = apply(state, action)
            if k:
                message = board_state(state, k, clocks=(840_000 - 900 * k, 840_000 - 1000 * k),
                                      clock_running=state.turn)
                states.append(asdict(replace(message, event="Benchmark open", match=b)))
            if len(states) >= per_board:
                break
        out.append(states)
    return out


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def _serve(args: argparse.Namespace) -> dict:
    from bgboard.club.live_boards import LiveHub
    from bgboard.club.web.site import Site, create_app
    from bgboard.club.web.server import serve_http

    total = int(args.rate * args.seconds)
    payloads = _payloads(args.boards, total // args.boards + 2)
    hub = LiveHub()
    for b, states in enumerate(payloads, 1):     # the room as it is when the clients arrive
        hub.update(b, states[0])
    app = create_app(Site(hub, name="Benchmark club"))
    stop = asyncio.Event()
    port = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(serve_http(app, "127.0.0.1", 0, stop=stop, on_stop=hub.close,
                                            ready=lambda h, p: port.set_result(p)))
    print(json.dumps({"port": await port}), flush=True)
    while hub.subscribers < args.clients:
        await asyncio.sleep(0.01)
    rss_before = _rss_kib()
    cpu0, wall0 = time.process_time(), time.monotonic()
    published: dict[int, int] = {}
    step = 1.0 / args.rate
    start = time.monotonic()
    for n in range(total):
        due = start + n * step
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        board = 1 + n % args.boards
        live = hub.update(board, payloads[board - 1][1 + n // args.boards])
        published[live.version] = time.monotonic_ns()
    feed_s = time.monotonic() - start
    await asyncio.sleep(2.0)                      # let the streams drain
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    last = {b: live.version for b, live in hub.snapshot().items()}
    result = {
        "published": published, "last": last, "feed_s": feed_s, "cpu_s": cpu, "wall_s": wall,
        "rss_before_kib": rss_before, "rss_after_kib": _rss_kib(),
        "max_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "renders": app.state.fragments.renders,
    }
    stop.set()
    await server
    return result


def server_main(args: argparse.Namespace) -> None:
    result = asyncio.run(_serve(args))
    print(json.dumps(result), flush=True)


# --------------------------------------------------------------------------- the clients
async def _client(port: int, arrivals: list[tuple[int, int]], connected: asyncio.Event,
                  done: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(b"GET /live?view=card&since=999999999 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Accept: text/event-stream\r\n\r\n")
    await writer.drain()
    connected.set()
    try:
        while not done.is_set():
            line = await reader.readline()
            if not line:
                break
            if line.startswith(b"id: "):
                arrivals.append((int(line[4:]), time.monotonic_ns()))
    finally:
        writer.close()


async def _run_clients(port: int, clients: int, server: subprocess.Popen) -> tuple[list[list[tuple[int, int]]], dict]:
    arrivals: list[list[tuple[int, int]]] = [[] for _ in range(clients)]
    done = asyncio.Event()
    tasks = []
    for k in range(clients):
        connected = asyncio.Event()
        tasks.append(asyncio.create_task(_client(port, arrivals[k], connected, done)))
        await connected.wait()
    loop = asyncio.get_running_loop()
    line = await loop.run_in_executor(None, server.stdout.readline)   # the server's result
    done.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return arrivals, json.loads(line)


def run_once(args: argparse.Namespace, clients: int) -> dict:
    server = subprocess.Popen(
        [sys.executable, str(HERE), "--server", "--boards", str(args.boards), "--clients", str(clients),
         "--rate", str(args.rate), "--seconds", str(args.seconds)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        port = json.loads(server.stdout.readline())["port"]
        cpu0 = time.process_time()
        arrivals, result = asyncio.run(_run_clients(port, clients, server))
        client_cpu = time.process_time() - cpu0
    finally:
        server.wait(timeout=60)
    published = {int(v): t for v, t in result["published"].items()}
    latencies = [(t - published[v]) / 1e6 for per in arrivals for v, t in per if v in published]
    newest = set(result["last"].values())
    complete = sum(1 for per in arrivals if newest <= {v for v, _ in per})
    latencies.sort()
    return {
        "clients": clients, "published": len(published), "delivered": len(latencies),
        "complete_clients": complete,
        "p50_ms": statistics.median(latencies), "p99_ms": latencies[int(0.99 * (len(latencies) - 1))],
        "max_ms": latencies[-1],
        "server_cpu_pct": 100 * result["cpu_s"] / result["wall_s"],
        "server_us_per_event": 1e6 * result["cpu_s"] / max(1, len(latencies)),
        "client_cpu_pct": 100 * client_cpu / result["wall_s"],
        "server_rss_mib": result["rss_after_kib"] / 1024, "server_max_rss_mib": result["max_rss_kib"] / 1024,
        "renders": result["renders"], "feed_s": result["feed_s"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rate", type=float, default=200.0, help="board states published a second")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.server:
        server_main(args)
        return
    print(f"{args.boards} boards, {args.rate:g} states/s for {args.seconds:g} s, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    reference = run_once(args, 1)
    loaded = run_once(args, args.clients)
    print(f"{'':28}{'1 client (ref)':>16}{f'{args.clients} clients':>14}{'ratio':>8}")
    rows = [("states published", "published", "{:.0f}"), ("events delivered", "delivered", "{:.0f}"),
            ("clients with every board's newest", "complete_clients", "{:.0f}"),
            ("p50 publish->client (ms)", "p50_ms", "{:.1f}"), ("p99 publish->client (ms)", "p99_ms", "{:.1f}"),
            ("max publish->client (ms)", "max_ms", "{:.1f}"),
            ("server CPU (% of one core)", "server_cpu_pct", "{:.0f}"),
            ("server CPU per event sent (us)", "server_us_per_event", "{:.0f}"),
            ("clients' CPU (% of one core)", "client_cpu_pct", "{:.0f}"),
            ("server RSS at end (MiB)", "server_rss_mib", "{:.1f}"),
            ("server peak RSS (MiB)", "server_max_rss_mib", "{:.1f}"),
            ("card renders", "renders", "{:.0f}")]
    for label, key, fmt in rows:
        a, b = reference[key], loaded[key]
        ratio = f"{b / a:.2f}" if a else "-"
        print(f"{label:34}{fmt.format(a):>10}{fmt.format(b):>14}{ratio:>8}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
