"""One MQTT session to the club broker (adapter: the only importer of aiomqtt and paho).

:func:`open_client` builds an :class:`aiomqtt.Client` the way both sides of the club use it:
MQTT 5, a fixed client identifier, a **persistent session** (clean start off, the session
kept 14 days) so QoS 1 messages sent while a client was away are queued for it, a keep-alive
short enough that the broker notices a lost board within seconds, TLS when the URL says
``mqtts://``.  Both sides space their reconnection attempts with the one
:class:`~bgboard.link.backoff.Backoff` (re-exported here for the club layer, which does not
import ``link``).  :class:`Reconnecting` is the loop both links run: connect, serve, wait the
backoff after a loss, connect again, until stopped; ``online`` told on each change.
:func:`keep_session` is the same loop for the club's and the federation's services (the
director, the results feed, the federation's intake), composed rather than inherited, and
:func:`serve_side_by_side` runs one session's reader and writer until one ends or a stop.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

from bgboard.errors import shown
from bgboard.link.backoff import Backoff as Backoff  # re-exported: the club layer reaches it through net
from bgboard.net.protocol import BrokerUrl

log = logging.getLogger(__name__)

SESSION_EXPIRY_S = 14 * 24 * 3600
KEEPALIVE_S = 10
MqttError = aiomqtt.MqttError
#: MQTT 5 reason codes of a refused login: 134 bad user name or password, 135 not authorized.
LOGIN_REFUSED = (134, 135)


def login_refused(exc: BaseException) -> bool:
    """Whether ``exc`` is the broker refusing the login (trying again will not help)."""
    rc = getattr(exc, "rc", None)
    return getattr(rc, "value", rc) in LOGIN_REFUSED


@dataclass(frozen=True, slots=True)
class Will:
    """The message the broker publishes if the client vanishes."""

    topic: str
    payload: bytes


def open_client(
    url: BrokerUrl,
    *,
    username: str,
    password: str,
    identifier: str,
    will: Will | None = None,
    ca_file: str = "",
    keepalive: int = KEEPALIVE_S,
    timeout: float = 10.0,
) -> aiomqtt.Client:
    """A not yet connected client (use ``async with``)."""
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_EXPIRY_S
    tls: Any = None
    if url.tls:
        tls = ssl.create_default_context(cafile=ca_file or None)
    log.debug("an MQTT session to %s as %s (client %s)", url, shown(username, 60), shown(identifier, 80))
    return aiomqtt.Client(
        url.host,
        url.port,
        username=username,
        password=password,
        identifier=identifier,
        protocol=aiomqtt.ProtocolVersion.V5,
        clean_start=False,
        properties=properties,
        keepalive=keepalive,
        timeout=timeout,
        will=aiomqtt.Will(will.topic, will.payload, qos=1, retain=True) if will is not None else None,
        tls_context=tls,
    )


class Reconnecting:
    """The reconnection loop the board's club link and the remote link share.

    A subclass calls :meth:`_keep_connected` from its ``run``: it connects (``connect`` builds
    a client), serves the connection (``serve``), says why a connection failed or broke
    (``lost``: the exception), waits the :class:`Backoff` (or less, if :meth:`stop` is called
    meanwhile) and connects again, until :meth:`stop`; then ``online`` is False.  The
    subclass calls :meth:`_set_online` when it is connected; ``on_status`` hears each change.
    """

    def __init__(self, on_status: Callable[[bool], None], online: bool | None) -> None:
        self.on_status = on_status
        self.online = online
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()

    def stop(self) -> None:
        """End ``run`` (the session is left cleanly)."""
        self._stopping.set()
        self._wake.set()

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def _set_online(self, up: bool) -> None:
        if up != self.online:
            self.online = up
            self.on_status(up)

    async def _keep_connected(self, connect: Callable[[], aiomqtt.Client], serve: Callable[[Any], Awaitable[None]],
                              lost: Callable[[Exception], None], backoff: Backoff, *,
                              offline_between: bool = False) -> None:
        """Connect, serve, reconnect until :meth:`stop` (never raises on network trouble).
        ``offline_between``: ``online`` turns False after each connection ends, not only
        after one fails."""
        def offline() -> None:
            if offline_between:
                self._set_online(False)

        def unexpected(exc: Exception) -> None:  # this loop's users end on anything but network trouble
            raise exc

        await keep_session(connect, serve, stopping=self._stopping, backoff=backoff, unreachable=lost,
                           failed=unexpected, up=lambda: None, down=offline)
        self._set_online(False)


async def keep_session(connect: Callable[[], aiomqtt.Client], serve: Callable[[Any], Awaitable[None]], *,
                       stopping: asyncio.Event, backoff: Backoff,
                       unreachable: Callable[[Exception], None], failed: Callable[[Exception], None],
                       up: Callable[[], None], down: Callable[[], None]) -> None:
    """Keep one session to the broker until ``stopping`` is set: connect (``connect`` builds a
    client), ``up``, ``serve``; after a loss ``down``, wait the :class:`Backoff` (less if
    stopped meanwhile) and connect again.  A broker that cannot be reached or drops the
    session is told to ``unreachable``; any other fault to ``failed`` (one fault never ends a
    service: it connects again)."""
    while not stopping.is_set():
        client = connect()
        try:
            async with client:
                backoff.reset()
                up()
                await serve(client)
        except (MqttError, OSError) as exc:  # aiomqtt wraps socket errors, but a socket may still raise
            unreachable(exc)
        except Exception as exc:
            failed(exc)
        down()
        if stopping.is_set():
            break
        try:
            await asyncio.wait_for(stopping.wait(), backoff.delay())
        except asyncio.TimeoutError:
            pass


async def serve_side_by_side(stopping: asyncio.Event, *jobs: Awaitable[None]) -> None:
    """Run one session's ``jobs`` (its reader, its writer) together until one of them ends or
    ``stopping`` is set; a job's fault is raised (the session ends), the others are cancelled."""
    tasks: list[asyncio.Future[Any]] = [asyncio.ensure_future(job) for job in jobs]
    stop: asyncio.Future[Any] = asyncio.ensure_future(stopping.wait())
    everything = [*tasks, stop]
    try:
        done, _ = await asyncio.wait(everything, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task in done:
                task.result()
    finally:
        for task in everything:
            task.cancel()
        await asyncio.gather(*everything, return_exceptions=True)


def manual_acks(client: aiomqtt.Client) -> None:
    """Acknowledge this client's incoming QoS 1 messages only when :func:`ack` is called (before
    connecting): a receiver that stores them acks after its commit, so a receiver killed in
    between has them delivered again by the broker (its session is persistent)."""
    client._client.manual_ack_set(True)  # aiomqtt exposes no switch of its own (2.5)


def ack(client: aiomqtt.Client, message: Any) -> None:
    """Acknowledge one incoming message (after :func:`manual_acks`)."""
    client._client.ack(message.mid, message.qos)


def subscription(qos: int = 1, *, no_local: bool = False, retain_as_published: bool = False) -> Any:
    """MQTT 5 subscription options: ``no_local`` (the client's own publishes do not come back)
    and ``retain_as_published`` (a message says whether its publisher retained it)."""
    return SubscribeOptions(qos=qos, noLocal=no_local, retainAsPublished=retain_as_published)
