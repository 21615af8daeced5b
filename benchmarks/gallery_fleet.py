"""Spectators on the club's gallery: real MQTT-over-WebSocket clients (paho-mqtt,
``transport="websockets"``), as many as asked, in a few processes (used by club_load.py
``--spectators`` and spectators.py).

Each spectator subscribes to the room's live topic (``bgboard/<club>/live/room``) as the room
page does and reads every byte the gallery sends it; for each message it notes when it arrived
(the wall clock: the boards stamp their states with theirs, ``updated_ms``, on this same
machine) and which message it was (a CRC of its bytes; each distinct message is decoded once,
after the run).  A state's latency is then, for each spectator and each board state the room
message carries, its arrival minus the board's ``updated_ms``: from the board's state change
to that spectator having it (a state overtaken within a tick is never sent: the spectator gets
the newer one instead); and each room message's delivery, its arrival minus the director's
``sent_ms`` (the gallery's part: the club broker, the bridge, the gallery, the WebSocket).
Each is taken twice: when the spectator's process read the message, and when its last bytes
reached the spectator's socket (the kernel's ``SO_TIMESTAMP``: :class:`Stamped`), which a
spectator's process starved of CPU on this shared machine does not delay.

The processes run at ``nice`` (19 in club_load.py and spectators.py: the spectators' CPU stands
for thousands of other computers, as the boards' does at 10).  Each process drives its clients from one selector,
without paho's thread per client.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import socket
import struct
import time
import zlib
from pathlib import Path
from typing import Any


#: Linux's SO_TIMESTAMP (asm-generic/socket.h: SO_TIMESTAMP_OLD, a struct timeval of two
#: 64-bit fields on x86-64 and arm64); Python's socket module does not name it.
SO_TIMESTAMP = getattr(socket, "SO_TIMESTAMP", 29)
#: Each spectator socket's receive buffer (Linux doubles it, within net.core.rmem_max).
RECEIVE_BUFFER = 1024 * 1024


class Stamped:
    """A spectator's socket that notes when the kernel received the bytes it hands out
    (``SO_TIMESTAMP``): the moment they reached the spectator's computer, whenever its own
    process gets to read them (on this machine the spectators' processes share two cores with
    everything else; a spectator's own computer would read at once)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self.last = 0.0
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMP, 1)
        # room for what a burst sends a spectator (about 200 kB) while its process waits for the
        # CPU, as a browser's computer would take it: the gallery is not held back by it
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)

    def recv(self, size: int) -> bytes:
        data, ancillary, _flags, _address = self._sock.recvmsg(size, socket.CMSG_SPACE(16))
        for level, kind, raw in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMP:
                seconds, micros = struct.unpack("qq", raw[:16])
                self.last = seconds + micros / 1e6
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def _fleet(host: str, port: int, topic: str, count: int, first: int, nice: int, started: Any, reported: Any, stop: Any,
           out: str) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    os.nice(nice)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))
    selector = selectors.DefaultSelector()
    arrivals: list[tuple[int, int, float, float]] = []   # (spectator, message CRC, read, reached the socket)
    stamps: list[Stamped | None] = [None] * count
    payloads: dict[int, bytes] = {}
    received = [0] * count
    nbytes = [0] * count
    clients = []
    refused = 0

    def on_message(index: int) -> Any:
        def got(client: Any, userdata: Any, message: Any) -> None:
            at = time.time()
            crc = zlib.crc32(message.payload)
            if crc not in payloads:
                payloads[crc] = bytes(message.payload)
            stamp = stamps[index]
            arrivals.append((index, crc, at, stamp.last if stamp is not None and stamp.last else at))
            received[index] += 1
            nbytes[index] += len(message.payload)
        return got

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        client.subscribe(topic, qos=0)

    for i in range(count):
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"spectator-{first + i}", transport="websockets",
                        protocol=mqtt.MQTTv311)
        c.on_message = on_message(i)
        c.on_connect = on_connect
        try:
            c.connect(host, port, keepalive=300)
        except OSError:
            refused += 1
            continue
        sock = c.socket()
        inner = getattr(sock, "_socket", None)   # paho's WebSocket wrapper reads this socket
        if isinstance(inner, socket.socket):
            stamps[i] = Stamped(inner)
            sock._socket = stamps[i]  # type: ignore[union-attr]
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, c)
        clients.append(c)
        for key, _ in selector.select(0):
            key.data.loop_read()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(c.is_connected() for c in clients):
        for key, _ in selector.select(0.1):
            key.data.loop_read()
        for c in clients:
            if c.want_write():
                c.loop_write()
    time.sleep(0.5)   # the SUBACKs
    for key, _ in selector.select(0.1):
        key.data.loop_read()
    with started.get_lock():
        started.value += sum(c.is_connected() for c in clients)
    with reported.get_lock():
        reported.value += 1
    last_misc = time.monotonic()
    while not stop.is_set():
        for key, _ in selector.select(0.2):
            key.data.loop_read()
        if time.monotonic() - last_misc > 5:
            last_misc = time.monotonic()
            for c in clients:
                c.loop_misc()
                if c.want_write():
                    c.loop_write()
    connected = sum(c.is_connected() for c in clients)
    for c in clients:
        try:
            c.socket().close()
        except (OSError, AttributeError):
            pass
    states: dict[int, list[tuple[int, int]]] = {}
    sent: dict[int, int] = {}
    for crc, payload in payloads.items():
        try:
            message = json.loads(payload)
            boards = message["boards"] if "boards" in message else [message]   # the room's, or one board's
        except (ValueError, KeyError, TypeError):
            continue
        states[crc] = [(b["board"], b["updated_ms"]) for b in boards if isinstance(b.get("updated_ms"), int)]
        if isinstance(message.get("sent_ms"), int):
            sent[crc] = message["sent_ms"]
    latencies = [at - ms / 1000 for _, crc, at, _ in arrivals for _, ms in states.get(crc, [])]
    delivery = [at - sent[crc] / 1000 for _, crc, at, _ in arrivals if crc in sent]
    reached = [kernel - ms / 1000 for _, crc, _, kernel in arrivals for _, ms in states.get(crc, [])]
    reached_delivery = [kernel - sent[crc] / 1000 for _, crc, _, kernel in arrivals if crc in sent]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    Path(out).write_text(json.dumps({"latencies": latencies, "delivery": delivery, "reached": reached,
                                     "reached_delivery": reached_delivery, "received": received, "bytes": nbytes,
                                     "refused": refused, "connected_at_end": connected,
                                     "cpu": usage.ru_utime + usage.ru_stime}))


class Fleet:
    """``count`` spectators on the gallery at ``ws://host:port/`` watching ``topic``, in
    ``procs`` processes at ``nice``; :meth:`start` returns once they are subscribed,
    :meth:`stop` gathers the figures."""

    def __init__(self, host: str, port: int, topic: str, count: int, procs: int = 4, nice: int = 10,
                 out_dir: Path = Path(".")) -> None:
        import multiprocessing

        self.context = multiprocessing.get_context("spawn")
        self.count, self.procs = count, max(1, min(procs, count))
        self.started = self.context.Value("i", 0)
        self.reported = self.context.Value("i", 0)
        self.stopping = self.context.Event()
        self.outs = [str(out_dir / f"fleet{k}.json") for k in range(self.procs)]
        shares = [count // self.procs + (k < count % self.procs) for k in range(self.procs)]
        firsts = [sum(shares[:k]) for k in range(self.procs)]
        self.workers = [self.context.Process(target=_fleet, args=(host, port, topic, shares[k], firsts[k], nice,
                                                                  self.started, self.reported, self.stopping, self.outs[k]))
                        for k in range(self.procs)]

    def start(self, timeout: float = 300) -> int:
        """Start the spectators; how many are connected and subscribed."""
        for w in self.workers:
            w.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.reported.value < self.procs:
            if not all(w.is_alive() for w in self.workers):
                raise SystemExit("a spectators' process ended before its spectators were connected")
            time.sleep(0.2)
        return int(self.started.value)

    def stop(self) -> dict[str, Any]:
        """Stop reading; every spectator's figures together."""
        self.stopping.set()
        for w in self.workers:
            w.join(120)
        latencies: list[float] = []
        delivery: list[float] = []
        reached: list[float] = []
        reached_delivery: list[float] = []
        received: list[int] = []
        nbytes: list[int] = []
        refused = connected = 0
        cpu = 0.0
        for out in self.outs:
            got = json.loads(Path(out).read_text())
            latencies += got["latencies"]
            delivery += got["delivery"]
            reached += got["reached"]
            reached_delivery += got["reached_delivery"]
            received += got["received"]
            nbytes += got["bytes"]
            refused += got["refused"]
            connected += got["connected_at_end"]
            cpu += got["cpu"]
        return {"latencies": latencies, "delivery": delivery, "reached": reached, "reached_delivery": reached_delivery,
                "received": received, "bytes": nbytes, "refused": refused,
                "connected_at_end": connected, "cpu": cpu}
