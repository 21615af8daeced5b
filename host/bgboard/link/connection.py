"""One session with the board over a :class:`~bgboard.link.transport.Port` (an adapter).

:class:`Connection` speaks the wire protocol of docs/protocol.md with the shared codec
(``bgboard.link.frames`` and ``bgboard.link.messages``):

* **handshake** — wait for the board's HELLO and check its protocol version; a board that
  is already running (the host restarted) is asked to reset so that it says HELLO again;
* **board state** — the slot states from the SNAPSHOT, updated by CHANGES, handed on only
  while they can be trusted;
* **resync** — after garbage, a bad or oversized frame, an undecodable message or a
  sequence gap, send SNAPSHOT-REQUEST and trust nothing until the SNAPSHOT arrives;
* **watchdog** — no frame for ``watchdog_s`` (3 s: three heartbeats) means the board is lost;
* **commands** — numbered, re-sent when no ACK comes back.

Everything that happens becomes a :data:`LinkEvent` for ``on_event``; every failure is one
sentence for the players and ends :meth:`Connection.run` cleanly — nothing raises out of it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from bgboard.language import Phrase
from bgboard.link.frames import Frame, FrameDecoder, Problem, SequenceCounter, SequenceWatch
from bgboard.link.messages import (
    REBOOT_RESET,
    Ack,
    Changes,
    DeviceError,
    Heartbeat,
    Hello,
    HostMessage,
    MessageError,
    Reboot,
    RequestSnapshot,
    Roll,
    Snapshot,
    decode,
    encode,
)
from bgboard.link.transport import Port, PortLostError

log = logging.getLogger(__name__)

PROTOCOL = 1


@dataclass(frozen=True, slots=True)
class Connected:
    """The handshake succeeded (``rebooted``: the board restarted during the session)."""

    hello: Hello
    rebooted: bool = False


@dataclass(frozen=True, slots=True)
class BoardSeen:
    """The current slot states (wire order), trusted: after a SNAPSHOT and its CHANGES."""

    states: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rolled:
    """The dice module rolled ``dice`` (roll ``number``)."""

    number: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Beat:
    """A heartbeat: the board is alive; ``rolling`` says whether its dice button rolls."""

    rolling: bool


@dataclass(frozen=True, slots=True)
class Trouble:
    """Something the players should know that does not end the session (one sentence)."""

    text: str


@dataclass(frozen=True, slots=True)
class Lost:
    """The session ended; ``text`` says why, for the players."""

    text: str


LinkEvent = Connected | BoardSeen | Rolled | Beat | Trouble | Lost


@dataclass(frozen=True, slots=True)
class Timing:
    """Timeouts in seconds (short ones make tests fast)."""

    hello_s: float = 2.0
    watchdog_s: float = 3.0
    snapshot_s: float = 1.0
    ack_s: float = 0.5
    tick_s: float = 0.05
    tries: int = 3


class Connection:
    """A session with the board (see the module docstring)."""

    def __init__(self, port: Port, on_event: Callable[[LinkEvent], None], timing: Timing = Timing()) -> None:
        self.port = port
        self.on_event = on_event
        self.timing = timing
        self.hello: Hello | None = None
        self.states: list[int] | None = None
        self.in_sync = False
        self.resyncs = 0
        self.errors: Counter[str] = Counter()  # link errors by kind, for the log
        self._decoder = FrameDecoder()
        self._watch = SequenceWatch()
        self._counter = SequenceCounter()
        self._pending: dict[int, tuple[HostMessage, float, int]] = {}
        self._last_frame = 0.0
        self._seen_frame = False
        self._snapshot_asked = 0.0
        self._reset_asked = False
        self._lost: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def ready(self) -> bool:
        """The handshake is done and the session is alive."""
        return self.hello is not None and self._lost is None

    # ------------------------------------------------------------------ sending
    def send(self, message: HostMessage, *, tries: int | None = None) -> int:
        """Send a command; it is re-sent (new sequence number) until ACKed, ``tries`` times."""
        seq = self._counter.next()
        self.port.write(encode(message, seq))
        if not isinstance(message, Reboot):
            now = self._loop.time() if self._loop else 0.0
            self._pending[seq] = (message, now, self.timing.tries if tries is None else tries)
        return seq

    def _resync(self, why: str) -> None:
        self.in_sync = False
        self.resyncs += 1
        self.errors[why] += 1
        log.warning("link error: %s (%d so far); asking for a snapshot (resync %d)", why, self.errors[why], self.resyncs)
        if self._loop is not None:
            self._snapshot_asked = self._loop.time()
        self.send(RequestSnapshot())

    # ------------------------------------------------------------------ the session
    async def run(self) -> None:
        """Run the session until the board is lost; then close the port.  Never raises
        (except cancellation): the ending is reported as a :class:`Lost` event."""
        self._loop = asyncio.get_running_loop()
        self._last_frame = self._loop.time()
        started = self._last_frame
        reader = asyncio.create_task(self._read(), name="bgboard-link-read")
        try:
            while self._lost is None:
                await asyncio.wait({reader}, timeout=self.timing.tick_s)
                if reader.done():
                    break
                self._tick(started)
        finally:
            reader.cancel()
            try:
                await reader
            except (asyncio.CancelledError, PortLostError):
                pass
            await self.port.close()
        self.on_event(Lost(self._lost or Phrase("the board link ended")))

    def _fail(self, text: str) -> None:
        if self._lost is None:
            log.warning("board lost: %s", text)
            self._lost = text

    def _tick(self, started: float) -> None:
        assert self._loop is not None
        now = self._loop.time()
        t = self.timing
        if self.hello is None:
            if not self._reset_asked and now - started >= t.hello_s:
                self._reset_asked = True  # a board already running: make it say HELLO again
                self.send(Reboot(REBOOT_RESET))
            elif now - started >= 3 * t.hello_s:
                self._fail(Phrase("the board does not answer: is the bgboard firmware installed?"))
            return
        if now - self._last_frame >= t.watchdog_s:
            self._fail(Phrase("the board stopped answering: check its USB cable"))
            return
        if not self.in_sync and now - self._snapshot_asked >= t.snapshot_s:
            self._snapshot_asked = now
            self.send(RequestSnapshot())
        for seq, (message, sent, tries) in list(self._pending.items()):
            if now - sent >= t.ack_s:
                del self._pending[seq]
                if tries > 1:
                    self.send(message, tries=tries - 1)
                else:
                    log.warning("the board did not confirm %s after %d tries", type(message).__name__, t.tries)
                    self.on_event(Trouble(Phrase("the board did not confirm a command: check its USB cable")))

    async def _read(self) -> None:
        while self._lost is None:
            try:
                data = await self.port.read()
            except PortLostError as exc:
                self._fail(Phrase("%(problem)s: plug it back in", problem=str(exc)))
                return
            for item in self._decoder.feed(data):
                if isinstance(item, Problem):
                    if self._seen_frame and self.hello is not None:
                        self._resync("garbled bytes or a corrupt frame")
                else:
                    self._frame(item)
                if self._lost is not None:
                    return

    def _frame(self, frame: Frame) -> None:
        assert self._loop is not None
        self._last_frame = self._loop.time()
        self._seen_frame = True
        gap = self._watch.observe(frame.seq, restart=frame.kind == Hello.KIND)
        try:
            message = decode(frame)
        except MessageError:
            if self.hello is not None:
                self._resync("a message that cannot be decoded")
            return
        if isinstance(message, Hello):
            self._on_hello(message)
            return
        if self.hello is None:
            return  # nothing counts before the handshake
        if gap is not None:
            self._resync("frames lost (a sequence gap)")
            if not isinstance(message, Snapshot):
                return
        self._on_message(message)

    def _on_hello(self, hello: Hello) -> None:
        if hello.protocol != PROTOCOL:
            self._fail(Phrase(
                "the board's firmware speaks protocol %(board)s, this host speaks %(host)s: "
                "update the firmware with 'bgboard firmware deploy'", board=hello.protocol, host=PROTOCOL))
            return
        rebooted = self.hello is not None
        log.info("board %s: firmware %s, %d slots", "restarted" if rebooted else "connected", hello.firmware, hello.slots)
        self.hello = hello
        self.in_sync = False
        self.states = None
        self._pending.clear()
        self._snapshot_asked = self._loop.time() if self._loop else 0.0
        self.on_event(Connected(hello, rebooted))

    def _on_message(self, message: object) -> None:
        if isinstance(message, Snapshot):
            if self.hello is not None and len(message.states) != self.hello.slots:
                self._resync("a snapshot of the wrong size")
                return
            self.states = list(message.states)
            self.in_sync = True
            self.on_event(BoardSeen(tuple(self.states)))
        elif isinstance(message, Changes):
            if not self.in_sync or self.states is None:
                return
            for change in message.changes:
                if change.slot >= len(self.states):
                    self._resync("a change of a slot that does not exist")
                    return
                self.states[change.slot] = change.state
            self.on_event(BoardSeen(tuple(self.states)))
        elif isinstance(message, Roll):
            self.on_event(Rolled(message.number, message.dice))
        elif isinstance(message, Ack):
            self._pending.pop(message.command_seq, None)
        elif isinstance(message, DeviceError):
            if message.name in ("bad_checksum", "oversized", "sequence_gap"):
                why = f"the board received a bad command ({message.name})"
                self.errors[why] += 1
                log.warning("link error: %s (%d so far); it is sent again", why, self.errors[why])
                return  # a command was lost: it is re-sent when its ACK does not come
            log.warning("the board reports: %s", message.text)
            self.on_event(Trouble(message.text))
        elif isinstance(message, Heartbeat):
            self.on_event(Beat(message.rolling))
