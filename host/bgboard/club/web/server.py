"""Run the club's web app with uvicorn inside the caller's asyncio loop (adapter).

``bgboard club serve --http HOST:PORT`` runs :func:`serve_http` beside the broker client in
one loop, so the boards' messages reach the pages without crossing threads.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import resource
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from bgboard.club.live_boards import LiveHub
from bgboard.digits import is_whole
from bgboard.errors import EnvironmentFailure, InputError, shown

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from bgboard.club.web.site import Site


class ListenAddressError(InputError):
    """A ``--http`` address that is not HOST:PORT, or names a host this machine is not."""


class ListenUnavailableError(EnvironmentFailure):
    """A good ``--http`` address this machine will not let the pages listen on now (the port
    in use by another program, a privileged port)."""


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6, ``:8080`` = every address) → (host, port)."""
    host, sep, port_text = text.rpartition(":")
    if not sep or not is_whole(port_text) or len(port_text) > 5 or not 0 <= int(port_text) <= 65535:
        raise ListenAddressError(
            f"--http takes HOST:PORT, such as 0.0.0.0:8080 or 127.0.0.1:8080, not {text!r}")
    host = host.strip("[]") or "0.0.0.0"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not host.replace("-", "").replace(".", "").isalnum():
            raise ListenAddressError(f"--http: {host!r} is not a host name or address") from None
    return host, int(port_text)


HEADER_TIMEOUT_S = 10.0     # a request's line and headers must arrive within this (slowloris)
KEEP_ALIVE_S = 5            # an idle kept-alive connection is closed after this
MAX_HEADERS = 16 * 1024     # bytes of a request's line and headers (h11's incomplete event)
RESERVED_FDS = 256          # descriptors kept for the database, the boards' broker and the threads
PAGES_FDS = 64              # connections kept for pages and the director beyond the live streams


def raise_file_limit() -> int:
    """Raise this process's open-file limit to what the system allows (its hard limit); the
    soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the open-file limit from %d to %d: %s", soft, target, exc)
    return soft


def connections_for(fds: int) -> int:
    """Connections the server takes at once with ``fds`` descriptors (uvicorn's
    ``limit_concurrency``: beyond it a request is answered 503 at once)."""
    return max(32, fds - RESERVED_FDS)


def streams_for(fds: int) -> int:
    """Live streams held at once with ``fds`` descriptors: the connections less those kept for
    the pages and the director, so they are always served."""
    return max(8, connections_for(fds) - PAGES_FDS)


class _Connection(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a header time-out, which uvicorn lacks (its keep-alive
    time-out starts only after a response): a connection whose request line and headers have
    not all arrived :data:`HEADER_TIMEOUT_S` after it opened (or after its last response) is
    closed — a slowloris client sending a header line every few seconds holds nothing."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT_S, self._too_slow)

    def _too_slow(self) -> None:
        self._header_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            log.info("a connection from %s sent no whole request in %.0f s: closed",
                     self.client[0] if self.client else "?", HEADER_TIMEOUT_S)
            self.transport.close()


class _AcceptTrouble:
    """The loop's exception handler while the pages are served: asyncio reports each failed
    ``accept()`` when the descriptors run out (with a traceback); here a burst of them is one
    warning line every 10 s with its count, and everything else goes to the usual handler."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.before = loop.get_exception_handler()
        self.count = 0
        self.said = 0.0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        if context.get("message") == "socket.accept() out of system resource":
            self.count += 1
            now = time.monotonic()
            if now - self.said >= 10:
                log.warning("out of file descriptors: %d connection%s waited to be accepted (%s)",
                            self.count, "s" if self.count != 1 else "", shown(context.get("exception"), 80))
                self.said, self.count = now, 0
            return
        if self.before is not None:
            self.before(loop, context)
        else:
            loop.default_exception_handler(context)


async def serve_http(
    app: ASGIApp,
    host: str,
    port: int,
    *,
    ready: Callable[[str, int], None] | None = None,
    stop: asyncio.Event | None = None,
    on_stop: Callable[[], None] | None = None,
) -> None:
    """Serve ``app`` until ``stop`` is set (or the task is cancelled); ``ready(host, port)``
    is called once listening (with the real port when ``port`` is 0); ``on_stop()`` before
    shutting down (``LiveHub.close``, so open event streams end cleanly).  A port already in
    use raises :class:`ListenUnavailableError`, an address this machine lacks
    :class:`ListenAddressError` (one sentence each)."""
    fds = raise_file_limit()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            lifespan="off", timeout_graceful_shutdown=2, http=_Connection,
                            limit_concurrency=connections_for(fds), timeout_keep_alive=KEEP_ALIVE_S,
                            h11_max_incomplete_event_size=MAX_HEADERS, backlog=1024)
    server = uvicorn.Server(config)
    loop = asyncio.get_running_loop()
    trouble = _AcceptTrouble(loop)
    loop.set_exception_handler(trouble)
    # bound here, not by uvicorn (which exits the process with a traceback when it cannot)
    sock = await asyncio.get_running_loop().run_in_executor(None, bind_socket, host, port)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise ListenUnavailableError(f"cannot listen on {host}:{port}: is the port in use?")
            await asyncio.sleep(0.02)
        bound = server.servers[0].sockets[0].getsockname()
        log.info("the pages listen on %s:%d", bound[0], bound[1])
        if ready is not None:
            ready(bound[0], bound[1])
        if stop is None:
            await task
        else:
            stopper = asyncio.create_task(stop.wait())
            await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
    except SystemExit:
        raise ListenUnavailableError(f"cannot listen on {host}:{port}: is the port in use?") from None
    finally:
        if server.started:
            log.info("the pages on %s:%d stop", host, port)
        if on_stop is not None:
            on_stop()
        loop.set_exception_handler(trouble.before)
        server.should_exit = True
        if not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), 5)
            except (asyncio.TimeoutError, asyncio.CancelledError, SystemExit):
                task.cancel()


def bind_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` for the web pages, or one sentence why not:
    :class:`ListenAddressError` for an address this machine lacks or a host name that does not
    resolve, :class:`ListenUnavailableError` for a port in use or a privileged port."""
    where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise ListenAddressError(f"--http {where}: this machine cannot find the host {host!r} "
                                 f"({getattr(exc, 'strerror', None) or exc}): give one of its addresses, "
                                 "or 0.0.0.0 for every address") from None
    problem: OSError | None = None
    for family, kind, proto, _, address in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.set_inheritable(True)
            return sock
        except OSError as exc:
            sock.close()
            log.debug("cannot bind %s: %s", shown(address, 80), shown(exc))
            problem = problem or exc
    number = problem.errno if problem is not None else None
    if number == errno.EADDRINUSE:
        why = f"port {port} is in use (another program, or another 'club serve'): choose another port"
    elif number == errno.EADDRNOTAVAIL:
        why = (f"this machine has no address {host}: give one of its addresses, "
               "or 0.0.0.0 for every address")
    elif number == errno.EACCES:
        why = "ports below 1024 need the administrator: choose a port from 1024, such as 8080"
    else:
        why = f"{problem.strerror if problem is not None else 'no address'}: choose another address or port"
    kind = ListenAddressError if number == errno.EADDRNOTAVAIL else ListenUnavailableError
    raise kind(f"--http {where}: cannot listen there, {why}")


async def serve_club(
    path: "str | Path",
    hub: LiveHub,
    host: str,
    port: int,
    *,
    ready: Callable[[str, int], None] | None = None,
    stop: asyncio.Event | None = None,
    gallery: tuple[str, str] | None = None,
) -> None:
    """Serve the club in the database at ``path`` with the room's ``hub`` (see serve_http);
    ``gallery`` (its WebSocket URL, the club's topic name): the pages watch the live boards
    there (bgboard.net.gallery), not through this process."""
    from bgboard.club.db import shown
    from bgboard.club.web.site import create_app

    log.info("serving the club %s", shown(path))
    site = club_site(path, hub)
    site.gallery = gallery
    # the room's seats within what the descriptors allow, the pages' share kept free
    site.max_streams = min(site.max_streams, streams_for(raise_file_limit()))
    await serve_http(create_app(site), host, port, ready=ready, stop=stop, on_stop=hub.close)


def club_site(path: "str | Path", hub: LiveHub) -> "Site":
    """The site of the club database at ``path``: each request opens its own connection."""
    from bgboard.club.db import shown
    from bgboard.club.director import Director
    from bgboard.club.web.site import Site

    def club() -> Director:
        return Director.open(path)

    def password_hash() -> str | None:
        with club() as director:
            return director.director_password_hash()

    with club() as director:
        name = director.club_name()
    def director_sessions() -> str:
        with club() as director:
            return director.director_sessions()

    def end_director_sessions() -> None:
        with club() as director:
            director.end_director_sessions()

    return Site(hub, club=club, password_hash=password_hash, name=name or "bgboard club", path=shown(path),
                director_sessions=director_sessions, end_director_sessions=end_director_sessions)
