"""Keep the board connected: open the port, run a session, and when the port vanishes wait
(with backoff) until it comes back (an adapter).

:class:`~bgboard.link.backoff.Backoff` gives the waits (0.2 s, 0.4 s, ... up to 5 s, no
jitter; back to the start after a session that got through its handshake).  :class:`Link` loops forever: it reports
each outage once to ``on_event`` as a :class:`~bgboard.link.connection.Lost` event (the
players see it), never raises for a board problem, and stops only when cancelled or
:meth:`Link.stop` is called.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Awaitable, Callable

from bgboard.language import Phrase
from bgboard.link.backoff import Backoff
from bgboard.link.connection import Connected, Connection, LinkEvent, Lost, Timing
from bgboard.link.messages import HostMessage
from bgboard.link.transport import Port, PortUnavailableError

log = logging.getLogger(__name__)


class Link:
    """The board link for the lifetime of the host (see the module docstring).

    ``opener`` opens the port (e.g. ``lambda: open_serial("/dev/bgboard")``) and raises
    :class:`PortUnavailableError` while the board is unplugged.
    """

    def __init__(
        self,
        opener: Callable[[], Awaitable[Port]],
        on_event: Callable[[LinkEvent], None],
        *,
        backoff: Backoff | None = None,
        timing: Timing = Timing(),
        port: str = "the board's port",
    ) -> None:
        self.port = port  # its name, for the log
        self.opener = opener
        self.on_event = on_event
        self.backoff = backoff or Backoff(0.2, 5.0, jitter=0)  # one board, one port: no jitter
        self.timing = timing
        self.connection: Connection | None = None
        self.sessions = 0
        self._stopped = asyncio.Event()

    def send(self, message: HostMessage) -> bool:
        """Send a command if a session is up; False when it was dropped (no board)."""
        connection = self.connection
        if connection is None or not connection.ready:
            return False
        connection.send(message)
        return True

    def stop(self) -> None:
        """End :meth:`run` at the next opportunity."""
        self._stopped.set()

    async def run(self) -> None:
        """Connect, reconnect, forever (until :meth:`stop` or cancellation)."""
        self.backoff.reset()
        reported = False
        while not self._stopped.is_set():
            try:
                port = await self.opener()
            except PortUnavailableError as exc:
                if not reported:
                    present = not self.port.startswith("/") or os.path.exists(self.port)
                    log.info("waiting for the board on %s (%s)", self.port, exc if present else "not present")
                    self.on_event(Lost(Phrase("%(problem)s: plug the board in", problem=str(exc))))
                    reported = True
                else:
                    log.debug("still no board on %s (%s)", self.port, exc)
                await self._sleep(self.backoff.delay())
                continue
            connected = False

            def relay(event: LinkEvent) -> None:
                nonlocal connected
                if isinstance(event, Connected):
                    connected = True
                self.on_event(event)

            self.connection = Connection(port, relay, self.timing)
            self.sessions += 1
            log.info("%s %s", "opened" if self.sessions == 1 else "reconnected to", self.port)
            try:
                await self._session(self.connection)
            finally:
                self.connection = None
            reported = True  # the session's own Lost event told the players
            if connected:
                self.backoff.reset()
            delay = self.backoff.delay()
            if not self._stopped.is_set():
                log.info("reconnecting to the board on %s in %.1f s", self.port, delay)
            await self._sleep(delay)

    async def _session(self, connection: Connection) -> None:
        session = asyncio.create_task(connection.run(), name="bgboard-link-session")
        stopper = asyncio.create_task(self._stopped.wait(), name="bgboard-link-stop")
        try:
            await asyncio.wait({session, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (session, stopper):
                if not task.done():
                    task.cancel()
            for task in (session, stopper):
                try:
                    await task
                except asyncio.CancelledError:
                    pass

    async def _sleep(self, seconds: float) -> None:
        try:
            await asyncio.wait_for(self._stopped.wait(), seconds)
        except asyncio.TimeoutError:
            pass
