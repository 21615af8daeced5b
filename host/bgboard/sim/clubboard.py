"""A simulated board of a club evening: plays what the director assigns (adapter).

``bgboard sim --club FILE`` (and ``bgboard club demo``'s boards) run a
:class:`ClubSimBoard`: the board's :class:`~bgboard.net.boardlink.ClubLink` takes the
director's assignments; each one is played by the simulated players on the virtual board with
the modelled firmware (:class:`~bgboard.sim.run.Simulation`, the real host controller), its
state published as it goes (when the event wants results confirmed, the simulated players
answer as ``answers`` says: both ``confirm``, or one ``dispute``), and its result put in the outbox of the board's journal, which the
link sends until the director acks it.

Everything lives under ``out``: ``journal.sqlite`` (the board's club rows — each assignment
taken, with the match's UUID — and the outbox) and ``matches/<uuid>/`` (each match's own
journal and records, as ``bgboard sim`` writes them).  The players' seed of a match is a
function of the event and the club's match id, so a board killed at any moment and started
again resumes the match from its journal and ends it exactly as an uninterrupted run would.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import uuid as uuids
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Callable

from bgboard.control.confirm import CONFIRM, DISPUTE, Confirmation
from bgboard.net.boardlink import ClubLink, LinkSettings
from bgboard.net.protocol import Assignment
from bgboard.net.board_report import board_state, result_of
from bgboard.net.seat import CLUB_KIND, assignment_from
from bgboard.sim.records import write_mat, write_sgf
from bgboard.sim.run import Options, Simulation
from bgboard.store.journal import Journal



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
        self.clock_ms = clock_ms
        self.answers = answers  # the players' answers to a result the event wants confirmed
        self.settings = settings
        self.journal = Journal(self.out / "journal.sqlite")
        self.link = ClubLink(settings, self.journal, on_assignment=self._on_assignment, clock_ms=clock_ms)
        self._link_task: asyncio.Task[None] | None = None
        self.board = settings.board
        self._offered = asyncio.Event()
        self._latest: Assignment | None = None
        self._stopping = False
        self.played: list[str] = []  # UUIDs of matches finished in this run

    # ------------------------------------------------------------------ journal
    def _rows(self) -> list[dict[str, Any]]:
        return [e.body for e in self.journal.entries() if e.kind == CLUB_KIND]

    def _taken(self) -> dict[tuple[str, int], str]:
        """(event, match) -> UUID of every assignment this board has taken."""
        return {(r["assignment"]["event"], r["assignment"]["match"]): r["uuid"] for r in self._rows() if r["what"] == "take"}

    def _unfinished(self) -> tuple[Assignment, str] | None:
        """The assignment taken but not yet reported (after a restart: the one to resume)."""
        reported = {r["uuid"] for r in self._rows() if r["what"] == "reported"}
        for r in self._rows():
            if r["what"] == "take" and r["uuid"] not in reported:
                return assignment_from(r["assignment"]), r["uuid"]
        return None

    # ------------------------------------------------------------------ the link's side
    def _on_assignment(self, assignment: Assignment) -> None:
        self._latest = assignment
        self._offered.set()

    # ------------------------------------------------------------------ life
    def stop(self) -> None:
        self._stopping = True
        self.link.stop()
        self._offered.set()

    def restore_link(self) -> None:
        """A new network session after :meth:`ClubLink.stop` cut it (tests: the Wi-Fi is back)."""
        self.link = ClubLink(self.settings, self.journal, on_assignment=self._on_assignment, clock_ms=self.clock_ms)
        self._link_task = asyncio.create_task(self.link.run(), name=f"club-board{self.board}")

    def taken_count(self) -> int:
        """How many assignments this board has taken."""
        return sum(1 for r in self._rows() if r["what"] == "take")

    def journal_pending(self) -> list[Any]:
        """The results still owed to the director (read from the file: also after :meth:`run`)."""
        with Journal(self.out / "journal.sqlite") as journal:
            return journal.outbox_pending()

    async def run(self) -> None:
        """Serve the club until :meth:`stop` (or until ``matches`` matches are played and
        acked)."""
        self.restore_link()
        try:
            while not self._stopping and (self.matches is None or len(self.played) < self.matches):
                job = self._unfinished() or await self._next()
                if job is None:
                    continue
                await self._play(*job)
            while not self._stopping and self.journal.outbox_pending():  # leave only when acked
                await asyncio.sleep(0.05)
        finally:
            self.link.stop()
            if self._link_task is not None:
                await self._link_task
            self.journal.close()

    async def _next(self) -> tuple[Assignment, str] | None:
        """Wait for an assignment this board has not taken yet, and take it."""
        self._offered.clear()
        a = self._latest
        if a is None or not a.match or (a.event, a.match) in self._taken():
            await self._offered.wait()
            return None
        uid = str(uuids.uuid4())
        self.journal.append(CLUB_KIND, {"what": "take", "uuid": uid, "assignment": asdict(a)}, self.clock_ms())
        return a, uid

    async def _play(self, assignment: Assignment, uid: str) -> None:
        options = Options(
            match_length=assignment.length,
            seed=match_seed(assignment.event, assignment.match),
            illegal_rate=self.illegal_rate,
            noise=self.noise,
            rules=assignment.rules,
            players=assignment.players,
        )
        where = self.out / "matches" / uid
        sim = Simulation(options, where)
        try:
            while not sim.controller.over and not self._stopping:
                sim.run(max_actions=self.actions_per_step)
                self._publish(sim, assignment, uid)
                await asyncio.sleep(self.pace_s)
            self._publish(sim, assignment, uid)
            write_mat(sim.actions, where / "match.mat")
            write_sgf(sim.actions, where / "match.sgf")
            if not sim.controller.over:
                return
            state = sim.controller.state
            assert state is not None
            entries = sim.journal.entries()
            result = result_of(
                sim.actions,
                state,
                uuid=uid,
                board=self.board,
                assignment=assignment,
                last_seq=entries[-1].seq if entries else 0,
                finished_ms=self.clock_ms(),
                forfeit=sim.controller.forfeit,
            )
        finally:
            sim.close()
        if assignment.confirm:  # the players answer at the board: done twice, or a dispute
            ask = Confirmation(result.players, result.score, result.winner)
            for player, answer in enumerate(self.answers(assignment)):
                if ask.press(player, answer):
                    self.journal.append(CLUB_KIND, {"what": "answer", "uuid": uid, "player": player, "answer": answer},
                                        self.clock_ms())
            if ask.decided is None:
                return
            result = replace(result, confirmed=ask.decided == CONFIRM, disputed=ask.decided == DISPUTE)
        self.link.submit_result(result)
        self.journal.append(CLUB_KIND, {"what": "reported", "uuid": uid}, self.clock_ms())
        self.played.append(uid)

    def _publish(self, sim: Simulation, assignment: Assignment, uid: str) -> None:
        state = sim.controller.state
        if state is not None:
            self.link.publish_state(board_state(state, self.clock_ms(), assignment=assignment, match_uuid=uid))
