"""The gallery: a second Mosquitto where spectators watch the club's live boards (pure text;
docs/club-network.md, "Spectators").

The club's broker stays closed to the public (every client has a user and a password).  The
director publishes the room's live boards, checked and compact (``bgboard.club.live_wire``),
on the club's ``live`` topics; the gallery broker bridges exactly those topics **in** from the
club's broker (as the user :data:`GALLERY`, who may only read them) and serves them to
anonymous browsers over MQTT-over-WebSocket, read-only.  A spectator never reaches the club's
broker, the director's process or any other topic: the gallery holds nothing else, its ACL lets
anonymous clients read ``bgboard/<club>/live/#`` and nothing more, and no user of the gallery
has a session worth taking (the bridge is the gallery's own client of the club broker).

Topics (retained ones marked R):

* ``bgboard/<club>/live/board/<n>`` (R): board ``n``'s newest compact state, at most one a tick;
* ``bgboard/<club>/live/room``: every board changed in one tick, in as few messages as fit (a
  board the room has already sent as its change since then; a spectator that cannot apply one
  takes the board's retained topic).

Mosquitto counts no connections per address, so a gallery open to the internet stands behind
a front, Debian's HAProxy relaying TCP (:func:`gallery_front_conf`): at most
:data:`PER_ADDRESS` spectators from one address and :data:`MAX_SPECTATORS` in all, the
gallery's own listener on this machine only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import re

from bgboard.net.protocol import PREFIX, ProtocolError, check_club

#: The club broker's user of a gallery's bridge (it reads the live topics only).
GALLERY = "gallery"
#: Galleries bridged to one club broker (each a Mosquitto, one core's fan-out): past a few
#: dozen, a clustered broker (docs/club-network.md, "100,000 spectators").
MAX_GALLERIES = 32
#: Spectators connected to one gallery at once (Mosquitto's ``max_connections``).
MAX_SPECTATORS = 20_000
#: The largest packet the gallery takes: a room message of 100 boards with the longest names
#: (``bgboard.club.web.live_wire``: under 200 kB), which also bounds what a spectator may send
#: (its CONNECT or SUBSCRIBE is a few dozen bytes).
MAX_PACKET = 256 * 1024
#: Messages (and bytes) the gallery keeps queued for one slow spectator; beyond, it drops the
#: spectator's QoS 0 messages (it gets a newer state next tick).  The count holds a room's
#: snapshot (one retained message per board, sent at once when a page subscribes).
MAX_QUEUED_MESSAGES = 1000
MAX_QUEUED_BYTES = 4 * 1024 * 1024
#: Spectators from one address (an IPv4 address, or an IPv6 /64: one computer's share) held at
#: once by the gallery's front (:func:`gallery_front_conf`): a room's Wi-Fi or a school's NAT
#: fits, one machine cannot take a gallery's seats.
PER_ADDRESS = 64
#: How long the front keeps a silent connection: past the spectators' MQTT keepalive (the
#: page's 60 s; the gallery allows up to 300).
FRONT_IDLE_S = 330


_URL_RE = re.compile(r"wss?://[A-Za-z0-9.\-\[\]:]{1,200}(/[A-Za-z0-9._~\-/]{0,100})?")


def check_gallery_url(url: str) -> str:
    """``url`` if it is a gallery's WebSocket address (``ws://host:port/`` or ``wss://...``:
    letters, digits and ``.-:[]`` in the host, a plain path), else one sentence."""
    if not isinstance(url, str) or not _URL_RE.fullmatch(url):
        raise ProtocolError(f"a gallery is a WebSocket address such as ws://club.local:9001/, not {url[:80]!r}")
    return url


def gallery_user(n: int = 1) -> str:
    """The club broker's user of gallery ``n``'s bridge: :data:`GALLERY` for the first,
    ``gallery-<n>`` for each further one (every bridge needs a client id, so a user, of its own)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_GALLERIES:
        raise ProtocolError(f"a gallery is numbered 1 to {MAX_GALLERIES}, not {n!r}")
    return GALLERY if n == 1 else f"{GALLERY}-{n}"


def live_filter(club: str) -> str:
    """Every live topic of the club (the gallery's and the spectators' filter)."""
    return f"{PREFIX}/{check_club(club)}/live/#"


def room_topic(club: str) -> str:
    """``bgboard/<club>/live/room``: the boards changed in one tick."""
    return f"{PREFIX}/{check_club(club)}/live/room"


def board_topic(club: str, board: int) -> str:
    """``bgboard/<club>/live/board/<n>``: one board's newest compact state (retained)."""
    return f"{PREFIX}/{check_club(club)}/live/board/{int(board)}"


@dataclass(frozen=True, slots=True)
class Bridge:
    """Where the gallery takes the live topics from: the club broker's address and port, and
    the bridge's password there (user :data:`GALLERY` unless ``user`` says another:
    each gallery bridged to one club broker needs a user of its own)."""

    address: str
    port: int
    password: str
    user: str = GALLERY


def gallery_conf(club: str, port: int, acl_file: str, bridge: Bridge, local_socket: str, *, address: str = "",
                 max_spectators: int = MAX_SPECTATORS, log_file: str | None = None, user: str | None = None) -> str:
    """The text of a gallery's ``mosquitto.conf``: one WebSocket listener for anonymous
    spectators, read-only through ``acl_file`` (:func:`gallery_acl_text`), and a bridge taking
    the club's live topics in.  ``local_socket``: a Unix socket for this machine's own clients
    (same ACL; Debian's Mosquitto 2.0.11 will not start with a WebSocket listener alone).  The
    file holds the bridge's password: keep it ``chmod 600``."""
    club = check_club(club)
    lines = [
        f"# bgboard gallery for club {club!r} (Mosquitto 2.0): spectators read the live boards, nothing else.",
        *([f"user {user}"] if user else []),
        "per_listener_settings false",
        "allow_anonymous true",
        f"acl_file {acl_file}",
        "persistence false",
        # every message goes out at once, not held for the previous one's ACK (Nagle's algorithm)
        "set_tcp_nodelay true",
        f"listener {port}{' ' + address if address else ''}",
        "protocol websockets",
        f"max_connections {max_spectators}",
        f"max_packet_size {MAX_PACKET}",
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        f"max_queued_bytes {MAX_QUEUED_BYTES}",
        "max_keepalive 300",
        "websockets_log_level 0",
        f"listener 0 {local_socket}",
    ]
    if log_file is not None:
        lines += [f"log_dest file {log_file}", "log_type error", "log_type warning", "connection_messages false"]
    lines += [
        "",
        f"connection bgboard-{club}-{bridge.user}",
        f"address {bridge.address}:{bridge.port}",
        f"remote_username {bridge.user}",
        f"remote_password {bridge.password}",
        f"remote_clientid {bridge.user}",
        # in: the club broker's live topics come here; nothing goes back
        f"topic {PREFIX}/{club}/live/# in 0",
        "bridge_protocol_version mqttv311",
        # a Mosquitto on both ends: retained stays retained (a new spectator gets the newest)
        "try_private true",
        "cleansession true",
        "notifications false",
        "restart_timeout 1 10",
    ]
    return "\n".join(lines) + "\n"


def gallery_acl_text(club: str) -> str:
    """The gallery's ``acl_file``: anonymous clients may read the club's live topics only."""
    return (f"# bgboard gallery for club {check_club(club)!r}: anonymous spectators read the live boards only.\n"
            f"topic read {live_filter(club)}\n")


def gallery_front_conf(port: int, gallery_port: int | Sequence[int], *, address: str = "",
                       per_address: int = PER_ADDRESS, max_spectators: int = MAX_SPECTATORS,
                       idle_s: int = FRONT_IDLE_S) -> str:
    """The text of an ``haproxy.cfg`` for the gallery's front: HAProxy (2.6, Debian's) takes the
    spectators' connections on ``address:port`` and relays their bytes, untouched (TCP mode:
    the WebSocket and MQTT are the gallery's), to the gallery's listener on ``127.0.0.1:
    gallery_port``, refusing a connection from an address that holds ``per_address`` already
    (IPv6 addresses counted by their /64) and any beyond ``max_spectators``.  Several ports:
    one gallery each (each bridged from the club's broker, :func:`gallery_user`), every new
    spectator sent to the one holding fewest (``balance leastconn``), so each Mosquitto's
    fan-out serves its share."""
    ports = [gallery_port] if isinstance(gallery_port, int) else list(gallery_port)
    if not 1 <= len(ports) <= MAX_GALLERIES:
        raise ProtocolError(f"a front serves 1 to {MAX_GALLERIES} galleries, not {len(ports)}")
    for name, value in [("port", port)] + [("gallery_port", p) for p in ports]:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
            raise ProtocolError(f"the front's {name} is a TCP port (1 to 65535), not {value!r}")
    if not 1 <= int(per_address) <= int(max_spectators):
        raise ProtocolError(f"spectators from one address are 1 to {max_spectators}, not {per_address!r}")
    if address and not re.fullmatch(r"[0-9A-Fa-f.:\[\]]{1,64}", address):
        raise ProtocolError(f"the front's address is an IP address, not {address[:80]!r}")
    addresses = 4 * int(max_spectators)   # each address's count, kept a while after it leaves
    return "\n".join([
        "# bgboard gallery's front (HAProxy 2.6): spectators' connections, a few from each address.",
        "global",
        f"    maxconn {int(max_spectators) + 64}",
        "",
        "defaults",
        "    mode tcp",
        "    timeout connect 5s",
        f"    timeout client {int(idle_s)}s",
        f"    timeout server {int(idle_s)}s",
        "    timeout client-fin 10s",
        "",
        "frontend spectators",
        f"    bind {address or '*'}:{int(port)}",
        f"    maxconn {int(max_spectators)}",
        # an address's connections now (sc0_conn_cur counts this one): IPv4 as it is, IPv6 by its /64
        f"    stick-table type ipv6 size {addresses} expire {int(idle_s)}s store conn_cur",
        "    tcp-request connection track-sc0 src,ipmask(32,64)",
        f"    tcp-request connection reject if {{ sc0_conn_cur gt {int(per_address)} }}",
        "    default_backend gallery",
        "",
        "backend gallery",
        *(["    balance leastconn"] if len(ports) > 1 else []),
        *(f"    server gallery{'' if len(ports) == 1 else k} 127.0.0.1:{p}" for k, p in enumerate(ports, 1)),
        "",
    ])
