"""``bgboard club demo``: a whole club evening on this machine, from the draw to the champion.

A private Mosquitto (:class:`~bgboard.net.mosquitto.PrivateBroker`, a free localhost port,
one password per board and the ACL of a real club), a club database with ``players``
entered in a double elimination with consolation, the director's MQTT side
(:class:`~bgboard.club.boards.DirectorLink` on the club service) and ``boards`` simulated boards
(:class:`~bgboard.sim.clubboard.ClubSimBoard`: simulated players, modelled firmware, the real
host controller, the real seat of a club board - :class:`~bgboard.net.seat.ClubSeat` - and the
real board-side club link), all in one asyncio loop; the live web
pages too when the ``club`` extra is installed.  Everything is written under ``out``.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from bgboard.club.board_tournament import ClubTournament
from bgboard.club.boards import DirectorLink, DirectorSettings
from bgboard.club.director import Director as Service
from bgboard.club.live_boards import LiveHub
from bgboard.errors import InputError
from bgboard.net.boardlink import LinkSettings
from bgboard.net.broker import DIRECTOR, board_user
from bgboard.net.mosquitto import PrivateBroker, free_port
from bgboard.net.protocol import parse_broker_url
from bgboard.sim.clubboard import ClubSimBoard

log = logging.getLogger(__name__)

TOPIC = "demo"
MAX_LENGTH = 99  # the club's longest match (Director.new_event)
EVENT = "Demo evening"
NAMES = (
    "Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea", "Max", "Nia", "Oto", "Pia",
    "Quin", "Rui", "Sol", "Tea", "Uma", "Vic", "Wim", "Xia", "Yan", "Zoe",
)


@dataclass(frozen=True, slots=True)
class DemoResult:
    champion: str | None
    standings: list[Any]
    matches: int
    pages: str  # where the pages were served ("" without the club extra)
    export: Path


def player_names(count: int) -> list[str]:
    """``count`` distinct player names."""
    return [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" {i // len(NAMES) + 1}") for i in range(count)]


async def play_evening(
    out: Path, boards: int, players: int, length: int = 1, consolation_length: int = 1,
    on_line: Callable[[str], None] = print, http: bool = True,
) -> DemoResult:
    """Play the evening (see the module docstring); ``on_line`` gets the progress lines."""
    _check_options(boards, players, length, consolation_length)
    out = Path(out)
    db = out / "club.sqlite"
    # at most one match per two players is played at once: that many boards are ever needed
    numbers = range(1, min(boards, players // 2) + 1)
    broker = _draw(out, numbers, player_names(players), length, consolation_length)
    on_line(f"{players} players, double elimination to {length} point(s), {len(numbers)} boards; broker {broker.url}")
    broker.start()
    hub = LiveHub()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[Any]] = []
    pages = ""
    service = Service.open(db)
    try:
        director = DirectorLink(DirectorSettings(parse_broker_url(broker.url), TOPIC, broker.password(DIRECTOR)),
                                ClubTournament(service), hub=hub)
        tasks.append(asyncio.create_task(director.run(), name="director"))
        if http:
            pages = _start_pages(db, hub, stop, tasks)
            if pages:
                on_line(f"live pages: {pages}")
        sims = _start_boards(broker, numbers, out, tasks)
        log.info("the club demo runs: the director, %d boards%s", len(sims), ", the pages" if pages else "")
        await _until_finished(service, tasks, on_line)
        for sim in sims:  # the last acks reach the boards, then everyone goes home
            while sim.journal_pending():
                await asyncio.sleep(0.05)
            sim.stop()
        director.stop()
        stop.set()
        await asyncio.gather(*tasks)
        standings = service.standings(EVENT)
        matches = len([m for m in service.matches(EVENT) if m.status == "finished"])
        export = out / "export"
        service.export(EVENT, export)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        service.close()
        broker.stop()
        log.info("the club demo stopped: its tasks and the broker")
    champion = next((s.name for s in standings if s.status == "champion"), None)
    return DemoResult(champion, standings, matches, pages, export)


def _check_options(boards: int, players: int, length: int, consolation_length: int) -> None:
    """One sentence for each option out of its range."""
    if not 1 <= boards <= 64:
        raise InputError(f"--boards must be 1..64, not {boards}")
    if not 2 <= players <= len(NAMES) * 4:
        raise InputError(f"--players must be 2..{len(NAMES) * 4}, not {players}")
    for option, value in (("--length", length), ("the consolation length", consolation_length)):
        if not 1 <= value <= MAX_LENGTH:
            raise InputError(f"{option} must be 1..{MAX_LENGTH} points, not {value}")


def _draw(out: Path, numbers: range, names: list[str], length: int, consolation_length: int) -> PrivateBroker:
    """The club database under ``out`` with the players entered and the first round paired,
    and the broker's files (not started yet) for the boards ``numbers``."""
    db = out / "club.sqlite"
    if db.exists():
        raise InputError(f"{out} already holds a club evening: choose another --out")
    made_out = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:  # a start refused half-way leaves nothing behind that would block the corrected rerun
        broker = PrivateBroker(out / "broker", TOPIC, numbers)
        with Service.create(db, "bgboard demo club") as service:
            for i, name in enumerate(names):
                service.add_player(name, rating=1500.0 + 7 * ((i * 5) % len(names)))
            service.new_event(EVENT, "double-elimination", length, consolation_length=consolation_length)
            service.enter(EVENT, names)
            first = service.pair_round(EVENT)
        if any(m.board is not None and m.board > len(numbers) for m in first.matches):
            raise InputError(f"the first round needs {len(first.matches)} boards: give --boards {len(first.matches)}")
    except BaseException:
        _undo_start(out, made_out)
        raise
    return broker


def _start_boards(broker: PrivateBroker, numbers: range, out: Path,
                  tasks: list[asyncio.Task[Any]]) -> list[ClubSimBoard]:
    """A simulated board for each number, each a task of ``tasks``."""
    sims = []
    for n in numbers:
        settings = LinkSettings(parse_broker_url(broker.url), TOPIC, n, board_user(n), broker.password(board_user(n)),
                                resend_s=2.0)
        sim = ClubSimBoard(settings, out / f"board{n}")
        sims.append(sim)
        tasks.append(asyncio.create_task(sim.run(), name=f"board{n}"))
    return sims


async def _until_finished(service: Service, tasks: list[asyncio.Task[Any]], on_line: Callable[[str], None]) -> None:
    """Wait for the event's end, saying each new count of results stored; a task that
    crashed meanwhile is logged and its exception raised."""
    reported = 0
    while service.event(EVENT).status != "finished":
        for t in tasks:
            if t.done():
                if not t.cancelled() and t.exception() is not None:
                    log.error("the demo's %s task failed", t.get_name(), exc_info=t.exception())
                t.result()  # a crash: raise it
        done = sum(1 for m in service.matches(EVENT) if m.status == "finished")
        if done != reported:
            reported = done
            on_line(f"results stored: {done}")
        await asyncio.sleep(0.2)


def _undo_start(out: Path, made_out: bool) -> None:
    """Remove what a refused start wrote under ``out`` (the database, the broker's files)."""
    for name in ("club.sqlite", "club.sqlite-wal", "club.sqlite-shm", "club.sqlite-journal"):
        (out / name).unlink(missing_ok=True)
    shutil.rmtree(out / "broker", ignore_errors=True)
    if made_out:
        try:
            out.rmdir()
        except OSError:
            pass  # something else is in it now: left as it is


def _start_pages(db: Path, hub: LiveHub, stop: asyncio.Event, tasks: list[asyncio.Task[Any]]) -> str:
    """The live web pages on a free localhost port, when the club extra is installed."""
    try:
        from bgboard.club.web.server import serve_club
    except ImportError:
        log.info("no live pages: the club extra is not installed")
        return ""
    port = free_port()
    tasks.append(asyncio.create_task(serve_club(db, hub, "127.0.0.1", port, stop=stop), name="pages"))
    return f"http://127.0.0.1:{port}/"
