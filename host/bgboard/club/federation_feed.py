"""The club's results feed to its federation (adapter; docs/club-network.md, "A federation").

:class:`ResultsFeed` is what ``bgboard club serve --feed-password-file FILE`` runs beside the
director: one MQTT session to the club's own Mosquitto (user ``feed``, a persistent session)
that publishes every result the club database holds and the federation has not answered
yet on ``bgboard/<club>/federation/result`` (QoS 1, not retained; the club's Mosquitto bridges
it to the federation's broker, queueing while the bridge is down), and listens on
``bgboard/<club>/federation/ack`` for the federation's answers, which it writes into the
club database (``federation_acks``).  A result counts as delivered only then: it is sent again

* at once when the feed's session to the club broker (re)connects,
* at once when the bridge says it is up again (Mosquitto's notification on
  ``bgboard/<club>/federation/bridge``): a broker killed with the result in its queue,
* and after ``resend_s`` (doubling to ``RESEND_MAX_S``) while no answer came,

so no broker restart, bridge outage or ``kill -9`` of the club's or the federation's
processes loses a result; the federation stores each result id once, so the resends are
harmless.  It reads the database — whoever stored the result: a board through the director,
the director by hand, a forfeit — every ``poll_s``, on a thread of its own (never on the
loop the web pages share), with the one portable query below.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bgboard.club.db import Club
from bgboard.errors import InputError
from bgboard.net.broker import FEED
from bgboard.net.mqtt_client import Backoff, keep_session, open_client, serve_side_by_side, subscription
from bgboard.net.protocol import BrokerUrl
from bgboard.net.results_feed import (
    ClubResult, ack_topic, bridge_topic, decode_ack, encode_result, result_topic,
)

log = logging.getLogger(__name__)

FEED_USER = FEED
RESEND_S = 15.0
RESEND_MAX_S = 240.0
POLL_S = 0.25
BATCH = 500  # results read (and published) per poll at most

#: Every result stored and not yet answered by the federation in its current revision (the
#: number of its match's audit rows: a correction makes a new one), oldest first: a finished or
#: forfeited match between two players (plain SQL, for SQLite and PostgreSQL alike).
PENDING = """
    SELECT m.uuid, m.id, m.status, m.score_a, m.score_b, m.winner, m.player_a, m.length, m.rated_seq,
           m.reported_at, e.name AS event, pa.name AS name_a, pb.name AS name_b,
           pa.member_id AS member_a, pb.member_id AS member_b,
           (SELECT count(*) FROM audit au WHERE au.match_id = m.id) AS revision
    FROM matches m
    JOIN events e ON e.id = m.event_id
    JOIN players pa ON pa.id = m.player_a
    JOIN players pb ON pb.id = m.player_b
    WHERE m.status IN ('finished', 'forfeit') AND m.winner IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM federation_acks a WHERE a.match_uuid = m.uuid
                      AND a.revision >= (SELECT count(*) FROM audit au WHERE au.match_id = m.id))
    ORDER BY m.id
    LIMIT ?"""


@dataclass(frozen=True, slots=True)
class FeedSettings:
    broker: BrokerUrl
    club: str
    password: str
    username: str = FEED_USER
    ca_file: str = ""
    resend_s: float = RESEND_S
    poll_s: float = POLL_S


def utc_text(at: str | None) -> str:
    """A club time as the feed's ISO-8601 UTC text (microseconds when it has them)."""
    when = datetime.fromisoformat(at) if at else datetime.now(timezone.utc)
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).isoformat()


def club_result(club: str, row: Any) -> ClubResult:
    """The feed's message for one row of :data:`PENDING`."""
    winner = 0 if row["winner"] == row["player_a"] else 1
    score = None if row["score_a"] is None else (int(row["score_a"]), int(row["score_b"]))
    return ClubResult(
        id=row["uuid"], club=club, event=row["event"], match=int(row["id"]),
        players=(row["name_a"], row["name_b"]), members=(row["member_a"] or "", row["member_b"] or ""),
        length=int(row["length"]), score=score, winner=winner,
        rated=row["status"] == "finished" and row["rated_seq"] is not None, seq=int(row["rated_seq"] or 0),
        played_at=utc_text(row["reported_at"]), revision=int(row["revision"]),
    )


class ClubOutbox:
    """The club database as the feed sees it (used on one thread only)."""

    def __init__(self, path: str | Path, club: str) -> None:
        self.path = path
        self.club = club
        self._club: Club | None = None

    def _open(self) -> Club:
        if self._club is None:
            self._club = Club(self.path)
        return self._club

    def pending(self, limit: int = BATCH) -> list[ClubResult]:
        return [club_result(self.club, r) for r in self._open().conn.execute(PENDING, (limit,))]

    def answered(self, uuid: str, status: str, reason: str, revision: int = 0) -> bool:
        """Record the federation's answer for a result's ``revision`` (an older answer changes
        nothing); whether it named one of this club's matches."""
        club = self._open()
        with club.transaction() as db:
            if db.execute("SELECT 1 FROM matches WHERE uuid = ?", (uuid,)).fetchone() is None:
                return False
            db.execute("INSERT INTO federation_acks (match_uuid, status, reason, revision, acked_at)"
                       " VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_uuid) DO UPDATE SET status = excluded.status,"
                       " reason = excluded.reason, revision = excluded.revision, acked_at = excluded.acked_at"
                       " WHERE federation_acks.revision < excluded.revision",
                       (uuid, status, reason, revision, utc_text(None)))
        return True

    def close(self) -> None:
        if self._club is not None:
            self._club.close()
            self._club = None


class ResultsFeed:
    """The club's side of the federation (see the module docstring)."""

    def __init__(self, settings: FeedSettings, outbox: ClubOutbox) -> None:
        self.settings = settings
        self.outbox = outbox
        self.counts = {"sent": 0, "resent": 0, "stored": 0, "duplicate": 0, "refused": 0, "bad": 0}
        self.online = False
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="club-feed")
        self._sent: dict[tuple[str, int], tuple[float, float]] = {}  # (id, revision) -> (sent at, wait)
        self._ever: set[str] = set()  # ids sent at least once by this feed (for the counts)
        self._stopping = asyncio.Event()
        self._wake = asyncio.Event()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()

    async def _off_loop(self, work: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._db, work, *args)

    async def run(self) -> None:
        """Serve until :meth:`stop`, reconnecting after any loss."""
        try:
            await keep_session(self._connect, self._serve, stopping=self._stopping, backoff=Backoff(),
                               unreachable=self._unreachable, failed=self._failed, up=self._up, down=self._down)
        finally:
            await self._off_loop(self.outbox.close)
            self._db.shutdown(wait=False)

    def _connect(self) -> Any:
        s = self.settings
        return open_client(s.broker, username=s.username, password=s.password,
                           identifier=f"bgboard-{s.club}-feed", ca_file=s.ca_file)

    def _up(self) -> None:
        self.online = True

    def _down(self) -> None:
        self.online = False

    def _unreachable(self, exc: Exception) -> None:
        log.warning("the results feed cannot reach the club broker %s (%s)", self.settings.broker, exc or type(exc).__name__)

    def _failed(self, exc: Exception) -> None:  # one fault never ends the feed: logged, connected again
        log.error("the results feed's session ended on an unexpected %s (%s)", type(exc).__name__, str(exc)[:200],
                  exc_info=exc)

    async def _serve(self, client: Any) -> None:
        club = self.settings.club
        await client.subscribe([(ack_topic(club), subscription(1)), (bridge_topic(club), subscription(1))])
        self._sent.clear()  # everything unanswered goes again on a new session
        await serve_side_by_side(self._stopping, self._read(client), self._send(client))

    async def _read(self, client: Any) -> None:
        club = self.settings.club
        async for message in client.messages:
            where = str(message.topic)
            payload = bytes(message.payload or b"")
            if where == bridge_topic(club):
                if payload.strip() == b"1":  # the bridge is up (again): what a dead broker lost goes now
                    self._sent.clear()
                    self._wake.set()
                continue
            try:
                ack = decode_ack(payload)
                if await self._off_loop(self.outbox.answered, ack.id, ack.status, ack.reason, ack.revision):
                    self.counts[ack.status] += 1
                    if ack.status == "refused":
                        log.warning("the federation refused the result %s: %s", ack.id, ack.reason)
                self._sent.pop((ack.id, ack.revision), None)
            except InputError as exc:
                self.counts["bad"] += 1
                log.warning("ignored a message on %s: %s", where[:120], exc)

    async def _send(self, client: Any) -> None:
        topic = result_topic(self.settings.club)
        while True:
            pending = await self._off_loop(self.outbox.pending)
            now = time.monotonic()
            for result in pending:
                sent = self._sent.get((result.id, result.revision))
                if sent is not None and now < sent[0] + sent[1]:
                    continue
                wait = self.settings.resend_s if sent is None else min(2 * sent[1], RESEND_MAX_S)
                await client.publish(topic, encode_result(result), qos=1, retain=False)
                self.counts["resent" if result.id in self._ever else "sent"] += 1
                self._ever.add(result.id)
                self._sent[(result.id, result.revision)] = (now, wait)
            # asyncio.wait, not wait_for: Python 3.11's wait_for loses a cancellation that comes
            # as the event is set (stop() does both), and the session would never end
            waiter = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({waiter}, timeout=self.settings.poll_s)
            finally:
                waiter.cancel()
            self._wake.clear()


async def serve_feed(db_path: str | Path, settings: FeedSettings) -> None:
    """``club serve --feed-password-file``: the results feed until cancelled."""
    feed = ResultsFeed(settings, ClubOutbox(db_path, settings.club))
    try:
        await feed.run()
    finally:
        feed.stop()


__all__ = ["FEED_USER", "FeedSettings", "ClubOutbox", "ResultsFeed", "PENDING", "club_result", "utc_text", "serve_feed"]
