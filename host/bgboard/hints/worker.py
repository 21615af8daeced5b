"""Hints off the event loop: one worker thread, cancellable, with a time budget (adapter).

The host's asyncio loop must never wait on an engine.  :class:`HintWorker` runs each
request on its own single thread (engines are then never called concurrently, which
gnubg-nn's global match-score setting needs).  A new request cancels the one before it
(the board changed, so the old answer is worthless), :meth:`HintWorker.cancel` does the
same explicitly, and a request that takes longer than its budget is cancelled and raises
:class:`HintCancelled` with ``reason="over budget"``.  A request that has not started is
dropped; one that is running is abandoned and its answer thrown away (the engine's C
call cannot be interrupted, but the orchestration checks the flag around it).

``separate_process=True`` runs the engine in a child process instead of a thread (the
engine is opened there again by its name).  The compiled engines (bgsage, gnubg-nn) hold
Python's GIL for a whole evaluation, so on a thread they would still stall the event loop
for that long (benchmarks/loop_lag.py: 0.4-1 s per cube decision); in a process they cannot.
A running request there is abandoned, never interrupted, as on the thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import threading
from typing import Any, Callable

from bgboard.errors import BgboardError
from bgboard.hints.advice import Cancelled, cube_hint, play_hints
from bgboard.hints.hint_engine import CubeHint, CubeState, HintEngine, PlaysHint
from bgboard.rules.position import Position

__all__ = ["ENGINE_FAILURES", "HintCancelled", "HintJob", "HintWorker"]

log = logging.getLogger(__name__)

#: What a call on the worker raises when the engine or the machine fails, not the program: an
#: engine that is missing or refuses (``BgboardError``), its pipe or file (``OSError``), its
#: child process gone (``BrokenExecutor``).  Callers that treat the engine as optional catch
#: these by name and log a sentence; anything else is a program error, logged with its
#: traceback (errors.py: errors of the program are never hidden).
ENGINE_FAILURES: tuple[type[BaseException], ...] = (BgboardError, OSError, concurrent.futures.BrokenExecutor)


class HintCancelled(Cancelled):
    """A hint that will not come: ``reason`` is "board changed", "cancelled" or "over budget"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _retrieve(future: "asyncio.Future[Any]") -> None:
    if not future.cancelled():
        future.exception()


class HintJob:
    """One request on the worker: a future plus the flag the computation polls."""

    def __init__(self) -> None:
        self._flag = threading.Event()
        self.reason = "cancelled"
        self.future: concurrent.futures.Future[Any] | None = None

    def cancel(self, reason: str = "cancelled") -> None:
        """Stop waiting for this job; its answer, if it still comes, is discarded."""
        if not self._flag.is_set():
            self.reason = reason
            self._flag.set()
        if self.future is not None:
            self.future.cancel()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._flag.is_set()

    def result(self, timeout: float | None = None) -> Any:
        """Block for the answer (for non-async callers); raises :class:`HintCancelled`."""
        assert self.future is not None
        try:
            value = self.future.result(timeout)
        except concurrent.futures.TimeoutError:
            self.cancel("over budget")
            raise HintCancelled("over budget") from None
        except (concurrent.futures.CancelledError, Cancelled):
            raise HintCancelled(self.reason) from None
        if self.cancelled:
            raise HintCancelled(self.reason)
        return value


_CHILD_ENGINE: HintEngine | None = None  # the engine of a separate_process worker, in the child


def _child_open(name: str) -> None:
    global _CHILD_ENGINE
    from bgboard.hints.registry import open_engine

    _CHILD_ENGINE = open_engine(name).engine


def _child_ready() -> bool:
    return _CHILD_ENGINE is not None


def _child_plays(
    position: Position, dice: tuple[int, int], limit: int | None, state: CubeState | None
) -> PlaysHint:
    assert _CHILD_ENGINE is not None
    return play_hints(_CHILD_ENGINE, position, dice, limit, None, state)


def _child_cube(position: Position, state: CubeState) -> CubeHint:
    assert _CHILD_ENGINE is not None
    return cube_hint(_CHILD_ENGINE, position, state)


class HintWorker:
    """Runs hints of one engine on a background thread; latest request wins.

    Use as a context manager or call :meth:`close`.  ``budget`` (seconds) is the default
    time a request may take.
    """

    def __init__(self, engine: HintEngine, budget: float = 2.0, *, separate_process: bool = False) -> None:
        self.engine = engine
        self.budget = budget
        self.separate_process = separate_process
        self._pool: concurrent.futures.Executor
        if separate_process:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded host
                initializer=_child_open, initargs=(engine.name,),
            )
        else:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="bgboard-hint")
        self._name = str(getattr(engine, "name", type(engine).__name__))
        log.info("the %s engine answers on a %s (budget %.1f s)", self._name,
                 "child process" if separate_process else "worker thread", budget)
        self._current: HintJob | None = None
        self._lock = threading.Lock()
        self._closed = False

    # ------------------------------------------------------------------ requests
    def _submit(self, work: Callable[[HintJob], Any], replace: bool = True) -> HintJob:
        """A request run on the thread, which sees the job's cancel flag."""
        return self._submit_job(lambda job: self._pool.submit(self._run, work, job), replace)

    def _submit_call(self, function: Callable[..., Any], *args: Any, replace: bool = True) -> HintJob:
        """A request for the child process (the job's flag cannot reach it: a cancelled
        request that has started is abandoned, and its answer thrown away)."""
        return self._submit_job(lambda job: self._pool.submit(function, *args), replace)

    def _submit_job(self, submit: Callable[[HintJob], concurrent.futures.Future[Any]], replace: bool = True) -> HintJob:
        """The newest request cancels the one before it (only one job is current); a job
        that does not ``replace`` waits its turn behind it and is cancelled by nothing but
        :meth:`close` and its own budget."""
        if self._closed:
            raise RuntimeError("the hint worker is closed")
        job = HintJob()
        with self._lock:
            if replace:
                if self._current is not None:
                    self._current.cancel("board changed")
                self._current = job
            job.future = submit(job)
        return job

    @staticmethod
    def _run(work: Callable[[HintJob], Any], job: HintJob) -> Any:
        if job.cancelled:
            raise Cancelled
        return work(job)

    def submit_plays(
        self, position: Position, dice: tuple[int, int], limit: int | None = None, state: CubeState | None = None
    ) -> HintJob:
        """Start ranking the plays of ``dice``; cancels the previous request."""
        if self.separate_process:
            return self._submit_call(_child_plays, position, dice, limit, state)
        engine = self.engine
        return self._submit(lambda job: play_hints(engine, position, dice, limit, lambda: job.cancelled, state))

    def submit_cube(self, position: Position, state: CubeState) -> HintJob:
        """Start a cube decision; cancels the previous request."""
        if self.separate_process:
            return self._submit_call(_child_cube, position, state)
        engine = self.engine
        return self._submit(lambda job: cube_hint(engine, position, state))

    def submit_call(self, function: Callable[..., Any], *args: Any, replace: bool = False) -> HintJob:
        """Queue ``function(*args)`` on the worker (a module-level function of picklable
        arguments: a worker in a child process runs it there).  By default it cancels nothing
        and no newer request cancels it: it runs after the requests before it (the match's
        analysis at its end is one).  ``replace``: it cancels the request before it, as hints
        do (the engine opponent's decisions: a late answer is never waited for)."""
        if self.separate_process:
            return self._submit_call(function, *args, replace=replace)
        return self._submit(lambda job: function(*args), replace=replace)

    def start(self) -> None:
        """Have the worker ready (a separate process is started and has opened its engine);
        blocks: call it off the loop.  Without it the first request pays for the start."""
        if self.separate_process:
            self._pool.submit(_child_ready).result()

    def cancel(self) -> None:
        """Cancel the current request (the board changed)."""
        with self._lock:
            if self._current is not None:
                self._current.cancel("board changed")

    # ------------------------------------------------------------------ asyncio
    async def _await(self, job: HintJob, budget: float | None) -> Any:
        assert job.future is not None
        waiting = asyncio.wrap_future(job.future)
        # An abandoned job still finishes (or fails with Cancelled): retrieve its outcome so
        # asyncio never logs "exception was never retrieved".
        waiting.add_done_callback(_retrieve)
        try:
            value = await asyncio.wait_for(asyncio.shield(waiting), self.budget if budget is None else budget)
        except asyncio.TimeoutError:
            job.cancel("over budget")
            waiting.cancel()
            log.info("a %s request ran over its %.1f s budget: abandoned", self._name,
                     self.budget if budget is None else budget)
            raise HintCancelled("over budget") from None
        except (asyncio.CancelledError, concurrent.futures.CancelledError, Cancelled):
            if not job.cancelled:  # our caller was cancelled: stop the job too
                job.cancel()
                raise
            raise HintCancelled(job.reason) from None
        if job.cancelled:
            raise HintCancelled(job.reason)
        return value

    async def plays(
        self,
        position: Position,
        dice: tuple[int, int],
        limit: int | None = None,
        budget: float | None = None,
        state: CubeState | None = None,
    ) -> PlaysHint:
        """Ranked plays without blocking the loop; raises :class:`HintCancelled`."""
        return await self._await(self.submit_plays(position, dice, limit, state), budget)

    async def cube(self, position: Position, state: CubeState, budget: float | None = None) -> CubeHint:
        """Cube advice without blocking the loop; raises :class:`HintCancelled`."""
        return await self._await(self.submit_cube(position, state), budget)

    async def call(self, function: Callable[..., Any], *args: Any, budget: float | None = None,
                   replace: bool = False) -> Any:
        """``function(*args)`` on the worker without blocking the loop (see
        :meth:`submit_call`); raises :class:`HintCancelled`."""
        return await self._await(self.submit_call(function, *args, replace=replace), budget)

    # ------------------------------------------------------------------ lifetime
    def close(self) -> None:
        """Cancel what is pending and stop the thread (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.cancel()
        self._pool.shutdown(wait=True, cancel_futures=True)
        log.debug("the %s engine's worker is closed", self._name)

    def __enter__(self) -> "HintWorker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
