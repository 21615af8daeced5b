"""One MQTT session to the club broker (adapter: the only importer of aiomqtt and paho).

:func:`open_client` builds an :class:`aiomqtt.Client` the way both sides of the club use it:
MQTT 5, a fixed client identifier, a **persistent session** (clean start off, the session
kept 14 days) so QoS 1 messages sent while a client was away are queued for it, a keep-alive
short enough that the broker notices a lost board within seconds, TLS when the URL says
``mqtts://``.  Both sides space their reconnection attempts with the one
:class:`~bgboard.link.backoff.Backoff` (re-exported here for the club layer, which does not
import ``link``).
"""

from __future__ import annotations

import logging
import ssl
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


def subscription(qos: int = 1, *, no_local: bool = False, retain_as_published: bool = False) -> Any:
    """MQTT 5 subscription options: ``no_local`` (the client's own publishes do not come back)
    and ``retain_as_published`` (a message says whether its publisher retained it)."""
    return SubscribeOptions(qos=qos, noLocal=no_local, retainAsPublished=retain_as_published)
