"""Where one gallery Mosquitto stops: its CPU per delivered message and per byte (issue 36's plan
for 100,000 spectators, docs/club-network.md).

A club broker and its gallery (bgboard.net.gallery), ``--spectators`` real MQTT-over-WebSocket
clients on the gallery (gallery_fleet.py, at ``--nice``) watching the room's topic, and the
director's user publishing ``--messages`` ticks of ``--boards`` boards each (a real board's
compact state, about 350 bytes, in the director's compressed room messages,
bgboard.club.web.live_wire) at ``--rate`` ticks a second on the club broker.  Measured: the gallery's CPU seconds, the messages and bytes it delivered
(CPU µs per message and ns per byte), and each message's delivery latency (from the publish to
each spectator having it, p50/p99).

Usage: .venv/bin/python benchmarks/gallery_fanout.py [--spectators 2000] [--boards 1] [--messages 50] [--rate 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from club_load import TOPIC, proc_figures  # noqa: E402
from gallery_fleet import Fleet  # noqa: E402

from bgboard.club.live_boards import LiveHub  # noqa: E402
from bgboard.club.web.live_wire import compact, room_messages  # noqa: E402
from bgboard.match import apply  # noqa: E402
from bgboard.match.selfplay import selfplay  # noqa: E402
from bgboard.net.board_report import board_state  # noqa: E402
from bgboard.net.broker import DIRECTOR  # noqa: E402
from bgboard.net.gallery import room_topic  # noqa: E402
from bgboard.net.mosquitto import PrivateBroker  # noqa: E402


def boards(count: int) -> list[dict]:
    """``count`` boards' compact states, mid-match, each its own players and position (a room's
    boards compress less than copies of one would)."""
    hub = LiveHub()
    out = []
    for n in range(1, count + 1):
        actions = selfplay(5, seed=n, players=(f"Anna Lindqvist {n}", f"Eva Marquardt {n}"))
        state = None
        for action in actions[:10 + n % 30]:
            state = apply(state, action)
        assert state is not None
        live = hub.update(n, {**vars_of(board_state(state, int(time.time() * 1000)))})
        out.append(compact(live))
    return out


def vars_of(state: object) -> dict:
    from dataclasses import asdict

    return asdict(state)  # type: ignore[call-overload]


def main() -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--boards", type=int, default=1, help="boards in each room message")
    parser.add_argument("--messages", type=int, default=50)
    parser.add_argument("--rate", type=float, default=2.0, help="room messages a second")
    parser.add_argument("--procs", type=int, default=4)
    parser.add_argument("--nice", type=int, default=10, help="the spectators' niceness")
    parser.add_argument("--gallery-nice", type=int, default=0, metavar="N", help="the gallery's niceness")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load0 = Path("/proc/loadavg").read_text().split()[:3]
    items = boards(args.boards)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        broker = PrivateBroker(tmp / "broker", TOPIC, [1])
        broker.start()
        gallery = broker.gallery(tmp / "gallery", max_spectators=args.spectators + 100, nice=args.gallery_nice)
        gallery.start()
        director = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=DIRECTOR, protocol=mqtt.MQTTv311)
        director.username_pw_set(DIRECTOR, broker.password(DIRECTOR))
        director.connect("127.0.0.1", broker.port)
        director.loop_start()
        fleet = Fleet("127.0.0.1", gallery.port, room_topic(TOPIC), args.spectators, args.procs, args.nice, tmp)
        try:
            connected = fleet.start()
            time.sleep(5.0)   # the bridge is up
            assert gallery.process is not None
            g0 = proc_figures(gallery.process.pid)[0]
            t0 = time.monotonic()
            published = []
            for k in range(args.messages):
                for payload in room_messages(items, int(time.time() * 1000)):   # as the director's feed sends them
                    director.publish(room_topic(TOPIC), payload, qos=0)
                    published.append(len(payload))
                time.sleep(max(0.0, t0 + (k + 1) / args.rate - time.monotonic()))
            time.sleep(3.0)
            g1 = proc_figures(gallery.process.pid)[0]
        finally:
            try:
                watched = fleet.stop()
            finally:
                director.disconnect()
                director.loop_stop()
                gallery.stop()
                broker.stop()
    size = sum(published) / len(published)
    per_tick = len(published) // args.messages
    delivered = sum(watched["received"])
    nbytes = sum(watched["bytes"])
    cpu = g1 - g0
    d = watched["delivery"]
    q = statistics.quantiles(d, n=100, method="inclusive") if len(d) > 1 else [float("nan")] * 99
    k = watched["reached_delivery"]
    kq = statistics.quantiles(k, n=100, method="inclusive") if len(k) > 1 else [float("nan")] * 99
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"{connected} spectators, {args.messages} ticks of {args.boards} board(s) at {args.rate}/s: {per_tick} room "
          f"message(s) a tick, {size:.0f} bytes each (compressed)")
    print(f"delivered {delivered} of {connected * len(published)} messages, {nbytes / 2**20:.1f} MiB; the gallery: {cpu:.2f} s CPU "
          f"= {cpu / max(1, delivered) * 1e6:.1f} µs a message, {cpu / max(1, nbytes) * 1e9:.2f} ns a byte")
    print(f"delivery from the publish: p50 {q[49] * 1000:.0f} ms, p99 {q[98] * 1000:.0f} ms; to the spectators' sockets: "
          f"p50 {kq[49] * 1000:.0f} ms, p99 {kq[98] * 1000:.0f} ms")
    print(f"load average {' '.join(load0)} before, {' '.join(load)} after (a shared machine)")
    if args.json:
        print(json.dumps({"spectators": connected, "boards": args.boards, "message_bytes": round(size), "messages": len(published),
                          "rate": args.rate, "delivered": delivered, "bytes": nbytes, "gallery_cpu_s": round(cpu, 3),
                          "us_per_message": round(cpu / max(1, delivered) * 1e6, 2),
                          "delivery_p50_s": round(q[49], 3), "delivery_p99_s": round(q[98], 3),
                          "reached_p50_s": round(kq[49], 3), "reached_p99_s": round(kq[98], 3),
                          "loadavg": [float(x) for x in load0 + load]}))


if __name__ == "__main__":
    main()
