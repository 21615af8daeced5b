"""A private Mosquitto for a club on this machine (adapter: files and a process).

:class:`PrivateBroker` writes a club's broker files with :mod:`bgboard.net.broker` — the
``mosquitto.conf``, the ACL and a password file hashed by Mosquitto's own
``mosquitto_passwd`` — into a directory, with one random password per user kept in
``secrets/<user>.password`` (what a board's ``[club] password_file`` points at), and runs
``mosquitto -c`` on a free localhost port.  Used by ``bgboard club demo``, the tests and
benchmarks/club_load.py; on the director's machine Mosquitto runs as the system service
instead (docs/club-network.md).
"""

from __future__ import annotations

import logging
import os
import pwd
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterable

from bgboard.errors import EnvironmentFailure, shown
from bgboard.net.broker import DIRECTOR, FEED, Listener, acl_text, board_user, mosquitto_conf
from bgboard.net.gallery import MAX_SPECTATORS, Bridge, gallery_acl_text, gallery_conf, gallery_user

log = logging.getLogger(__name__)

SBIN = "/usr/sbin/mosquitto"


class BrokerMissingError(EnvironmentFailure):
    """Mosquitto (or mosquitto_passwd) is not installed."""


class BrokerStartError(EnvironmentFailure):
    """The private broker did not start (the message quotes its log)."""


def mosquitto_binary() -> str:
    """The path of the ``mosquitto`` program, or :class:`BrokerMissingError`."""
    found = shutil.which("mosquitto") or (SBIN if os.access(SBIN, os.X_OK) else None)
    if found is None:
        raise BrokerMissingError(
            "Mosquitto is not installed: install it with 'apt-get install mosquitto' (or run tools/test-services)"
        )
    return found


def passwd_binary() -> str:
    """The path of ``mosquitto_passwd``, or :class:`BrokerMissingError`."""
    found = shutil.which("mosquitto_passwd")
    if found is None:
        raise BrokerMissingError("mosquitto_passwd is not installed: install it with 'apt-get install mosquitto'")
    return found


def write_password_file(path: Path, users: dict[str, str]) -> None:
    """A Mosquitto password file holding ``users`` (name -> password), hashed by
    ``mosquitto_passwd`` itself."""
    tool = passwd_binary()
    path.write_text("")
    os.chmod(path, 0o600)
    for name, password in users.items():
        subprocess.run([tool, "-b", str(path), name, password], check=True, capture_output=True)


def free_port() -> int:
    """A TCP port free on localhost now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_mosquitto(binary: str, conf: Path, port: int, log_file: Path, timeout: float,
                  files: int | None = None, nice: int = 0, name: str = "mosquitto") -> "subprocess.Popen[bytes]":
    """``mosquitto -c conf``, once it accepts connections on ``port`` (else killed and
    :class:`BrokerStartError` quoting its log, the broker called ``name``); ``files``: its
    descriptor limit (within the hard limit), which bounds its connections; ``nice``: its
    niceness (above the caller's)."""
    limit = None
    if files is not None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        limit = (files if hard == resource.RLIM_INFINITY else min(files, hard), hard)

    def limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, limit)
        if nice:
            os.nice(nice)

    process = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               preexec_fn=limited if limit is not None or nice else None)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = (process.stderr.read() if process.stderr else b"").decode(errors="replace")
            err = "\n".join(line for line in err.splitlines() if "should not be run as root" not in line)
            tail = log_file.read_text(errors="replace")[-400:] if log_file.exists() else ""
            log.debug("mosquitto (pid %d) exited with code %s: %s", process.pid, process.returncode,
                      shown((err or tail).strip()[-400:], 500))
            raise BrokerStartError(f"{name} stopped at once: {(err or tail).strip()[-400:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    log.debug("mosquitto (pid %d) did not listen on port %d within %.0f s: killed", process.pid, port, timeout)
    process.kill()
    process.wait()
    raise BrokerStartError(f"{name} did not listen on port {port} within {timeout:.0f} s")


def end_mosquitto(process: "subprocess.Popen[bytes]", sig: int = signal.SIGTERM) -> None:
    """End a broker :func:`run_mosquitto` started: ``sig`` (SIGTERM: it saves its persistence
    file; SIGKILL: what a power cut does), a SIGKILL if it has not ended within 10 s."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover - mosquitto ignores SIGTERM
            process.kill()
            process.wait()
    if process.stderr is not None:
        process.stderr.close()


class PrivateBroker:
    """A club broker in ``root`` (see the module docstring); ``start``/``stop``/``kill``."""

    def __init__(
        self, root: Path, club: str, boards: Iterable[int], *, port: int | None = None, persistence: bool = True,
        tls: tuple[Path, Path] | None = None, galleries: int = 1,
    ) -> None:
        self.binary = mosquitto_binary()
        self.root = Path(root)
        self.club = club
        self.boards = sorted(set(boards))
        self.port = port or free_port()
        self.persistence = persistence
        self.tls = tls  # (certificate, key): the listener speaks TLS (mqtts://)
        self.galleries = galleries  # galleries that may bridge from it, each its own user
        self.process: subprocess.Popen[bytes] | None = None
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "secrets").mkdir(exist_ok=True)
        self.conf = self.root / "mosquitto.conf"
        self.log = self.root / "mosquitto.log"
        self._write()

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def password_file(self, user: str) -> Path:
        """The file holding ``user``'s password (a board's ``[club] password_file``)."""
        return self.root / "secrets" / f"{user}.password"

    def password(self, user: str) -> str:
        return self.password_file(user).read_text().strip()

    def _write(self) -> None:
        users = [DIRECTOR, FEED] + [gallery_user(n) for n in range(1, self.galleries + 1)] + [board_user(n) for n in self.boards]
        passwords = {}
        for user in users:
            f = self.password_file(user)
            if not f.exists():
                f.write_text(secrets.token_urlsafe(18) + "\n")
                os.chmod(f, 0o600)
            passwords[user] = self.password(user)
        write_password_file(self.root / "passwd", passwords)
        (self.root / "acl").write_text(acl_text(self.club, self.boards, self.galleries))
        (self.root / "data").mkdir(exist_ok=True)
        self.conf.write_text(
            mosquitto_conf(
                Listener(self.port, "127.0.0.1", *(str(p) for p in self.tls or ("", ""))),
                str(self.root / "passwd"),
                str(self.root / "acl"),
                persistence_dir=str(self.root / "data") + "/" if self.persistence else None,
                log_file=str(self.log),
                user=pwd.getpwuid(os.geteuid()).pw_name,  # the files here are this user's
            )
        )

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and wait until it accepts connections."""
        if self.process is not None and self.process.poll() is None:
            return
        self.process = run_mosquitto(self.binary, self.conf, self.port, self.log, timeout)
        log.info("the private broker listens on %s (mosquitto pid %d, files in %s)", self.url, self.process.pid, self.root)

    def stop(self) -> None:
        """Stop the broker cleanly (it saves its persistence file)."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Kill the broker (SIGKILL: what a power cut does)."""
        self._end(signal.SIGKILL)

    def _end(self, sig: int) -> None:
        p, self.process = self.process, None
        if p is None:
            return
        if p.poll() is None:
            log.info("the private broker on port %d is %s", self.port, "stopped" if sig == signal.SIGTERM else "killed")
        end_mosquitto(p, sig)

    def gallery(self, root: Path, *, port: int | None = None, max_spectators: int = MAX_SPECTATORS,
                nice: int = 0, n: int = 1) -> "PrivateGallery":
        """Gallery ``n`` (spectators' broker, :mod:`bgboard.net.gallery`) bridged to this
        broker as its own user (1 to the ``galleries`` this broker was made for)."""
        user = gallery_user(n)
        return PrivateGallery(root, self.club, Bridge("127.0.0.1", self.port, self.password(user), user), port=port,
                              max_spectators=max_spectators, nice=nice)

    def __enter__(self) -> "PrivateBroker":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


#: A gallery's descriptors beyond its spectators (listeners, the bridge, its log).
GALLERY_FILES = 32


class PrivateGallery:
    """A gallery in ``root`` on a free localhost port: its WebSocket listener for anonymous
    spectators (``ws://127.0.0.1:PORT/``), its bridge to the club broker; ``start``/``stop``.
    Its descriptor limit is ``max_spectators`` + :data:`GALLERY_FILES` (Mosquitto 2.0 ignores
    ``max_connections`` on a WebSocket listener: the descriptors are what bound it)."""

    def __init__(self, root: Path, club: str, bridge: Bridge, *, port: int | None = None,
                 max_spectators: int = MAX_SPECTATORS, nice: int = 0) -> None:
        self.binary = mosquitto_binary()
        self.root = Path(root)
        self.port = port or free_port()
        self.max_spectators = max_spectators
        self.nice = nice   # beside the director on one machine: the results first
        self.process: subprocess.Popen[bytes] | None = None
        self.root.mkdir(parents=True, exist_ok=True)
        self.conf = self.root / "gallery.conf"
        self.log = self.root / "gallery.log"
        # a Unix socket's path has at most 107 bytes: not under a test's long folder
        self.socket = Path(tempfile.gettempdir()) / f"bgboard-gallery-{self.port}.sock"
        (self.root / "gallery.acl").write_text(gallery_acl_text(club))
        self.conf.write_text(gallery_conf(club, self.port, str(self.root / "gallery.acl"), bridge,
                                          str(self.socket), address="127.0.0.1",
                                          max_spectators=max_spectators, log_file=str(self.log),
                                          user=pwd.getpwuid(os.geteuid()).pw_name))
        os.chmod(self.conf, 0o600)  # it holds the bridge's password

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 10.0) -> None:
        if self.process is None or self.process.poll() is not None:
            self.process = run_mosquitto(self.binary, self.conf, self.port, self.log, timeout,
                                         files=self.max_spectators + GALLERY_FILES, nice=self.nice)

    def stop(self) -> None:
        p, self.process = self.process, None
        if p is not None:
            end_mosquitto(p)
        self.socket.unlink(missing_ok=True)

    def __enter__(self) -> "PrivateGallery":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
