"""The Mosquitto configuration of a club (pure text; docs/club-network.md).

One user per board (``board1``, ``board2``, ...), one for the director and one for the
results feed to the club's federation (``feed``: it writes only the club's federation result
topic and reads the federation's answers).  The ACL gives
each board exactly its own topics: it may *write* only its ``state``, ``online`` and
``result`` and *read* only its ``assign`` and ``ack``; the director reads every board's
``state``/``online``/``result`` (and may clear them) and writes every ``assign``/``ack`` and
the room's ``live`` topics, which the spectators' gallery (``gallery``) may only read
(:mod:`bgboard.net.gallery`).
Anonymous clients are refused; a client's id is its user name (``use_username_as_clientid``),
so a board's password cannot take over the director's or another board's session.  The same
functions write deploy/mosquitto/ (the director's machine), the tests' private brokers and
``bgboard club demo``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from bgboard.net.gallery import gallery_user
from bgboard.net.protocol import MAX_PAYLOAD, PREFIX, check_club
from bgboard.net.results_feed import ack_topic, bridge_topic, result_topic

DIRECTOR = "director"
#: The club's results feed to its federation (club/federation_feed.py; net/results_feed.py).
FEED = "feed"
#: Messages the broker queues per client beyond those in flight (Mosquitto's default: 1000).
MAX_QUEUED_MESSAGES = 100_000
#: ... and at most these many bytes of them (a flood of states: about 400 bytes each).
MAX_QUEUED_BYTES = 256 * 1024 * 1024
#: QoS 1 messages in flight to one client at once (Mosquitto's default: 20).
MAX_INFLIGHT = 100
#: The largest MQTT packet accepted: the protocol's largest payload and its topic and header.
MAX_PACKET = MAX_PAYLOAD + 1024


def board_user(board: int) -> str:
    """The broker user name of board ``board``."""
    return f"board{board}"


@dataclass(frozen=True, slots=True)
class Listener:
    """Where the broker listens; ``certfile``/``keyfile`` set turn on TLS."""

    port: int = 1883
    address: str = ""  # "" = every interface
    certfile: str = ""
    keyfile: str = ""


def mosquitto_conf(
    listener: Listener,
    password_file: str,
    acl_file: str,
    *,
    persistence_dir: str | None = None,
    log_file: str | None = None,
    user: str | None = None,
) -> str:
    """The text of a ``mosquitto.conf`` (Mosquitto 2.0) for a club broker.  ``user``: the
    account a broker started as root runs as (Mosquitto's default is ``mosquitto``);
    ``persistence_dir``: where it saves its state (None: as the main config file says — the
    Debian package's saves in /var/lib/mosquitto/, and Mosquitto refuses a second setting)."""
    lines = [
        "# bgboard club broker (Mosquitto 2.0): boards and the director, nobody else.",
        *([f"user {user}"] if user else []),
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {password_file}",
        f"acl_file {acl_file}",
        f"listener {listener.port}{' ' + listener.address if listener.address else ''}",
    ]
    if listener.certfile:
        lines += [f"certfile {listener.certfile}", f"keyfile {listener.keyfile}", "tls_version tlsv1.2"]
    if persistence_dir is not None:  # Debian's own mosquitto.conf already turns persistence on
        lines += ["persistence true", f"persistence_location {persistence_dir}"]
    # Queued QoS 1 messages of persistent sessions and retained states are saved every 30 s
    # and at a clean stop; the results themselves never depend on it (the boards' outboxes do).
    lines += ["autosave_interval 30"]
    lines += [
        # A client id is its user name: no board can take another's (or the director's) session.
        "use_username_as_clientid true",
        # The director reads every board's messages: its queue must hold a flood from one board
        # with every other board's messages behind it (the director drops a flood unread, as
        # fast as it arrives, and boards re-send results until acked); the bytes bound memory.
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        f"max_queued_bytes {MAX_QUEUED_BYTES}",
        f"max_inflight_messages {MAX_INFLIGHT}",
        # The largest message a board sends is a result with its .mat (the protocol's bound);
        # a client sending a larger packet is disconnected by the broker.
        f"max_packet_size {MAX_PACKET}",
        "persistent_client_expiration 14d",
    ]
    if log_file is not None:
        lines += [f"log_dest file {log_file}", "log_type error", "log_type warning", "log_type notice", "connection_messages true"]
    return "\n".join(lines) + "\n"


def acl_text(club: str, boards: Iterable[int], galleries: int = 1) -> str:
    """The ``acl_file`` of a club with these board numbers and ``galleries`` bridged galleries
    (each its own user, :func:`~bgboard.net.gallery.gallery_user`)."""
    club = check_club(club)
    base = f"{PREFIX}/{club}/board"
    out = [
        f"# bgboard club {club!r}: each board its own topics, the director all of them.",
        f"user {DIRECTOR}",
        # readwrite: the director clears junk a board left retained (an empty retained publish)
        f"topic readwrite {base}/+/state",
        f"topic readwrite {base}/+/online",
        f"topic readwrite {base}/+/result",
        f"topic write {base}/+/assign",
        f"topic write {base}/+/ack",
        # the room's live boards for the spectators' gallery (bgboard.net.gallery)
        f"topic write {PREFIX}/{club}/live/#",
        "",
        *(line for n in range(1, galleries + 1) for line in (f"user {gallery_user(n)}", f"topic read {PREFIX}/{club}/live/#", "")),
        # the results feed: the club's stored results out to the federation (through the
        # bridge 'bgboard federation join' writes), the federation's answers and the bridge's state in
        f"user {FEED}",
        f"topic write {result_topic(club)}",
        f"topic read {ack_topic(club)}",
        f"topic read {bridge_topic(club)}",
        "",
    ]
    for n in sorted(set(boards)):
        out += [
            f"user {board_user(n)}",
            f"topic write {base}/{n}/state",
            f"topic write {base}/{n}/online",
            f"topic write {base}/{n}/result",
            f"topic read {base}/{n}/assign",
            f"topic read {base}/{n}/ack",
            "",
        ]
    return "\n".join(out)
