"""How long a move takes from one board to the other and back as an ack (issue 23).

One real ``mosquitto`` with two remote-match accounts (:class:`RemoteBroker`: passwords, the
per-board ACL, persistence) and two :class:`RemoteLink` s in this process, each with the real
SQLite journal (WAL, ``synchronous=FULL``).  White sends ``--moves`` moves one at a time; Black
journals each (as :class:`RemoteSeat` does: the ``received`` row, fsynced) and acks it; White
journals the ack.  Measured: the round trip from White's send to White's ``acked`` row (p50,
p95, max).  Reference, in the same run: the two journal writes alone (no network), as a ratio.
Then Black goes away, White sends ``--moves`` more, Black comes back: the time from its
reconnection until every move is in its journal (the catch-up).

Usage: .venv/bin/python benchmarks/remote_moves.py [--moves 200] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from bgboard.match.actions import Roll, action_to_dict
from bgboard.net.protocol import parse_broker_url
from bgboard.net.remote_wire import MoveAck, MoveMessage, RemoteSettings
from bgboard.net.remotelink import REMOTE_KIND, RemoteBroker, RemoteLink
from bgboard.store.journal import Journal


def settings(broker: RemoteBroker, user: str, side: str) -> RemoteSettings:
    return RemoteSettings(parse_broker_url(broker.url), "bench", side, user, broker.password(user))


async def run(moves: int, root: Path) -> dict[str, float]:
    broker = RemoteBroker(root / "broker", [("board1", "bench", "white"), ("board2", "bench", "black")])
    broker.start()
    white_journal, black_journal = Journal(root / "white.sqlite"), Journal(root / "black.sqlite")
    acked: dict[int, float] = {}
    received: set[int] = set()
    done = asyncio.Event()

    def white_ack(ack: MoveAck) -> None:
        if ack.seq not in acked:
            white_journal.append(REMOTE_KIND, {"what": "acked", "seq": ack.seq}, 0)
            acked[ack.seq] = time.perf_counter()
            white.settle(ack.seq)
            done.set()

    def black_move(move: MoveMessage) -> None:
        if move.seq not in received:
            black_journal.append(REMOTE_KIND, {"what": "received", "seq": move.seq, "action": move.action}, 0)
            received.add(move.seq)
        black.ack(move.seq)

    white = RemoteLink(settings(broker, "board1", "white"), on_move=lambda m: None, on_ack=white_ack)
    black = RemoteLink(settings(broker, "board2", "black"), on_move=black_move, on_ack=lambda a: None)
    tasks = [asyncio.create_task(white.run()), asyncio.create_task(black.run())]
    while not (white.online and black.online):
        await asyncio.sleep(0.01)
    action = action_to_dict(Roll((6, 5)))
    trips = []
    for seq in range(moves):
        done.clear()
        sent = time.perf_counter()
        white.send(MoveMessage("bench", seq, action))
        await asyncio.wait_for(done.wait(), 60)
        trips.append(acked[seq] - sent)
    # the reference: the two journal writes of a move alone
    local = []
    for seq in range(moves):
        t0 = time.perf_counter()
        black_journal.append(REMOTE_KIND, {"what": "received", "seq": -seq, "action": action}, 0)
        white_journal.append(REMOTE_KIND, {"what": "acked", "seq": -seq}, 0)
        local.append(time.perf_counter() - t0)
    # the catch-up: black away while white sends
    black.stop()
    await tasks[1]
    for seq in range(moves, 2 * moves):
        white.send(MoveMessage("bench", seq, action))
    while len(white.pending) < moves or white.published < 2 * moves:
        await asyncio.sleep(0.01)
    black = RemoteLink(settings(broker, "board2", "black"), on_move=black_move, on_ack=lambda a: None)
    back = time.perf_counter()
    tasks[1] = asyncio.create_task(black.run())
    while len(received) < 2 * moves:
        await asyncio.sleep(0.005)
    catch_up = time.perf_counter() - back
    for link in (white, black):
        link.stop()
    await asyncio.gather(*tasks)
    white_journal.close()
    black_journal.close()
    broker.stop()
    trips.sort()
    return {"moves": moves, "p50_ms": statistics.median(trips) * 1000, "p95_ms": trips[int(0.95 * len(trips))] * 1000,
            "max_ms": trips[-1] * 1000, "journal_only_p50_ms": statistics.median(local) * 1000,
            "ratio_p50": statistics.median(trips) / statistics.median(local), "catch_up_s": catch_up,
            "lost": 2 * moves - len(received)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run(args.moves, Path(tmp)))
    with open("/proc/loadavg") as f:
        result["load"] = f.read().split()[0]
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['moves']} moves, send → journalled there → ack journalled here: p50 {result['p50_ms']:.1f} ms, "
              f"p95 {result['p95_ms']:.1f} ms, max {result['max_ms']:.1f} ms; the journal writes alone p50 "
              f"{result['journal_only_p50_ms']:.1f} ms (×{result['ratio_p50']:.1f}); catch-up of {result['moves']} "
              f"moves after a reconnection {result['catch_up_s']:.2f} s; lost {result['lost']} (load {result['load']})")


if __name__ == "__main__":
    main()
