"""A board's side of a remote match (adapter; docs/remote.md): the MQTT link to the other
board, the seat tying it to the controller and the journal, and a private Mosquitto for
remote matches (tests, ``bgboard sim --remote``).

**Nothing lost, nothing doubled.**  The match log is the same at both boards; each action is
made at one board (:func:`bgboard.control.remote.author`).  The maker journals it (the
controller does, before it takes effect) and :class:`RemoteLink` publishes it (QoS 1) as move
``seq`` = its index in the log, again after every reconnection and every ``resend_s`` until
the other board acks it.  The receiver journals it (a ``remote`` row ``{"what": "received"}``)
*before* it acks, and only then hands it to the controller; a move it already holds is acked
again and not journalled twice.  Acks are journalled too (``{"what": "acked"}``), so after a
``kill -9`` a board knows which of its moves the other board still lacks (its own actions not
acked) and which of the other board's it has (the received rows).  The session is persistent
(:func:`bgboard.net.mqtt_client.open_client`): moves sent while a board was away wait at the
broker for it, and the re-sends cover a broker that lost them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pwd
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Unpack

from bgboard.control.events import OpponentMoved
from bgboard.control.controller import Controller, RoomParts
from bgboard.control.remote import FORFEIT, RemotePeer, RemotePlayer
from bgboard.control.session import IllegalPolicy, JournalLike, Settings
from bgboard.errors import InputError, shown
from bgboard.match.actions import action_to_dict
from bgboard.net.broker import Listener, mosquitto_conf
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.protocol import ProtocolError
from bgboard.net.mqtt_client import Backoff, MqttError, Reconnecting, login_refused, open_client
from bgboard.net.remote_accounts import write_accounts
from bgboard.net.remote_wire import (SIDES, MoveAck, MoveMessage, RemoteSettings, decode_ack, decode_move, encode_ack,
                                     encode_move, match_topic)

__all__ = ["REMOTE_KIND", "RemoteBroker", "RemoteLink", "RemoteSeat", "open_remote"]

log = logging.getLogger(__name__)
#: Journal kind of the remote match's rows (the controller ignores kinds it does not know).
REMOTE_KIND = "remote"
#: How far the other board's moves may run ahead of this board's log (it makes a few actions in
#: a row at most: a roll, its play, a resignation...); one further is ignored until it is due.
AHEAD = 16


class RemoteLink(Reconnecting):
    """The MQTT side: send this board's moves until acked, take the other board's (see the
    module docstring).  Nothing the board does waits on it: :meth:`send` and :meth:`ack`
    return at once; :meth:`run` connects and reconnects until :meth:`stop`."""

    def __init__(self, settings: RemoteSettings, *, on_move: Callable[[MoveMessage], None],
                 on_ack: Callable[[MoveAck], None], on_status: Callable[[bool], None] = lambda up: None,
                 on_refused: Callable[[str], None] = lambda text: None) -> None:
        super().__init__(on_status, None)  # online None: not connected yet, nor failed
        self.settings = settings
        self.on_refused = on_refused
        self.refused: str | None = None  # the broker refused the login: the sentence (no more tries)
        self.on_move = on_move
        self.on_ack = on_ack
        self._said = ""  # the last connection failure logged
        self.pending: dict[int, bytes] = {}  # this board's moves not acked yet, by seq
        self._fresh: set[int] = set()  # ... of which not yet sent on this connection
        self._acks: list[int] = []
        s = settings
        self.out = {kind: match_topic(s.match, s.side, kind) for kind in ("move", "ack")}
        self.into = {kind: match_topic(s.match, s.other, kind) for kind in ("move", "ack")}
        self.published = 0  # publishes of moves (re-sends included)

    def send(self, message: MoveMessage) -> None:
        """Publish this board's move soon, and again until :meth:`settle`."""
        if message.seq not in self.pending:
            self.pending[message.seq] = encode_move(message)
            self._fresh.add(message.seq)
            self._wake.set()

    def settle(self, seq: int) -> None:
        """The other board has move ``seq``: stop sending it."""
        self.pending.pop(seq, None)
        self._fresh.discard(seq)

    def ack(self, seq: int) -> None:
        """Tell the other board its move ``seq`` is journalled here."""
        self._acks.append(seq)
        self._wake.set()

    async def run(self) -> None:
        """Connect, serve, reconnect until :meth:`stop` (never raises on network trouble)."""
        s = self.settings
        await self._keep_connected(
            lambda: open_client(s.broker, username=s.username, password=s.password,
                                identifier=f"bgboard-{s.match}-{s.side}", ca_file=s.ca_file, keepalive=s.keepalive_s),
            self._serve, self._lost, Backoff(s.backoff_first_s, s.backoff_most_s), offline_between=True)

    def _lost(self, exc: Exception) -> None:
        s = self.settings
        if login_refused(exc):  # the broker answered: the account is wrong, and trying again will not help
            self.refused = (f"the broker {s.broker} refused the login of {shown(s.username, 60)} ({exc}): "
                            "check username and password_file in the [remote] table of the config")
            log.error("%s", self.refused)
            self.on_refused(self.refused)
            self.stop()
            return
        text = (f"the broker {s.broker} is unreachable ({exc or type(exc).__name__}), "
                f"retrying every {s.backoff_most_s:g} s or sooner")
        if text != self._said:
            log.warning("%s", text)
        self._said = text

    async def _serve(self, client: Any) -> None:
        self._said = ""
        await client.subscribe([(self.into["move"], 1), (self.into["ack"], 1)])
        log.info("the %s side of match %s is connected to the broker %s", self.settings.side,
                 shown(self.settings.match, 60), self.settings.broker)
        self._set_online(True)
        self._fresh = set(self.pending)  # the other board may lack any of them: send all again
        receiver = asyncio.create_task(self._receive(client))
        loop = asyncio.get_running_loop()
        resend_at = loop.time() + self.settings.resend_s
        try:
            while not self._stopping.is_set():
                if receiver.done():
                    receiver.result()  # the connection broke: raise its MqttError
                    return
                self._wake.clear()
                while self._acks:
                    seq = self._acks.pop(0)
                    await client.publish(self.out["ack"], encode_ack(MoveAck(self.settings.match, seq)), qos=1)
                if loop.time() >= resend_at:
                    self._fresh |= set(self.pending)
                    resend_at = loop.time() + self.settings.resend_s
                for seq in sorted(self._fresh):
                    payload = self.pending.get(seq)
                    self._fresh.discard(seq)
                    if payload is not None:
                        await client.publish(self.out["move"], payload, qos=1)
                        self.published += 1
                wake = asyncio.ensure_future(self._wake.wait())
                try:
                    await asyncio.wait({wake, receiver}, timeout=max(0.05, resend_at - loop.time()),
                                       return_when=asyncio.FIRST_COMPLETED)
                finally:
                    wake.cancel()
        finally:
            receiver.cancel()
            try:
                await receiver
            except (asyncio.CancelledError, MqttError):
                pass

    async def _receive(self, client: Any) -> None:
        async for message in client.messages:
            where = str(message.topic)
            try:
                if where == self.into["move"]:
                    move = decode_move(message.payload)
                    if move.match != self.settings.match:
                        raise ProtocolError(f"a move of match {move.match!r} came on match {self.settings.match!r}'s topic")
                    self.on_move(move)
                elif where == self.into["ack"]:
                    ack = decode_ack(message.payload)
                    if ack.match == self.settings.match:
                        self.on_ack(ack)
                else:
                    raise ProtocolError(f"a message on {where[:120]!r} is not one of this match")
            except InputError as exc:
                log.warning("ignored a message on %s: %s", shown(where, 120), exc)
            except Exception:  # a fault of ours: its traceback; one message never ends the link
                log.exception("could not handle a message on %s: ignored", shown(where, 120))


class RemoteSeat:
    """The remote match at this board: the other board as the controller's
    :class:`~bgboard.control.remote.RemotePeer`, fed from the link through the journal (see
    the module docstring).  ``post`` hands an event to the controller (the app's ``_handle``);
    :meth:`after` is called after every event the controller handled."""

    def __init__(self, journal: Any, settings: RemoteSettings, name: str, post: Callable[[Any], None],
                 clock_ms: Callable[[], int]) -> None:
        self.journal = journal
        self.settings = settings
        self.side = 1 - SIDES.index(settings.side)  # the other board's player number
        self.post = post
        self.clock_ms = clock_ms
        self.peer = RemotePeer(name)
        self.received: dict[int, dict[str, Any]] = {}
        self.acked: set[int] = set()
        for entry in journal.entries():
            body = entry.body
            if entry.kind != REMOTE_KIND or body.get("match") != settings.match:
                continue
            if body.get("what") == "received":
                self.received[int(body["seq"])] = body["action"]
            elif body.get("what") == "acked":
                self.acked.add(int(body["seq"]))
        self.peer.inbox.update(self.received)
        self.link = RemoteLink(settings, on_move=self._on_move, on_ack=self._on_ack, on_status=self._on_status,
                               on_refused=self._on_refused)
        self.controller: Controller | None = None
        self._task: asyncio.Task[None] | None = None
        self._sent_upto = 0
        self._owed: list[int] = []  # received moves to ack once their rows are committed

    @property
    def name(self) -> str:
        """The other side's player, as the display names them."""
        return self.peer.name

    # ------------------------------------------------------------------ the board's side
    def resume(self, journal: JournalLike, settings: Settings, now_ms: int, **parts: Unpack[RoomParts]) -> Controller:
        """The match room of the remote match, standing where the journal left it; the link
        starts (on the running loop)."""
        settings = replace(settings, takebacks=False, illegal=IllegalPolicy.CORRECT)
        parts["other"] = RemotePlayer(self.peer, self.side)
        controller = Controller.resume(journal, settings, now_ms, **parts)
        self.controller = controller
        self._check_start()
        self._task = asyncio.get_running_loop().create_task(self.link.run(), name="bgboard-remote")
        self.after()
        controller.handle(OpponentMoved(("remote", "resumed"), None, now_ms))  # take what waited in the journal
        return controller

    def press(self, player: int, button: str, at_ms: int) -> bool:
        """A press at this board is the match's (the remote seat takes none)."""
        return False

    def after(self) -> None:
        """Send this board's actions that the other board has not acked."""
        c = self.controller
        if c is None or getattr(self.journal, "uncommitted", False):
            return  # (the simulator's atomic rows: nothing goes out before it is on disk here)
        while self._owed:
            self.link.ack(self._owed.pop(0))
        actions = c.actions
        if len(actions) < self._sent_upto:
            self._sent_upto = 0
        for seq in range(self._sent_upto, len(actions)):
            if (seq == 0 or seq not in self.received) and seq not in self.acked:
                self.link.send(MoveMessage(self.settings.match, seq, action_to_dict(actions[seq])))
        self._sent_upto = len(actions)
        seq = len(actions)  # this board's player lost on time: the log's last entry
        if c.forfeit == 1 - self.side and seq not in self.received and seq not in self.acked:
            self.link.send(MoveMessage(self.settings.match, seq, {"type": FORFEIT, "loser": c.forfeit}))

    async def close(self) -> None:
        self.link.stop()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, 5)
            except asyncio.TimeoutError:  # pragma: no cover - the link ignores stop
                self._task.cancel()

    # ------------------------------------------------------------------ the link's side
    def _on_move(self, move: MoveMessage) -> None:
        seq, body = move.seq, move.action
        c = self.controller
        if seq in self.received:
            if self.received[seq] != body:
                log.warning("the other board sent move %d again, differently: the first one counts", seq)
            self.link.ack(seq)
            return
        if c is not None and 0 < seq < len(c.actions):
            log.warning("ignored the other board's move %d: this board made action %d itself", seq, seq)
            return
        if c is not None and seq > len(c.actions) + AHEAD:
            log.warning("ignored the other board's move %d: this board is at action %d", seq, len(c.actions))
            return  # (not acked: it comes again once this board is there)
        now = self.clock_ms()
        self.journal.append(REMOTE_KIND, {"what": "received", "match": self.settings.match, "seq": seq, "action": body},
                            now)
        self.received[seq] = body  # in the journal before it is acked, and before it takes effect
        self.peer.inbox[seq] = body
        if getattr(self.journal, "uncommitted", False):
            self._owed.append(seq)  # acked by after() once the row is on disk
        else:
            self.link.ack(seq)
        if seq == 0:
            self._check_start()
        self.post(OpponentMoved(("remote", seq), None, now))

    def _on_ack(self, ack: MoveAck) -> None:
        if ack.seq in self.acked:
            self.link.settle(ack.seq)
            return
        c = self.controller
        sent = c is not None and (ack.seq < len(c.actions) or (ack.seq == len(c.actions) and c.forfeit is not None))
        if c is None or not sent or (ack.seq in self.received and ack.seq != 0):
            log.warning("ignored the other board's ack of move %d, which this board did not send", ack.seq)
            return
        self.journal.append(REMOTE_KIND, {"what": "acked", "match": self.settings.match, "seq": ack.seq},
                            self.clock_ms())
        self.acked.add(ack.seq)
        self.link.settle(ack.seq)

    def _on_refused(self, text: str) -> None:
        """The broker refused this board's login: the match stops with that sentence."""
        self.peer.problem = text
        self.peer.refused = True
        if self.controller is not None:  # the display says why
            self.post(OpponentMoved(("remote", "link"), None, self.clock_ms()))

    def _on_status(self, up: bool) -> None:
        self.peer.online = up
        if self.controller is not None and not self.link.stopping:
            self.post(OpponentMoved(("remote", "link"), None, self.clock_ms()))

    def _check_start(self) -> None:
        """Both boards must have started the same match (length, rules, players)."""
        c = self.controller
        theirs = self.received.get(0)
        if c is None or theirs is None or not c.actions:
            return
        ours = action_to_dict(c.actions[0])
        if ours != theirs:
            differ = sorted(k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k))
            self.peer.problem = (f"the other board started another match ({', '.join(differ)} differ): both boards "
                                 f"need the same [match] length, rules and players")
            log.error("%s", self.peer.problem)


class RemoteBroker(PrivateBroker):
    """A private Mosquitto for remote matches (tests, ``bgboard sim --remote``): one user per
    board, each allowed its own side of the match it joined (``seats``: (user, match, side))."""

    def __init__(self, root: Path, seats: list[tuple[str, str, str]], **kwargs: Any) -> None:
        self.seats = list(seats)
        super().__init__(root, "remote", [], **kwargs)

    def _write(self) -> None:
        write_accounts(self.root, self.seats)  # the same files as ``bgboard invite`` writes
        (self.root / "data").mkdir(exist_ok=True)
        self.conf.write_text(mosquitto_conf(
            Listener(self.port, "127.0.0.1"), str(self.root / "passwd"), str(self.root / "acl"),
            persistence_dir=str(self.root / "data") + "/" if self.persistence else None, log_file=str(self.log),
            user=pwd.getpwuid(os.geteuid()).pw_name))


def open_remote(settings: RemoteSettings, players: tuple[str, str], journal: Any, post: Callable[[Any], None],
                clock_ms: Callable[[], int]) -> RemoteSeat:
    """The remote seat of a board whose person plays ``settings.side`` of a match between
    ``players`` (the config's :func:`bgboard.config.remote_settings`)."""
    return RemoteSeat(journal, settings, players[1 - SIDES.index(settings.side)], post, clock_ms)
