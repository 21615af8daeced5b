"""The boards' results on their way to the writer: checked off the director's event loop
(adapter).

:class:`ResultChecks` queues each board's results (so many a board at most), takes the
boards in turn so one board's flood cannot starve the others, and runs every read-only check
(:meth:`~bgboard.club.board_tournament.Tournament.checker`: the match, the board, the
players, the score, the ``.mat`` replay) in a pool of worker processes — forkserver
children that die with ``club serve`` (:mod:`bgboard.club.lifeline`) — or threads.  A
worker that dies (killed, out of memory) is replaced and its result checked again, once.
What was checked waits in :attr:`ResultChecks.checked` for the director's writer.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
from collections import deque
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Callable

from bgboard.club.board_checks import FAILED, IGNORED, Outcome, nothing
from bgboard.club.board_gate import BoardGate
from bgboard.club.board_limits import Limits
from bgboard.club.board_tournament import Tournament
from bgboard.club.lifeline import helper_start
from bgboard.net.protocol import Result

log = logging.getLogger(__name__)


class ResultChecks:
    """The results waiting to be checked, the workers checking them and what they made of
    them (module docstring).  ``written`` wakes the writer when a check is done."""

    def __init__(self, limits: Limits, tournament: Tournament, gate: BoardGate, counts: dict[str, int],
                 written: asyncio.Event) -> None:
        self.limits = limits
        self.tournament = tournament
        self.gate = gate
        self.counts = counts
        self.pool: Executor | None = None
        self.checked: list[tuple[int, Result, Outcome]] = []  # for the writer, in the order checked
        self._written = written
        self._checker: Callable[[int, Result], Outcome] | None = None
        self._queues: dict[int, deque[Result]] = {}
        self._turns: deque[int] = deque()  # boards with results waiting, taken in turn
        self._busy: set[str] = set()  # result UUIDs being checked or stored: re-sends wait
        self._checking = 0
        self._wake = asyncio.Event()
        self._generation = 0  # of the checking pool (a new one after a worker died)
        self._retries: dict[str, int] = {}  # result UUID -> checks lost to a dead worker

    def start(self) -> None:
        """Start the workers (again, after one died: a new pool takes over)."""
        lim = self.limits
        self._checker = self.tournament.checker()
        self._generation += 1
        old = self.pool
        if old is not None:  # a worker died (killed, out of memory): a new pool takes over
            old.shutdown(wait=False, cancel_futures=True)
        if lim.processes and lim.checks > 0:
            # forkserver: the workers do not inherit this process's threads, sockets or locks;
            # the forkserver and the workers die with this process (club/lifeline.py)
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["bgboard.club.forkserver_lifeline"])
            self.pool = ProcessPoolExecutor(lim.checks, mp_context=context, initializer=helper_start)
        else:
            self.pool = ThreadPoolExecutor(max(1, lim.checks), thread_name_prefix="club-check")
        warm = getattr(self._checker, "warm", None)
        for _ in range(max(1, lim.checks)):  # start every worker now, not at the first result
            self.pool.submit(warm or nothing)

    async def stop(self) -> None:
        """End the workers (a check under way finishes first)."""
        if self.pool is not None:
            await asyncio.shield(asyncio.to_thread(self.pool.shutdown, True, cancel_futures=True))

    def take(self, board: int, result: Result) -> None:
        """Queue a result that arrived on ``board``'s topic (on the loop, never waiting)."""
        if result.board != board:
            self.counts[IGNORED] += 1
            self.gate.warn(board, "ignored a result from board %d: %s", board,
                          f"a result naming board {result.board} arrived on board {board}'s topic")
            return
        if result.uuid in self._busy:
            return  # a re-send of a result being checked or stored: its ack is coming
        queue = self._queues.setdefault(board, deque())
        if len(queue) >= self.limits.queued_results:
            self.counts["dropped"] += 1
            self.gate.warn(board, "board %d has %d results waiting: this one is dropped (the board sends it again)",
                          board, len(queue))
            return
        self._busy.add(result.uuid)
        if not queue:
            self._turns.append(board)
        queue.append(result)
        self._wake.set()

    def done(self, result: Result) -> None:
        """The writer decided ``result``: a re-send of it is taken again."""
        self._busy.discard(result.uuid)

    async def run(self) -> None:
        """Hand the waiting results to the workers, boards in turn, a few at a time."""
        loop = asyncio.get_running_loop()
        check = self._checker
        assert check is not None, "start() starts the checks first"
        while True:
            while self._turns and self._checking < max(2, 2 * self.limits.checks):
                board = self._turns.popleft()
                queue = self._queues[board]
                result = queue.popleft()
                if queue:
                    self._turns.append(board)  # its next result after every other board's
                try:
                    future = loop.run_in_executor(self.pool, check, board, result)
                except (BrokenExecutor, RuntimeError) as exc:
                    log.error("the result checks' workers stopped (%s): starting new ones", type(exc).__name__)
                    self.start()
                    future = loop.run_in_executor(self.pool, check, board, result)
                self._checking += 1
                future.add_done_callback(functools.partial(self._checked_one, board, result, self._generation))
            self._wake.clear()
            await self._wake.wait()

    def _checked_one(self, board: int, result: Result, generation: int, future: "asyncio.Future[Outcome]") -> None:
        self._checking -= 1
        self._wake.set()
        if future.cancelled():
            self._busy.discard(result.uuid)
            return
        exc = future.exception()
        if isinstance(exc, BrokenExecutor) and self._retries.get(result.uuid, 0) < 1:
            # a worker died (killed, out of memory): new workers check it again, once
            if generation == self._generation:
                log.error("a worker checking results died (%s): new workers take over", type(exc).__name__)
                self.start()
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
        self.checked.append((board, result, future.result()))
        self._written.set()


__all__ = ["ResultChecks"]
