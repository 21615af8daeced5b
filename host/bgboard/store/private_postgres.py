"""A private PostgreSQL server in a folder (adapter: files and a process).

:class:`PrivatePostgres` runs Debian's PostgreSQL binaries (``initdb``, ``pg_ctl``) on a data
folder of its own, listening only on a Unix socket in that folder — no TCP port, nothing
shared with a system cluster — and hands out ``postgresql://`` addresses psycopg understands.
PostgreSQL refuses to run as root, so under root the server runs as ``nobody`` and the folder
is given to it.  Used by the tests (one server per test process), benchmarks/federation.py and
``bgboard federation demo``; a federation or a club in the field uses a real server instead
(docs/club-network.md).
"""

from __future__ import annotations

import glob
import logging
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path
from types import TracebackType

from bgboard.errors import EnvironmentFailure

log = logging.getLogger(__name__)

#: Where Debian's packages put the server programs (``postgresql-15``, ``postgresql-17``, ...).
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"
#: The role the private server is made with (``initdb -U``); it owns every database in it.
SUPERUSER = "bgboard"
#: Unprivileged account the server runs as when we are root.
SERVER_ACCOUNT = "nobody"


class PostgresMissingError(EnvironmentFailure):
    """The PostgreSQL server programs are not installed."""


class PostgresStartError(EnvironmentFailure):
    """The private server did not start (the message quotes its log)."""


def server_binaries() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres`` (the newest Debian major
    version first, then ``PATH``), or :class:`PostgresMissingError`."""
    candidates = sorted(glob.glob(DEBIAN_BINARIES), key=lambda p: _major(p), reverse=True)
    for folder in candidates:
        if os.access(os.path.join(folder, "pg_ctl"), os.X_OK) and os.access(os.path.join(folder, "initdb"), os.X_OK):
            return Path(folder)
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb") and shutil.which("postgres"):
        return Path(found).parent
    raise PostgresMissingError(
        "PostgreSQL is not installed: install it with 'apt-get install postgresql' (or run tools/test-services)"
    )


def _major(folder: str) -> int:
    name = Path(folder).parent.name
    return int(name) if name.isascii() and name.isdigit() else 0


def address(socket_dir: Path | str, dbname: str, user: str = SUPERUSER, port: int = 5432) -> str:
    """A ``postgresql://`` address for a database reached through a Unix socket folder."""
    query = urllib.parse.urlencode({"host": str(socket_dir), "port": str(port)})
    return f"postgresql://{urllib.parse.quote(user)}@/{urllib.parse.quote(dbname)}?{query}"


class PrivatePostgres:
    """One PostgreSQL server on a private folder; a context manager (started on enter, stopped
    and its folder removed on exit unless ``keep``).

    ``durable=False`` (the test suite's servers) runs it with ``fsync=off`` and
    ``full_page_writes=off``: a commit still writes its WAL before it returns, so a killed
    server (``kill``) loses nothing a process crash could lose, but nothing waits for the disk,
    and the checkpoint at ``stop`` does not either (10 s under load with every test's database
    and club synced; 0.3 s without).  Only a power cut would lose data; a club or a federation
    in the field keeps the default."""

    def __init__(self, folder: Path | None = None, *, keep: bool = False, durable: bool = True) -> None:
        self._own_folder = folder is None
        self.folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="bgboard-pg-"))
        self.keep = keep
        self.durable = durable
        self.data = self.folder / "data"
        self.sockets = self.folder / "run"
        self.log_file = self.folder / "server.log"
        self._bin = server_binaries()
        self._as_root = os.getuid() == 0
        self.running = False

    # -- running the server -------------------------------------------------------------------

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, object] = {}
        if self._as_root:
            entry = pwd.getpwnam(SERVER_ACCOUNT)
            kwargs = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        return subprocess.run(list(args), capture_output=True, text=True, check=False, cwd=self.folder,
                              **kwargs)  # type: ignore[call-overload]

    def start(self) -> "PrivatePostgres":
        """initdb (the first time) and start the server; waits until it accepts connections."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sockets.mkdir(exist_ok=True)
        if self._as_root:
            entry = pwd.getpwnam(SERVER_ACCOUNT)
            blocked = next((str(p) for p in self.folder.resolve().parents if not os.stat(p).st_mode & 0o001), None)
            if blocked is not None:
                raise PostgresStartError(f"PostgreSQL runs as {SERVER_ACCOUNT} under root, and {blocked} is closed "
                                         f"to it: choose a folder under /tmp or /var/lib")
            for path in (self.folder, self.sockets):
                os.chown(path, entry.pw_uid, entry.pw_gid)
            os.chmod(self.folder, 0o755)
        if not (self.data / "PG_VERSION").exists():
            made = self._run(str(self._bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
                             "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")
            if made.returncode != 0:
                raise PostgresStartError(f"initdb failed: {(made.stderr or made.stdout).strip()[-400:]}")
        options = (f"-c listen_addresses='' -c unix_socket_directories='{self.sockets}' "
                   "-c max_connections=300 " + ("-c fsync=on" if self.durable else "-c fsync=off -c full_page_writes=off"))
        started = self._run(str(self._bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log_file),
                            "-o", options, "-w", "-t", "60", "start")
        if started.returncode != 0:
            tail = self.log_file.read_text(errors="replace")[-600:] if self.log_file.exists() else started.stderr
            raise PostgresStartError(f"the private PostgreSQL did not start: {tail.strip()}")
        self.running = True
        log.info("private PostgreSQL started in %s", self.folder)
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: roll back open transactions; ``immediate``: like a crash)."""
        if not self.running:
            return
        self._run(str(self._bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")
        self.running = False

    def kill(self) -> None:
        """Kill the server with SIGKILL, postmaster and every backend (what a pulled plug does),
        and wait until they are gone; committed transactions are in the WAL and survive."""
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().split()[0])
            doomed = [pid, *_children(pid)]
            for each in doomed:
                try:
                    os.kill(each, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 10
            while any(_alive(each) for each in doomed) and time.monotonic() < deadline:
                time.sleep(0.02)
        self.running = False

    # -- addresses ----------------------------------------------------------------------------

    def url(self, dbname: str = "postgres") -> str:
        """The ``postgresql://`` address of one database of this server."""
        return address(self.sockets, dbname)

    def create_database(self, name: str) -> str:
        """Create an empty database (the name: letters, digits, ``_``) and return its address."""
        if not name.replace("_", "").isalnum() or not name.isascii():
            raise ValueError(f"not a database name: {name!r}")
        made = self._run(str(self._bin / "createdb"), "-h", str(self.sockets), "-U", SUPERUSER, name)
        if made.returncode != 0:
            raise PostgresStartError(f"createdb {name} failed: {made.stderr.strip()}")
        return self.url(name)

    # -- context manager ----------------------------------------------------------------------

    def __enter__(self) -> "PrivatePostgres":
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
        if self._own_folder and not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(Path(stat).parent.name))
    return found


def _alive(pid: int) -> bool:
    """Whether ``pid`` exists at all — a zombie too: the next postmaster's lock-file check
    (``kill(pid, 0)``) still sees one until its parent reaps it."""
    return os.path.exists(f"/proc/{pid}")
