"""The director's side of the club network (adapter; docs/club-protocol.md).

:class:`DirectorLink` is what ``bgboard club serve --broker URL`` runs: one MQTT session (user
``director``, a persistent session, so results published while the director was down are
waiting for it) subscribed to every board's ``state``, ``online`` and ``result``.

* a board's state goes to the room's :class:`~bgboard.club.live_boards.LiveHub` (the web pages), its
  last will marks it offline there;
* a result is **checked off the writer** — the match, the board, the players, the score and
  the ``.mat`` replay, in a pool of worker processes, the boards taken in turn so one board's
  flood cannot starve the others — then **stored in batches**: every checked result waiting
  goes into one transaction (one savepoint each), once per result UUID, and only after the
  commit are the acks (``stored``, ``duplicate``, ``refused`` with a sentence) published, so a
  director killed in between is asked again by the board and answers ``duplicate``.  A result
  from a board that is not the match's assigned board is ignored (logged, not acked);
* a **locked database** (another program writing longer than the busy time-out) is retried
  with backoff: nothing is acked until it is stored;
* the **assignments follow the database**, whoever changed it: after each batch, and
  whenever another connection (the CLI, the web pages) committed something — SQLite's
  ``data_version`` says so — the director pairs what can be played now and publishes every
  board's assignment that changed (retained); a board left without a match gets a cleared
  one (a result entered by hand clears the board's old assignment);
* on every (re)connection it publishes every board's assignment again from the database —
  the database is the truth, the broker may have lost everything.

Every message is bounded: the protocol's decoder refuses oversized, deeply nested or
out-of-range JSON with one sentence; each board may send so many messages a second (a token
bucket per board and kind: the rest are dropped unread and counted); a message that cannot
be read is logged with one sentence (then quietly, counted, while a board keeps sending
them) and ignored; **junk a board left retained is cleared** (an empty retained publish);
and no exception from one message ends the director.

Its parts (importing one way, tests/test_layers.py): :mod:`~bgboard.club.board_limits` (the
limits and token buckets, pure), :mod:`~bgboard.club.board_checks` (the checks the worker
processes run), :mod:`~bgboard.club.board_tournament` (the club database as the link sees
it), :mod:`~bgboard.club.board_gate` (each board's buckets and quiet log),
:mod:`~bgboard.club.board_outbox` (what the director publishes, in order) and
:mod:`~bgboard.club.board_checking` (the results queued, boards in turn, and the worker
pool checking them); this module holds the link — the session, each message's way in, the
writer — and :func:`serve_boards`.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from bgboard.club.board_checking import ResultChecks
from bgboard.club.board_checks import (
    CHECKED, DISK_FULL, DUPLICATE, FAILED, IGNORED, REFUSED, STORED, Outcome, is_full, is_lock,
)
from bgboard.club.board_gate import BoardGate
from bgboard.club.board_limits import Limits
from bgboard.club.board_outbox import Outbox
from bgboard.club.board_tournament import ClubTournament, Tournament
from bgboard.errors import InputError
from bgboard.net.protocol import (
    Ack,
    Assignment,
    BrokerUrl,
    ProtocolError,
    Result,
    board_filter,
    clear_assignment,
    decode,
    encode,
    parse_topic,
    topic,
)
from bgboard.net.mqtt_client import Backoff, keep_session, open_client, serve_side_by_side, subscription

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DirectorSettings:
    broker: BrokerUrl
    club: str
    password: str
    username: str = "director"
    ca_file: str = ""
    keepalive_s: int = 10
    limits: Limits = field(default_factory=Limits)


class DirectorLink:
    """The director's MQTT side (see the module docstring)."""

    def __init__(
        self,
        settings: DirectorSettings,
        tournament: Tournament,
        *,
        hub: Any = None,
        on_refused: Callable[[int, Result, str], None] = lambda board, result, reason: None,
    ) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.tournament = tournament
        self.hub = hub
        self.on_refused = on_refused
        self.online = False
        self.counts = {STORED: 0, DUPLICATE: 0, REFUSED: 0, IGNORED: 0, "bad": 0, "dropped": 0, "cleared": 0, FAILED: 0}
        self._stopping = asyncio.Event()
        self._write_wake = asyncio.Event()
        self._assigned: dict[int, Assignment] = {}
        # The club database is written on one thread of its own, never on the event loop the
        # web pages share; the .mat checks run in worker processes (the GIL would serialise them).
        self._database = ThreadPoolExecutor(max_workers=1, thread_name_prefix="club-db")
        self.gate = BoardGate(self.limits, self.counts)
        self.outbox = Outbox()
        self.checks = ResultChecks(self.limits, tournament, self.gate, self.counts, self._write_wake)
        self._full_sync = True
        self._stored_since_sync = False  # stored results whose assignments are not yet published
        self._synced_at = 0.0  # (loop time) the assignments were last compared with the database
        self._locked_since: float | None = None

    async def _off_loop(self, work: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._database, work, *args)

    def stop(self) -> None:
        self._stopping.set()

    # ------------------------------------------------------------------ the session
    async def run(self) -> None:
        """Serve until :meth:`stop`, reconnecting after any loss."""
        self.checks.start()
        workers = [asyncio.ensure_future(self.checks.run()), asyncio.ensure_future(self._write())]
        loop = asyncio.get_running_loop()
        watch = getattr(self.tournament, "watch", None)  # PostgreSQL's NOTIFY wakes the writer at once
        unwatch = watch(lambda: loop.call_soon_threadsafe(self._write_wake.set)) if watch is not None else None
        try:
            await keep_session(self._connect, self._serve, stopping=self._stopping, backoff=Backoff(),
                               unreachable=self._unreachable, failed=self._failed, up=self._up, down=self._down)
        finally:
            if unwatch is not None:
                unwatch()
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            await self.checks.stop()  # the workers end (a check under way finishes first)
            self._database.shutdown(wait=False)

    def _connect(self) -> Any:
        s = self.settings
        return open_client(s.broker, username=s.username, password=s.password, identifier=f"bgboard-{s.club}-director",
                           ca_file=s.ca_file, keepalive=s.keepalive_s)

    def _up(self) -> None:
        self.online = True
        log.info("the director is connected to the club broker %s", self.settings.broker)

    def _down(self) -> None:
        self.online = False

    def _unreachable(self, exc: Exception) -> None:
        log.warning("the club broker %s is not reachable (%s)", self.settings.broker, exc or type(exc).__name__)

    def _failed(self, exc: Exception) -> None:  # never let one fault end the evening: log it, connect again
        log.error("the director's session ended on an unexpected %s (%s): connecting again",
                  type(exc).__name__, str(exc)[:200], exc_info=exc)

    async def _serve(self, client: Any) -> None:
        club = self.settings.club
        # no_local: the director's own clearing publishes do not come back; retain-as-published:
        # a message tells whether the board left it retained (junk retained is cleared)
        options = subscription(1, no_local=True, retain_as_published=True)
        await client.subscribe([(board_filter(club, kind), options) for kind in ("state", "online", "result")])
        self._assigned.clear()
        self._full_sync = True
        self._write_wake.set()
        self.outbox.wake()
        await serve_side_by_side(self._stopping, self._read(client), self.outbox.run(client))

    async def _read(self, client: Any) -> None:
        n = 0
        async for message in client.messages:
            self.receive(str(message.topic), message.payload, bool(message.retain))
            n += 1
            if n % 64 == 0:  # a flood queued in the client: let the web pages and the writer in
                await asyncio.sleep(0)

    def send(self, where: str, payload: bytes, retain: bool) -> None:
        """Publish at QoS 0, in order, on the director's session (the gallery feed: a lost live
        state is overtaken by the next)."""
        self.outbox.send(where, payload, retain)

    # ------------------------------------------------------------------ messages (on the loop, never waiting)
    def receive(self, where: str, payload: Any, retained: bool = False) -> None:
        """Act on one message at once: states to the hub, results to the checks.  Nothing a
        board sends can raise out of here."""
        board, kind = 0, ""
        try:
            board, kind = parse_topic(where, self.settings.club)
            if payload is None or len(payload) == 0:
                return  # a cleared retained message
            if not self.gate.admit(board, kind):
                if retained and kind in ("state", "online", "result"):
                    # dropped unread, so it cannot be told from junk: cleared all the same (a
                    # board's own state comes again, coalesced; its result from its outbox)
                    self.counts["cleared"] += 1
                    self.outbox.queue(where, b"", True)
                return
            if kind == "state":
                state = decode("state", payload)
                if self.hub is not None:
                    self.hub.update(board, asdict(state))
            elif kind == "online":
                if not decode("online", payload).online and self.hub is not None:
                    self.hub.offline(board)
            elif kind == "result":
                self.checks.take(board, decode("result", payload))
            else:
                raise ProtocolError(f"the director does not take {kind} messages")
        except InputError as exc:
            self.counts["bad"] += 1
            self.gate.warn(board, "ignored a message on %s: %s", where[:120], exc)
            if retained and kind in ("state", "online", "result"):
                self.counts["cleared"] += 1
                self.outbox.queue(where, b"", True)  # junk left retained: gone for every later subscriber
        except Exception as exc:  # a fault of ours: logged, the message ignored, the director goes on
            self.counts["bad"] += 1
            log.error("could not handle a message on %s (%s: %s): ignored", where[:120], type(exc).__name__, str(exc)[:200],
                      exc_info=exc)

    # ------------------------------------------------------------------ writing (the database thread)
    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        backoff = Backoff(0.2, 5.0)
        while True:
            try:
                await asyncio.wait_for(self._write_wake.wait(), self.limits.watch_s)
            except asyncio.TimeoutError:
                pass
            self._write_wake.clear()
            full = self._full_sync
            self._full_sync = False
            try:
                if self.checks.checked:
                    batch = self.checks.checked[: self.limits.batch]
                    try:
                        outcomes = await self._off_loop(self._store, batch)
                    except Exception as exc:
                        if not is_full(exc):
                            raise
                        # waiting does not free the disk: each board is told now, not left waiting
                        log.error("the club database's disk is full (%s): %d result(s) refused with the reason",
                                  str(exc)[:200], len(batch))
                        outcomes = [Outcome(REFUSED, DISK_FULL) if o.status == CHECKED else o for _, _, o in batch]
                    del self.checks.checked[: len(batch)]
                    self._stored_since_sync = self._decided(batch, outcomes) or self._stored_since_sync
                if self.checks.checked and not full and loop.time() - self._synced_at < 2 * self.limits.watch_s:
                    # more results were checked meanwhile: they are stored first (a burst's
                    # acks do not wait for pairing and publishing the assignments, which still
                    # follow within a second however long the burst)
                    self._write_wake.set()
                else:
                    synced = await self._off_loop(self._assignments_now, full or self._stored_since_sync)
                    self._stored_since_sync = False
                    self._synced_at = loop.time()
                    if synced is not None:
                        self._sync(*synced, full=full)
                backoff.reset()
                if self._locked_since is not None:
                    log.warning("the club database is writable again after %.0f s: the waiting results are stored",
                                loop.time() - self._locked_since)
                    self._locked_since = None
            except Exception as exc:
                self._full_sync = self._full_sync or full
                wait = backoff.delay()
                if is_lock(exc):
                    if self._locked_since is None:
                        self._locked_since = loop.time()
                        log.warning("the club database is locked by another program (%s): %d result(s) wait, "
                                    "retried with backoff and acked only once stored", exc, len(self.checks.checked))
                else:
                    log.error("the club database could not be written (%s: %s): retried in %.1f s",
                              type(exc).__name__, str(exc)[:200], wait)
                self._write_wake.set()
                try:
                    await asyncio.wait_for(self._stopping.wait(), wait)
                except asyncio.TimeoutError:
                    pass

    def _store(self, batch: list[tuple[int, Result, Outcome]]) -> list[Outcome]:
        """On the database thread: the checked results of ``batch`` in one transaction."""
        todo = [(board, result) for board, result, outcome in batch if outcome.status == CHECKED]
        done = iter(self.tournament.store(todo) if todo else [])
        return [next(done) if outcome.status == CHECKED else outcome for _, _, outcome in batch]

    def _decided(self, batch: list[tuple[int, Result, Outcome]], outcomes: list[Outcome]) -> bool:
        """Count, log and ack what the database made of ``batch``; whether anything was stored."""
        stored = False
        for (board, result, _), outcome in zip(batch, outcomes):
            self.checks.done(result)
            self.counts[outcome.status] = self.counts.get(outcome.status, 0) + 1
            if outcome.status == IGNORED:
                self.gate.warn(board, "ignored a result from board %d: %s", board, outcome.reason)
                continue
            if outcome.status == FAILED:
                log.error("could not store the result of board %d (match %d): %s; it is taken when the board sends it again",
                          board, result.match, outcome.reason)
                continue
            stored = stored or outcome.status == STORED
            ack = Ack(result.uuid, outcome.status, outcome.reason[:200])
            self.outbox.queue(topic(self.settings.club, board, "ack"), encode(ack), False)
            if outcome.status == REFUSED:
                log.warning("refused the result of board %d (match %d): %s", board, result.match, outcome.reason)
                try:
                    self.on_refused(board, result, outcome.reason)
                except Exception as exc:
                    log.error("the refused-result handler failed (%s: %s)", type(exc).__name__, exc, exc_info=exc)
        return stored

    def _assignments_now(self, force: bool) -> tuple[list[Assignment], set[int]] | None:
        """On the database thread: pair what can be played and every board's assignment, when
        this director stored something (``force``) or another program changed the database."""
        if not (self.tournament.changed() or force):
            return None
        self.tournament.pair()
        return self.tournament.assignments(), self.tournament.boards()

    def _sync(self, assignments: list[Assignment], boards: set[int], *, full: bool) -> None:
        """Publish every board's assignment that differs from the one last published (all of
        them when ``full``); a board without an open match gets a cleared one."""
        desired: dict[int, Assignment] = {}
        for a in assignments:
            desired.setdefault(a.board, a)
        for board in sorted(set(boards) | set(desired) | set(self._assigned)):
            want = desired.get(board) or clear_assignment(board)
            if full or self._assigned.get(board) != want:
                self._assigned[board] = want
                self.outbox.queue(topic(self.settings.club, board, "assign"), encode(want), True)


async def serve_boards(db_path: Any, hub: Any, settings: DirectorSettings, *, stop: "asyncio.Event | None" = None,
                       feed: Any = None) -> None:
    """``bgboard club serve --broker``: the director's MQTT side on the club database at
    ``db_path`` until cancelled (or ``stop`` is set); ``feed`` (a ``GalleryFeed``, with
    ``--gallery``) publishes the room's live boards through the director's session."""
    from bgboard.club.director import Director as Service

    with Service.open(db_path) as service:
        director = DirectorLink(settings, ClubTournament(service), hub=hub)
        task = asyncio.ensure_future(director.run())
        feeding = None if feed is None else asyncio.ensure_future(feed.run(director.send, lambda: director.online))
        try:
            if stop is None:
                await task
            else:
                await stop.wait()
                director.stop()
                await task
        finally:
            director.stop()
            if feeding is not None:
                feeding.cancel()
            if not task.done():
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass


__all__ = ["DirectorSettings", "DirectorLink", "serve_boards"]
