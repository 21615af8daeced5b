"""Spectators on the club's gallery: lean MQTT-over-WebSocket clients, as many as asked, in a
few processes (used by club_load.py ``--spectators``, spectators.py and gallery_fanout.py).

Each spectator is a plain socket that does what a browser's MQTT.js does on the wire — the
WebSocket handshake (RFC 6455), an MQTT 3.1.1 CONNECT and a SUBSCRIBE to the room's live topic
(``bgboard/<club>/live/room``) as the room page does, each in a masked frame — and then only
reads: it takes the gallery's frames apart, finds each PUBLISH and notes when it arrived and
which message it was (a CRC of its bytes; each distinct message is decoded once, after the
run).  Written by hand rather than with paho-mqtt (as before 2026-11-29): paho's Python work
per message and per client (its WebSocket wrapper, callbacks, a client object each) cost 5,000
spectators about 7 s of the two cores the gallery and the director share here, where a browser
spends its own computer's; these clients cost about a third of that (connecting included).

A state's latency is then, for each spectator and each board state the room message carries,
its arrival minus the board's ``updated_ms`` (the boards stamp their states with the wall clock
of this same machine): from the board's state change to that spectator having it (a state
overtaken within a tick is never sent: the spectator gets the newer one instead), taken at the
first message that brings the spectator that state: a later message carrying the same state
again (a board going offline at the end of its evening keeps its last state, marked offline) is
no state reaching the spectator, and its age since the board's last move is kept apart
(``repeated``; counted as states until 2026-11-29 12:00, when it put the boards' idle seconds
into the spectators' p99; since the room sends a board it has already sent as its change, such a
board carries no ``updated_ms`` and is no state at all); the part of it before the director's publishing, ``sent_ms`` minus
``updated_ms`` (``before``); and each room message's delivery, its arrival minus the director's ``sent_ms`` (the gallery's part: the club
broker, the bridge, the gallery, the WebSocket).  Each is taken twice: when the spectator's
process read the message, and when its last bytes reached the spectator's socket (the kernel's
``SO_TIMESTAMP``), which a spectator's process starved of CPU on this shared machine does not
delay.

The processes run at ``nice`` (19 in club_load.py and spectators.py: the spectators' CPU stands
for thousands of other computers, as the boards' does at 10), each driving its clients from one
selector.
"""

from __future__ import annotations

import base64
import json
import os
import resource
import selectors
import socket
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from bgboard.club.web.live_wire import inflate  # noqa: E402


#: Linux's SO_TIMESTAMP (asm-generic/socket.h: SO_TIMESTAMP_OLD, a struct timeval of two
#: 64-bit fields on x86-64 and arm64); Python's socket module does not name it.
SO_TIMESTAMP = getattr(socket, "SO_TIMESTAMP", 29)
#: Each spectator socket's receive buffer (Linux doubles it, within net.core.rmem_max).
RECEIVE_BUFFER = 1024 * 1024


def _frame(payload: bytes) -> bytes:
    """One masked binary WebSocket frame from a client (RFC 6455 5.2: a client masks)."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x82, 0x80 | n]) if n < 126 else bytes([0x82, 0x80 | 126]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _mqtt(kind: int, body: bytes) -> bytes:
    """An MQTT 3.1.1 packet: its fixed header (a remaining length under 128 here) and ``body``."""
    return bytes([kind, len(body)]) + body


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("!H", len(raw)) + raw


def hello(client_id: str, topic: str) -> bytes:
    """What a spectator sends once the WebSocket is open: CONNECT (3.1.1, clean session,
    keepalive 300 s) and SUBSCRIBE ``topic`` at QoS 0, each in a frame of its own."""
    connect = _mqtt(0x10, _string("MQTT") + bytes([4, 0x02]) + struct.pack("!H", 300) + _string(client_id))
    subscribe = _mqtt(0x82, struct.pack("!H", 1) + _string(topic) + b"\x00")
    return _frame(connect) + _frame(subscribe)


PINGREQ = _frame(b"\xc0\x00")


class Spectator:
    """One spectator's socket and what it has read: the WebSocket handshake, then frames whose
    payloads make the MQTT stream, from which each PUBLISH's payload is taken with the kernel's
    arrival time of its last bytes (``SO_TIMESTAMP``)."""

    __slots__ = ("sock", "index", "state", "ws", "mqtt", "stamp", "received", "nbytes")

    def __init__(self, sock: socket.socket, index: int) -> None:
        self.sock, self.index = sock, index
        self.state = "upgrading"   # then "connecting" (CONNECT and SUBSCRIBE sent), "watching"
        self.ws = bytearray()
        self.mqtt = bytearray()
        self.stamp = 0.0
        self.received = self.nbytes = 0

    def read(self) -> bool:
        """Take what the socket holds; False once the gallery closed it."""
        try:
            data, ancillary, _flags, _address = self.sock.recvmsg(1 << 18, socket.CMSG_SPACE(16))
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            return False
        if not data:
            return False
        for level, kind, raw in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMP:
                seconds, micros = struct.unpack("qq", raw[:16])
                self.stamp = seconds + micros / 1e6
        self.ws += data
        return True

    def frames(self) -> None:
        """Move the complete frames' payloads from the WebSocket buffer to the MQTT stream (a
        server's frames are not masked; a close frame ends the stream)."""
        ws = self.ws
        at = 0
        while len(ws) - at >= 2:
            n = ws[at + 1] & 0x7F
            head = 2
            if n == 126:
                if len(ws) - at < 4:
                    break
                n, head = struct.unpack_from("!H", ws, at + 2)[0], 4
            elif n == 127:
                if len(ws) - at < 10:
                    break
                n, head = struct.unpack_from("!Q", ws, at + 2)[0], 10
            if len(ws) - at < head + n:
                break
            if ws[at] & 0x0F in (0x0, 0x2):   # continuation or binary: MQTT bytes
                self.mqtt += ws[at + head:at + head + n]
            at += head + n
        del ws[:at]

    def packets(self) -> list[tuple[int, bytes]]:
        """The complete MQTT packets in the stream: (first byte, the packet's body)."""
        out = []
        m = self.mqtt
        at = 0
        while len(m) - at >= 2:
            length, shift, k = 0, 0, at + 1
            while k < len(m):
                byte = m[k]
                length |= (byte & 0x7F) << shift
                shift += 7
                k += 1
                if not byte & 0x80:
                    break
            else:
                break
            if len(m) - k < length:
                break
            out.append((m[at], bytes(m[k:k + length])))
            at = k + length
        del m[:at]
        return out


#: Spectators of one process opening their WebSocket at once (the rest wait their turn).
OPENING = 200


def _fleet(host: str, ports: list[int], topic: str, count: int, first: int, nice: int, started: Any, reported: Any,
           stop: Any, out: str) -> None:
    os.nice(nice)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))
    selector = selectors.DefaultSelector()
    arrivals: list[tuple[int, int, float, float]] = []   # (spectator, message CRC, read, reached the socket)
    payloads: dict[int, bytes] = {}
    spectators: list[Spectator] = []
    refused = 0
    upgrades = {port: (f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n"
                       "Sec-WebSocket-Protocol: mqtt\r\n\r\n").encode() for port in ports}

    def opened(index: int) -> Spectator | None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMP, 1)
        # room for what a burst sends a spectator while its process waits for the CPU, as a
        # browser's computer would take it: the gallery is not held back by it
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        sock.settimeout(10)
        port = ports[(first + index) % len(ports)]   # spread over the galleries, as the front's leastconn does
        try:
            sock.connect((host, port))
            sock.sendall(upgrades[port])
        except OSError:
            sock.close()
            return None
        sock.setblocking(False)
        spectator = Spectator(sock, index)
        selector.register(sock, selectors.EVENT_READ, spectator)
        return spectator

    def serve(spectator: Spectator) -> None:
        if not spectator.read():
            selector.unregister(spectator.sock)
            spectator.sock.close()
            spectator.state = "closed"
            return
        if spectator.state == "upgrading":
            head, sep, rest = bytes(spectator.ws).partition(b"\r\n\r\n")
            if not sep:
                return
            if not head.startswith(b"HTTP/1.1 101"):
                selector.unregister(spectator.sock)
                spectator.sock.close()
                spectator.state = "closed"
                return
            spectator.ws[:] = rest
            spectator.sock.sendall(hello(f"spectator-{first + spectator.index}", topic))
            spectator.state = "connecting"
        spectator.frames()
        for kind, body in spectator.packets():
            if kind & 0xF0 == 0x90:   # SUBACK
                spectator.state = "watching"
            elif kind & 0xF0 == 0x30:   # PUBLISH at QoS 0: the topic, then the payload
                payload = body[2 + struct.unpack_from("!H", body)[0]:]
                crc = zlib.crc32(payload)
                if crc not in payloads:
                    payloads[crc] = payload
                arrivals.append((spectator.index, crc, time.time(), spectator.stamp or time.time()))
                spectator.received += 1
                spectator.nbytes += len(payload)

    def pending() -> int:
        return sum(s.state in ("upgrading", "connecting") for s in spectators)

    deadline = time.monotonic() + 120
    index = 0
    while time.monotonic() < deadline and (index < count or pending()):
        while index < count and pending() < OPENING:
            spectator = opened(index)
            index += 1
            if spectator is None:
                refused += 1
            else:
                spectators.append(spectator)
        for key, _ in selector.select(0.05):
            serve(key.data)
    with started.get_lock():
        started.value += sum(s.state == "watching" for s in spectators)
    with reported.get_lock():
        reported.value += 1
    last_ping = time.monotonic()
    while not stop.is_set():
        for key, _ in selector.select(0.2):
            serve(key.data)
        if time.monotonic() - last_ping > 60:   # within the keepalive
            last_ping = time.monotonic()
            for s in spectators:
                if s.state == "watching":
                    try:
                        s.sock.send(PINGREQ)
                    except OSError:
                        pass
    connected = sum(s.state == "watching" for s in spectators)
    for s in spectators:
        s.sock.close()
    received = [s.received for s in spectators] + [0] * (count - len(spectators))
    nbytes = [s.nbytes for s in spectators] + [0] * (count - len(spectators))
    states: dict[int, list[tuple[int, int]]] = {}
    sent: dict[int, int] = {}
    for crc, payload in payloads.items():
        try:   # a board's message is JSON, the room's compressed JSON (bgboard.club.web.live_wire)
            message = json.loads(payload if payload[:1] == b"{" else inflate(payload))
            boards = message["boards"] if "boards" in message else [message]   # the room's, or one board's
        except (ValueError, KeyError, TypeError):
            continue
        states[crc] = [(b["board"], b["updated_ms"]) for b in boards if isinstance(b.get("updated_ms"), int)]
        if isinstance(message.get("sent_ms"), int):
            sent[crc] = message["sent_ms"]
    # each spectator's first arrival of each board state: a message that carries a board's
    # state again (the board went offline: the same state, marked gone) is not the state
    # reaching the spectator, and its age since the board's last move is counted apart
    latencies: list[float] = []
    reached: list[float] = []
    before: list[float] = []   # the board's state to the director's publishing it
    repeated: list[float] = []
    arrivals.sort(key=lambda arrival: arrival[0])   # stable: each spectator's in arrival order
    seen: set[tuple[int, int]] = set()
    spectator = -1
    for index, crc, at, kernel in arrivals:
        if index != spectator:
            spectator, seen = index, set()
        for board, ms in states.get(crc, []):
            if (board, ms) in seen:
                repeated.append(at - ms / 1000)
                continue
            seen.add((board, ms))
            latencies.append(at - ms / 1000)
            reached.append(kernel - ms / 1000)
            if crc in sent:
                before.append((sent[crc] - ms) / 1000)
    delivery = [at - sent[crc] / 1000 for _, crc, at, _ in arrivals if crc in sent]
    reached_delivery = [kernel - sent[crc] / 1000 for _, crc, _, kernel in arrivals if crc in sent]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    Path(out).write_text(json.dumps({"latencies": latencies, "delivery": delivery, "reached": reached,
                                     "before": before, "repeated": repeated,
                                     "reached_delivery": reached_delivery, "received": received, "bytes": nbytes,
                                     "refused": refused, "connected_at_end": connected,
                                     "cpu": usage.ru_utime + usage.ru_stime}))


class Fleet:
    """``count`` spectators on the gallery at ``ws://host:port/`` watching ``topic`` (several
    ports: several galleries, the spectators spread over them in turn), in ``procs`` processes
    at ``nice``; :meth:`start` returns once they are subscribed, :meth:`stop` gathers the
    figures."""

    def __init__(self, host: str, port: int | list[int], topic: str, count: int, procs: int = 4, nice: int = 10,
                 out_dir: Path = Path(".")) -> None:
        ports = [port] if isinstance(port, int) else list(port)
        import multiprocessing

        self.context = multiprocessing.get_context("spawn")
        self.count, self.procs = count, max(1, min(procs, count))
        self.started = self.context.Value("i", 0)
        self.reported = self.context.Value("i", 0)
        self.stopping = self.context.Event()
        self.outs = [str(out_dir / f"fleet{k}.json") for k in range(self.procs)]
        shares = [count // self.procs + (k < count % self.procs) for k in range(self.procs)]
        firsts = [sum(shares[:k]) for k in range(self.procs)]
        self.workers = [self.context.Process(target=_fleet, args=(host, ports, topic, shares[k], firsts[k], nice,
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
        before: list[float] = []
        repeated: list[float] = []
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
            before += got["before"]
            repeated += got["repeated"]
            reached_delivery += got["reached_delivery"]
            received += got["received"]
            nbytes += got["bytes"]
            refused += got["refused"]
            connected += got["connected_at_end"]
            cpu += got["cpu"]
        return {"latencies": latencies, "delivery": delivery, "reached": reached, "reached_delivery": reached_delivery,
                "before": before, "repeated": repeated,
                "received": received, "bytes": nbytes, "refused": refused,
                "connected_at_end": connected, "cpu": cpu}
