"""The director's side of the club network (adapter; docs/club-protocol.md).

:class:`Director` is what ``bgboard club serve --broker URL`` runs: one MQTT session (user
``director``, a persistent session, so results published while the director was down are
waiting for it) subscribed to every board's ``state``, ``online`` and ``result``.

* a board's state goes to the room's :class:`~bgboard.club.live.LiveHub` (the web pages), its
  last will marks it offline there;
* a result goes to the :class:`Tournament` (the club database), which stores it **once per
  result UUID** in one transaction and says ``stored``, ``duplicate`` or ``refused`` (with a
  sentence: a .mat that does not replay to the score, a second result for a decided match);
  only then is the ack published, so a director killed in between is asked again by the board
  and answers ``duplicate``.  A result from a board that is not the match's assigned board is
  ignored (logged, not acked);
* after a stored result the director pairs what can be played now and publishes the new
  assignments (retained) to their boards; a board left without a match gets a cleared one;
* on every (re)connection it publishes every open assignment again from the database — the
  database is the truth, the broker may have lost everything.

A message that cannot be read is logged with one sentence and ignored.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any, Callable, Protocol

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
from bgboard.net.session import Backoff, MqttError, open_client

log = logging.getLogger("bgboard.club.director")

STORED, DUPLICATE, REFUSED, IGNORED = "stored", "duplicate", "refused", "ignored"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the club database made of a board's result."""

    status: str  # stored, duplicate, refused or ignored (not this board's match: no ack)
    reason: str = ""


class Tournament(Protocol):
    """What the director needs of the club database."""

    def report(self, board: int, result: Result) -> Outcome:
        """Store a board's result once per UUID (see :class:`Outcome`)."""
        ...

    def pair(self) -> list[Assignment]:
        """Pair every match that can be played now; the new matches with their boards."""
        ...

    def assignments(self) -> list[Assignment]:
        """Every open match that has a board (published again on each connection)."""
        ...


@dataclass(frozen=True, slots=True)
class DirectorSettings:
    broker: BrokerUrl
    club: str
    password: str
    username: str = "director"
    ca_file: str = ""
    keepalive_s: int = 10


class Director:
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
        self.tournament = tournament
        self.hub = hub
        self.on_refused = on_refused
        self.online = False
        self.counts = {STORED: 0, DUPLICATE: 0, REFUSED: 0, IGNORED: 0, "bad": 0}
        self._stopping = asyncio.Event()
        self._outgoing: list[tuple[str, bytes, bool]] = []
        self._assigned: dict[int, Assignment] = {}
        # The club database (a .mat replayed, an fsynced transaction: tens of ms a result) is
        # worked on one thread of its own, never on the event loop the web pages share.
        self._database = ThreadPoolExecutor(max_workers=1, thread_name_prefix="club-db")

    async def _off_loop(self, work: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._database, work, *args)

    def stop(self) -> None:
        self._stopping.set()

    def _open_assignments(self) -> list[Assignment]:
        return self.tournament.assignments() + self.tournament.pair()

    async def run(self) -> None:
        """Serve until :meth:`stop`, reconnecting after any loss."""
        s = self.settings
        backoff = Backoff()
        while not self._stopping.is_set():
            client = open_client(
                s.broker, username=s.username, password=s.password, identifier=f"bgboard-{s.club}-director",
                ca_file=s.ca_file, keepalive=s.keepalive_s,
            )
            try:
                async with client:
                    backoff.reset()
                    self.online = True
                    await self._serve(client)
            except MqttError as exc:
                log.warning("the club broker %s is not reachable (%s)", s.broker, exc or type(exc).__name__)
            self.online = False
            if self._stopping.is_set():
                break
            try:
                await asyncio.wait_for(self._stopping.wait(), backoff.delay())
            except asyncio.TimeoutError:
                pass

    async def _serve(self, client: Any) -> None:
        club = self.settings.club
        await client.subscribe([(board_filter(club, kind), 1) for kind in ("state", "online", "result")])
        self._assigned.clear()
        for a in await self._off_loop(self._open_assignments):
            self._assign(a)
        await self._flush(client)
        reader = asyncio.ensure_future(self._read(client))
        stop = asyncio.ensure_future(self._stopping.wait())
        try:
            done, _ = await asyncio.wait({reader, stop}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                reader.result()
        finally:
            reader.cancel()
            stop.cancel()

    async def _read(self, client: Any) -> None:
        async for message in client.messages:
            where = str(message.topic)
            if where.endswith("/result"):
                await self._off_loop(self.receive, where, message.payload)
            else:  # a state or last will: the room's hub lives on the loop
                self.receive(where, message.payload)
            await self._flush(client)

    async def _flush(self, client: Any) -> None:
        while self._outgoing:
            where, payload, retain = self._outgoing[0]
            await client.publish(where, payload, qos=1, retain=retain)
            self._outgoing.pop(0)

    # ------------------------------------------------------------------ the core (no network)
    def receive(self, where: str, payload: bytes) -> None:
        """Act on one message; what to publish is queued for the session."""
        try:
            board, kind = parse_topic(where, self.settings.club)
            if kind == "state":
                state = decode("state", payload)
                if self.hub is not None:
                    self.hub.update(board, asdict(state))
            elif kind == "online":
                if not decode("online", payload).online and self.hub is not None:
                    self.hub.offline(board)
            elif kind == "result":
                self._result(board, decode("result", payload))
            else:
                raise ProtocolError(f"the director does not take {kind} messages")
        except InputError as exc:
            self.counts["bad"] += 1
            log.warning("ignored a message on %s: %s", where[:120], exc)

    def _result(self, board: int, result: Result) -> None:
        if result.board != board:
            outcome = Outcome(IGNORED, f"a result naming board {result.board} arrived on board {board}'s topic")
        else:
            outcome = self.tournament.report(board, result)
        self.counts[outcome.status] += 1
        if outcome.status == IGNORED:
            log.warning("ignored a result from board %d: %s", board, outcome.reason)
            return
        ack = Ack(result.uuid, outcome.status, outcome.reason[:200])
        self._outgoing.append((topic(self.settings.club, board, "ack"), encode(ack), False))
        if outcome.status == REFUSED:
            log.warning("refused the result of board %d (match %d): %s", board, result.match, outcome.reason)
            self.on_refused(board, result, outcome.reason)
        if outcome.status == STORED:
            fresh = self.tournament.pair()
            for a in fresh:
                self._assign(a)
            if self._assigned.get(board, clear_assignment(board)).match == result.match and not any(a.board == board for a in fresh):
                self._assign(clear_assignment(board))

    def _assign(self, a: Assignment) -> None:
        self._assigned[a.board] = a
        self._outgoing.append((topic(self.settings.club, a.board, "assign"), encode(a), True))


# ----------------------------------------------------------------------------- the club database
def assignment_of(a: Any) -> Assignment:
    """The network's assignment of a :class:`bgboard.club.director.Assignment`."""
    from bgboard.net.protocol import ClockSettings

    clock = None
    c = a.clock or {}
    if "reserve_per_point_s" in c:
        per_point = int(c["reserve_per_point_s"]) * 1000
        # US clock rules: the reserve is cut by half a point's worth per point already scored.
        clock = ClockSettings(per_point, per_point // 2, int(c.get("delay_s", 0)) * 1000)
    return Assignment(
        event=a.event, match=a.id, board=a.board, players=(a.players[0], a.players[1]), length=a.length,
        rules=a.rules, round=a.round, clock=clock,
    )


class ClubTournament:
    """:class:`Tournament` over the club's service (:class:`bgboard.club.director.Director`):
    results are stored with ``record_result(..., result_key=<result UUID>)`` — once per UUID,
    the .mat replayed and checked against the score — and rounds of *running* events are
    paired as soon as something can be played (an event is started by the director's first
    ``bgboard club round``)."""

    def __init__(self, service: Any, *, actor: str = "board") -> None:
        self._path = service.club.path
        self._own = threading.local()
        self.actor = actor

    @property
    def service(self) -> Any:
        """The club service on the calling thread's own connection (SQLite connections stay on
        the thread that opened them; the director works the database off the event loop)."""
        service = getattr(self._own, "service", None)
        if service is None:
            from bgboard.club.director import Director as Service

            service = self._own.service = Service.open(self._path)
        return service

    def _running(self) -> list[str]:
        return [e.name for e in self.service.events() if e.status == "running"]

    def report(self, board: int, result: Result) -> Outcome:
        try:
            match = self.service.match(result.match)
        except InputError as exc:
            return Outcome(REFUSED, str(exc))
        if match.board != board:
            return Outcome(IGNORED, f"match {result.match} is assigned to board {match.board}, not board {board}")
        if match.event != result.event:
            return Outcome(REFUSED, f"match {result.match} belongs to event {match.event!r}, not {result.event!r}")
        if list(result.players) != list(match.players):
            return Outcome(REFUSED, f"match {result.match} is {match.players[0]} against {match.players[1]}, "
                                    f"not {result.players[0]} against {result.players[1]}")
        try:  # an event asking for confirmation: a disputed or unconfirmed result waits (club/confirm.py)
            from bgboard.club.confirm import board_result

            held = board_result(self.service, match.event, match.id, board, result)
        except InputError as exc:
            return Outcome(REFUSED, str(exc))
        if held is not None:
            return Outcome(*held)
        fresh = match.status == "pending"
        try:
            self.service.record_result(
                match.event, match.id, tuple(result.score), mat=result.mat, result_key=result.uuid,
                actor=f"{self.actor} {board}",
            )
        except InputError as exc:
            return Outcome(REFUSED, str(exc))
        return Outcome(STORED if fresh else DUPLICATE)

    def pair(self) -> list[Assignment]:
        made = []
        for event in self._running():
            try:
                made += [m for m in self.service.pair_round(event, actor="director").matches if m.board is not None]
            except InputError:
                continue  # nothing to pair now (a round still being played) or the event is over
        if not made:
            return []
        return [a for a in self.assignments() if a.match in {m.id for m in made}]

    def assignments(self) -> list[Assignment]:
        out = []
        for event in self._running():
            out += [assignment_of(a) for a in self.service.assignments(event) if a.board is not None]
        from bgboard.club.confirm import confirming

        return confirming(self.service, out)


async def serve_boards(db_path: Any, hub: Any, settings: DirectorSettings, *, stop: "asyncio.Event | None" = None) -> None:
    """``bgboard club serve --broker``: the director's MQTT side on the club database at
    ``db_path`` until cancelled (or ``stop`` is set)."""
    from bgboard.club.director import Director as Service

    with Service.open(db_path) as service:
        director = Director(settings, ClubTournament(service), hub=hub)
        task = asyncio.ensure_future(director.run())
        try:
            if stop is None:
                await task
            else:
                await stop.wait()
                director.stop()
                await task
        finally:
            director.stop()
            if not task.done():
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
