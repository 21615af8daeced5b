"""A board's link to the club director over MQTT (adapter; docs/club-protocol.md).

:class:`ClubLink` is all a board needs of the network, and **no board action ever waits on
it**: every method but :meth:`ClubLink.run` returns at once.

* :meth:`publish_state` hands over the match as it stands; the link publishes the newest one
  (retained, QoS 1) at most every ``state_interval_s`` — states in between are coalesced;
* :meth:`submit_result` puts a finished match in the **outbox** of the board's SQLite journal
  (durable when it returns) and the link sends it, and again every ``resend_s``, after every
  reconnection and after a reboot, until the director acks its UUID;
* ``on_assignment`` is called with each assignment the director publishes for this board
  (retained: it arrives again after every reconnection; the caller decides what is new);
* ``online`` / :meth:`note` tell the display whether the club is reachable.

:meth:`run` connects, reconnects with backoff after any loss (Wi-Fi, broker restart), and
ends only at :meth:`stop`.  The broker publishes ``online: false`` (the last will) if the
board vanishes.  A message the board cannot read is logged with one sentence and ignored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from bgboard.errors import InputError, shown
from bgboard.net.protocol import (
    Ack,
    Assignment,
    BoardState,
    BrokerUrl,
    Online,
    ProtocolError,
    Result,
    decode,
    encode,
    parse_topic,
    topic,
)
from bgboard.link.backoff import Backoff
from bgboard.net.mqtt_client import MqttError, Reconnecting, Will, open_client

log = logging.getLogger(__name__)


class Outbox(Protocol):
    """What the link needs of the journal (``bgboard.store.journal.Journal``)."""

    def outbox_put(self, uuid: str, payload: str, at_ms: int) -> bool: ...

    def outbox_pending(self) -> list[Any]: ...

    def outbox_settle(self, uuid: str, status: str, reason: str, at_ms: int) -> bool: ...


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """Where and who: the broker, the club's topic name, this board's number and login."""

    broker: BrokerUrl
    club: str
    board: int
    username: str
    password: str
    ca_file: str = ""
    state_interval_s: float = 0.1
    resend_s: float = 5.0
    keepalive_s: int = 10
    backoff_first_s: float = 0.5
    backoff_most_s: float = 10.0


def wall_ms() -> int:
    return int(time.time() * 1000)


class ClubLink(Reconnecting):
    """The board side of the club network (see the module docstring)."""

    def __init__(
        self,
        settings: LinkSettings,
        outbox: Outbox,
        *,
        on_assignment: Callable[[Assignment], None] = lambda a: None,
        on_status: Callable[[bool], None] = lambda up: None,
        on_ack: Callable[[Ack], None] = lambda ack: None,
        clock_ms: Callable[[], int] = wall_ms,
    ) -> None:
        super().__init__(on_status, False)
        self.settings = settings
        self.outbox = outbox
        self.on_assignment = on_assignment
        self.on_ack = on_ack
        self.clock_ms = clock_ms
        self.refused: list[Ack] = []
        self.last_error = ""
        self.sent_results = 0  # publishes of results (re-sends included)
        self._state: BoardState | None = None
        self._state_sent: BoardState | None = None
        self._result_due = False
        s = settings
        self.topics = {kind: topic(s.club, s.board, kind) for kind in ("state", "online", "result", "assign", "ack")}

    # ------------------------------------------------------------------ the board's side (never waits)
    def publish_state(self, state: BoardState) -> None:
        """Publish ``state`` soon (a newer state before then replaces it)."""
        self._state = state
        self._wake.set()

    def submit_result(self, result: Result) -> bool:
        """Keep ``result`` in the outbox (durable on return) and send it when connected;
        False if this match was already in the outbox."""
        fresh = self.outbox.outbox_put(result.uuid, encode(result).decode("utf-8"), self.clock_ms())
        self._result_due = True
        self._wake.set()
        return fresh

    def note(self) -> tuple[str, ...]:
        """What the display should say about the club ("" tuple: nothing to say)."""
        if self.refused:
            ack = self.refused[-1]
            return (f"the director refused the result: {ack.reason}", "result refused")
        if not self.online:
            pending = len(self.outbox.outbox_pending())
            kept = f": {pending} result(s) kept, sent when it is back" if pending else ": play on, results are kept"
            return (f"club not reachable{kept}", "club offline")
        return ()

    # ------------------------------------------------------------------ the network's side
    async def run(self) -> None:
        """Connect, serve, reconnect until :meth:`stop` (never raises on network trouble)."""
        s = self.settings
        await self._keep_connected(
            lambda: open_client(
                s.broker,
                username=s.username,
                password=s.password,
                identifier=f"bgboard-{s.club}-board{s.board}",
                will=Will(self.topics["online"], encode(Online(False))),
                ca_file=s.ca_file,
                keepalive=s.keepalive_s,
            ),
            self._serve,
            lambda exc: self._went_offline(f"the club broker {s.broker} is not reachable ({exc or type(exc).__name__})"),
            Backoff(s.backoff_first_s, s.backoff_most_s),
        )

    def _went_offline(self, text: str) -> None:
        if text != self.last_error or self.online:
            log.warning("%s", text)
        self.last_error = text
        self._set_online(False)

    async def _serve(self, client: Any) -> None:
        await client.subscribe([(self.topics["assign"], 1), (self.topics["ack"], 1)])
        await client.publish(self.topics["online"], encode(Online(True)), qos=1, retain=True)
        self._set_online(True)
        log.info("board %d is connected to the club broker %s", self.settings.board, self.settings.broker)
        self.last_error = ""
        self._state_sent = None  # the broker may have lost it: send the newest again
        receiver = asyncio.create_task(self._receive(client))
        try:
            await self._send(client, receiver)
        finally:
            receiver.cancel()
            try:
                await receiver
            except (asyncio.CancelledError, MqttError):
                pass
        if self._stopping.is_set():  # a clean goodbye: no will, so say it ourselves
            try:
                await client.publish(self.topics["online"], encode(Online(False)), qos=1, retain=True, timeout=2)
            except MqttError:
                pass

    async def _send(self, client: Any, receiver: "asyncio.Task[None]") -> None:
        s = self.settings
        next_resend = 0.0
        next_state = 0.0  # states are coalesced: at most one every state_interval_s
        loop = asyncio.get_running_loop()
        while not self._stopping.is_set():
            if receiver.done():
                receiver.result()  # the connection broke: raise its MqttError
                return
            self._wake.clear()  # before looking: a wake-up during the sends below is kept
            finished = self._result_due
            if finished:  # a new result: send it now, not at the next resend
                self._result_due = False
                next_resend = 0.0
            state = self._state
            sends = []  # published in this order (one connection), their acknowledgements awaited together
            # a finished match's last state and its result go at once, in that order: neither
            # waits for the states' pause (and the room's last word is the final score)
            if state is not None and state != self._state_sent and (finished or loop.time() >= next_state):
                sends.append(client.publish(self.topics["state"], encode(state), qos=1, retain=True))
                self._state_sent = state
                next_state = loop.time() + s.state_interval_s  # newer states wait until then
            if loop.time() >= next_resend:
                for owed in self.outbox.outbox_pending():
                    sends.append(client.publish(self.topics["result"], owed.payload.encode("utf-8"), qos=1))
                    self.sent_results += 1
                next_resend = loop.time() + s.resend_s
            if sends:
                await asyncio.gather(*sends)
            until = next_resend
            if self._state is not None and self._state != self._state_sent:
                until = min(until, next_state)
            wake = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({wake, receiver}, timeout=max(0.0, until - loop.time()), return_when=asyncio.FIRST_COMPLETED)
            finally:
                wake.cancel()

    async def _receive(self, client: Any) -> None:
        async for message in client.messages:
            try:
                board, kind = parse_topic(str(message.topic), self.settings.club)
                if board != self.settings.board:
                    raise ProtocolError(f"a message for board {board} reached board {self.settings.board}")
                body = decode(kind, message.payload)
                if kind == "assign":
                    if body.board != self.settings.board:
                        raise ProtocolError(f"an assignment for board {body.board} arrived on board {self.settings.board}'s topic")
                    self.on_assignment(body)
                elif kind == "ack":
                    self._on_ack(body)
                else:
                    raise ProtocolError(f"a board does not take {kind} messages")
            except InputError as exc:
                log.warning("ignored a message on %s: %s", shown(str(message.topic), 120), exc)
            except Exception:  # a fault of ours: its traceback; one message never ends the board's link
                log.exception("could not handle a message on %s: ignored", shown(str(message.topic), 120))

    def _on_ack(self, ack: Ack) -> None:
        if self.outbox.outbox_settle(ack.uuid, ack.status, ack.reason, self.clock_ms()):
            if ack.status == "refused":
                self.refused.append(ack)
                log.warning("the director refused result %s: %s", ack.uuid, ack.reason)
            self.on_ack(ack)
