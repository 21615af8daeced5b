"""The federation's Mosquitto files and a club's bridge to it (pure text; docs/club-network.md).

The federation's broker has one user for the federation service (``federation``: reads every
club's federation result topic, writes every club's ack topic), one for its pages
(``federation-pages``: reads every club's bridged board states) and one per club
(``club-<club>``: writes only its own result topic and board states, reads only its own acks)
— so a club can neither forge another club's results or boards nor read another club's answers.  Anonymous clients are
refused and a client's id is its user name, as on a club's broker (the same
:func:`bgboard.net.broker.mosquitto_conf` writes both).

A club's Mosquitto carries a ``connection`` section (:func:`bridge_section`, what
``bgboard federation join`` writes for the club's ``/etc/mosquitto/conf.d/``): the club's
result topic out, the federation's acks for that club in and nothing else; ``cleansession
false`` so the federation's broker keeps the bridge's session and the club's broker queues
while the link is down, at QoS 1 both ways; the boards' live states out at QoS 0 (retained,
as the boards publish them); the bridge's up/down notification published on the club's broker
only, where the club's results feed listens.
"""

from __future__ import annotations

from collections.abc import Iterable

from bgboard.net.broker import Listener, mosquitto_conf
from bgboard.net.protocol import board_filter, check_club
from bgboard.net.results_feed import RESULTS_FILTER, ack_topic, bridge_topic, result_topic

SERVICE_USER = "federation"
#: The federation's pages' user: reads every club's bridged live board states, nothing else.
PAGES_USER = "federation-pages"
STATES_FILTER = "bgboard/+/board/+/state"
BRIDGE_NAME = "bgboard-federation"
ACKS_FILTER = "bgboard/+/federation/ack"


def club_user(club: str) -> str:
    """The federation broker's user name of a club."""
    return f"club-{check_club(club)}"


def federation_conf(listener: Listener, password_file: str, acl_file: str, *, persistence_dir: str | None = None,
                    log_file: str | None = None, user: str | None = None) -> str:
    """The federation broker's ``mosquitto.conf`` (the club broker's settings, its own files)."""
    text = mosquitto_conf(listener, password_file, acl_file, persistence_dir=persistence_dir, log_file=log_file,
                          user=user)
    return text.replace("# bgboard club broker (Mosquitto 2.0): boards and the director, nobody else.",
                        "# bgboard federation broker (Mosquitto 2.0): the clubs' bridges and the federation service.")


def federation_acl(clubs: Iterable[str]) -> str:
    """The federation broker's ``acl_file`` for these clubs."""
    out = [
        "# bgboard federation: each club its own result topic and acks, the service all of them.",
        f"user {SERVICE_USER}",
        f"topic read {RESULTS_FILTER}",
        f"topic write {ACKS_FILTER}",
        "",
        f"user {PAGES_USER}",
        f"topic read {STATES_FILTER}",
        "",
    ]
    for club in sorted(set(clubs)):
        out += [f"user {club_user(club)}", f"topic write {result_topic(club)}", f"topic read {ack_topic(club)}",
                f"topic write {board_filter(club, 'state')}", ""]
    return "\n".join(out)


def bridge_section(club: str, host: str, port: int, password: str, *, tls_ca: str = "") -> str:
    """The ``connection`` section a club's Mosquitto needs to reach the federation."""
    club = check_club(club)
    lines = [
        f"# bgboard: club {club!r} -> its federation ('bgboard federation join').  Put this file in",
        "# /etc/mosquitto/conf.d/ on the club's machine; it holds the club's federation password.",
        f"connection {BRIDGE_NAME}",
        f"address {host}:{port}",
        f"remote_username {club_user(club)}",
        f"remote_password {password}",
        f"remote_clientid {club_user(club)}",
        "bridge_protocol_version mqttv311",
        # the federation's broker keeps the bridge's session (its acks queue there while the
        # link is down); the club's broker queues the results meanwhile
        "cleansession false",
        "start_type automatic",
        "restart_timeout 1 10",
        "keepalive_interval 10",
        "try_private true",
        "notifications true",
        "notifications_local_only true",
        f"notification_topic {bridge_topic(club)}",
        f"topic {result_topic(club)} out 1",
        f"topic {ack_topic(club)} in 1",
        # the boards' live states (retained, coalesced by the boards) for the federation's pages
        f"topic {board_filter(club, 'state')} out 0",
    ]
    if tls_ca:
        lines.append(f"bridge_cafile {tls_ca}")
    return "\n".join(lines) + "\n"


__all__ = ["SERVICE_USER", "PAGES_USER", "STATES_FILTER", "BRIDGE_NAME", "ACKS_FILTER", "club_user", "federation_conf", "federation_acl",
           "bridge_section"]
