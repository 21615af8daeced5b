"""The federation's Mosquitto files in a folder, and the broker run from them (adapter).

:class:`HubBroker` keeps in ``root``: ``mosquitto.conf``, ``acl``, ``passwd`` (hashed by
Mosquitto's own ``mosquitto_passwd``), ``secrets/<user>.password`` (one random password per
user, mode 600), ``data/`` (the broker's persistence) and ``mosquitto.log``.  :meth:`add_club`
gives a club its user and rewrites the password file and the ACL (a running broker reloads
them on SIGHUP: :meth:`reload`).  :meth:`start`/:meth:`stop`/:meth:`kill` run ``mosquitto -c``
as a child, for ``bgboard federation serve --with-broker``, the demo, the tests and the
benchmark; a federation in the field points Debian's Mosquitto at the same files instead.

The start and stop below repeat :class:`bgboard.net.mosquitto.PrivateBroker`'s few lines on
purpose: that class writes a *club's* files when made, and the federation's broker has other
users and another ACL (the process handling is ~30 lines; sharing it would change the club's
class under the club's feet).
"""

from __future__ import annotations

import logging
import os
import pwd
import secrets
import signal
import subprocess
from collections.abc import Iterable
from pathlib import Path

from bgboard.federation.bridge_conf import PAGES_USER, SERVICE_USER, club_user, federation_acl, federation_conf
from bgboard.net.broker import Listener
from bgboard.net.mosquitto import end_mosquitto, mosquitto_binary, run_mosquitto, write_password_file

log = logging.getLogger(__name__)


class HubBroker:
    """The federation's broker files in ``root`` (see the module docstring)."""

    def __init__(self, root: Path, port: int, *, address: str = "127.0.0.1") -> None:
        self.root = Path(root)
        self.port = port
        self.address = address
        self.process: subprocess.Popen[bytes] | None = None
        self.conf = self.root / "mosquitto.conf"
        self.log = self.root / "mosquitto.log"
        self.pid_file = self.root / "mosquitto.pid"

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.address in ("", "0.0.0.0") else self.address
        return f"mqtt://{host}:{self.port}"

    def secret_file(self, user: str) -> Path:
        return self.root / "secrets" / f"{user}.password"

    def password(self, user: str) -> str:
        return self.secret_file(user).read_text().strip()

    def clubs(self) -> list[str]:
        return sorted(p.stem.removeprefix("club-") for p in (self.root / "secrets").glob("club-*.password"))

    def write(self, clubs: Iterable[str] = ()) -> None:
        """Write (or rewrite) every file for the service and ``clubs`` (passwords kept)."""
        (self.root / "secrets").mkdir(parents=True, exist_ok=True)
        (self.root / "data").mkdir(exist_ok=True)
        clubs = sorted(set(clubs) | set(self.clubs()))
        users = [SERVICE_USER, PAGES_USER] + [club_user(c) for c in clubs]
        passwords = {}
        for user in users:
            f = self.secret_file(user)
            if not f.exists():
                f.write_text(secrets.token_urlsafe(18) + "\n")
                os.chmod(f, 0o600)
            passwords[user] = self.password(user)
        write_password_file(self.root / "passwd", passwords)
        (self.root / "acl").write_text(federation_acl(clubs))
        self.conf.write_text(federation_conf(
            Listener(self.port, self.address), str(self.root / "passwd"), str(self.root / "acl"),
            persistence_dir=str(self.root / "data") + "/", log_file=str(self.log),
            user=pwd.getpwuid(os.geteuid()).pw_name))

    def add_club(self, club: str) -> str:
        """Give ``club`` its user (a new password the first time); its password."""
        self.write([club])
        self.reload()
        return self.password(club_user(club))

    def reload(self) -> None:
        """Tell a running broker (this one's child, or the one whose pid is on file) to read the
        password file and the ACL again."""
        pid = self.process.pid if self.process is not None and self.process.poll() is None else None
        if pid is None and self.pid_file.exists():
            try:
                pid = int(self.pid_file.read_text().strip() or 0) or None
            except ValueError:
                pid = None
        if pid is not None:
            try:
                os.kill(pid, signal.SIGHUP)
            except (ProcessLookupError, PermissionError):
                pass

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and wait until it accepts connections."""
        if self.process is not None and self.process.poll() is None:
            return
        self.process = run_mosquitto(mosquitto_binary(), self.conf, self.port, self.log, timeout,
                                     name="the federation's mosquitto")
        self.pid_file.write_text(f"{self.process.pid}\n")
        log.info("the federation's broker listens on %s (pid %d)", self.url, self.process.pid)

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL: what a power cut does."""
        self._end(signal.SIGKILL)

    def _end(self, sig: int) -> None:
        p, self.process = self.process, None
        if p is not None:
            end_mosquitto(p, sig)
            self.pid_file.unlink(missing_ok=True)


__all__ = ["HubBroker"]
