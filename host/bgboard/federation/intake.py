"""The federation service's intake of the clubs' results (adapter; docs/club-network.md).

:class:`ResultsIntake` is what ``bgboard federation serve`` runs: one MQTT session to the
federation's broker (user ``federation``, a **persistent session**, QoS 1) subscribed to every
club's ``bgboard/<club>/federation/result``.  Messages are acknowledged to the broker **by
hand, after the commit**: each batch waiting is decoded, stored in one PostgreSQL transaction
(once per club and result id: ``stored`` or ``duplicate``), and only then are the messages
acked and each club's answer published on ``bgboard/<club>/federation/ack``.  So a service
killed with ``kill -9`` anywhere in between loses nothing: the broker hands the unacked
messages to the next session, and the clubs send whatever was never answered again
(club/federation_feed.py).  A message that cannot be read is acked (dropped) with one logged
sentence; a result whose club is not the topic's is refused; the database down is retried
with backoff, nothing acked meanwhile.  The database is used on a thread of its own, never
on the event loop the pages share.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bgboard.errors import EnvironmentFailure, InputError
from bgboard.federation.bridge_conf import SERVICE_USER
from bgboard.federation.ledger import Ledger
from bgboard.net.mqtt_client import Backoff, ack, keep_session, manual_acks, open_client, serve_side_by_side
from bgboard.net.protocol import BrokerUrl
from bgboard.net.results_feed import (
    RESULTS_FILTER, ClubResult, FeedAck, ack_topic, club_of_topic, decode_result, encode_ack,
)

log = logging.getLogger(__name__)

BATCH = 100  # at most the messages the broker lets be in flight to one client (max_inflight_messages)


@dataclass(frozen=True, slots=True)
class IntakeSettings:
    broker: BrokerUrl
    password: str
    username: str = SERVICE_USER
    ca_file: str = ""
    keepalive_s: int = 10


class ResultsIntake:
    """The federation service's MQTT side (see the module docstring)."""

    def __init__(self, settings: IntakeSettings, open_ledger: Callable[[], Ledger]) -> None:
        self.settings = settings
        self.open_ledger = open_ledger
        self.counts = {"stored": 0, "duplicate": 0, "refused": 0, "bad": 0}
        self.online = False
        self.on_stored: Callable[[int], None] = lambda n: None
        self.on_subscribed: Callable[[], None] = lambda: None
        self._ledger: Ledger | None = None
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="federation-db")
        self._stopping = asyncio.Event()
        self._inbox: list[Any] = []
        self._wake = asyncio.Event()
        self._db_down_since: float | None = None

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()

    async def run(self) -> None:
        """Serve until :meth:`stop`, reconnecting after any loss."""
        try:
            await keep_session(self._connect, self._serve, stopping=self._stopping, backoff=Backoff(),
                               unreachable=self._unreachable, failed=self._failed, up=self._up, down=self._down)
        finally:
            await asyncio.get_running_loop().run_in_executor(self._db, self._close)
            self._db.shutdown(wait=False)

    def _connect(self) -> Any:
        s = self.settings
        client = open_client(s.broker, username=s.username, password=s.password,
                             identifier="bgboard-federation", ca_file=s.ca_file, keepalive=s.keepalive_s)
        manual_acks(client)
        return client

    def _up(self) -> None:
        self.online = True
        log.info("the federation service is connected to %s", self.settings.broker)

    def _down(self) -> None:
        self.online = False
        self._inbox.clear()  # unacked: the broker delivers them again to the next session

    def _unreachable(self, exc: Exception) -> None:
        log.warning("the federation's broker %s is not reachable (%s)", self.settings.broker, exc or type(exc).__name__)

    def _failed(self, exc: Exception) -> None:  # one fault never ends the service: logged, connected again
        log.error("the federation service's session ended on an unexpected %s (%s)", type(exc).__name__, str(exc)[:200],
                  exc_info=exc)

    async def _serve(self, client: Any) -> None:
        await client.subscribe(RESULTS_FILTER, qos=1)
        self.on_subscribed()
        await serve_side_by_side(self._stopping, self._read(client), self._write(client))

    async def _read(self, client: Any) -> None:
        async for message in client.messages:
            self._inbox.append(message)
            self._wake.set()

    async def _write(self, client: Any) -> None:
        loop = asyncio.get_running_loop()
        backoff = Backoff(0.2, 5.0)
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._inbox:
                batch = self._inbox[:BATCH]
                good: list[tuple[Any, ClubResult]] = []
                answers: list[tuple[str, FeedAck]] = []
                for message in batch:
                    where = str(message.topic)
                    try:
                        result = decode_result(bytes(message.payload or b""))
                        club = club_of_topic(where)
                        if result.club != club:
                            self.counts["refused"] += 1
                            answers.append((club, FeedAck(result.id, "refused",
                                                          f"a result of club {result.club!r} on club {club!r}'s topic",
                                                          result.revision)))
                            continue
                        good.append((message, result))
                    except InputError as exc:
                        self.counts["bad"] += 1
                        log.warning("ignored a message on %s: %s", where[:120], exc)
                while True:
                    try:
                        statuses = await loop.run_in_executor(self._db, self._store, [r for _, r in good])
                        break
                    except EnvironmentFailure as exc:  # the database is down: retried, nothing acked
                        if self._db_down_since is None:
                            self._db_down_since = time.monotonic()
                            log.warning("the federation's database cannot be written (%s): %d result(s) wait", exc,
                                        len(good))
                        await asyncio.sleep(backoff.delay())
                if self._db_down_since is not None:
                    log.warning("the federation's database is back after %.0f s", time.monotonic() - self._db_down_since)
                    self._db_down_since = None
                backoff.reset()
                for (_, result), status in zip(good, statuses):
                    self.counts[status] += 1
                    answers.append((result.club, FeedAck(result.id, status,
                                                         "" if status != "refused" else "the club has not joined",
                                                         result.revision)))
                del self._inbox[:len(batch)]
                for message in batch:  # committed: the broker may forget them now
                    ack(client, message)
                for club, answer in answers:
                    await client.publish(ack_topic(club), encode_ack(answer), qos=1, retain=False)
                stored = sum(1 for s in statuses if s == "stored")
                if stored:
                    self.on_stored(stored)

    def _store(self, results: list[ClubResult]) -> list[str]:
        """On the database thread: one transaction (a new connection after a failure)."""
        if not results:
            return []
        try:
            if self._ledger is None:
                self._ledger = self.open_ledger()
            return self._ledger.store(results)
        except EnvironmentFailure:
            self._close()
            raise

    def _close(self) -> None:
        if self._ledger is not None:
            try:
                self._ledger.close()
            except Exception:  # a connection already broken: said, with its traceback should it be ours
                log.warning("the federation's database connection did not close cleanly", exc_info=True)
            self._ledger = None


async def serve_intake(settings: IntakeSettings, db_url: str, *, stop: "asyncio.Event | None" = None,
                       on_subscribed: Callable[[], None] = lambda: None) -> ResultsIntake:
    """``bgboard federation serve``: the intake until cancelled (or ``stop`` is set)."""
    intake = ResultsIntake(settings, lambda: Ledger(db_url))
    intake.on_subscribed = on_subscribed
    task = asyncio.ensure_future(intake.run())
    try:
        if stop is None:
            await task
        else:
            await stop.wait()
            intake.stop()
            await task
    finally:
        intake.stop()
        if not task.done():
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
    return intake


__all__ = ["BATCH", "IntakeSettings", "ResultsIntake", "serve_intake"]
