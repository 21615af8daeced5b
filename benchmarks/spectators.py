"""Spectators by the thousand beside a 200-board club burst, off the director's path (issue 36).

club_load.py's run (one real Mosquitto, the director ``bgboard club serve --broker --http
--gallery``, boards with the real club link in processes of their own, every board of the round
submitting its result at the same moment) with ``N`` spectators on the club's gallery: a second
Mosquitto bridged to the club's, serving the room's live boards to anonymous MQTT-over-WebSocket
clients (bgboard.net.gallery; ``--galleries N``: N of them, each bridged from the club's, the
spectators spread over them as the gallery's front does; the spectators are lean WebSocket clients that speak MQTT as a
browser's MQTT.js does on the wire, at nice 19 in 4 processes: gallery_fleet.py).  Measured: the spectators' state latency (from a board's state to each
spectator having it: p50, p99, max), the messages and bytes each spectator received, the
gallery's CPU and memory, and the burst's p99 (a result's submit to its ack) beside them.

The gallery's and the director's time spent runnable but waiting for a CPU
(/proc/PID/schedstat) says how much of the latency was the machine's other work.

``--json`` prints a last line ``{"spectators", "connected", "state_p50_s", "state_p99_s",
"before_p99_s" (the part before the director's publishing), "state_all_p99_s" (counting also
the states a message carried again: gallery_fleet.py), "delivery_p99_s", "reached_p99_s", "gallery_cpu_s", "gallery_waited_s", "burst_p50_s",
"burst_p99_s", "lost", "duplicated", "loadavg", ...}`` (issue 36's targets: ``state_p99_s`` and
``burst_p99_s`` at most 1.0 with 5,000 spectators; ``loadavg``: /proc/loadavg's three before
and three after).

Usage: .venv/bin/python benchmarks/spectators.py [--spectators 5000] [--boards 200] [--galleries 1] [--spectator-procs 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import club_load  # noqa: E402


def figure(x: float, digits: int = 3) -> float | None:
    """``x`` rounded, None when it was not measured (NaN)."""
    return None if x != x else round(x, digits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=5000)
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--spectator-procs", type=int, default=4, metavar="N")
    parser.add_argument("--board-procs", type=int, default=8, metavar="N")
    parser.add_argument("--board-nice", type=int, default=10, metavar="N",
                        help="the boards' niceness (they stand for other computers)")
    parser.add_argument("--spectator-nice", type=int, default=19, metavar="N",
                        help="the spectators' niceness (they stand for thousands of other computers)")
    parser.add_argument("--galleries", type=int, default=1, metavar="N",
                        help="N galleries (Mosquittos) bridged from the club's broker, the spectators spread over "
                             "them as the gallery's front does (leastconn)")
    parser.add_argument("--gallery-nice", type=int, default=0, metavar="N",
                        help="the gallery's niceness (beside the director on one machine: the results first)")
    parser.add_argument("--service-priority", type=int, default=0, metavar="N",
                        help="the club's broker, the director and the gallery at niceness N (below 0 as root: "
                             "on a shared machine, the club's services before the other work, as on their own machine)")
    parser.add_argument("--watch", choices=("room", "board"), default="room",
                        help="the spectators watch the whole room (its topic) or board 1 only (its page's topic)")
    parser.add_argument("--json", action="store_true", help="a last line of JSON figures")
    args = parser.parse_args()
    if args.spectators < 1 or args.boards < 1 or not 1 <= args.galleries <= 32:
        raise SystemExit(2)
    run_args = argparse.Namespace(boards=args.boards, rounds=1, length=1, flood=0, board_procs=args.board_procs,
                                  board_nice=args.board_nice, spectators=args.spectators,
                                  spectator_procs=args.spectator_procs, sse_spectators=0, json=False, watch=args.watch,
                                  gallery_nice=args.gallery_nice, galleries=args.galleries, spectator_nice=args.spectator_nice,
                                  service_priority=args.service_priority)
    load0 = Path("/proc/loadavg").read_text().split()[:3]
    with tempfile.TemporaryDirectory() as tmp:
        run = club_load.burst(Path(tmp) / "run", run_args, 0)
    load = Path("/proc/loadavg").read_text().split()[:3]
    r = run["room"]
    print(f"{args.spectators} spectators on the gallery watching the {args.watch} ({r['connected']} connected, {r['connected_at_end']} at the end), "
          f"{args.boards} boards")
    print(f"spectators' state latency: p50 {r['state_p50_s'] * 1000:.0f} ms, p99 {r['state_p99_s'] * 1000:.0f} ms, "
          f"max {r['state_max_s'] * 1000:.0f} ms over {r['states_received']} states received; "
          f"{r['messages_min']}-{r['messages_max']} messages and {r['bytes_per_spectator'] / 1024:.0f} KiB each; "
          f"the gallery's part (from the director's publishing): p50 {r['delivery_p50_s'] * 1000:.0f} ms, "
          f"p99 {r['delivery_p99_s'] * 1000:.0f} ms")
    print(f"the part before the director's publishing: p50 {r['before_p50_s'] * 1000:.0f} ms, p99 {r['before_p99_s'] * 1000:.0f} ms; "
          f"counting also the {r['states_repeated']} states a message carried again (boards going offline): p99 "
          f"{r['state_all_p99_s'] * 1000:.0f} ms")
    print(f"the same, when the bytes reached the spectators' sockets (not waiting for their processes): p50 "
          f"{r['reached_p50_s'] * 1000:.0f} ms, p99 {r['reached_p99_s'] * 1000:.0f} ms from the board's state; "
          f"p50 {r['reached_delivery_p50_s'] * 1000:.0f} ms, p99 {r['reached_delivery_p99_s'] * 1000:.0f} ms from the director's publishing")
    print(f"the gallery: {r['gallery_cpu']:.1f} s CPU and {r['gallery_waited']:.1f} s waiting for one (runnable), peak "
          f"{r['gallery_kib'] / 1024:.0f} MiB; the director: {r['director_waited']:.1f} s waiting for a CPU, "
          f"{run['director_cpu']:.1f} s CPU; the club's Mosquitto: {run['broker_cpu']:.1f} s CPU; the spectators' "
          f"processes: {r['spectators_cpu']:.1f} s CPU (connecting included)")
    print(f"the burst: p50 {run['p50'] * 1000:.0f} ms, p99 {run['p99'] * 1000:.0f} ms; stored {run['stored']} of {args.boards}")
    print(f"load average {' '.join(load0)} before, {' '.join(load)} after (a shared machine)")
    if args.json:
        print(json.dumps({
            "spectators": args.spectators, "galleries": args.galleries, "watch": args.watch, "gallery_nice": args.gallery_nice,
            "spectator_nice": args.spectator_nice,
            "service_priority": args.service_priority, "connected": r["connected"], "connected_at_end": r["connected_at_end"],
            "state_p50_s": figure(r["state_p50_s"]), "state_p99_s": figure(r["state_p99_s"]),
            "state_max_s": figure(r["state_max_s"]), "states_received": r["states_received"],
            "delivery_p50_s": figure(r["delivery_p50_s"]), "delivery_p99_s": figure(r["delivery_p99_s"]),
            "reached_p50_s": figure(r["reached_p50_s"]), "reached_p99_s": figure(r["reached_p99_s"]),
            "reached_delivery_p99_s": figure(r["reached_delivery_p99_s"]),
            "before_p50_s": figure(r["before_p50_s"]), "before_p99_s": figure(r["before_p99_s"]),
            "states_repeated": r["states_repeated"], "state_all_p99_s": figure(r["state_all_p99_s"]),
            "bytes_per_spectator": round(r["bytes_per_spectator"]), "messages_max": r["messages_max"],
            "gallery_cpu_s": round(r["gallery_cpu"], 2),
            "gallery_waited_s": round(r["gallery_waited"], 2), "director_waited_s": round(r["director_waited"], 2), "gallery_mib": round(r["gallery_kib"] / 1024, 1),
            "director_cpu_s": round(run["director_cpu"], 2), "spectators_cpu_s": round(r["spectators_cpu"], 1),
            "boards": args.boards,
            "burst_p50_s": round(run["p50"], 3), "burst_p99_s": round(run["p99"], 3),
            "lost": args.boards - run["stored"], "duplicated": run["stored"] - run["keys"],
            "loadavg": [float(x) for x in load0 + load]}))


if __name__ == "__main__":
    main()
