"""The Mosquitto configuration of a club (pure text; docs/club-network.md).

One user per board (``board1``, ``board2``, ...) and one for the director.  The ACL gives
each board exactly its own topics: it may *write* only its ``state``, ``online`` and
``result`` and *read* only its ``assign`` and ``ack``; the director reads every board's
``state``/``online``/``result`` and writes every ``assign``/``ack``.  Anonymous clients are
refused.  The same functions write deploy/mosquitto/ (the director's machine), the tests'
private brokers and ``bgboard club demo``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from bgboard.net.protocol import PREFIX, check_club

DIRECTOR = "director"


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
        "max_queued_messages 1000",  # per offline persistent client: a night of results at most
        "persistent_client_expiration 14d",
    ]
    if log_file is not None:
        lines += [f"log_dest file {log_file}", "log_type error", "log_type warning", "log_type notice", "connection_messages true"]
    return "\n".join(lines) + "\n"


def acl_text(club: str, boards: Iterable[int]) -> str:
    """The ``acl_file`` of a club with these board numbers."""
    club = check_club(club)
    base = f"{PREFIX}/{club}/board"
    out = [
        f"# bgboard club {club!r}: each board its own topics, the director all of them.",
        f"user {DIRECTOR}",
        f"topic read {base}/+/state",
        f"topic read {base}/+/online",
        f"topic read {base}/+/result",
        f"topic write {base}/+/assign",
        f"topic write {base}/+/ack",
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
