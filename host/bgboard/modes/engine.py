"""The hint engine the app runs on: the configured engine on a ``HintWorker`` (its thread, or a
process of its own for the compiled engines), shared by hints, the teacher, the match analysis
and the replay's grades."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Callable

from bgboard.control.events import HintReady
from bgboard.errors import shown

if TYPE_CHECKING:
    from bgboard.hints.worker import HintWorker
    from bgboard.rules import Position

log = logging.getLogger(__name__)

__all__ = ["HintRequests", "open_hints"]


def open_hints(engine_name: str) -> tuple[HintWorker | None, str | None]:
    """A :class:`~bgboard.hints.worker.HintWorker` on the configured engine (None for
    "none") and the engine's notice (e.g. the fallback it had to take), for the display.
    Loading an engine takes a while: call it off the loop."""
    if engine_name == "none":
        return None, None
    from bgboard.hints.registry import open_engine
    from bgboard.hints.worker import HintWorker

    opened = open_engine(engine_name)
    # the compiled engines hold the GIL for a whole evaluation: they get a process of their own
    worker = HintWorker(opened.engine, separate_process=opened.engine.name in ("bgsage", "gnubg-nn"))
    worker.start()
    return worker, opened.notice


class HintRequests:
    """The controller's hint requests (its ``hint``): the worker ranks the plays and the best
    comes back as a :class:`~bgboard.control.events.HintReady` event through ``post`` (a
    newer request cancels the one before; an engine failure costs the hint, never the match)."""

    def __init__(self, hints: HintWorker, post: Callable[[HintReady], None], clock: Callable[[], int]) -> None:
        self.hints = hints
        self.post = post
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    def ask(self, position: Position, dice: tuple[int, int]) -> None:
        """Ask for the best play of ``dice`` from ``position`` (on the running loop)."""
        self._task = asyncio.get_running_loop().create_task(self._hint(position, dice), name="bgboard-hint")

    def cancel(self) -> None:
        """Drop the request under way (the app stops)."""
        if self._task is not None:
            self._task.cancel()

    async def _hint(self, position: Position, dice: tuple[int, int]) -> None:
        from bgboard.hints.worker import ENGINE_FAILURES, HintCancelled

        try:
            ranked = (await self.hints.plays(position, dice, limit=1)).plays
        except HintCancelled as exc:
            log.debug("hint for %d-%d dropped: %s", *dice, exc.reason)
            return
        except ENGINE_FAILURES as exc:  # an engine failure costs the hint, never the match
            log.warning("the hint engine failed: %s", shown(str(exc)))
            return
        except Exception:  # a program error: its traceback, and the hint is not shown
            log.exception("the hint for %d-%d failed", *dice)
            return
        if ranked:
            self.post(HintReady(position, dice, f"best: {ranked[0].notation}", self.clock()))
