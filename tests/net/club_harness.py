"""A club evening on a real Mosquitto for the end-to-end tests (test helper): the club
database with its service, the director's MQTT side and simulated boards (modelled firmware)
in one asyncio loop, and the checks every run must pass."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bgboard.club.board_tournament import ClubTournament
from bgboard.club.boards import DirectorLink, DirectorSettings
from bgboard.club.director import Director as Service
from bgboard.club.live_boards import LiveHub
from bgboard.match import read_mat, replay
from bgboard.net.boardlink import LinkSettings
from bgboard.net.broker import DIRECTOR, board_user
from bgboard.net.mosquitto import PrivateBroker
from bgboard.net.protocol import parse_broker_url
from bgboard.sim.clubboard import ClubSimBoard
from tests.net.conftest import CLUB
from tests.support import until

PLAYERS = [f"Player {chr(65 + i)}" for i in range(16)]


def new_club(db: Path, format: str = "swiss", length: int = 1, rounds: int | None = 1, players: int = 16) -> list[Any]:
    """A club with an event entered and its first round paired: the round's matches."""
    with Service.create(db, "Test club") as s:
        for i, name in enumerate(PLAYERS[:players]):
            s.add_player(name, rating=1500 + 10 * i)
        s.new_event("Friday", format, length, rounds=rounds)
        s.enter("Friday", PLAYERS[:players])
        return s.pair_round("Friday").matches


def director_settings(broker: PrivateBroker) -> DirectorSettings:
    return DirectorSettings(parse_broker_url(broker.url), CLUB, broker.password(DIRECTOR))


def board_settings(broker: PrivateBroker, board: int) -> LinkSettings:
    return LinkSettings(
        parse_broker_url(broker.url), CLUB, board, board_user(board), broker.password(board_user(board)),
        resend_s=1.0, backoff_first_s=0.1, backoff_most_s=1.0, keepalive_s=5,
    )


class Evening:
    """The director and boards as tasks of the running loop."""

    def __init__(self, tmp: Path, broker: PrivateBroker, db: Path) -> None:
        self.tmp = tmp
        self.broker = broker
        self.db = db
        self.hub = LiveHub()
        self.service: Any = None
        self.director: DirectorLink | None = None
        self.director_task: asyncio.Task[None] | None = None
        self.boards: dict[int, ClubSimBoard] = {}
        self.board_tasks: dict[int, asyncio.Task[None]] = {}

    def start_director(self) -> None:
        self.service = Service.open(self.db)
        self.director = DirectorLink(director_settings(self.broker), ClubTournament(self.service), hub=self.hub)
        self.director_task = asyncio.create_task(self.director.run())

    async def stop_director(self) -> None:
        assert self.director is not None and self.director_task is not None
        self.director.stop()
        await self.director_task
        self.service.close()

    def start_board(self, n: int, matches: int | None = None, pace_s: float = 0.0, **options: Any) -> ClubSimBoard:
        board = ClubSimBoard(board_settings(self.broker, n), self.tmp / f"board{n}", matches=matches, pace_s=pace_s, **options)
        self.boards[n] = board
        self.board_tasks[n] = asyncio.create_task(board.run())
        return board

    async def stop_board(self, n: int) -> None:
        self.boards[n].stop()
        await self.board_tasks.pop(n)

    async def until(self, predicate: Any, seconds: float = 120.0) -> None:
        """tests.support.until, and a crash in a board or the director raises here."""
        tasks = list(self.board_tasks.values()) + ([self.director_task] if self.director_task else [])
        await until(predicate, seconds, watch=tasks, poll=0.05)

    def pending(self) -> int:
        with Service.open(self.db) as s:
            return sum(1 for m in s.matches("Friday") if m.status == "pending")


def mat_results(tmp: Path) -> dict[tuple[str, str], tuple[int, int]]:
    """(player 0, player 1) -> final score of every match record the boards wrote."""
    out = {}
    for mat in sorted(tmp.glob("board*/matches/*/match.mat")):
        actions = read_mat(mat.read_text())
        state = replay(actions)
        out[state.players] = state.score
    return out


def standings_from_mats(results: dict[tuple[str, str], tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """name -> (wins, losses) computed from the records alone."""
    table: dict[str, list[int]] = {}
    for (a, b), (sa, sb) in results.items():
        winner, loser = (a, b) if sa > sb else (b, a)
        table.setdefault(winner, [0, 0])[0] += 1
        table.setdefault(loser, [0, 0])[1] += 1
    return {name: (w, l) for name, (w, l) in table.items()}
