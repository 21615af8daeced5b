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
processes run) and :mod:`~bgboard.club.board_tournament` (the club database as the link sees
it); this module holds the link and :func:`serve_boards`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import time
from collections import deque
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from bgboard.club.board_checks import (
    CHECKED, DISK_FULL, DUPLICATE, FAILED, IGNORED, REFUSED, STORED, Outcome, is_full, is_lock, nothing,
)
from bgboard.club.board_limits import Bucket, Limits
from bgboard.club.board_tournament import ClubTournament, Tournament
from bgboard.club.lifeline import helper_start
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
        self._outgoing: list[tuple[str, bytes, bool, int]] = []   # (topic, payload, retain, QoS)
        self._assigned: dict[int, Assignment] = {}
        # The club database is written on one thread of its own, never on the event loop the
        # web pages share; the .mat checks run in worker processes (the GIL would serialise them).
        self._database = ThreadPoolExecutor(max_workers=1, thread_name_prefix="club-db")
        self._checks: Executor | None = None
        self._checker: Callable[[int, Result], Outcome] | None = None
        self._queues: dict[int, deque[Result]] = {}
        self._turns: deque[int] = deque()  # boards with results waiting, taken in turn
        self._busy: set[str] = set()  # result UUIDs being checked or stored: re-sends wait
        self._checking = 0
        self._checked: list[tuple[int, Result, Outcome]] = []
        self._dispatch_wake = asyncio.Event()
        self._write_wake = asyncio.Event()
        self._send_wake = asyncio.Event()
        self._buckets: dict[tuple[int, str], Bucket] = {}
        self._quiet: dict[int, tuple[float, int]] = {}  # board -> (last sentence logged at, messages since)
        self._full_sync = True
        self._stored_since_sync = False  # stored results whose assignments are not yet published
        self._synced_at = 0.0  # (loop time) the assignments were last compared with the database
        self._locked_since: float | None = None
        self._generation = 0  # of the checking pool (a new one after a worker died)
        self._retries: dict[str, int] = {}  # result UUID -> checks lost to a dead worker

    async def _off_loop(self, work: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._database, work, *args)

    def stop(self) -> None:
        self._stopping.set()

    # ------------------------------------------------------------------ the session
    async def run(self) -> None:
        """Serve until :meth:`stop`, reconnecting after any loss."""
        self._start_checks()
        workers = [asyncio.ensure_future(self._dispatch()), asyncio.ensure_future(self._write())]
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
            if self._checks is not None:  # the workers end (a check under way finishes first)
                await asyncio.shield(asyncio.to_thread(self._checks.shutdown, True, cancel_futures=True))
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
                  type(exc).__name__, str(exc)[:200])

    def _start_checks(self) -> None:
        lim = self.limits
        self._checker = self.tournament.checker()
        self._generation += 1
        old = self._checks
        if old is not None:  # a worker died (killed, out of memory): a new pool takes over
            old.shutdown(wait=False, cancel_futures=True)
        if lim.processes and lim.checks > 0:
            # forkserver: the workers do not inherit this process's threads, sockets or locks;
            # the forkserver and the workers die with this process (club/lifeline.py)
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["bgboard.club.forkserver_lifeline"])
            self._checks = ProcessPoolExecutor(lim.checks, mp_context=context, initializer=helper_start)
        else:
            self._checks = ThreadPoolExecutor(max(1, lim.checks), thread_name_prefix="club-check")
        warm = getattr(self._checker, "warm", None)
        for _ in range(max(1, lim.checks)):  # start every worker now, not at the first result
            self._checks.submit(warm or nothing)

    async def _serve(self, client: Any) -> None:
        club = self.settings.club
        # no_local: the director's own clearing publishes do not come back; retain-as-published:
        # a message tells whether the board left it retained (junk retained is cleared)
        options = subscription(1, no_local=True, retain_as_published=True)
        await client.subscribe([(board_filter(club, kind), options) for kind in ("state", "online", "result")])
        self._assigned.clear()
        self._full_sync = True
        self._write_wake.set()
        self._send_wake.set()
        await serve_side_by_side(self._stopping, self._read(client), self._send(client))

    async def _read(self, client: Any) -> None:
        n = 0
        async for message in client.messages:
            self.receive(str(message.topic), message.payload, bool(message.retain))
            n += 1
            if n % 64 == 0:  # a flood queued in the client: let the web pages and the writer in
                await asyncio.sleep(0)

    async def _send(self, client: Any) -> None:
        while True:
            await self._send_wake.wait()
            self._send_wake.clear()
            while self._outgoing:
                batch, self._outgoing = self._outgoing, []
                by_topic: dict[str, list[tuple[bytes, bool, int]]] = {}
                for where, payload, retain, qos in batch:
                    by_topic.setdefault(where, []).append((payload, retain, qos))
                try:  # one topic's messages in order; topics side by side
                    sent = await asyncio.gather(*(self._publish(client, where, items) for where, items in by_topic.items()),
                                                return_exceptions=True)
                except BaseException:
                    self._outgoing[:0] = batch  # sent again after the reconnection (acks and retained: harmless)
                    raise
                failed = [e for e in sent if isinstance(e, BaseException)]
                if failed:
                    self._outgoing[:0] = batch
                    raise failed[0]

    @staticmethod
    async def _publish(client: Any, where: str, items: list[tuple[bytes, bool, int]]) -> None:
        for payload, retain, qos in items:
            await client.publish(where, payload, qos=qos, retain=retain)

    def _queue(self, where: str, payload: bytes, retain: bool) -> None:
        self._outgoing.append((where, payload, retain, 1))
        self._send_wake.set()

    def send(self, where: str, payload: bytes, retain: bool) -> None:
        """Publish at QoS 0, in order, on the director's session (the gallery feed: a lost live
        state is overtaken by the next)."""
        self._outgoing.append((where, payload, retain, 0))
        self._send_wake.set()

    # ------------------------------------------------------------------ messages (on the loop, never waiting)
    def receive(self, where: str, payload: Any, retained: bool = False) -> None:
        """Act on one message at once: states to the hub, results to the checks.  Nothing a
        board sends can raise out of here."""
        board, kind = 0, ""
        try:
            board, kind = parse_topic(where, self.settings.club)
            if payload is None or len(payload) == 0:
                return  # a cleared retained message
            if not self._admit(board, kind):
                if retained and kind in ("state", "online", "result"):
                    # dropped unread, so it cannot be told from junk: cleared all the same (a
                    # board's own state comes again, coalesced; its result from its outbox)
                    self.counts["cleared"] += 1
                    self._queue(where, b"", True)
                return
            if kind == "state":
                state = decode("state", payload)
                if self.hub is not None:
                    self.hub.update(board, asdict(state))
            elif kind == "online":
                if not decode("online", payload).online and self.hub is not None:
                    self.hub.offline(board)
            elif kind == "result":
                self._take_result(board, decode("result", payload))
            else:
                raise ProtocolError(f"the director does not take {kind} messages")
        except InputError as exc:
            self.counts["bad"] += 1
            self._say(board, "ignored a message on %s: %s", where[:120], exc)
            if retained and kind in ("state", "online", "result"):
                self.counts["cleared"] += 1
                self._queue(where, b"", True)  # junk left retained: gone for every later subscriber
        except Exception as exc:  # a fault of ours: logged, the message ignored, the director goes on
            self.counts["bad"] += 1
            log.error("could not handle a message on %s (%s: %s): ignored", where[:120], type(exc).__name__, str(exc)[:200])

    def _admit(self, board: int, kind: str) -> bool:
        lim = self.limits
        now = time.monotonic()
        bucket = self._buckets.get((board, kind))
        if bucket is None:
            rate, burst = {
                "state": (lim.state_per_s, lim.state_burst),
                "result": (lim.result_per_s, lim.result_burst),
            }.get(kind, (lim.online_per_s, lim.online_burst))
            bucket = self._buckets[(board, kind)] = Bucket(rate, burst, now)
        if bucket.take(now):
            return True
        self.counts["dropped"] += 1
        self._say(board, "board %d sends more %s messages than a board does: the rest are dropped unread", board, kind)
        return False

    def _say(self, board: int, text: str, *args: Any) -> None:
        """Log one sentence, then at most one a minute per board while it goes on (counted)."""
        now = time.monotonic()
        last, since = self._quiet.get(board, (-1e9, 0))
        if now - last >= 60.0:
            more = f" ({since} more of board {board}'s messages ignored or dropped since the last word)" if since else ""
            log.warning(text + "%s", *args, more)
            self._quiet[board] = (now, 0)
        else:
            self._quiet[board] = (last, since + 1)

    def _take_result(self, board: int, result: Result) -> None:
        if result.board != board:
            self.counts[IGNORED] += 1
            self._say(board, "ignored a result from board %d: %s", board,
                      f"a result naming board {result.board} arrived on board {board}'s topic")
            return
        if result.uuid in self._busy:
            return  # a re-send of a result being checked or stored: its ack is coming
        queue = self._queues.setdefault(board, deque())
        if len(queue) >= self.limits.queued_results:
            self.counts["dropped"] += 1
            self._say(board, "board %d has %d results waiting: this one is dropped (the board sends it again)",
                      board, len(queue))
            return
        self._busy.add(result.uuid)
        if not queue:
            self._turns.append(board)
        queue.append(result)
        self._dispatch_wake.set()

    # ------------------------------------------------------------------ checking (worker processes)
    async def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        check = self._checker
        assert check is not None, "run() starts the checks first"
        while True:
            while self._turns and self._checking < max(2, 2 * self.limits.checks):
                board = self._turns.popleft()
                queue = self._queues[board]
                result = queue.popleft()
                if queue:
                    self._turns.append(board)  # its next result after every other board's
                try:
                    future = loop.run_in_executor(self._checks, check, board, result)
                except (BrokenExecutor, RuntimeError) as exc:
                    log.error("the result checks' workers stopped (%s): starting new ones", type(exc).__name__)
                    self._start_checks()
                    future = loop.run_in_executor(self._checks, check, board, result)
                self._checking += 1
                future.add_done_callback(functools.partial(self._checked_one, board, result, self._generation))
            self._dispatch_wake.clear()
            await self._dispatch_wake.wait()

    def _checked_one(self, board: int, result: Result, generation: int, future: "asyncio.Future[Outcome]") -> None:
        self._checking -= 1
        self._dispatch_wake.set()
        if future.cancelled():
            self._busy.discard(result.uuid)
            return
        exc = future.exception()
        if isinstance(exc, BrokenExecutor) and self._retries.get(result.uuid, 0) < 1:
            # a worker died (killed, out of memory): new workers check it again, once
            if generation == self._generation:
                log.error("a worker checking results died (%s): new workers take over", type(exc).__name__)
                self._start_checks()
            self._retries[result.uuid] = self._retries.get(result.uuid, 0) + 1
            queue = self._queues.setdefault(board, deque())
            if not queue:
                self._turns.append(board)
            queue.appendleft(result)
            return
        self._retries.pop(result.uuid, None)
        if exc is not None:
            self._busy.discard(result.uuid)
            self.counts[FAILED] += 1
            log.error("could not check the result of board %d (match %d): %s: %s; it is taken when the board sends it again",
                      board, result.match, type(exc).__name__, str(exc)[:200])
            return
        self._checked.append((board, result, future.result()))
        self._write_wake.set()

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
                if self._checked:
                    batch = self._checked[: self.limits.batch]
                    try:
                        outcomes = await self._off_loop(self._store, batch)
                    except Exception as exc:
                        if not is_full(exc):
                            raise
                        # waiting does not free the disk: each board is told now, not left waiting
                        log.error("the club database's disk is full (%s): %d result(s) refused with the reason",
                                  str(exc)[:200], len(batch))
                        outcomes = [Outcome(REFUSED, DISK_FULL) if o.status == CHECKED else o for _, _, o in batch]
                    del self._checked[: len(batch)]
                    self._stored_since_sync = self._decided(batch, outcomes) or self._stored_since_sync
                if self._checked and not full and loop.time() - self._synced_at < 2 * self.limits.watch_s:
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
                                    "retried with backoff and acked only once stored", exc, len(self._checked))
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
            self._busy.discard(result.uuid)
            self.counts[outcome.status] = self.counts.get(outcome.status, 0) + 1
            if outcome.status == IGNORED:
                self._say(board, "ignored a result from board %d: %s", board, outcome.reason)
                continue
            if outcome.status == FAILED:
                log.error("could not store the result of board %d (match %d): %s; it is taken when the board sends it again",
                          board, result.match, outcome.reason)
                continue
            stored = stored or outcome.status == STORED
            ack = Ack(result.uuid, outcome.status, outcome.reason[:200])
            self._queue(topic(self.settings.club, board, "ack"), encode(ack), False)
            if outcome.status == REFUSED:
                log.warning("refused the result of board %d (match %d): %s", board, result.match, outcome.reason)
                try:
                    self.on_refused(board, result, outcome.reason)
                except Exception as exc:
                    log.error("the refused-result handler failed (%s: %s)", type(exc).__name__, exc)
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
                self._queue(topic(self.settings.club, board, "assign"), encode(want), True)


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
