"""A simulated board of a club evening: the real seat plays what the director assigns (adapter).

``bgboard sim --club FILE`` (and ``bgboard club demo``'s boards) run a :class:`ClubSimBoard`:
the board of ``bgboard run`` with ``[club] broker`` set, its hardware simulated.  The
director's assignments reach the real :class:`~bgboard.net.seat.ClubSeat` through the real
:class:`~bgboard.net.boardlink.ClubLink`; the seat takes them, starts each assigned match on
the real host controller, publishes the match as it goes, asks the players to confirm the
result when the event wants it, and puts the result in the outbox of the board's journal,
which the link sends until the director acks it.  The players are the driver's
(:class:`~bgboard.sim.driver.Players`, the turn loop :func:`~bgboard.sim.driver.play`) at the
:class:`~bgboard.sim.modelled_board.ModelledBoard`; they answer a result to confirm with the
buttons, as ``answers`` says (done for ``confirm``, another button for ``dispute``).  Every
event of the board goes to the app's one room under ``[club]``, the match room seated
(:class:`~bgboard.control.seated_room.SeatedRoom`: a press the seat takes goes to the seat,
the rest to the match room), and the seat follows each event (publish, report, take).

Everything lives under ``out``: ``journal.sqlite`` (the board's journal, as the app keeps
it: each match's actions, the seat's club rows - each assignment taken and started, with the
match's UUID, the answers, the report -, the players' verdict rows, and the outbox) and
``matches/<uuid>/`` (each match's records, ``match.mat`` and ``match.sgf``).  The players'
seed of a match is a function of the event and the club's match id, so a board killed at any
moment and started again resumes the match from its journal and ends it exactly as an
uninterrupted run would.
"""

from __future__ import annotations

import asyncio
import logging
import hashlib
import time
from pathlib import Path
from typing import Callable

from bgboard.control.confirm import CONFIRM
from bgboard.control.controller import Controller, Settings
from bgboard.control.events import Button
from bgboard.control.seated_room import SeatedRoom
from bgboard.net.boardlink import ClubLink, LinkSettings
from bgboard.net.protocol import Assignment
from bgboard.net.seat import ClubSeat
from bgboard.sense.slots import SlotMap
from bgboard.sim.driver import SIM_KIND, Options, Players, Resumed, SimulationError, play
from bgboard.sim.modelled_board import ModelledBoard, open_journal
from bgboard.sim.ops import run_now
from bgboard.sim.records import write_mat, write_sgf
from bgboard.store.journal import Entry

__all__ = ["ClubSimBoard", "match_seed"]

log = logging.getLogger(__name__)


def match_seed(event: str, match: int) -> int:
    """The simulated players' seed of a club match (the same at every board and every run)."""
    return int(hashlib.sha256(f"{event}/{match}".encode()).hexdigest()[:8], 16)


class ClubSimBoard:
    """One simulated club board (see the module docstring)."""

    def __init__(
        self,
        settings: LinkSettings,
        out: Path,
        *,
        illegal_rate: float = 0.0,
        noise: float = 0.0,
        pace_s: float = 0.0,
        actions_per_step: int = 8,
        matches: int | None = None,
        clock_ms: Callable[[], int] = lambda: int(time.time() * 1000),
        answers: Callable[[Assignment], tuple[str, str]] = lambda a: (CONFIRM, CONFIRM),
    ) -> None:
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.illegal_rate = illegal_rate
        self.noise = noise
        self.pace_s = pace_s
        self.actions_per_step = actions_per_step
        self.matches = matches
        self.clock_ms = clock_ms  # the link's clock (the board's own runs on the modelled board)
        self.answers = answers  # the players' answers to a result the event wants confirmed
        self.settings = settings
        self.board_number = settings.board
        self.journal = open_journal(self.out)
        entries = self.journal.entries()
        # the board's clock never runs back over what its journal holds (a restart)
        start = max(clock_ms(), max((e.at_ms for e in entries), default=0) + 1000)
        self.board = ModelledBoard(self._options(1, 0, "standard", ("White", "Black")))
        self.board.clock = start
        base = Settings(length=1, slots=self.board.slots, slot_map=SlotMap.from_slots(self.board.grid.slots))
        self.controller = Controller.resume(self.journal, base, start, send=self.board.to_board, show=self.board.show)
        self.seat = ClubSeat(self.journal, settings.board, self.controller.settings, lambda: self.board.clock)
        room = SeatedRoom(self.controller, [self.seat])
        self.board.host = room
        self.link = self._link()
        self._link_task: asyncio.Task[None] | None = None
        self._offered = asyncio.Event()
        self._stopping = False
        self.played: list[str] = []  # UUIDs of matches reported in this run

    def _options(self, length: int, seed: int, rules: str, players: tuple[str, str]) -> Options:
        return Options(match_length=length, seed=seed, illegal_rate=self.illegal_rate, noise=self.noise, rules=rules,
                       players=players)

    def _link(self) -> ClubLink:
        link = ClubLink(self.settings, self.journal, on_assignment=self._on_assignment, on_ack=self._on_ack,
                        clock_ms=self.clock_ms)
        self.seat.link = link
        return link

    # ------------------------------------------------------------------ the link's side
    def _on_assignment(self, assignment: Assignment) -> None:
        self.seat.offer(assignment)
        self._offered.set()

    def _on_ack(self, _ack: object) -> None:
        self.seat.after()  # the match-end screen says the director has the result

    # ------------------------------------------------------------------ life
    def stop(self) -> None:
        """Leave the club (after the current step of a match)."""
        self._stopping = True
        self.link.stop()
        self._offered.set()

    def restore_link(self) -> None:
        """A new network session after :meth:`ClubLink.stop` cut it (tests: the Wi-Fi is back)."""
        self.link = self._link()
        self._link_task = asyncio.create_task(self.link.run(), name=f"club-board{self.board_number}")
        log.info("board %d's club link is back", self.board_number)

    def taken_count(self) -> int:
        """How many assignments this board has taken."""
        return sum(1 for e in self.journal.entries() if e.kind == "club" and e.body.get("what") == "take")

    def journal_pending(self) -> list[object]:
        """The results still owed to the director (read from the file: also after :meth:`run`)."""
        from bgboard.store.journal import Journal

        with Journal(self.out / "journal.sqlite") as journal:
            return list(journal.outbox_pending())

    async def run(self) -> None:
        """Serve the club until :meth:`stop` (or until ``matches`` matches are played and
        acked)."""
        self.restore_link()
        self.seat.attach(self.controller)  # finish what a restart interrupted
        try:
            while not self._stopping and (self.matches is None or len(self.played) < self.matches):
                current = self.seat.current()
                if current is None or current[2]:  # no club match to play: wait for the director
                    self._offered.clear()
                    await self._offered.wait()
                    continue
                await self._play(current[0], current[1])
            while not self._stopping and self.journal.outbox_pending():  # leave only when acked
                await asyncio.sleep(0.05)
        finally:
            self.link.stop()
            if self._link_task is not None:
                await self._link_task
            self.journal.close()

    async def _play(self, assignment: Assignment, uid: str) -> None:
        """Play (or resume) the seat's current club match, answer its result, and let the
        seat report it."""
        c = self.controller
        options = self._options(assignment.length, match_seed(assignment.event, assignment.match), assignment.rules,
                                assignment.players)
        board = self.board
        board.options = options
        board.table = board.make_table(options)  # the match's own sensor noise, as a board of its own
        board.set_up_now()
        players = Players(options, lambda: c, self.journal, _verdicts(self.journal.entries(), uid),
                          lambda: board.clock, board.slots.point, self.journal.atomic)
        where = self.out / "matches" / uid
        where.mkdir(parents=True, exist_ok=True)
        while not c.over and not self._stopping:
            run_now(play(board, players, self.actions_per_step))
            await asyncio.sleep(self.pace_s)
        write_mat(list(c.actions), where / "match.mat")
        write_sgf(list(c.actions), where / "match.sgf")
        if not c.over:
            return
        ask = self.seat.confirmation()
        if ask is not None and ask.decided is None:  # the players answer at the board with its buttons
            for player, answer in enumerate(self.answers(assignment)):
                board.press_now(player, Button.ROLL if answer == CONFIRM else Button.DOUBLE)  # done confirms
        self.seat.after()
        if uid not in self._reported():
            raise SimulationError(f"the club match {uid} is over but the seat did not report it")
        self.played.append(uid)

    def _reported(self) -> set[str]:
        return {str(e.body.get("uuid")) for e in self.journal.entries()
                if e.kind == "club" and e.body.get("what") == "reported"}


def _verdicts(entries: list[Entry], uid: str) -> Resumed:
    """The players' verdict rows journalled since the club match ``uid`` started (a resumed
    match: its attempts are not made again)."""
    found = Resumed(options_known=True)
    started = False
    for entry in entries:
        if entry.kind == "club" and entry.body.get("what") == "started":
            started = entry.body.get("uuid") == uid
        elif started and entry.kind == SIM_KIND:
            found.verdict(entry.body)
    return found

